#!/usr/bin/env python3
"""Redis Sentinel failover for loaderd's session store. Everything runs on
127.0.0.1 on free ports: three redis-servers (a primary and two replicas,
requirepass/masterauth, append-only file with fsync always,
min-replicas-to-write 1) and three Sentinels (requirepass, auth-pass,
sentinel-pass; down-after 1 s, failover-timeout 3 s, quorum 2), each with
its own directory and config file; two loaderd replicas on
`redis-sentinel://…/mymaster` with LOADERD_REDIS_WAIT_REPLICAS=1.

1. a burst through a crash, three failovers in a row: 8 writers post
   progress events over 8 sessions on both replicas; the primary is
   SIGKILLed mid-burst, restarted on its directory once the Sentinels agree
   on a new one (they make it a replica) and the topology settles. Each
   time: every acknowledged event (202) is there, counted per session
   against the writers' records, none twice, and a write succeeds again
   within 5 s of the kill; /metrics names the new primary, the logs say
   "session store primary moved";
2. a frozen primary: SIGSTOP through a failover, then SIGCONT during the
   burst: once things settle every acknowledged event is on the current
   primary, none lost, none twice, and /metrics names the new primary;
3. viewers through a failover: an EventSource and a <loader-frames> in
   headless Chromium (outage_browser.py's page) never reach a closed state,
   and show an event posted after the failover within 2 s;
4. bad input: a Sentinel that does not know the primary's name, no Sentinel
   listening, and a (fake) Sentinel that names a replica: 503s, none slower
   than redisTimeoutSeconds (+0.5 s), and a warning naming the cause.

Exits 1 on failure.

    Tests/system/sentinel.py path/to/loaderd [output-dir]
    Tests/system/sentinel.py --harness-only    (Redis and Sentinels alone:
        failovers, the old primary back as a replica, min-replicas-to-write,
        what a demoted or frozen primary answers)
"""
import atexit, collections, http.client, json, os, re, shutil, signal, socket, socketserver, statistics, subprocess
import sys, tempfile, threading, time

import loaderd_process
from loaderd_process import free_port, session_events, until
from sessions_redis import call, create

NAME = "mymaster"
PASSWORD = "node-secret-7f3a"          # the Redis nodes' requirepass / masterauth
SENTINEL_PASSWORD = "sentinel-secret-91c2"
TIMEOUT = 1.0                          # LOADERD_REDIS_TIMEOUT_SECONDS
WEB = '{"loader":"web","params":{"dropDuration":60}}'

failures = []
def check(ok, what):
    if not ok:
        failures.append(what)
    return ok

def say(line):
    print("sentinel: " + line, flush=True)


# ---------------------------------------------------------------- cleanup

PROCESSES, DIRECTORIES = [], []

def cleanup():
    for p in PROCESSES:
        if p.poll() is None:
            try:
                p.send_signal(signal.SIGCONT)   # a stopped process dies of SIGKILL too, but be plain about it
                p.kill()
                p.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                pass
    PROCESSES.clear()
    for d in DIRECTORIES:
        shutil.rmtree(d, ignore_errors=True)
    DIRECTORIES.clear()

atexit.register(cleanup)
for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
    # Unwinds through finally and atexit: every process killed, every directory removed.
    signal.signal(sig, lambda n, _: sys.exit(f"FAILED: interrupted by signal {n}"))

def spawn(args, **kw):
    p = subprocess.Popen(args, **kw)
    PROCESSES.append(p)
    return p

def temp_dir(prefix):
    d = tempfile.mkdtemp(prefix=prefix)
    DIRECTORIES.append(d)
    return d


# ---------------------------------------------------------------- RESP

class Err(str):
    """An error reply."""

def encode(args):
    out = b"*%d\r\n" % len(args)
    for a in args:
        a = a if isinstance(a, bytes) else str(a).encode()
        out += b"$%d\r\n%s\r\n" % (len(a), a)
    return out

def read_reply(f):
    line = f.readline()
    if not line:
        raise ConnectionError("connection closed")
    kind, rest = line[:1], line[1:-2].decode()
    if kind == b"+":
        return rest
    if kind == b"-":
        return Err(rest)
    if kind == b":":
        return int(rest)
    if kind == b"$":
        n = int(rest)
        if n < 0:
            return None
        data = f.read(n + 2)
        return data[:-2].decode(errors="replace")
    if kind == b"*":
        n = int(rest)
        return None if n < 0 else [read_reply(f) for _ in range(n)]
    raise ConnectionError(f"bad reply {line!r}")

