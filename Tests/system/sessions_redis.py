#!/usr/bin/env python3
"""Sessions in Redis across three loaderd replicas and one real redis-server
(append-only file, fsync always), started here on free ports:

1. cross-replica: sessions created on any replica, events posted to another,
   viewers on the third see each change in their next frames; a stream ends
   with `event: end` after stop, on every replica;
2. a replica is lost: SIGKILL one while viewers watch on all three; its
   viewers reconnect to another with Last-Event-ID and their ids go on with
   no gap beyond the downtime; no acknowledged event is lost; the session's
   viewer count drops to the live viewers within 5 s (its claims lapse);
3. viewer counts: viewers reset (SO_LINGER 0) at once or within a few ms
   of their request, half-closed after it, or asking with HEAD, are not counted once things
   settle: a session's viewers read on another replica, and the replicas'
   loaderd_session_viewers and loaderd_admitted_streams, come back to the
   one viewer the test holds, then to none;
4. joins at once: viewers that open a session's stream together on one
   replica are all counted, read on another, as soon as each has its first
   frame (a replica's claims can reach Redis out of order; the newest wins);
5. Redis is lost: SIGKILL redis-server during a burst of events to all
   replicas, restart it on the same directory: every event that got a 2xx
   is there; replicas answer 503 (at once) while it is down and recover by
   themselves; a viewer that left while Redis was down is not counted once
   it is back.

    Tests/system/sessions_redis.py path/to/loaderd
"""
import http.client, json, os, shutil, signal, socket, struct, subprocess, sys, tempfile, threading, time

import loaderd_process
from loaderd_process import free_port, session_events

failures = []
def check(ok, what):
    if not ok:
        failures.append(what)


class Redis:
    def __init__(self):
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="loaderd-redis-")
        self.start()

    def start(self):
        self.p = subprocess.Popen(["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--dir", self.dir,
                                   "--appendonly", "yes", "--appendfsync", "always", "--save", ""],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.02)
        raise SystemExit("redis-server did not start")

    def kill(self):
        self.p.send_signal(signal.SIGKILL)
        self.p.wait()

    def remove(self):
        """Kills it for good and deletes its directory."""
        self.kill()
        shutil.rmtree(self.dir, ignore_errors=True)

    def url(self):
        return f"redis://127.0.0.1:{self.port}"


def replica(binary, redis):
    port = free_port()
    env = dict(os.environ, LOADERD_SESSION_STORE=redis.url(), LOADERD_ACCESS_LOG="false")
    return port, loaderd_process.start(binary, port, "--log-level", "warning", env=env)


def call(port, method, path, body=None, token=None, timeout=5):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    c.request(method, path, body=body, headers=headers)
    r = c.getresponse()
    data = r.read()
    c.close()
    return r.status, dict(r.getheaders()), data


def create(port, body='{"loader":"web","params":{"pulseDuration":0.05,"dropDuration":0.2}}'):
    deadline = time.monotonic() + 5
    while True:
        status, _, data = call(port, "POST", "/sessions", body)
        if status == 201:
            j = json.loads(data)
            return j["id"], j["token"]
        if time.monotonic() > deadline:
            raise SystemExit(f"cannot create a session on {port}: {status} {data[:200]}")
        time.sleep(0.05)


class Viewer(threading.Thread):
    """An EventSource as a browser runs it: reads events; remembers ids."""
    def __init__(self, port, sid, last_id=None, fps=30):
        super().__init__(daemon=True)
        self.port, self.sid, self.fps = port, sid, fps
        self.events = []   # (id, type, data, monotonic time)
        self.closed = threading.Event()
        self.last_id = last_id
        self.start()

    def close(self):
        """The client goes away (the browser's tab is closed)."""
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except (OSError, AttributeError):
            pass
        self.closed.wait(5)

    def run(self):
        try:
            s = self.sock = socket.create_connection(("127.0.0.1", self.port), timeout=10)
            head = f"GET /sessions/{self.sid}/frames?fps={self.fps} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n"
            if self.last_id is not None:
                head += f"Last-Event-ID: {self.last_id}\r\n"
            s.sendall((head + "\r\n").encode())
            buf = b""
            while b"\r\n\r\n" not in buf:
                chunk = s.recv(65536)
                if not chunk:
                    return
                buf += chunk
            buf = buf.split(b"\r\n\r\n", 1)[1]
            event = {}
            while True:
                while b"\n" in buf:
                    line, buf = buf.split(b"\n", 1)
                    line = line.decode()
                    if line == "":
                        if "data" in event:
                            self.events.append((event.get("id"), event.get("event", "message"), event["data"], time.monotonic()))
                        event = {}
                    elif not line.startswith(":") and ":" in line:
                        k, v = line.split(":", 1)
                        event[k] = v[1:] if v.startswith(" ") else v
                chunk = s.recv(65536)
                if not chunk:
                    return
                buf += chunk
        except OSError:
            return
        finally:
            self.closed.set()

    def frames(self):
        return [e for e in self.events if e[1] == "frame"]


