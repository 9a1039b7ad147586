#!/usr/bin/env python3
"""deploy/compose/compose.yaml as a user runs it, with podman-compose: up,
then through nginx only:

0. its nginx.conf proxies with every setting of deploy/edge/nginx.conf (but
   the two it sets on purpose otherwise), logs and passes on traceparent;
   the image podman built keeps the Dockerfile's HEALTHCHECK;
1. every replica becomes ready and healthy, and a frame is served;
2. a session made by one request takes an event, is read and streams through
   the balancer, and the replicas' access logs show that more than one
   replica served it; a traceparent sent is in nginx's log;
3. requests from two client addresses (127.0.0.1, which podman's port
   forwarding hands on as the network's gateway, and this host's own
   address, handed on as it is) are logged by loaderd as those two, and
   each has its own limits: one that has used up its sessionCreateRate
   gets 429 while the other still gets 201;
4. Redis refuses a client without its password;
5. one loaderd stopped: requests still succeed and the session is still
   there; started again, on a new address, it serves again within 10 s;
6. down -v, then the network removed as docs/DEPLOY.md says: no container,
   network or volume left (named or anonymous); the password is in no
   output of podman-compose.

    Tests/system/compose.py
(REDIS_PASSWORD, LOADERD_SECRETS_FILE and LOADERD_HTTP_PORT come from the
environment: compose_env in podman_env.sh.)
"""
import json, os, re, subprocess, sys, time

import loaderd_process
from loaderd_process import until

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "../.."))
FILE = os.path.join(ROOT, "deploy/compose/compose.yaml")
PROJECT = "loaderd"
NETWORK = f"{PROJECT}_default"
PORT = int(os.environ["LOADERD_HTTP_PORT"])
PASSWORD = os.environ["REDIS_PASSWORD"]
TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"   # the W3C spec's example
failures, rows, outputs = [], [], []


def check(ok, what):
    if not ok:
        failures.append(what)
    return ok


def compose(*args, check_rc=True):
    # -p: podman-compose 1.0 does not read the file's `name:`.
    r = subprocess.run(["podman-compose", "-p", PROJECT, "-f", FILE, *args], capture_output=True, text=True)
    outputs.append(r.stdout + r.stderr)
    if check_rc and r.returncode != 0:
        raise RuntimeError(f"podman-compose {' '.join(args)}: {r.stdout[-2000:]} {r.stderr[-2000:]}")
    return r.stdout


def podman(*args):
    return subprocess.run(["podman", *args], capture_output=True, text=True, timeout=60).stdout


def project(kind, *more):
    """Names of the project's containers, networks or volumes, by its label."""
    fmt = "{{.Names}}" if kind == "ps" else "{{.Name}}"
    return podman(kind, *(["-a"] if kind == "ps" else ["ls"]), "--format", fmt,
                  "--filter", f"label=com.docker.compose.project={PROJECT}", *more).split()


def containers(service):
    """The containers podman-compose made for a service, by number."""
    return sorted(project("ps", "--filter", f"label=com.docker.compose.service={service}"))


def logs(name):
    return podman("logs", name)


def access(name):
    """loaderd's access-log lines of one container, parsed."""
    return [json.loads(line) for line in logs(name).splitlines() if line.startswith("{") and '"msg":"request"' in line]


def address(name):
    found = podman("inspect", "-f", "{{range .NetworkSettings.Networks}}{{.IPAddress}} {{end}}", name).split()
    return found[0] if found else None


def call(method, path, body=None, headers=None, timeout=5, host="127.0.0.1"):
    return loaderd_process.call(host, PORT, method, path, body, headers, timeout)


def host_address():
    """This host's own IPv4 address (not loopback), which port forwarding
    hands on unchanged."""
    m = re.search(r"inet (\d+\.\d+\.\d+\.\d+)/", subprocess.run(["ip", "-4", "-o", "addr", "show", "scope", "global"],
                                                                capture_output=True, text=True).stdout)
    return m.group(1) if m else None


def directives(path):
    """proxy_* lines by what they set (a header counts as its own setting)."""
    found = {}
    with open(os.path.join(ROOT, path)) as f:
        for line in f:
            words = line.strip().rstrip(";").split()
            if words and words[0].startswith("proxy_"):
                key = " ".join(words[:2]).lower() if words[0] == "proxy_set_header" else words[0]
                found[key] = " ".join(words)
    return found