def redis(port, *args, password=PASSWORD, timeout=2):
    """One command (after AUTH) on a new connection: its reply (Err for an error)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        f = s.makefile("rb")
        commands = ([("AUTH", password)] if password else []) + [args]
        s.sendall(b"".join(encode(c) for c in commands))
        replies = [read_reply(f) for _ in commands]
        return replies[-1]

def sentinel(port, *args, timeout=2):
    return redis(port, *args, password=SENTINEL_PASSWORD, timeout=timeout)

def info(port, section="replication"):
    text = redis(port, "INFO", section)
    return dict(l.split(":", 1) for l in text.splitlines() if ":" in l and not l.startswith("#"))


# ---------------------------------------------------------------- topology

class Node:
    """A redis-server with its own directory and config file."""
    def __init__(self, root, name, replica_of=None):
        self.name, self.port = name, free_port()
        self.dir = os.path.join(root, name)
        os.makedirs(self.dir)
        self.conf = os.path.join(self.dir, "redis.conf")
        lines = [f"port {self.port}", "bind 127.0.0.1", f"dir {self.dir}", f"logfile {self.dir}/redis.log",
                 "appendonly yes", "appendfsync always", 'save ""',
                 f"requirepass {PASSWORD}", f"masterauth {PASSWORD}",
                 "min-replicas-to-write 1", "min-replicas-max-lag 10"]
        if replica_of:
            lines.append(f"replicaof 127.0.0.1 {replica_of.port}")
        with open(self.conf, "w") as f:
            f.write("\n".join(lines) + "\n")
        self.start()

    def start(self):
        self.p = spawn(["redis-server", self.conf], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                if redis(self.port, "PING") == "PONG":
                    return
            except OSError:
                pass
            time.sleep(0.02)
        raise SystemExit(f"FAILED: redis-server {self.name} did not start")

    def kill(self):
        self.p.kill()
        self.p.wait()

    def stop(self):
        self.p.send_signal(signal.SIGSTOP)

    def resume(self):
        self.p.send_signal(signal.SIGCONT)

    def role(self):
        return redis(self.port, "ROLE", timeout=1)

    def address(self):
        return f"127.0.0.1:{self.port}"


class Sentinel:
    def __init__(self, root, n, primary):
        self.port = free_port()
        self.dir = os.path.join(root, f"sentinel{n}")
        os.makedirs(self.dir)
        self.conf = os.path.join(self.dir, "sentinel.conf")
        with open(self.conf, "w") as f:
            f.write("\n".join([
                f"port {self.port}", "bind 127.0.0.1", f"dir {self.dir}", f"logfile {self.dir}/sentinel.log",
                f"sentinel monitor {NAME} 127.0.0.1 {primary.port} 2",
                f"sentinel auth-pass {NAME} {PASSWORD}",
                f"sentinel down-after-milliseconds {NAME} 1000",
                f"sentinel failover-timeout {NAME} 3000",
                f"sentinel parallel-syncs {NAME} 1",
                f"requirepass {SENTINEL_PASSWORD}",
                f"sentinel sentinel-pass {SENTINEL_PASSWORD}"]) + "\n")
        self.p = spawn(["redis-server", self.conf, "--sentinel"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                if sentinel(self.port, "PING") == "PONG":
                    return
            except OSError:
                pass
            time.sleep(0.02)
        raise SystemExit("FAILED: a Sentinel did not start")

    def primary(self):
        a = sentinel(self.port, "SENTINEL", "get-master-addr-by-name", NAME, timeout=1)
        return int(a[1]) if isinstance(a, list) else None


class Events:
    """Every message the Sentinels publish (PSUBSCRIBE * on each), with its
    time; each channel's message once (the first Sentinel's to say it)."""
    def __init__(self, ports):
        self.seen, self.lock = [], threading.Lock()
        for port in ports:
            threading.Thread(target=self.run, args=(port,), daemon=True).start()

    def run(self, port):
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=None) as s:
                    f = s.makefile("rb")
                    s.sendall(encode(("AUTH", SENTINEL_PASSWORD)) + encode(("PSUBSCRIBE", "*")))
                    read_reply(f), read_reply(f)
                    while True:
                        m = read_reply(f)
                        if isinstance(m, list) and m[0] == "pmessage" and m[2] != "__sentinel__:hello":
                            with self.lock:
                                # +sdown and the like come from every Sentinel: keep the first in the last 5 s.
                                if not any(c == m[2] and d == m[3] and time.monotonic() - at < 5 for at, c, d in self.seen):
                                    self.seen.append((time.monotonic(), m[2], m[3]))
            except (OSError, ConnectionError):
                time.sleep(0.2)

    def since(self, t, channel=None):
        with self.lock:
            return [(round(at - t, 3), c, d) for at, c, d in self.seen if at >= t and (channel is None or c == channel)]


class Topology:
    def __init__(self, root):
        primary = Node(root, "node0")
        self.nodes = [primary, Node(root, "node1", primary), Node(root, "node2", primary)]
        self.sentinels = [Sentinel(root, n, primary) for n in range(3)]
        self.events = Events([s.port for s in self.sentinels])
        self.settle(seconds=40)

    def urls(self):
        return ",".join(f"127.0.0.1:{s.port}" for s in self.sentinels)

    def node(self, port):
        return next((n for n in self.nodes if n.port == port), None)

    def agreed(self):
        """The primary all three Sentinels name, or None."""
        try:
            named = {s.primary() for s in self.sentinels}
        except (OSError, ConnectionError):
            return None
        return self.node(named.pop()) if len(named) == 1 and None not in named else None

    def settled(self):
        """Why the topology is not settled yet ('' when it is): the Sentinels
        agree on a primary that has both others as replicas, in sync, and
        each Sentinel sees two healthy replicas and two other Sentinels."""
        try:
            primary = self.agreed()
            if primary is None:
                return "the Sentinels do not agree on a primary"
            role = primary.role()
            if role[0] != "master":
                return f"{primary.name} is {role[0]}"
            offset, replicas = role[1], role[2]
            others = [n for n in self.nodes if n is not primary]
            if sorted(int(r[1]) for r in replicas) != sorted(n.port for n in others):
                return f"{primary.name} has replicas {[r[1] for r in replicas]}"
            for n in others:
                r = n.role()
                if r[0] != "slave" or r[2] != primary.port or r[3] != "connected":
                    return f"{n.name}: {r}"
                if info(n.port).get("master_link_status") != "up":
                    return f"{n.name}: link down"
            if any(int(r[2]) < offset for r in replicas):
                return f"replicas behind {offset}: {[r[2] for r in replicas]}"
            for s in self.sentinels:
                rs = sentinel(s.port, "SENTINEL", "replicas", NAME)
                flags = sorted(dict(zip(r[::2], r[1::2]))["flags"] for r in rs)
                if flags != ["slave", "slave"]:
                    return f"a Sentinel sees replicas as {flags}"
                if len(sentinel(s.port, "SENTINEL", "sentinels", NAME)) != 2:
                    return "a Sentinel does not see both others"
            if int(info(primary.port)["connected_slaves"]) != 2:
                return "replicas not counted"
            return ""
        except (OSError, ConnectionError, KeyError, IndexError, TypeError, ValueError) as e:
            return f"{type(e).__name__} {e}"

    def settle(self, seconds=40):
        """Polls until settled: the primary, and the seconds it took."""
        started = time.monotonic()
        why = "?"
        self.waits = []
        while time.monotonic() - started < seconds:
            why = self.settled()
            if not self.waits or self.waits[-1][1] != why.split(":")[0]:
                self.waits.append((round(time.monotonic() - started, 1), why.split(":")[0]))
            if not why:
                return self.agreed(), time.monotonic() - started
            time.sleep(0.1)
        raise SystemExit(f"FAILED: the topology did not settle in {seconds} s: {why}")

    def new_primary(self, old, seconds=20):
        """Polls until the Sentinels agree on a primary other than `old`."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            p = self.agreed()
            if p is not None and p is not old:
                return p
            time.sleep(0.05)
        return None


