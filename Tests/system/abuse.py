#!/usr/bin/env python3
"""loaderd under the worst requests its limits allow, each check bounded in
time, against a release build started here on free ports:

1. definitions that cost the most (four replicators of 1,000 nested, the
   costliest frame maxFrameCost allows, as frames, batches and streams), two
   at once: each answered (400 or 2xx) within 2 s while /healthz keeps a
   p99 under 100 ms; SIGTERM afterwards ends the process within its grace;
2. clients that never read: 20 (from 20 addresses) ask for the largest
   batch, 100 for a stream of 32 heavy loaders at 120 fps: RSS stays under
   512 MiB and /healthz answers;
3. Redis stopped (SIGSTOP) for 5 s: session requests answer 503 within 2 s,
   loaderd_redis_up goes to 0, all recovers after SIGCONT, and no
   acknowledged event is lost;
4. one address creating sessions as fast as it can is refused with 429 long
   before maxSessions, while another address still creates sessions;
5. a web session with 10,000 events, on Redis: while 8 clients loop on it
   (its state, every page of its events, its frame), a small session's
   requests keep a p50 under 50 ms.

    Tests/system/abuse.py path/to/release/loaderd
"""
import http.client, json, os, signal, socket, subprocess, sys, tempfile, threading, time

import loaderd_process
from loaderd_process import free_port, session_events
from sessions_redis import Redis

failures, rows = [], []


def check(ok, what):
    if not ok:
        failures.append(what)


def start(binary, *args, env=None, level="warning", stdout=subprocess.DEVNULL):
    port = free_port()
    environment = dict(os.environ, LOADERD_ACCESS_LOG="false", **(env or {}))
    p = loaderd_process.start(binary, port, "--log-level", level, *args, env=environment, stdout=stdout)
    return p, port


def request(port, method, path, body=None, headers=None, timeout=10, source="127.0.0.1"):
    """(status, headers, body, seconds) of one request on a new connection from `source`."""
    started = time.monotonic()
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    c.request(method, path, body=body, headers=headers or {})
    r = c.getresponse()
    data = r.read()
    c.close()
    return r.status, dict(r.getheaders()), data, time.monotonic() - started


def rss_mib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024
    return 0


def metric(port, name):
    _, _, body, _ = request(port, "GET", "/metrics")
    for line in body.decode().splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    return None


class Health(threading.Thread):
    """Asks /healthz every 20 ms on a new connection; records each latency
    (a failure counts as 2 s)."""

    def __init__(self, port):
        super().__init__(daemon=True)
        self.port, self.latencies, self.stop = port, [], threading.Event()

    def run(self):
        while not self.stop.is_set():
            try:
                status, _, _, seconds = request(self.port, "GET", "/healthz", timeout=2)
                self.latencies.append(seconds if status == 200 else 2.0)
            except OSError:
                self.latencies.append(2.0)
            time.sleep(0.02)

    def p99(self):
        values = sorted(self.latencies)
        return values[min(len(values) - 1, int(len(values) * 0.99))] if values else 2.0


# The definitions of check 1.
def replicator(id, count, sublayers):
    return {"type": "replicator", "id": id, "bounds": [10, 10], "instanceCount": count, "sublayers": sublayers}


def document(layers):
    return json.dumps({"format": 1, "name": "abuse", "summary": "The worst.", "canvas": {"width": 10, "height": 10}, "layers": layers})


def nested(depth, inner):
    layer = inner
    for i in range(depth):
        layer = replicator(f"r{i}", 1000, [layer])
    return document([layer])


def dots(animations):
    fade = {"type": "basic", "keyPath": "transform.scale", "fromValue": 1, "toValue": 0.2, "duration": 0.7, "autoreverses": True,
            "repeatCount": "infinity", "timingFunction": [0.2, 0.68, 0.18, 1.08]}
    dot = {"type": "circle", "id": "d", "position": [5, 1], "diameter": 2, "animations": [fade] * animations}
    return document([{"type": "replicator", "id": "r", "bounds": [10, 10], "instanceCount": 1000, "instanceDelay": 0.001,
                      "instanceTransform": {"rotation": 0.01}, "sublayers": [dot]}])