def viewer_count(port, sid):
    status, _, data = call(port, "GET", f"/sessions/{sid}")
    return json.loads(data)["viewers"] if status == 200 else None


def gauges(port, names=("loaderd_session_viewers", "loaderd_admitted_streams")):
    _, _, data = call(port, "GET", "/metrics")
    found = {}
    for line in data.decode().splitlines():
        parts = line.split(" ")
        if len(parts) == 2 and parts[0] in names:
            found[parts[0]] = int(parts[1])
    return tuple(found.get(n) for n in names)


def settles(condition, seconds=5):
    """Polls `condition` until it holds or `seconds` pass: the seconds it took, or None."""
    started = time.monotonic()
    while True:
        if condition():
            return time.monotonic() - started
        if time.monotonic() - started > seconds:
            return None
        time.sleep(0.02)


def cross_replica(binary, redis, ports):
    sessions = [create(ports[i % 3]) for i in range(6)]
    latencies = []
    for n, (sid, token) in enumerate(sessions):
        writer, watcher = ports[(n + 1) % 3], ports[(n + 2) % 3]
        v = Viewer(watcher, sid)
        deadline = time.monotonic() + 5
        while not v.frames() and time.monotonic() < deadline:
            time.sleep(0.01)
        status, _, _ = call(writer, "POST", f"/sessions/{sid}/events", '{"type":"progress"}', token)
        check(status == 202, f"progress on another replica: {status}")
        posted = time.monotonic()
        seen = None
        while time.monotonic() < posted + 3 and seen is None:
            for e in v.frames():
                if e[3] >= posted and '"drop0"' in e[2]:
                    seen = e[3]
                    break
            time.sleep(0.005)
        check(seen is not None and seen - posted < 1.0, f"the viewer on another replica saw the event in time ({seen and seen - posted})")
        if seen is not None:
            latencies.append(seen - posted)
        status, _, _ = call(writer, "POST", f"/sessions/{sid}/events", '{"type":"stop"}', token)
        check(status == 202, f"stop: {status}")
        check(v.closed.wait(3) and v.events and v.events[-1][1] == "end", "the stream ended with event: end after stop")
    latencies.sort()
    return f"6 sessions across 3 replicas: each event seen by a viewer on another replica after {latencies[len(latencies)//2]*1000:.0f} ms (p50), {latencies[-1]*1000:.0f} ms (max)" if latencies else "no latencies"


def replica_lost(binary, redis, ports, processes):
    sid, token = create(ports[0])
    viewers = [Viewer(ports[i % 3], sid) for i in range(6)]
    deadline = time.monotonic() + 5
    while any(not v.frames() for v in viewers) and time.monotonic() < deadline:
        time.sleep(0.01)
    acked = 0
    for _ in range(5):
        status, _, _ = call(ports[1], "POST", f"/sessions/{sid}/events", '{"type":"progress"}', token)
        acked += status == 202
    time.sleep(0.2)
    lost = [v for v in viewers if v.port == ports[0]]
    processes[0].send_signal(signal.SIGKILL)
    processes[0].wait()
    killed_at = time.monotonic()
    for v in lost:
        check(v.closed.wait(3), "a viewer of the killed replica saw its connection close")
    # EventSource reconnects (after its retry) to whatever the balancer picks: another replica.
    resumed = []
    for n, v in enumerate(lost):
        last = int(v.frames()[-1][0])
        r = Viewer(ports[1 + n % 2], sid, last_id=last)
        resumed.append((last, r))
    gaps = []
    for last, r in resumed:
        deadline = time.monotonic() + 5
        while not r.frames() and time.monotonic() < deadline:
            time.sleep(0.01)
        check(bool(r.frames()), "a resumed viewer gets frames")
        if r.frames():
            first = int(r.frames()[0][0])
            downtime = r.frames()[0][3] - killed_at
            # Session frame ids are the session clock's: they go on, skipping only the downtime.
            check(first > last and first - last <= downtime * 30 + 3, f"ids continue: {last} then {first} after {downtime:.2f} s")
            gaps.append(first - last)
    status, kept = session_events(ports[2], sid)
    check(len(kept) == acked, f"events after a replica was lost: {len(kept)} of {acked}")
    # The killed replica's claims of its 2 viewers lapse: the count is the viewers still connected.
    live = lambda: sum(not v.closed.is_set() for v in viewers + [r for _, r in resumed])
    check(live() == 6, f"6 viewers live after the resumptions, not {live()}")
    settled = settles(lambda: viewer_count(ports[2], sid) == live(), seconds=8)
    since_kill = time.monotonic() - killed_at
    check(settled is not None and since_kill <= 5 + 0.5, f"the count came down to the {live()} live viewers {since_kill:.2f} s after the kill (count {viewer_count(ports[2], sid)})")
    call(ports[1], "POST", f"/sessions/{sid}/events", '{"type":"stop"}', token)
    return (f"a replica killed under 6 viewers: its 2 viewers resumed on others with id gaps {gaps}; {len(kept)}/{acked} events kept; "
            f"the count read {live()} (the live viewers) {since_kill:.2f} s after the kill")


