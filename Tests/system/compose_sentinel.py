#!/usr/bin/env python3
"""deploy/compose/compose.sentinel.yaml as a user runs it, with
podman-compose: up, then through nginx only:

1. every replica becomes ready; the three Sentinels agree on the primary,
   with both replicas, and see each other; every Redis server has the
   settings the promise rests on; the Sentinels refuse a client without
   their password;
2. a session made by one request takes events (202 each);
3. the primary killed (podman kill) while a writer goes on posting events
   through nginx: a write succeeds again within the bound below; every
   event acknowledged before and after the kill is in the session (its
   pages, read through nginx), none twice; the session still streams;
4. every loaderd replica followed: its /metrics counts a failover and names
   the Sentinels' new primary, and its log says "session store primary moved";
5. down, volumes and all: no container left; neither password is in any
   output of podman-compose.

The bound on the first write after the kill is the file's
down-after-milliseconds plus 7 s. The Sentinels call the primary down after
down-after-milliseconds of silence; then they agree (they ask each other
every second), elect a leader (each first waits up to a second at random),
promote a replica, see it promoted (INFO every second while failing over)
and point the other replica at it, which the new primary needs before it
takes a write (min-replicas-to-write 1), and loaderd learns of the move
(+switch-master, or asking again after a refused write): each step is a
second or so, on two CPUs shared by eleven containers.

    Tests/system/compose_sentinel.py [output-dir]
(every container's log goes to output-dir on failure; REDIS_PASSWORD and SENTINEL_PASSWORD, the
secrets files that hold them, and LOADERD_HTTP_PORT come from the environment: compose_sentinel.sh.)
"""
import collections, datetime, http.client, json, os, re, subprocess, sys, threading, time

import loaderd_process
from loaderd_process import session_events, until

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "../.."))
FILE = os.path.join(ROOT, "deploy/compose/compose.sentinel.yaml")
PROJECT = "loaderd-sentinel"
PORT = int(os.environ["LOADERD_HTTP_PORT"])
OUT = sys.argv[1] if len(sys.argv) > 1 else None
REPLICAS = []   # the loaderd service's containers, once up
SERVERS = ["redis-1", "redis-2", "redis-3"]
SENTINELS = ["sentinel-1", "sentinel-2", "sentinel-3"]
PASSWORDS = [os.environ["REDIS_PASSWORD"], os.environ["SENTINEL_PASSWORD"]]
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
    return subprocess.run(["podman", *args], capture_output=True, text=True, timeout=30).stdout


def containers(*filters):
    return podman("ps", "-a", "--format", "{{.Names}}", "--filter", f"label=com.docker.compose.project={PROJECT}", *filters).split()


def container(service):
    """The container podman-compose made for a service (the first), or
    the container of that name."""
    names = containers("--filter", f"label=com.docker.compose.service={service}")
    return names[0] if names else (service if service in containers() else None)


def ip(service):
    """The service's address on the project's network."""
    found = podman("inspect", "-f", "{{range .NetworkSettings.Networks}}{{.IPAddress}} {{end}}", container(service)).split()
    return found[0] if found else None


def cli(service, *args, sentinel=False):
    """redis-cli in a Redis or Sentinel container, with the password the
    container has in its environment (never on a command line)."""
    var, port = ("LOADERD_REDIS_SENTINEL_PASSWORD", 26379) if sentinel else ("LOADERD_REDIS_PASSWORD", 6379)
    return podman("exec", container(service) or service, "sh", "-c", f'REDISCLI_AUTH="${var}" exec redis-cli -p {port} "$@"', "sh", *args)


def call(method, path, body=None, headers=None, timeout=5):
    return loaderd_process.call("127.0.0.1", PORT, method, path, body, headers, timeout)