EMPTY = replicator("e", 0, [{"type": "circle", "id": "c", "diameter": 1}])
ONE = {"type": "circle", "id": "c", "diameter": 1}
VARIANTS = [
    ("four nested replicators of 1000 around an empty one", nested(4, EMPTY), "?t=1"),
    ("the same as a batch of 10,000 frames", nested(4, EMPTY), "?from=0&to=83.325&fps=120"),
    ("four nested replicators of 1000 around a dot", nested(4, ONE), "?t=1"),
    ("three nested around an empty one, a batch", nested(3, EMPTY), "?from=0&to=100&fps=100"),
    ("1000 dots of 24 eased animations", dots(24), "?t=1"),
    ("1000 dots of 23 (the costliest frame allowed)", dots(23), "?t=1"),
    ("the costliest frame, a batch of 10,000", dots(23), "?from=0&to=83.325&fps=120"),
    ("the costliest frame, a stream at 120 fps", dots(23), "?stream=sse&fps=120&duration=1"),
    ("the costliest frame, a stream at 40 fps for 1 s", dots(23), "?stream=sse&fps=40&duration=1"),
]


def costly_definitions(binary):
    grace = 5
    server, port = start(binary, env={"LOADERD_SHUTDOWN_GRACE_SECONDS": str(grace)})
    health = Health(port)
    health.start()
    slowest, statuses = 0.0, {}
    try:
        for name, body, query in VARIANTS:
            results = [None, None]

            def send(i):
                try:
                    status, _, _, seconds = request(port, "POST", "/loaders/preview" + query, body=body,
                                                    headers={"Content-Type": "application/json"}, timeout=10)
                    results[i] = (status, seconds)
                except OSError as e:
                    results[i] = (0, 10.0)
            threads = [threading.Thread(target=send, args=(i,)) for i in range(2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            for status, seconds in results:
                statuses[status] = statuses.get(status, 0) + 1
                slowest = max(slowest, seconds)
                # A stream's 1 s of frames is its answer, not a wait.
                limit = 2.0 + (1.0 if "stream" in query else 0)
                check(status == 400 or 200 <= status < 300, f"{name}: answered {status}")
                check(seconds < limit, f"{name}: answered in {seconds:.2f} s")
    finally:
        health.stop.set()
        health.join()
    p99 = health.p99()
    check(p99 < 0.1, f"/healthz p99 {p99 * 1000:.0f} ms while the costly definitions ran")
    # Something heavy is running when SIGTERM comes.
    threading.Thread(target=lambda: request(port, "POST", "/loaders/preview?from=0&to=83.325&fps=120", body=dots(23),
                                            headers={"Content-Type": "application/json"}), daemon=True).start()
    time.sleep(0.05)
    started = time.monotonic()
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=grace + 1)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
        check(False, f"SIGTERM did not end the process within {grace + 1} s")
    ended = time.monotonic() - started
    rows.append(f"costly definitions, two at once ({len(VARIANTS)} kinds): answers {dict(sorted(statuses.items()))}, "
                f"slowest {slowest * 1000:.0f} ms; /healthz p99 {p99 * 1000:.1f} ms over {len(health.latencies)} asks; "
                f"SIGTERM to exit {ended * 1000:.0f} ms")


def unread_clients(binary):
    server, port = start(binary)
    sockets = []
    peak = 0.0
    try:
        def unread(source, target):
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.bind((source, 0))
            s.connect(("127.0.0.1", port))
            s.sendall(f"GET {target} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            sockets.append(s)
        # The largest batch a loader allows: 64 dots, 10,000 frames.
        for i in range(20):
            unread(f"127.0.1.{i + 1}", "/loaders/typing/frames?count=64&from=0&to=333.3&fps=30")
        # 32 loaders of 64 dots each at 120 fps on one connection.
        loaders = "&".join(["loader=typing%3Fcount%3D64"] * 32)
        for i in range(100):
            unread(f"127.0.2.{i + 1}", f"/streams?{loaders}&fps=120")
        deadline = time.monotonic() + 8
        answered = 0
        while time.monotonic() < deadline:
            peak = max(peak, rss_mib(server.pid))
            try:
                status, _, _, _ = request(port, "GET", "/healthz", timeout=2)
                answered += status == 200
            except OSError:
                pass
            time.sleep(0.1)
        check(peak < 512, f"RSS reached {peak:.0f} MiB with clients that do not read")
        check(answered > 0, "/healthz did not answer while clients did not read")
        buffered = metric(port, "loaderd_buffered_bytes")
        rows.append(f"20 unread batches and 100 unread streams of 32 heavy loaders: peak RSS {peak:.0f} MiB, "
                    f"{answered} /healthz answers, {buffered / 1048576 if buffered else 0:.0f} MiB buffered at the end")
    finally:
        for s in sockets:
            s.close()
        server.terminate()
        server.wait()


def silent_redis(binary):
    redis = Redis()
    log = tempfile.TemporaryFile()
    server, port = start(binary, env={"LOADERD_SESSION_STORE": redis.url()}, level="info", stdout=log)
    json_headers = {"Content-Type": "application/json"}
    try:
        status, _, body, _ = request(port, "POST", "/sessions", body='{"loader":"web"}', headers=json_headers)
        check(status == 201, f"create: {status}")
        session = json.loads(body)
        writes = {"Content-Type": "application/json", "Authorization": f"Bearer {session['token']}"}
        acknowledged, statuses, slowest = [], {}, [0.0]
        stop = threading.Event()

        def writer():
            while not stop.is_set():
                try:
                    status, _, data, seconds = request(port, "POST", f"/sessions/{session['id']}/events", body='{"type":"progress"}',
                                                       headers=writes, timeout=5)
                except OSError:
                    status, data, seconds = 0, b"", 5.0
                statuses[status] = statuses.get(status, 0) + 1
                slowest[0] = max(slowest[0], seconds)
                if 200 <= status < 300:
                    acknowledged.append(json.loads(data)["t"])
                time.sleep(0.01)
        t = threading.Thread(target=writer)
        t.start()
        time.sleep(0.5)
        redis.p.send_signal(signal.SIGSTOP)
        stopped = time.monotonic()
        down_seen = None
        while time.monotonic() - stopped < 5:
            if down_seen is None and metric(port, "loaderd_redis_up") == 0:
                down_seen = time.monotonic() - stopped
            time.sleep(0.1)
        redis.p.send_signal(signal.SIGCONT)
        resumed = time.monotonic()
        recovered = None
        while time.monotonic() - resumed < 10 and recovered is None:
            status, _, _, _ = request(port, "GET", f"/sessions/{session['id']}")
            if status == 200 and metric(port, "loaderd_redis_up") == 1:
                recovered = time.monotonic() - resumed
            time.sleep(0.05)
        time.sleep(0.5)
        stop.set()
        t.join()
        check(down_seen is not None, "loaderd_redis_up did not go to 0 while Redis was stopped")
        check(recovered is not None, "sessions did not recover after SIGCONT")
        check(statuses.get(503, 0) > 0, f"no 503 while Redis was stopped: {statuses}")
        check(slowest[0] < 2, f"a session request took {slowest[0]:.2f} s while Redis was stopped")
        status, kept = session_events(port, session["id"])
        found = {e["t"] for e in kept} if status == 200 else set()
        lost = [a for a in acknowledged if a not in found]
        check(not lost, f"{len(lost)} acknowledged events lost")
        # One line when the store went, one when it came back with the outage's length.
        log.seek(0)
        lines = [json.loads(line) for line in log.read().decode().splitlines() if line.startswith("{")]
        went = [l for l in lines if l.get("msg") == "session store unavailable"]
        back = [l for l in lines if l.get("msg") == "session store available" and "outageSeconds" in l]
        check(len(went) == 1 and "no reply within 1000 ms" in went[0].get("reason", ""), f"the outage's log lines: {went}")
        # Counted from the first command past its deadline, a second into the 5 s stop.
        check(len(back) == 1 and 3 < back[0]["outageSeconds"] < 8, f"the recovery's log lines: {back}")
        rows.append(f"Redis stopped for 5 s: logged \"{went[0]['reason'] if went else '?'}\", back after {back[0]['outageSeconds'] if back else '?'} s; answers {dict(sorted(statuses.items()))}, slowest {slowest[0] * 1000:.0f} ms; "
                    f"loaderd_redis_up 0 after {down_seen or 0:.2f} s; recovered {recovered or 0:.2f} s after SIGCONT; "
                    f"{len(acknowledged)} acknowledged, {len(lost)} lost")
    finally:
        redis.p.send_signal(signal.SIGCONT)
        server.terminate()
        server.wait()
        redis.remove()


def session_flood(binary):
    server, port = start(binary)
    json_headers = {"Content-Type": "application/json"}
    try:
        created, refusal = 0, None
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            c.request("POST", "/sessions", body='{"loader":"typing"}', headers=json_headers)
            r = c.getresponse()
            r.read()
            if r.status == 201:
                created += 1
            else:
                refusal = (r.status, r.getheader("Retry-After"))
                break
        c.close()
        check(refusal is not None and refusal[0] == 429 and refusal[1] is not None,
              f"one address flooding POST /sessions: {created} created, then {refusal}")
        check(created < 100, f"{created} sessions created by one address before a refusal")
        status, _, _, _ = request(port, "POST", "/sessions", body='{"loader":"typing"}', headers=json_headers, source="127.0.0.2")
        check(status == 201, f"another address could not create a session: {status}")
        rows.append(f"one address creating sessions: {created} created, then {refusal}; another address: {status}")
    finally:
        server.terminate()
        server.wait()


def large_session(binary):
    redis = Redis()
    server, port = start(binary, env={"LOADERD_SESSION_STORE": redis.url()})
    json_headers = {"Content-Type": "application/json"}
    try:
        def create(params):
            status, _, body, _ = request(port, "POST", "/sessions", body=json.dumps({"loader": "web", "params": params}),
                                         headers=json_headers, source="127.0.0.3")
            check(status == 201, f"create: {status}")
            return json.loads(body)
        # Drops that stay in the air for an hour: all 10,000 are in every frame's reach.
        big, small = create({"dropDuration": 3600}), create({})

        def post(session, n):
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            writes = {"Content-Type": "application/json", "Authorization": f"Bearer {session['token']}"}
            accepted = 0
            for _ in range(n):
                c.request("POST", f"/sessions/{session['id']}/events", body='{"type":"progress"}', headers=writes)
                r = c.getresponse()
                r.read()
                accepted += r.status == 202
            c.close()
            return accepted
        posters = [threading.Thread(target=lambda: counts.append(post(big, 2500))) for _ in range(4)]
        counts = []
        for t in posters:
            t.start()
        for t in posters:
            t.join()
        check(sum(counts) == 10000, f"the large session took {sum(counts)} of 10,000 events")
        post(small, 3)

        stop = threading.Event()
        loops = [0]

        def loop():
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            while not stop.is_set():
                # Its state and every page of its events, then its frame now.
                path = f"/sessions/{big['id']}"
                while path:
                    c.request("GET", path)
                    r = c.getresponse()
                    page = json.loads(r.read())
                    path = page.get("next")
                c.request("GET", f"/sessions/{big['id']}/frames")
                r = c.getresponse()
                r.read()
                loops[0] += 1
            c.close()
        loopers = [threading.Thread(target=loop, daemon=True) for _ in range(8)]
        for t in loopers:
            t.start()
        latencies = []
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            for path in (f"/sessions/{small['id']}", f"/sessions/{small['id']}/frames"):
                started = time.monotonic()
                c.request("GET", path)
                r = c.getresponse()
                r.read()
                latencies.append(time.monotonic() - started if r.status == 200 else 10.0)
        c.close()
        stop.set()
        for t in loopers:
            t.join(timeout=15)
        latencies.sort()
        p50, p99 = latencies[len(latencies) // 2], latencies[int(len(latencies) * 0.99)]
        check(p50 < 0.05, f"a small session's p50 was {p50 * 1000:.0f} ms while 8 clients looped on a large one")
        status, _, body, _ = request(port, "GET", f"/sessions/{big['id']}/frames")
        elements = len(json.loads(body)["elements"]) if status == 200 else 0
        check(0 < elements <= 1000, f"the large session's frame: {status}, {elements} elements")
        rows.append(f"8 clients looping on a web session of 10,000 events ({loops[0]} loops, frames of {elements} elements): "
                    f"a small session's requests p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms over {len(latencies)}")
    finally:
        server.terminate()
        server.wait()
        redis.remove()


def main():
    binary = sys.argv[1]
    chosen = sys.argv[2:]
    for scenario in (costly_definitions, unread_clients, silent_redis, session_flood, large_session):
        if chosen and scenario.__name__ not in chosen:
            continue
        started = time.monotonic()
        scenario(binary)
        rows[-1] += f" [{time.monotonic() - started:.1f} s]"
    for r in rows:
        print("abuse: " + r)
    if failures:
        print("FAILED: " + "; ".join(failures))
        sys.exit(1)
    print("abuse: 1 passed, 0 failed")


if __name__ == "__main__":
    main()