def viewer_counts(ports):
    sid, token = create(ports[1], '{"loader":"typing"}')
    request = f"GET /sessions/{sid}/frames HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n".encode()
    # The streams of the phases before have ended: every replica's gauges are at 0.
    check(settles(lambda: all(gauges(p) == (0, 0) for p in ports)) is not None, f"gauges at the start: {[gauges(p) for p in ports]}")
    baseline = [(0, 0) for _ in ports]
    resets = 0
    # Reset (RST, SO_LINGER 0) at once, or after some of the subscribe round trip, on every replica.
    for delay in [0, 0, 0.0002, 0.0005, 0.001, 0.002, 0.003, 0.005, 0.01, 0.05]:
        for port in ports:
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(request)
            if delay:
                time.sleep(delay)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            s.close()
            resets += 1
    # Half-closed after the request: the answer (a stream) is still written, then the connection closes.
    halves = 0
    for port in ports * 3:
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        s.sendall(request)
        s.shutdown(socket.SHUT_WR)
        try:
            while s.recv(65536):
                pass
        except OSError:
            pass
        s.close()
        halves += 1
    # HEAD: the stream's head, and no body: its count is given back at once.
    heads = 0
    for port in ports * 2:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        c.request("HEAD", f"/sessions/{sid}/frames", headers={"Accept": "text/event-stream"})
        r = c.getresponse()
        check(r.status == 200, f"HEAD of a session's stream: {r.status}")
        c.close()
        heads += 1
    held = Viewer(ports[0], sid)
    settles(lambda: bool(held.frames()))
    check(bool(held.frames()), "the held viewer gets frames")
    expected = [(b[0] + (p == ports[0]), b[1] + (p == ports[0])) for p, b in zip(ports, baseline)]
    t1 = settles(lambda: viewer_count(ports[1], sid) == 1 and [gauges(p) for p in ports] == expected)
    check(t1 is not None, f"after {resets} resets, {halves} half-closes and {heads} HEADs, 1 held: viewers {viewer_count(ports[1], sid)}, gauges {[gauges(p) for p in ports]} (expected {expected})")
    held.close()
    t2 = settles(lambda: viewer_count(ports[1], sid) == 0 and [gauges(p) for p in ports] == baseline)
    check(t2 is not None, f"after the held viewer left: viewers {viewer_count(ports[1], sid)}, gauges {[gauges(p) for p in ports]} (expected {baseline})")
    call(ports[0], "POST", f"/sessions/{sid}/events", '{"type":"stop"}', token)
    return (f"{resets} viewers reset within 0-50 ms of their request, {halves} half-closed and {heads} HEADs over {len(ports)} replicas, 1 held: "
            f"the count read 1 after {t1 or 0:.2f} s, 0 after {t2 or 0:.2f} s once it left, each replica's gauges back to where they were")


def joins_at_once(ports, viewers=6, rounds=12):
    sid, token = create(ports[0], '{"loader":"typing"}')
    # A viewer already there: the replica claims it every half second, and
    # those claims race with the joins too.
    held = Viewer(ports[0], sid)
    settles(lambda: bool(held.frames()))
    for n in range(rounds):
        # One thread each: their subscribes run on the replica's loops side by side.
        opened = [None] * viewers
        def open_one(i):
            opened[i] = Viewer(ports[0], sid)
        starters = [threading.Thread(target=open_one, args=(i,)) for i in range(viewers)]
        for t in starters:
            t.start()
        for t in starters:
            t.join()
        settles(lambda: all(v.frames() for v in opened))
        check(all(v.frames() for v in opened), f"round {n}: every viewer that joined at once gets frames")
        # Each viewer's claim was in Redis before its stream began: no settling.
        count = viewer_count(ports[1], sid)
        check(count == viewers + 1, f"round {n}: {viewers} viewers joined at once on one replica with 1 there, counted {count} on another")
        for v in opened:
            v.close()
        check(settles(lambda: viewer_count(ports[1], sid) == 1) is not None, f"round {n}: the held viewer alone counted once the others left")
    held.close()
    check(settles(lambda: viewer_count(ports[1], sid) == 0) is not None, "no viewer counted once the held one left")
    call(ports[0], "POST", f"/sessions/{sid}/events", '{"type":"stop"}', token)
    return (f"{rounds} rounds of {viewers} viewers joining at once on one replica beside a held one: "
            "each counted on another as soon as it had a frame")