# ---------------------------------------------------------------- loaderd

class Loaderd:
    def __init__(self, binary, store, root, extra=None, level="warning"):
        self.port = free_port()
        self.log = os.path.join(root, f"loaderd-{self.port}.log")
        env = dict(os.environ, LOADERD_SESSION_STORE=store, LOADERD_ACCESS_LOG="false",
                   LOADERD_REDIS_PASSWORD=PASSWORD, LOADERD_REDIS_WAIT_REPLICAS="1",
                   LOADERD_REDIS_TIMEOUT_SECONDS=str(TIMEOUT))
        if store.startswith("redis-sentinel:"):
            env["LOADERD_REDIS_SENTINEL_PASSWORD"] = SENTINEL_PASSWORD
        env.update(extra or {})
        with open(self.log, "wb") as out:
            # The service logs JSON lines; both streams go to the file.
            self.p = spawn([binary, "--port", str(self.port), "--log-level", level], env=env,
                           stdout=out, stderr=subprocess.STDOUT)
        self.wait_answering()

    def wait_answering(self, seconds=20):
        """loaderd_process.wait_ready, but any answer of /readyz will do
        (a replica without a store may call itself not ready)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.p.poll() is not None:
                raise SystemExit(f"FAILED: loaderd exited with {self.p.returncode}: {self.lines()[-5:]}")
            try:
                status, _ = loaderd_process.call("127.0.0.1", self.port, "GET", "/readyz", timeout=2)
                if status in (200, 503):
                    return
            except (OSError, http.client.HTTPException):
                time.sleep(0.02)
        raise SystemExit(f"FAILED: loaderd on {self.port} never answered")

    def lines(self):
        found = []
        with open(self.log, errors="replace") as f:
            for line in f:
                try:
                    found.append(json.loads(line))
                except ValueError:
                    found.append({"msg": line.strip(), "level": "?"})
        return found

    def logged(self, msg):
        return [l for l in self.lines() if l.get("msg") == msg]

    def metrics(self):
        status, body = loaderd_process.call("127.0.0.1", self.port, "GET", "/metrics")
        return body.decode(errors="replace") if status == 200 else ""

    def primary_named(self):
        """The address of loaderd_redis_primary_info{address=…} 1, or None."""
        for line in self.metrics().splitlines():
            if line.startswith("loaderd_redis_primary_info{") and line.rstrip().endswith(" 1"):
                return line.split('address="', 1)[1].split('"', 1)[0]
        return None

    def gauge(self, name):
        for line in self.metrics().splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0] == name:
                return float(parts[1])
        return None

    def stop(self):
        if self.p.poll() is None:
            self.p.terminate()
            try:
                self.p.wait(10)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()


# ---------------------------------------------------------------- writers

class Burst:
    """Writer threads posting progress events over the sessions, on every
    replica in turn; the writers' own record of each 202."""
    def __init__(self, ports, sessions, writers=8, pause=0.005):
        self.ports, self.sessions, self.pause = ports, sessions, pause
        self.acked = collections.defaultdict(list)   # sid -> [t]
        self.answers = []                            # (sent, answered, status)
        self.lock, self.halt = threading.Lock(), threading.Event()
        self.threads = [threading.Thread(target=self.writer, args=(n,), daemon=True) for n in range(writers)]
        for t in self.threads:
            t.start()

    def writer(self, n):
        k = n
        while not self.halt.is_set():
            sid, token = self.sessions[k % len(self.sessions)]
            port = self.ports[(k // len(self.sessions) + n) % len(self.ports)]
            k += 1
            sent = time.monotonic()
            try:
                status, _, data = call(port, "POST", f"/sessions/{sid}/events", '{"type":"progress"}', token, timeout=10)
            except (OSError, http.client.HTTPException):
                status, data = 0, b""
            answered = time.monotonic()
            with self.lock:
                self.answers.append((sent, answered, status))
                if status == 202:
                    self.acked[sid].append(json.loads(data)["t"])
            time.sleep(self.pause)

    def stop(self):
        self.halt.set()
        for t in self.threads:
            t.join(15)

    def count(self):
        with self.lock:
            return sum(len(v) for v in self.acked.values())

    def first_write_after(self, t):
        """Seconds from t to the first 202 of a request sent after t, or None."""
        with self.lock:
            got = [a for s, a, status in self.answers if status == 202 and s >= t]
        return min(got) - t if got else None

    def statuses(self):
        with self.lock:
            return dict(sorted(collections.Counter(s for _, _, s in self.answers).items()))

    def slowest(self):
        with self.lock:
            return max((a - s for s, a, _ in self.answers), default=0)


def tally(port, burst):
    """(acknowledged, lost, duplicated, events read) over the burst's sessions,
    each session's events against the writers' record."""
    acked = lost = duplicated = read = 0
    for sid, _ in burst.sessions:
        status, events = 0, []
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                status, events = session_events(port, sid)
            except (OSError, http.client.HTTPException):
                status = 0
            if status == 200:
                break
            time.sleep(0.1)
        check(status == 200, f"reading session {sid}: {status}")
        counts = collections.Counter(e["t"] for e in events)
        mine = collections.Counter(burst.acked.get(sid, []))
        acked += sum(mine.values())
        # Two events posted at once can share a t (the session clock's
        # resolution): compare as multisets. Lost: acknowledged more often than
        # present. Twice: present more often than acknowledged (once at most
        # for an event that got no 202: its write may have landed anyway).
        lost += sum(max(0, n - counts[t]) for t, n in mine.items())
        twice = [t for t, n in counts.items() if n > max(1, mine[t])]
        duplicated += sum(counts[t] - max(1, mine[t]) for t in twice)
        COLLISIONS[0] += sum(n - 1 for n in mine.values() if n > 1)
        for t in twice[:2]:
            DUPLICATES.append({"t": t, "acknowledged": mine[t], "events": [e for e in events if e["t"] == t]})
        read += len(events)
    return acked, lost, duplicated, read


# ---------------------------------------------------------------- phases

COLLISIONS = [0]  # acknowledged events that share their session and t with another
DUPLICATES = []  # samples of events present twice, for the failure message
RESULTS = []   # (label, acknowledged, lost, duplicated, seconds to the first write)

def failover(topo, replicas, label, frozen=False):
    """One failover under a burst: the old primary SIGKILLed (or SIGSTOPped,
    then SIGCONTed), back as a replica once it settles. Its summary line."""
    old = topo.agreed()
    moved_before = [len(r.logged("session store primary moved")) for r in replicas]
    available_before = [len(r.logged("session store available")) for r in replicas]
    failovers_before = [r.gauge("loaderd_redis_failovers_total") or 0 for r in replicas]
    sessions = [create(replicas[i % len(replicas)].port) for i in range(8)]
    burst = Burst([r.port for r in replicas], sessions)
    try:
        until(5, lambda: burst.count() >= 40)
        time.sleep(0.8)                     # the burst runs for a while
        before_kill = burst.count()
        at = time.monotonic()
        old.stop() if frozen else old.kill()
        new = topo.new_primary(old)
        sentinels_at = time.monotonic() - at
        until(15, lambda: burst.first_write_after(at) is not None)
        back = burst.first_write_after(at)
        time.sleep(1.0)                     # writes go on on the new primary
        if frozen:
            old.resume()                    # the old primary wakes up still calling itself primary
            resumed = time.monotonic()
            time.sleep(2.0)
    finally:
        burst.stop()
    check(new is not None, f"{label}: the Sentinels agree on a new primary")
    check(back is not None and back < 5, f"{label}: a write succeeded again {back} s after the primary was {'stopped' if frozen else 'killed'} (at most 5 s)")
    check(before_kill > 0, f"{label}: writes were acknowledged before the primary went")
    check(burst.slowest() < 5, f"{label}: a write hung for {burst.slowest():.2f} s")
    if frozen:
        woke = [(t, c, d) for t, c, d in topo.events.since(resumed - 0.5)]
        say(f"{label}: Sentinel events after SIGCONT: " + "; ".join(f"+{t}s {c} {d}" for t, c, d in woke[:6]))
    switch = [d for _, c, d in topo.events.since(at, "+switch-master")]
    outages = []
    acked, lost, duplicated, read = tally(replicas[0].port, burst)
    check(lost == 0, f"{label}: {lost} of {acked} acknowledged events lost")
    check(duplicated == 0, f"{label}: {duplicated} events present twice (e.g. {DUPLICATES[-1:]})")
    # Each replica names the new primary and has seen the move.
    if new is not None:
        check(until(5, lambda: all(r.primary_named() == new.address() for r in replicas)),
              f"{label}: /metrics names {[r.primary_named() for r in replicas]}, not the new primary {new.address()}")
        check(until(5, lambda: all(len(r.logged("session store primary moved")) > b for r, b in zip(replicas, moved_before))),
              f"{label}: a replica did not log 'session store primary moved'")
        for r, b in zip(replicas, moved_before):
            moved = r.logged("session store primary moved")[b:]
            check(any(l.get("from") == old.address() and l.get("to") == new.address() for l in moved),
                  f"{label}: the move logged as {[{k: l.get(k) for k in ('from', 'to')} for l in moved]}, not {old.address()} -> {new.address()}")
        check(until(5, lambda: all((r.gauge("loaderd_redis_failovers_total") or 0) >= b + 1 for r, b in zip(replicas, failovers_before))),
              f"{label}: loaderd_redis_failovers_total {[r.gauge('loaderd_redis_failovers_total') for r in replicas]}, was {failovers_before}")
        # Writes working again: "session store available" with outageSeconds, or
        # (as the service does it) the move's own line with writesRefusedSeconds.
        recovered = sum((r.logged("session store available")[b:] + r.logged("session store primary moved")[m:]
                         for r, b, m in zip(replicas, available_before, moved_before)), [])
        outages = [l.get("outageSeconds", l.get("writesRefusedSeconds")) for l in recovered]
        outages = [o for o in outages if isinstance(o, (int, float))]
        check(bool(outages), f"{label}: no line saying how long writes were refused after the failover: {recovered}")
        check(all((r.gauge("loaderd_redis_up") or 0) == 1 for r in replicas), f"{label}: loaderd_redis_up is not 1 after the failover")
    # The old one back as a replica: restarted on its directory, or woken.
    if not frozen:
        old.start()
    primary, settled = topo.settle()
    if primary is not new:
        # The Sentinels failed over again on their own (a loaded machine can
        # keep a primary from answering their PINGs for down-after): not
        # loaderd's doing, but loaderd must follow that primary too.
        again = [d for _, c, d in topo.events.since(at, "+switch-master")]
        say(f"{label}: the Sentinels moved on again while settling, to {primary.name} (switch-master {again})")
        check(until(10, lambda: all(r.primary_named() == primary.address() for r in replicas)),
              f"{label}: after settling /metrics names {[r.primary_named() for r in replicas]}, not {primary.address()}")
        new = primary
    if frozen:
        # Everything settled: what the replicas acknowledged is all on the primary,
        # and nothing was taken only by the old one in its last moments.
        acked2, lost2, duplicated2, _ = tally(replicas[1].port, burst)
        check(lost2 == 0 and duplicated2 == 0, f"{label}: after settling {lost2} lost, {duplicated2} twice")
        check(until(5, lambda: all(r.primary_named() == new.address() for r in replicas)),
              f"{label}: after settling /metrics names {[r.primary_named() for r in replicas]}, not {new.address()}")
        lost, duplicated = max(lost, lost2), max(duplicated, duplicated2)
    RESULTS.append((label, acked, lost, duplicated, back))
    for sid, token in sessions:
        call(replicas[0].port, "POST", f"/sessions/{sid}/events", '{"type":"stop"}', token)
    return (f"{label}: {old.name} -> {new and new.name}: {acked} acknowledged ({read} events read), {lost} lost, "
            f"{duplicated} twice; first write {back and f'{back:.2f}'} s after the "
            f"{'SIGSTOP' if frozen else 'kill'} (Sentinels agreed after {sentinels_at:.2f} s, writes refused for {outages} s as logged, "
            f"switch-master {switch[:1]}); answers {burst.statuses()}, slowest {burst.slowest():.2f} s; settled in {settled:.1f} s")


def viewers(topo, replicas, out):
    from browser_test import chromium
    from cdp import Browser
    from client_test import serve
    from outage_browser import page_html
    a, b = replicas[0].port, replicas[1].port
    sid, token = create(a, WEB)
    status, _, _ = call(b, "POST", f"/sessions/{sid}/events", '{"type":"progress"}', token)
    check(status == 202, f"viewers: a progress event before the failover ({status})")
    site = serve(page_html(a, b, sid))
    old = topo.agreed()
    try:
        with Browser(chromium(), os.path.join(out, "chromium-sentinel-profile")) as browser:
            page = browser.open(f"http://127.0.0.1:{site.server_address[1]}/")
            watching = page.wait_for('window.seen && seen.player.ids.drop0 && seen.source.ids.drop0 ? 1 : 0', 20)
            check(bool(watching), "viewers: both show the session with its first drop")

            def state():
                return json.loads(page.evaluate("JSON.stringify(window.seen)"))

            def closed_now():
                s = state()
                return sum((s[who]["closed"] for who in ("player", "source")), [])

            before = state()
            prior = sorted(set(before["player"]["ids"]) | set(before["source"]["ids"]))
            old.kill()
            at = time.monotonic()
            closed, status, tries = [], 0, 0
            # Posting until the store takes one again; the viewers watched all along.
            while time.monotonic() - at < 15:
                tries += 1
                status, _, _ = call((a, b)[tries % 2], "POST", f"/sessions/{sid}/events", '{"type":"progress"}', token)
                if status == 202:
                    break
                browser.pump(0.2)
                closed = closed_now()
                if closed:
                    break
            acknowledged = time.time() * 1000
            back = time.monotonic() - at
            check(not closed, f"viewers: none closed during the failover ({closed})")
            check(status == 202, f"viewers: an event taken after the failover ({status} after {tries} tries)")
            fresh = f"""((w) => Object.keys(seen[w].ids).filter((k) => k.startsWith("drop") && !{json.dumps(prior)}.includes(k)))"""
            shown = page.wait_for(f'{fresh}("player").length && {fresh}("source").length ? 1 : 0', 5)
            s = state()
            delays = {}
            for who in ("player", "source"):
                new_ids = [k for k in s[who]["ids"] if k.startswith("drop") and k not in prior]
                delays[who] = (min(s[who]["ids"][k] for k in new_ids) - acknowledged) / 1000 if new_ids else float("inf")
            check(bool(shown) and all(d < 2 for d in delays.values()),
                  f"viewers: the event after the failover shown within 2 s: {delays}")
            gained = {who: s[who]["frames"] - before[who]["frames"] for who in ("player", "source")}
            check(all(n > 0 for n in gained.values()), f"viewers: frames kept coming through the failover: {gained}")
            browser.pump(1.0)
            closed = closed_now()
            check(not closed, f"viewers: none closed at all ({closed})")
    finally:
        site.shutdown()
    old.start()
    _, settled = topo.settle()
    call(a, "POST", f"/sessions/{sid}/events", '{"type":"stop"}', token)
    return (f"viewers through a failover: EventSource and <loader-frames> never closed, frames through it {gained}; "
            f"event taken {back:.2f} s after the kill, shown after " + ", ".join(f"{k} {v:.3f} s" for k, v in delays.items())
            + f"; settled in {settled:.1f} s")


class FakeSentinel(socketserver.ThreadingTCPServer):
    """A Sentinel that names `port` (a replica) as the primary of any name."""
    daemon_threads = allow_reuse_address = True

    def __init__(self, port):
        named = port

        class Handler(socketserver.StreamRequestHandler):
            def handle(self):
                try:
                    while True:
                        line = self.rfile.readline()
                        if not line:
                            return
                        if line[:1] != b"*":
                            args = line.split()        # inline command
                        else:
                            args = []
                            for _ in range(int(line[1:])):
                                n = int(self.rfile.readline()[1:])
                                args.append(self.rfile.read(n + 2)[:-2])
                        if not args:
                            continue
                        self.wfile.write(self.answer([a.decode(errors="replace") for a in args]))
                except (OSError, ValueError):
                    return

            def answer(self, args):
                c = args[0].upper()
                if c == "SENTINEL" and len(args) > 1:
                    sub = args[1].lower()
                    if sub == "get-master-addr-by-name":
                        return encode(["127.0.0.1", str(named)])
                    if sub in ("sentinels", "replicas", "slaves"):
                        return b"*0\r\n"
                    return b"-ERR unknown subcommand\r\n"
                if c in ("SUBSCRIBE", "PSUBSCRIBE"):
                    return b"".join(b"*3\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n:%d\r\n" % (len(c.lower()), c.lower().encode(), len(ch), ch.encode(), i + 1)
                                    for i, ch in enumerate(args[1:]))
                if c == "PING":
                    return b"+PONG\r\n"
                if c in ("AUTH", "CLIENT", "SELECT"):
                    return b"+OK\r\n"
                return b"-ERR unknown command '%s'\r\n" % c.encode()
        super().__init__(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.serve_forever, daemon=True).start()


def bad_input(binary, topo, root):
    cases = []
    replica = next(n for n in topo.nodes if n is not topo.agreed())
    fake = FakeSentinel(replica.port)
    nowhere = ",".join(f"127.0.0.1:{free_port()}" for _ in range(3))
    try:
        for what, url, cause in [
            ("unknown primary name", f"redis-sentinel://{topo.urls()}/nosuchprimary", lambda l: "nosuchprimary" in l),
            ("no Sentinel listening", f"redis-sentinel://{nowhere}/{NAME}", lambda l: "sentinel" in l.lower()),
            ("a Sentinel naming a replica", f"redis-sentinel://127.0.0.1:{fake.server_address[1]}/{NAME}",
             lambda l: "replica" in l.lower() or "not the primary" in l.lower()),
        ]:
            r = Loaderd(binary, url, root)
            try:
                times, statuses = [], []
                for _ in range(4):
                    started = time.monotonic()
                    try:
                        status, _, _ = call(r.port, "POST", "/sessions", WEB, timeout=TIMEOUT + 5)
                    except (OSError, http.client.HTTPException):
                        status = 0
                    times.append(time.monotonic() - started)
                    statuses.append(status)
                check(all(s == 503 for s in statuses), f"bad input, {what}: answers {statuses}, not 503")
                check(max(times) < TIMEOUT + 0.5, f"bad input, {what}: an answer took {max(times):.2f} s (redisTimeoutSeconds {TIMEOUT})")
                # The cause in the line's own words: not in the URL it may quote
                # (which names the primary and says "sentinel" anyway).
                said = lambda l: re.sub(r'redis(-sentinel)?://[^" ]*', "", json.dumps({k: v for k, v in l.items() if k not in ("time", "store")}))
                warned = []
                until(3, lambda: warned.extend(l for l in r.lines()
                                               if l.get("level") in ("warning", "error", "critical")
                                               and cause(said(l))) or warned)
                check(bool(warned), f"bad input, {what}: no warning naming the cause; logged {[l.get('msg') for l in r.lines()][:6]}")
                cases.append(f"{what}: {statuses} in at most {max(times):.2f} s, logged "
                             + (json.dumps({k: v for k, v in warned[0].items() if k != 'time'}) if warned else "nothing"))
            finally:
                r.stop()
    finally:
        fake.shutdown()
        fake.server_close()
    return "bad input: " + "; ".join(cases)


# ---------------------------------------------------------------- harness only

def harness_only(topo):
    """The Redis and Sentinel topology alone: a failover, the Sentinels
    agreeing, the old primary back as a replica, min-replicas-to-write, and
    what a demoted or frozen primary answers."""
    primary, _ = topo.settle()
    check(redis(primary.port, "SET", "k", "v") == "OK", "a write on the primary")
    check(redis(primary.port, "WAIT", 1, 1000) >= 1, "WAIT 1 on the primary")
    replica = next(n for n in topo.nodes if n is not primary)
    say(f"a write on a replica: {redis(replica.port, 'SET', 'k', 'v')!r}")
    check(str(sentinel(topo.sentinels[0].port, "SENTINEL", "ckquorum", NAME)).startswith("OK"), "ckquorum")
    wrong = redis(topo.sentinels[0].port, "PING", password="wrong")
    say(f"a Sentinel's PING with a wrong password: {wrong!r}; unknown name: "
        f"{sentinel(topo.sentinels[0].port, 'SENTINEL', 'get-master-addr-by-name', 'nosuchprimary')!r}")
    for n in range(2):
        old = topo.agreed()
        at = time.monotonic()
        old.kill()
        new = topo.new_primary(old)
        agreed = time.monotonic() - at
        writable = until(15, lambda: redis(new.port, "SET", "k", str(n)) == "OK", interval=0.02)
        took = time.monotonic() - at
        check(new is not None and writable, f"round {n}: failover")
        say(f"kill {old.name}: Sentinels agree on {new.name} after {agreed:.2f} s, writes taken {took:.2f} s after the kill")
        say("events: " + "; ".join(f"+{t}s {c} {d}" for t, c, d in topo.events.since(at)
                                   if c in ("+sdown", "+odown", "+try-failover", "+elected-leader", "+selected-slave",
                                            "+failover-state-send-slaveof-noone", "+promoted-slave", "+switch-master",
                                            "+slave-reconf-done", "+failover-end")))
        old.start()
        say(f"{old.name} restarted: its ROLE {old.role()[:1]}, a write on it: {redis(old.port, 'SET', 'x', '1')!r}")
        primary, settled = topo.settle()
        say(f"settling: {topo.waits}")
        say(f"settled in {settled:.1f} s: {old.name} is {old.role()[:4]}; "
            f"+convert-to-slave seen: {[t for t, c, _ in topo.events.since(at, '+convert-to-slave')]}")
    # min-replicas-to-write: both replicas gone, the primary refuses writes.
    primary = topo.agreed()
    others = [n for n in topo.nodes if n is not primary]
    for n in others:
        n.stop()
    refused = until(15, lambda: isinstance(redis(primary.port, "SET", "k", "v"), Err))
    say(f"both replicas stopped: the primary answers {redis(primary.port, 'SET', 'k', 'v')!r} (after the 10 s lag)")
    check(refused, "min-replicas-to-write: writes refused without replicas")
    for n in others:
        n.resume()
    topo.settle()
    # A frozen primary: what it answers when it wakes after a failover.
    old = topo.agreed()
    at = time.monotonic()
    old.stop()
    new = topo.new_primary(old)
    say(f"SIGSTOP {old.name}: Sentinels agree on {new and new.name} after {time.monotonic() - at:.2f} s")
    old.resume()
    woke = time.monotonic()
    answers = []
    while time.monotonic() - woke < 12:
        try:
            a = redis(old.port, "SET", "frozen", "1", timeout=1)
        except OSError as e:
            a = f"{type(e).__name__}"
        if not answers or answers[-1][1] != a:
            answers.append((round(time.monotonic() - woke, 2), a))
        if isinstance(a, Err) and a.startswith("READONLY"):
            break
        time.sleep(0.05)
    say(f"the frozen primary after SIGCONT answers a SET: {answers}")
    _, settled = topo.settle()
    say(f"settled in {settled:.1f} s")


def summary():
    acked = sum(r[1] for r in RESULTS)
    lost = sum(r[2] for r in RESULTS)
    dup = sum(r[3] for r in RESULTS)
    times = sorted(r[4] for r in RESULTS if r[4] is not None)
    median = f"{statistics.median(times):.2f}" if times else "-"
    worst = f"{times[-1]:.2f}" if len(times) == len(RESULTS) and times else "never"
    return (f"over {len(RESULTS)} failovers under a burst: {acked} acknowledged, {lost} lost, {dup} twice "
            f"({COLLISIONS[0]} acknowledged events shared their t with another); "
            f"kill to first write median {median} s, worst {worst} s")


def run(args, flags, root):
    started = time.monotonic()
    topo = Topology(root)
    say(f"3 redis-servers and 3 Sentinels up and agreeing in {time.monotonic() - started:.1f} s")
    if "--harness-only" in flags:
        harness_only(topo)
        return
    binary = args[0]
    out = args[1] if len(args) > 1 else temp_dir("loaderd-sentinel-browser-")
    os.makedirs(out, exist_ok=True)
    url = f"redis-sentinel://{topo.urls()}/{NAME}"
    # At info: the moves and recoveries may be logged below warning.
    replicas = [Loaderd(binary, url, root, level="info") for _ in range(2)]
    for n in range(3):
        say(failover(topo, replicas, f"failover {n + 1} of 3" + (" (a burst through a crash)" if n == 0 else "")))
    say(failover(topo, replicas, "frozen primary", frozen=True))
    say(viewers(topo, replicas, out))
    say(bad_input(binary, topo, root))
    for r in replicas:
        if r.p.poll() is not None:
            failures.append(f"the loaderd on port {r.port} exited by itself with status {r.p.returncode}")


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    flags = {a for a in sys.argv[1:] if a.startswith("--")}
    if not args and "--harness-only" not in flags:
        sys.exit(__doc__)
    started = time.monotonic()
    try:
        run(args, flags, temp_dir("loaderd-sentinel-"))
    except SystemExit as e:
        # A phase that cannot go on: reported with whatever failed before it.
        if e.code in (None, 0, 1):
            raise
        failures.append(str(e.code).removeprefix("FAILED: "))
    finally:
        cleanup()
    if RESULTS:
        say(summary())
    say(f"{time.monotonic() - started:.0f} s in all")
    if failures:
        print("FAILED: " + "; ".join(failures))
        sys.exit(1)
    say("1 passed, 0 failed")


if __name__ == "__main__":
    main()