def main():
    started = time.monotonic()
    # The plain-HTTP balancer proxies as the TLS edge does (it may add to
    # it), but for where it sends requests (a name looked up again, not an
    # upstream block) and X-Forwarded-For (it is the front door: the
    # address it got the request from, whatever the client sent).
    edge, mine = directives("deploy/edge/nginx.conf"), directives("deploy/compose/nginx.conf")
    differ = {k for k in edge if mine.get(k) != edge[k]}
    check(differ == {"proxy_pass", "proxy_set_header x-forwarded-for"}, f"deploy/compose/nginx.conf differs from the edge in {sorted(differ)}")
    check(mine.get("proxy_set_header x-forwarded-for") == "proxy_set_header X-Forwarded-For $remote_addr", "X-Forwarded-For is not $remote_addr")
    check(mine.get("proxy_set_header traceparent") == "proxy_set_header traceparent $http_traceparent", "traceparent not passed on")
    # The image keeps the Dockerfile's health check.
    image = json.loads(podman("image", "inspect", "localhost/loaderd:latest"))[0]
    check((image.get("Healthcheck") or {}).get("Test") == ["CMD", "/usr/local/bin/loaderd", "healthcheck"],
          f"the image's health check: {image.get('Healthcheck')}")

    # A network left by an earlier run would be reused as it is.
    podman("network", "rm", NETWORK)
    anonymous = set()
    compose("up", "-d")
    try:
        replicas = containers("loaderd")
        check(len(replicas) == 3, f"replicas: {replicas}")
        check(until(60, lambda: call("GET", "/readyz")[0] == 200, 0.2), "no 200 from /readyz through nginx within 60 s")
        # Each replica ready: its own log says it started and reached Redis;
        # and healthy by the image's own check.
        for name in replicas:
            ok = until(30, lambda: '"msg":"started"' in logs(name))
            check(ok, f"{name} did not start: {logs(name)[-800:]}")
            health = subprocess.run(["podman", "healthcheck", "run", name], capture_output=True, text=True)
            check(health.returncode == 0, f"{name}'s health check: {health.stdout} {health.stderr}")
        for name in project("ps"):
            inspected = json.loads(podman("inspect", name))[0]
            anonymous |= {m["Name"] for m in inspected.get("Mounts", []) if m.get("Type") == "volume" and m.get("Name") != f"{PROJECT}_redis-data"}
        check(not anonymous, f"volumes made per container: {sorted(anonymous)}")
        status, frame = call("GET", "/loaders/typing/frames?t=0.5")
        check(status == 200 and json.loads(frame).get("loader") == "typing", f"a frame: {status} {frame[:200]!r}")

        json_headers = {"Content-Type": "application/json"}
        status, body = call("POST", "/sessions", body='{"loader":"web"}', headers=json_headers)
        check(status == 201, f"create: {status} {body[:200]!r}")
        session = json.loads(body) if status == 201 else {"id": "none", "token": ""}
        writes = dict(json_headers, Authorization=f"Bearer {session['token']}")
        posted = sum(call("POST", f"/sessions/{session['id']}/events", body='{"type":"progress"}', headers=writes)[0] == 202 for _ in range(3))
        check(posted == 3, f"{posted} of 3 events accepted")
        reads = [call("GET", f"/sessions/{session['id']}", headers={"traceparent": TRACEPARENT}) for _ in range(3)]
        check(all(s == 200 and json.loads(b)["eventCount"] == 3 for s, b in reads), f"reads: {[(s, b[:120]) for s, b in reads]}")
        status, streamed = loaderd_process.first_frame("127.0.0.1", PORT, f"/sessions/{session['id']}/frames?stream=sse&fps=10")
        check(status == 200 and b"event: frame" in streamed and b'"loader":"web"' in streamed, f"the stream: {status} {streamed[:300]!r}")
        # The balancer spread the session's requests: more than one replica logged its id.
        # (Their logs may lag a moment behind the answers.)
        served = lambda: [name for name in replicas if session["id"] in logs(name)]
        until(5, lambda: len(served()) >= 2, 0.2)
        served_by = served()
        check(len(served_by) >= 2, f"the session's requests reached only {served_by}")
        nginx = containers("nginx")[0]
        traced = lambda: [line for line in logs(nginx).splitlines() if f'traceparent="{TRACEPARENT}"' in line]
        until(5, lambda: len(traced()) >= 3, 0.2)
        check(len(traced()) == 3, f"nginx logged the traceparent {len(traced())} times, not 3")
        # ...and the replicas that answered logged its trace id: one request
        # followed from nginx's log to loaderd's.
        trace_id = TRACEPARENT.split("-")[1]
        followed = lambda: [e for name in replicas for e in access(name) if e.get("traceId") == trace_id]
        until(5, lambda: len(followed()) >= 3, 0.2)
        check(len(followed()) == 3 and all(e.get("path") == f"/sessions/{session['id']}" for e in followed()),
              f"loaderd logged the trace id {len(followed())} times, not 3: {followed()[:3]}")

        # Two clients, each with its own address and limits. From 127.0.0.1
        # podman's port forwarding hands the request on from the network's
        # gateway; from this host's address, as it is.
        gateway = json.loads(podman("network", "inspect", NETWORK))[0]["subnets"][0]["gateway"]
        other = host_address()
        check(other is not None, "this host has no address but loopback")
        create = lambda host: call("POST", "/sessions", body='{"loader":"web"}', headers=json_headers, host=host)[0]
        # The first client uses up its sessionCreateBurst on every replica
        # (each keeps its own buckets) until it is refused five times running.
        first, refused_running = [], 0
        while refused_running < 5 and len(first) < 500:
            first.append(create("127.0.0.1"))
            refused_running = refused_running + 1 if first[-1] == 429 else 0
        check(refused_running == 5, f"127.0.0.1 never refused: {len(first)} creates, {first.count(201)} made")
        second = [create(other or "127.0.0.1") for _ in range(10)]
        check(second == [201] * 10, f"{other} after 127.0.0.1 was refused: {second}")
        # loaderd writes its access log off the request's path: wait until
        # every create is in it.
        def creates_logged():
            found = {}
            for name in replicas:
                for e in access(name):
                    if e.get("method") == "POST" and e.get("path") == "/sessions":
                        found.setdefault(e.get("client"), []).append(e.get("status"))
            return found
        until(5, lambda: sum(map(len, creates_logged().values())) >= 1 + len(first) + len(second), 0.2)
        by_client = creates_logged()
        check(set(by_client) == {gateway, other}, f"POST /sessions logged from {sorted(by_client, key=str)}, not {gateway} and {other}")
        check(by_client.get(other, []).count(201) == 10 and 429 not in by_client.get(other, []), f"{other}'s creates logged: {by_client.get(other)}")
        check(by_client.get(gateway, []).count(429) >= 5, f"{gateway}'s refusals logged: {by_client.get(gateway, []).count(429)}")
        counts = {c: {s: v.count(s) for s in sorted(set(v))} for c, v in by_client.items()}
        rows.append(f"clients: {len(first)} creates from 127.0.0.1 ({first.count(201)} made, then 429 five times running), then "
                    f"{second.count(201)} of 10 made from {other}; loaderd logged POST /sessions by client and status: {counts} "
                    f"(the network's gateway: {gateway})")

        # Redis requires its password.
        refused = podman("exec", containers("redis")[0], "redis-cli", "ping")
        check("NOAUTH" in refused, f"Redis answered without its password: {refused!r}")

        # One replica stopped: the service goes on, and the session with it.
        stopped = replicas[1]
        was = address(stopped)
        podman("stop", "-t", "5", stopped)
        answers = [call("GET", f"/sessions/{session['id']}")[0] for _ in range(9)] + [call("GET", "/loaders/switch/frames?t=1")[0] for _ in range(9)]
        check(all(a == 200 for a in answers), f"with {stopped} stopped: {answers}")
        status, _ = call("POST", f"/sessions/{session['id']}/events", body='{"type":"finish"}', headers=writes)
        check(status == 202, f"finish with {stopped} stopped: {status}")
        # Started again: a new address (the old one is not reused at once),
        # where nginx finds it by name.
        served_before = len(access(stopped))
        podman("start", stopped)
        back_at = time.monotonic()
        now = address(stopped)
        check(now is not None and now != was, f"{stopped} came back on {now}, was {was}: nothing to find again")
        def serves():
            call("GET", "/loaders/typing/frames?t=0.25")
            return len(access(stopped)) > served_before
        back = until(10, serves, 0.1)
        check(back, f"{stopped} (was {was}, now {now}) served nothing through nginx within 10 s of its start")
        rows.append(f"up: 3 replicas behind nginx ready and healthy; a session made, given 3 events, read 3 times and streamed through the balancer, "
                    f"served by {', '.join(served_by)}; nginx logged the traceparent; Redis refuses a client without its password; with {stopped} "
                    f"stopped {sum(a == 200 for a in answers)}/{len(answers)} requests answered 200 and the session took its finish; "
                    f"started again on {now} (was {was}), it served through nginx after {time.monotonic() - back_at:.1f} s")
    except Exception as e:
        check(False, f"{type(e).__name__}: {e}")
    finally:
        # What docs/DEPLOY.md says: down -v, then the network, which
        # podman-compose 1.0 leaves.
        compose("down", "-v", check_rc=False)
        podman("network", "rm", NETWORK)
        left = {"containers": project("ps"), "networks": project("network"), "volumes": project("volume"),
                "anonymous volumes": [v for v in podman("volume", "ls", "--format", "{{.Name}}").split() if v in anonymous]}
        check(not any(left.values()), f"left after down: {left}")
        check(all(PASSWORD not in out for out in outputs), "the Redis password is in podman-compose's output")
    for r in rows:
        print("compose: " + r)
    if failures:
        print("FAILED: " + "; ".join(failures))
        sys.exit(1)
    print(f"compose: 1 passed, 0 failed [{time.monotonic() - started:.1f} s]")


if __name__ == "__main__":
    main()