def redis_lost(binary, redis, ports):
    sessions = [create(ports[i % 2]) for i in range(6)]
    acknowledged, lock, stop = [], threading.Lock(), threading.Event()
    statuses = {}
    slow = [0.0]

    def writer(n):
        i = n
        while not stop.is_set():
            sid, token = sessions[i % len(sessions)]
            port = ports[i % 2]
            i += 4
            started = time.monotonic()
            try:
                status, _, data = call(port, "POST", f"/sessions/{sid}/events", '{"type":"progress"}', token)
            except OSError:
                status, data = 0, b""
            with lock:
                statuses[status] = statuses.get(status, 0) + 1
                slow[0] = max(slow[0], time.monotonic() - started)
                if status == 202:
                    acknowledged.append((sid, json.loads(data)["t"]))
    threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
    watched = create(ports[0], '{"loader":"typing"}')[0]
    staying, leaving = Viewer(ports[0], watched), Viewer(ports[0], watched)
    settles(lambda: staying.frames() and leaving.frames())
    check(viewer_count(ports[1], watched) == 2, f"2 viewers before Redis was lost: {viewer_count(ports[1], watched)}")
    for t in threads:
        t.start()
    try:
        time.sleep(0.7)
        redis.kill()
        # This viewer's leave cannot reach Redis.
        leaving.close()
        time.sleep(0.7)
        redis.start()
        # Recovery by itself, with no restart of any replica.
        deadline = time.monotonic() + 10
        recovered = False
        while time.monotonic() < deadline and not recovered:
            try:
                status, _, _ = call(ports[1], "GET", f"/sessions/{sessions[0][0]}")
            except OSError as e:
                # A replica that is gone fails the test at once (not a hang).
                check(False, f"replica on port {ports[1]} did not answer while Redis came back: {e}")
                break
            recovered = status == 200
            time.sleep(0.05)
        check(recovered, "the replicas recovered when Redis came back")
        time.sleep(0.5)
    finally:
        stop.set()
        for t in threads:
            t.join()
    left = settles(lambda: viewer_count(ports[1], watched) == 1)
    check(left is not None, f"the viewer that left while Redis was down is not counted: {viewer_count(ports[1], watched)}")
    staying.close()
    check(settles(lambda: viewer_count(ports[1], watched) == 0) is not None, "no viewer counted once the last one left")
    check(statuses.get(503, 0) > 0, "replicas answered 503 while Redis was down")
    check(slow[0] < 1.5, f"a request took {slow[0]:.2f} s while Redis was down (answers must come at once)")
    found = set()
    for sid, _ in sessions:
        status, kept = session_events(ports[0], sid)
        check(status == 200, f"session {sid} after Redis came back: {status}")
        for e in kept:
            found.add((sid, e["t"]))
    lost = [a for a in acknowledged if a not in found]
    check(not lost, f"{len(lost)} acknowledged events lost")
    return (f"Redis killed during a burst from 4 writers on 2 replicas: {len(acknowledged)} acknowledged, {len(lost)} lost; "
            f"answers {dict(sorted(statuses.items()))}; slowest {slow[0]*1000:.0f} ms; "
            f"a viewer that left while it was down uncounted {left or 0:.2f} s after it was back")


def main():
    binary = sys.argv[1]
    redis = Redis()
    started = [replica(binary, redis) for _ in range(3)]
    ports = [p for p, _ in started]
    processes = [proc for _, proc in started]
    rows = []
    try:
        rows.append(cross_replica(binary, redis, ports))
        rows.append(replica_lost(binary, redis, ports, processes))
        rows.append(viewer_counts(ports[1:]))
        rows.append(joins_at_once(ports[1:]))
        rows.append(redis_lost(binary, redis, ports[1:]))
    finally:
        for port, p in zip(ports, processes):
            code = p.poll()
            if code is None:
                p.terminate()
                p.wait()
            elif p is not processes[0]:
                # Only the first replica is killed on purpose.
                failures.append(f"the replica on port {port} exited by itself with status {code}")
        redis.remove()
    for r in rows:
        print("sessions-redis: " + r)
    if failures:
        print("FAILED: " + "; ".join(failures))
        sys.exit(1)
    print("sessions-redis: 1 passed, 0 failed")


if __name__ == "__main__":
    main()