def sentinel_view(service):
    """(status, primary address, replicas, sentinels) from a Sentinel's INFO."""
    m = re.search(r"master0:name=mymaster,status=(\w+),address=([^,]+),slaves=(\d+),sentinels=(\d+)", cli(service, "INFO", "sentinel", sentinel=True))
    return (m.group(1), m.group(2), int(m.group(3)), int(m.group(4))) if m else None


def settled():
    """Why the Redis side is not ready for a failover yet ('' once it is):
    the Sentinels agree on a primary with two replicas and see each other,
    and both replicas are in sync with it."""
    views = [sentinel_view(s) for s in SENTINELS]
    if None in views or any(v[0] != "ok" or v[2] != 2 or v[3] != 3 for v in views) or len({v[1] for v in views}) != 1:
        return f"the Sentinels see {views}"
    for r in SERVERS[1:]:
        if "master_link_status:up" not in cli(r, "INFO", "replication"):
            return f"{r} not in sync"
    return ""


def sentinels_primary():
    """host:port the Sentinels name now, if they agree."""
    named = set()
    for s in SENTINELS:
        lines = cli(s, "SENTINEL", "get-master-addr-by-name", "mymaster", sentinel=True).split()
        named.add(":".join(lines) if len(lines) == 2 else None)
    return named.pop() if len(named) == 1 else None


def metrics(service):
    """(loaderd_redis_primary_info's address, loaderd_redis_failovers_total)
    of one loaderd replica, asked at its own address."""
    try:
        status, body = loaderd_process.call(ip(service), 8080, "GET", "/metrics", timeout=3)
    except (OSError, http.client.HTTPException, TypeError):
        return (None, None)
    text = body.decode(errors="replace") if status == 200 else ""
    primary = re.search(r'^loaderd_redis_primary_info\{address="([^"]+)"\} 1$', text, re.M)
    moves = re.search(r"^loaderd_redis_failovers_total (\d+)", text, re.M)
    return (primary.group(1) if primary else None, int(moves.group(1)) if moves else None)


def sentinel_timeline(since):
    """Seconds from `since` (time.time()) to the first +sdown, +odown,
    +promoted-slave and +switch-master in the Sentinels' logs."""
    found = {}
    for s in SENTINELS:
        for line in podman("logs", container(s)).splitlines():
            m = re.search(r"(\d\d \w{3} \d{4} \d\d:\d\d:\d\d\.\d{3}) . (\+sdown|\+odown|\+promoted-slave|\+switch-master) ", line)
            if m:
                at = datetime.datetime.strptime(m.group(1), "%d %b %Y %H:%M:%S.%f").replace(tzinfo=datetime.timezone.utc).timestamp() - since
                if at >= 0:
                    found[m.group(2)] = round(min(found.get(m.group(2), at), at), 2)
    return found


class Writer(threading.Thread):
    """Posts progress events through nginx one after another, each answer
    recorded with when its request was sent and the event's t if 202."""
    def __init__(self, sid, headers):
        super().__init__(daemon=True)
        self.path, self.headers = f"/sessions/{sid}/events", headers
        self.answers, self.lock, self.halt = [], threading.Lock(), threading.Event()

    def run(self):
        while not self.halt.is_set():
            sent = time.monotonic()
            try:
                status, body = call("POST", self.path, body='{"type":"progress"}', headers=self.headers, timeout=10)
            except (OSError, http.client.HTTPException):
                status, body = 0, b""
            with self.lock:
                self.answers.append((sent, time.monotonic(), status, json.loads(body)["t"] if status == 202 else None))
            time.sleep(0.02)

    def stop(self):
        self.halt.set()
        self.join(20)

    def first_acknowledged_after(self, t):
        with self.lock:
            return min((answered for sent, answered, status, _ in self.answers if status == 202 and sent >= t), default=None)


