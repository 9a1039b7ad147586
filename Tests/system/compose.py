#!/usr/bin/env python3
"""deploy/compose/compose.yaml as a user runs it, with podman-compose: up,
then through nginx only:

0. its nginx.conf proxies with every setting of deploy/edge/nginx.conf;
1. every replica becomes ready and a frame is served;
2. a session made by one request takes an event, is read and streams through
   the balancer, and the replicas' access logs show that more than one
   replica served it;
3. Redis refuses a client without its password;
4. one loaderd stopped: requests still succeed and the session is still there;
5. down, volumes and all.

    Tests/system/compose.py
(REDIS_PASSWORD and LOADERD_HTTP_PORT come from the environment, as they
would from deploy/compose/.env.)
"""
import json, os, subprocess, sys, time

import loaderd_process
from loaderd_process import until

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "../.."))
FILE = os.path.join(ROOT, "deploy/compose/compose.yaml")
PORT = int(os.environ["LOADERD_HTTP_PORT"])
failures, rows = [], []


def check(ok, what):
    if not ok:
        failures.append(what)
    return ok


def compose(*args, check_rc=True):
    # -p: podman-compose 1.0 does not read the file's `name:`.
    r = subprocess.run(["podman-compose", "-p", "loaderd", "-f", FILE, *args], capture_output=True, text=True)
    if check_rc and r.returncode != 0:
        raise RuntimeError(f"podman-compose {' '.join(args)}: {r.stdout[-2000:]} {r.stderr[-2000:]}")
    return r.stdout


def container(service):
    """The container podman-compose made for a service."""
    names = subprocess.run(["podman", "ps", "-a", "--format", "{{.Names}}", "--filter", "label=com.docker.compose.project=loaderd",
                            "--filter", f"label=com.docker.compose.service={service}"],
                           capture_output=True, text=True).stdout.split()
    return names[0] if names else None


def call(method, path, body=None, headers=None, timeout=5):
    return loaderd_process.call("127.0.0.1", PORT, method, path, body, headers, timeout)


def proxy_directives(path):
    with open(os.path.join(ROOT, path)) as f:
        return {line.strip() for line in f if line.strip().startswith("proxy_")}


def main():
    started = time.monotonic()
    # The plain-HTTP balancer proxies as the TLS edge does (it may add to it).
    missing = proxy_directives("deploy/edge/nginx.conf") - proxy_directives("deploy/compose/nginx.conf")
    check(not missing, f"deploy/compose/nginx.conf lacks the edge's {sorted(missing)}")
    compose("up", "-d")
    try:
        replicas = ["loaderd-1", "loaderd-2", "loaderd-3"]
        check(until(60, lambda: call("GET", "/readyz")[0] == 200, 0.2), "no 200 from /readyz through nginx within 60 s")
        # Each replica ready: its own log says it started and reached Redis.
        for service in replicas:
            name = container(service)
            ok = until(30, lambda: '"msg":"started"' in subprocess.run(["podman", "logs", name], capture_output=True, text=True).stdout)
            check(ok, f"{service} did not start: {subprocess.run(['podman', 'logs', name], capture_output=True, text=True).stdout[-800:]}")
        status, frame = call("GET", "/loaders/typing/frames?t=0.5")
        check(status == 200 and json.loads(frame).get("loader") == "typing", f"a frame: {status} {frame[:200]!r}")

        json_headers = {"Content-Type": "application/json"}
        status, body = call("POST", "/sessions", body='{"loader":"web"}', headers=json_headers)
        check(status == 201, f"create: {status} {body[:200]!r}")
        session = json.loads(body) if status == 201 else {"id": "none", "token": ""}
        writes = dict(json_headers, Authorization=f"Bearer {session['token']}")
        posted = sum(call("POST", f"/sessions/{session['id']}/events", body='{"type":"progress"}', headers=writes)[0] == 202 for _ in range(3))
        check(posted == 3, f"{posted} of 3 events accepted")
        reads = [call("GET", f"/sessions/{session['id']}") for _ in range(3)]
        check(all(s == 200 and json.loads(b)["eventCount"] == 3 for s, b in reads), f"reads: {[(s, b[:120]) for s, b in reads]}")
        status, streamed = loaderd_process.first_frame("127.0.0.1", PORT, f"/sessions/{session['id']}/frames?stream=sse&fps=10")
        check(status == 200 and b"event: frame" in streamed and b'"loader":"web"' in streamed, f"the stream: {status} {streamed[:300]!r}")
        # The balancer spread the session's requests: more than one replica logged its id.
        served_by = [s for s in replicas
                     if session["id"] in subprocess.run(["podman", "logs", container(s)], capture_output=True, text=True).stdout]
        check(len(served_by) >= 2, f"the session's requests reached only {served_by}")

        # Redis requires its password.
        redis = container("redis")
        refused = subprocess.run(["podman", "exec", redis, "redis-cli", "ping"], capture_output=True, text=True).stdout
        check("NOAUTH" in refused, f"Redis answered without its password: {refused!r}")

        # One replica stopped: the service goes on, and the session with it.
        subprocess.run(["podman", "stop", "-t", "5", container("loaderd-2")], capture_output=True, check=True)
        answers = [call("GET", f"/sessions/{session['id']}")[0] for _ in range(9)] + [call("GET", "/loaders/switch/frames?t=1")[0] for _ in range(9)]
        check(all(a == 200 for a in answers), f"with loaderd-2 stopped: {answers}")
        status, _ = call("POST", f"/sessions/{session['id']}/events", body='{"type":"finish"}', headers=writes)
        check(status == 202, f"finish with loaderd-2 stopped: {status}")
        rows.append(f"up: 3 replicas behind nginx ready; a session made, given 3 events, read 3 times and streamed through the balancer, "
                    f"served by {', '.join(served_by)}; Redis refuses a client without its password; with loaderd-2 stopped "
                    f"{sum(a == 200 for a in answers)}/{len(answers)} requests answered 200 and the session took its finish")
    finally:
        compose("down", "-v", check_rc=False)
        left = subprocess.run(["podman", "ps", "-a", "--format", "{{.Names}}", "--filter", "label=com.docker.compose.project=loaderd"],
                              capture_output=True, text=True).stdout.split()
        check(not left, f"containers left after down: {left}")
    for r in rows:
        print("compose: " + r)
    if failures:
        print("FAILED: " + "; ".join(failures))
        sys.exit(1)
    print(f"compose: 1 passed, 0 failed [{time.monotonic() - started:.1f} s]")


if __name__ == "__main__":
    main()