def main():
    started = time.monotonic()
    with open(FILE) as f:
        down_after = int(re.search(r"down-after-milliseconds mymaster (\d+)", f.read()).group(1)) / 1000
    bound = down_after + 7
    try:
        # A network left by an earlier run would be reused as it is.
        podman("network", "rm", f"{PROJECT}_default")
        compose("up", "-d")
        REPLICAS[:] = sorted(containers("--filter", "label=com.docker.compose.service=loaderd"))
        check(len(REPLICAS) == 3, f"replicas: {REPLICAS}")
        check(until(90, lambda: call("GET", "/readyz")[0] == 200, 0.2), "no 200 from /readyz through nginx within 90 s")
        for service in REPLICAS:
            name = container(service)
            ok = until(30, lambda: '"msg":"started"' in podman("logs", name))
            check(ok, f"{service} did not start: {podman('logs', name)[-800:]}")
        settle_started = time.monotonic()
        while (why := settled()) and time.monotonic() - settle_started < 60:
            time.sleep(0.5)
        if why:
            raise RuntimeError(f"the Redis side did not settle in 60 s: {why}")
        settle_seconds = time.monotonic() - settle_started
        first_primary = sentinels_primary()
        for server in SERVERS:
            config = cli(server, "CONFIG", "GET", "*").split("\n")
            config = dict(zip(config[::2], config[1::2]))
            wanted = {"appendonly": "yes", "appendfsync": "always", "min-replicas-to-write": "1", "min-replicas-max-lag": "10"}
            check(all(config.get(k) == v for k, v in wanted.items()), f"{server}'s settings: {[(k, config.get(k)) for k in wanted]}")
            check(config.get("masterauth") not in (None, "") and config.get("masterauth") == config.get("requirepass"),
                  f"{server}'s masterauth is not its requirepass")
        refused = podman("exec", container("sentinel-1"), "redis-cli", "-p", "26379", "ping")
        check("NOAUTH" in refused, f"a Sentinel answered without its password: {refused!r}")
        deadline = time.monotonic() + 10
        while True:
            before = {s: metrics(s) for s in REPLICAS}
            if all(m == (first_primary, 0) for m in before.values()) or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        check(all(m == (first_primary, 0) for m in before.values()), f"before the kill, /metrics: {before}, the Sentinels name {first_primary}")

        json_headers = {"Content-Type": "application/json"}
        status, body = call("POST", "/sessions", body='{"loader":"web"}', headers=json_headers)
        if not check(status == 201, f"create: {status} {body[:200]!r}"):
            raise RuntimeError("no session")
        session = json.loads(body)
        writes = dict(json_headers, Authorization=f"Bearer {session['token']}")
        acked = []
        for _ in range(20):
            status, body = call("POST", f"/sessions/{session['id']}/events", body='{"type":"progress"}', headers=writes)
            if status == 202:
                acked.append(json.loads(body)["t"])
        check(len(acked) == 20, f"{len(acked)} of 20 events accepted before the kill")

        # The primary killed while a writer goes on.
        writer = Writer(session["id"], writes)
        writer.start()
        time.sleep(1)
        primary_service = next((s for s in SERVERS if first_primary in (f"{s}:6379", f"{ip(s)}:6379")), "redis-1")
        killed_at, killed_wall = time.monotonic(), time.time()
        podman("kill", container(primary_service))
        # A request sent before the kill has taken effect may still be
        # acknowledged by the old primary: the first write counts from
        # podman kill's return, the time from before it.
        gone = time.monotonic()
        back = until(bound + 10, lambda: writer.first_acknowledged_after(gone) is not None, 0.1)
        time.sleep(2)   # and more writes on the new primary
        writer.stop()
        first = writer.first_acknowledged_after(gone)
        recovered = first - killed_at if first is not None else None
        check(back and recovered <= bound,
              f"first write acknowledged {recovered and round(recovered, 2)} s after the kill, bound {bound:.0f} s")
        answers = collections.Counter(status for _, _, status, _ in writer.answers)
        acked += [t for _, _, status, t in writer.answers if status == 202]
        after = sum(1 for sent, _, status, _ in writer.answers if status == 202 and sent >= killed_at)

        # Every acknowledged event is there, none twice. Events posted one
        # after another have distinct t; one answered 503 may be there once
        # (it may have been applied).
        status, events = session_events(PORT, session["id"])
        check(status == 200, f"reading the session's events: {status}")
        present, mine = collections.Counter(e["t"] for e in events), collections.Counter(acked)
        lost = sum(max(0, n - present[t]) for t, n in mine.items())
        twice = sum(n - max(1, mine[t]) for t, n in present.items() if n > max(1, mine[t]))
        check(lost == 0 and twice == 0, f"{len(acked)} acknowledged, {len(events)} present: {lost} lost, {twice} twice")
        status, streamed = loaderd_process.first_frame("127.0.0.1", PORT, f"/sessions/{session['id']}/frames?stream=sse&fps=10")
        check(status == 200 and b"event: frame" in streamed and b'"loader":"web"' in streamed, f"the stream after the kill: {status} {streamed[:300]!r}")

        # Every loaderd replica followed the Sentinels.
        deadline = time.monotonic() + 15
        while True:
            new_primary, after_metrics = sentinels_primary(), {s: metrics(s) for s in REPLICAS}
            followed = new_primary not in (None, first_primary) and all(p == new_primary and (n or 0) >= 1 for p, n in after_metrics.values())
            if followed or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        timeline = sentinel_timeline(killed_wall)
        check(followed, f"after the kill the Sentinels name {new_primary} (before: {first_primary}; their log: {timeline}); /metrics: {after_metrics}")
        promoted = next((s for s in SERVERS if new_primary in (f"{s}:6379", f"{ip(s)}:6379")), new_primary)
        refused_for = []
        for service in REPLICAS:
            moved = [json.loads(line) for line in podman("logs", container(service)).splitlines() if '"session store primary moved"' in line]
            check(moved, f"{service} logged no \"session store primary moved\"")
            refused_for += [m.get("writesRefusedSeconds") for m in moved]
        recovered = recovered if recovered is not None else float("nan")
        rows.append(f"up: 3 replicas behind nginx ready; the Sentinels agreed on {first_primary} with 2 replicas in sync "
                    f"{settle_seconds:.1f} s after the replicas were ready; every server appendonly, fsync always, "
                    f"min-replicas-to-write 1")
        rows.append(f"{primary_service} killed (down-after-milliseconds {down_after * 1000:.0f}): first write acknowledged "
                    f"{recovered:.2f} s after (bound {bound:.0f} s; the Sentinels' log: {timeline}); {promoted} promoted ({new_primary}); "
                    f"{len(acked)} events acknowledged ({len(acked) - after} before the kill, {after} after), "
                    f"{len(events)} present, {lost} lost, {twice} twice; writer's answers {dict(sorted(answers.items()))}; "
                    f"the session streams; each replica's /metrics: {sorted(set(after_metrics.values()))}, "
                    f"writes refused for {refused_for} s by their logs")
    except Exception as e:
        check(False, f"{type(e).__name__}: {e}")
    finally:
        if failures and OUT:
            for name in containers():
                with open(os.path.join(OUT, f"{name}.log"), "w") as f:
                    r = subprocess.run(["podman", "logs", name], capture_output=True, text=True)
                    f.write(r.stdout + r.stderr)
        compose("down", "-v", check_rc=False)
        # podman-compose 1.0 leaves the network.
        subprocess.run(["podman", "network", "rm", f"{PROJECT}_default"], capture_output=True)
        left = containers()
        check(not left, f"containers left after down: {left}")
        check(all(p not in out for out in outputs for p in PASSWORDS), "a password is in podman-compose's output")
    for r in rows:
        print("compose-sentinel: " + r)
    if failures:
        print("FAILED: " + "; ".join(failures))
        sys.exit(1)
    print(f"compose-sentinel: 1 passed, 0 failed [{time.monotonic() - started:.1f} s]")


if __name__ == "__main__":
    main()
