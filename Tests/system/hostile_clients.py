#!/usr/bin/env python3
"""Hostile clients against loaderd (bounded in count and time), while a
well-behaved client keeps asking for frames: its p99 must stay under 50 ms,
every attack must get its answer, and afterwards the server's open
descriptors and RSS must return to their baseline. Then, on servers of
their own: one address cannot lock out another (a full table admits
newcomers in place of the connections idle longest, an address gets its
share, a trusted proxy is exempt), and a server out of descriptors does not
spin and keeps answering the connections it has. Exits 1 on failure.

    Tests/system/hostile_clients.py path/to/loaderd
"""
import os, resource, socket, statistics, subprocess, sys, threading, time

from loaderd_process import free_port, start, wait_ready


def fds(pid): return len(os.listdir(f"/proc/{pid}/fd"))
def rss_mib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS"): return int(line.split()[1]) / 1024
    return 0

def connect(port, source=None):
    s = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0) if source else None)
    return s

def cpu_seconds(pid):
    """User and system CPU of the process so far (proc(5): fields 14 and 15)."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

def get(s, path):
    """One request on keep-alive socket s: (status, body)."""
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    buf = b""
    while b"\r\n\r\n" not in buf:
        chunk = s.recv(65536)
        if not chunk: return 0, b""
        buf += chunk
    head, _, body = buf.partition(b"\r\n\r\n")
    length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
    while len(body) < length:
        chunk = s.recv(65536)
        if not chunk: break
        body += chunk
    return int(head.split(b" ")[1]), body

def metric(s, line_start):
    """The value of the /metrics line that starts with line_start, read on s (-1: none)."""
    status, body = get(s, "/metrics")
    for line in body.decode().splitlines():
        if line.startswith(line_start + " "): return float(line.split()[-1])
    return -1  # absent

def idle_client(port, source):
    """A keep-alive connection from source that has had one answer and now waits."""
    s = connect(port, source)
    status, _ = get(s, "/healthz")
    return s if status == 200 else None

def read_status(s):
    data = b""
    while b"\r\n" not in data:
        chunk = s.recv(4096)
        if not chunk: break
        data += chunk
    return int(data.split(b" ")[1]) if data.startswith(b"HTTP/1.1 ") else 0

def closed_by_server(s, seconds=10):
    s.settimeout(seconds)
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk: return True
    except (socket.timeout, TimeoutError):
        return False
    except ConnectionResetError:
        return True

def main():
    binary = sys.argv[1]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    port = free_port()
    # Every attack comes from 127.0.0.1: its share of connections is raised.
    env = dict(os.environ, LOADERD_HEADER_TIMEOUT_SECONDS="2", LOADERD_STREAM_STALL_TIMEOUT_SECONDS="3",
               LOADERD_IDLE_TIMEOUT_SECONDS="5", LOADERD_ACCESS_LOG="false", LOADERD_MAX_CONNECTIONS_PER_ADDRESS="100000")
    server = subprocess.Popen([binary, "--port", str(port), "--log-level", "warning"], env=env, stdout=subprocess.DEVNULL)
    failures, rows = [], []
    def check(ok, what):
        if not ok: failures.append(what)
    try:
        for _ in range(200):
            try:
                c = connect(port); c.close(); break
            except OSError:
                time.sleep(0.05)
        # Warm up, then take the baseline.
        w = connect(port)
        for _ in range(200):
            w.sendall(b"GET /loaders/typing/frames?t=0.5 HTTP/1.1\r\nHost: x\r\n\r\n"); w.recv(65536)
        w.close()
        time.sleep(0.5)
        base_fds, base_rss = fds(server.pid), rss_mib(server.pid)

        # The well-behaved client, for the whole run.
        latencies, stop = [], threading.Event()
        def polite():
            c = connect(port)
            c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            n = 0
            while not stop.is_set():
                n += 1
                t0 = time.perf_counter()
                c.sendall(f"GET /loaders/typing/frames?t={n % 1000 / 100} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
                buf = b""
                while True:
                    buf += c.recv(65536)
                    head, sep, body = buf.partition(b"\r\n\r\n")
                    if sep and len(body) >= int(head.split(b"Content-Length: ")[1].split(b"\r\n")[0]): break
                latencies.append((time.perf_counter() - t0) * 1000)
                time.sleep(0.002)
            c.close()
        pt = threading.Thread(target=polite); pt.start()

        # 1. 1,000 slowloris connections: a head that never ends.
        slow = []
        for _ in range(1000):
            s = connect(port); s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: "); slow.append(s)
        statuses = [read_status(s) for s in slow]
        n408 = sum(1 for x in statuses if x == 408)
        for s in slow: s.close()
        rows.append(f"1,000 slowloris connections | all answered 408 and closed within the 2 s header timeout: {n408}/1000")
        check(n408 == 1000, f"slowloris: {n408}/1000 got 408")

        # 2. 10,000 connect/close cycles.
        t0 = time.perf_counter()
        for _ in range(10000):
            s = socket.socket(); s.connect(("127.0.0.1", port)); s.close()
        rows.append(f"10,000 connect/close cycles | done in {time.perf_counter() - t0:.1f} s")

        # 3. Oversized request line, headers and body.
        for req, want, name in [
            (b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, "request line 9 KB"),
            (b"GET / HTTP/1.1\r\nHost: x\r\nX: " + b"b" * 17000 + b"\r\n\r\n", 431, "header 17 KB"),
            (b"GET / HTTP/1.1\r\nHost: x\r\n" + b"X-A: 1\r\n" * 101 + b"\r\n", 431, "101 header fields"),
            (b"POST /sessions HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n", 413, "body 2 MB declared"),
        ]:
            s = connect(port); s.sendall(req)
            got = read_status(s); gone = closed_by_server(s); s.close()
            rows.append(f"oversized: {name} | {got}, connection closed: {gone}")
            check(got == want and gone, f"{name}: {got} (want {want}), closed {gone}")

        # 4. Pipelined garbage after a valid request.
        s = connect(port)
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n\x00\x01garbage \xff\r\n\r\n")
        data = b""
        s.settimeout(5)
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk: break
                data += chunk
        except socket.timeout:
            pass
        s.close()
        ok = data.startswith(b"HTTP/1.1 200") and b"HTTP/1.1 400" in data
        rows.append(f"pipelined garbage after a valid request | 200 then 400 and close: {ok}")
        check(ok, "pipelined garbage")

        # 5. Half-closed sockets: the request, then shutdown(SHUT_WR).
        answered = 0
        for _ in range(100):
            s = connect(port)
            s.sendall(b"GET /loaders/switch/frames?t=1 HTTP/1.1\r\nHost: x\r\n\r\n")
            s.shutdown(socket.SHUT_WR)
            if read_status(s) == 200 and closed_by_server(s): answered += 1
            s.close()
        rows.append(f"100 half-closed sockets | answered and closed: {answered}/100")
        check(answered == 100, f"half-closed: {answered}/100")

        # 6. SSE clients that never read.
        readers = []
        for _ in range(200):
            s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.connect(("127.0.0.1", port))
            s.sendall(b"GET /loaders/web/frames?fps=120&stream=sse&progress=" + b",".join(str(i / 100).encode() for i in range(300)) + b" HTTP/1.1\r\nHost: x\r\n\r\n")
            readers.append(s)
        deadline = time.time() + 15
        while time.time() < deadline and fds(server.pid) > base_fds + 5:
            time.sleep(0.2)
        dropped = fds(server.pid) <= base_fds + 5
        for s in readers: s.close()
        rows.append(f"200 SSE clients that never read | dropped after the 3 s stall timeout: {dropped}")
        check(dropped, "stalled SSE clients were not dropped")

        stop.set(); pt.join()
        time.sleep(3.0)  # the server gives freed memory back at most every 2 s
        p50 = statistics.median(latencies); p99 = sorted(latencies)[int(len(latencies) * 0.99)]
        rows.append(f"well-behaved client meanwhile | {len(latencies)} requests, p50 {p50:.2f} ms, p99 {p99:.2f} ms (limit 50 ms)")
        check(p99 < 50, f"p99 {p99:.1f} ms")
        end_fds, end_rss = fds(server.pid), rss_mib(server.pid)
        rows.append(f"afterwards | descriptors {base_fds} -> {end_fds}, RSS {base_rss:.1f} -> {end_rss:.1f} MiB")
        check(end_fds <= base_fds + 2, f"descriptors {base_fds} -> {end_fds}")
        check(end_rss <= base_rss + 4, f"RSS {base_rss:.1f} -> {end_rss:.1f} MiB (more than 4 MiB above the baseline)")
        check(server.poll() is None, "the server died")
    finally:
        server.terminate(); server.wait()
    fair_share(binary, rows, check)
    accept_failures(binary, rows, check)
    for r in rows: print("hostile: " + r)
    if failures:
        print("FAILED: " + "; ".join(failures)); sys.exit(1)
    print("hostile: 1 passed, 0 failed")

def fair_share(binary, rows, check):
    """maxConnections 200, so an address's share is 100 (half, under the
    default 128); 127.0.0.4 is a trusted proxy."""
    port = free_port()
    env = dict(os.environ, LOADERD_MAX_CONNECTIONS="200", LOADERD_TRUSTED_PROXIES="127.0.0.4", LOADERD_ACCESS_LOG="false")
    server = start(binary, port, "--log-level", "warning", env=env)
    try:
        proxied = [idle_client(port, "127.0.0.4") for _ in range(150)]
        n = sum(1 for s in proxied if s)
        rows.append(f"a trusted proxy opens 150 connections (share 100) | admitted: {n}/150")
        check(n == 150, f"trusted proxy: {n}/150 admitted")
        for s in proxied:
            if s: s.close()

        first = [idle_client(port, "127.0.0.1") for _ in range(100)]
        over = connect(port, "127.0.0.1")
        over.settimeout(5)
        try:
            status, gone = read_status(over), closed_by_server(over)
        except (socket.timeout, TimeoutError):
            status, gone = 0, False  # admitted, and waiting for a request
        over.close()
        rows.append(f"one address opens its 100 idle connections, then one more | {sum(1 for s in first if s)}/100 answered; the next: {status}, closed: {gone}")
        check(all(first) and status == 429 and gone, f"share: {sum(1 for s in first if s)}/100, the next {status}, closed {gone}")

        second = [idle_client(port, "127.0.0.2") for _ in range(100)]
        check(all(second), "a second address did not get its 100")
        # The table is full of idle connections: newcomers take the place
        # of the ones idle longest, the first address's first ones.
        newcomers = [idle_client(port, "127.0.0.3") for _ in range(20)]
        admitted = sum(1 for s in newcomers if s)
        evicted = sum(1 for s in first[:20] if closed_by_server(s, 5))
        s = newcomers[0] or connect(port, "127.0.0.3")
        evicted_metric = metric(s, "loaderd_connections_evicted_total")
        most = metric(s, "loaderd_connections_per_address_max")
        refused = metric(s, 'loaderd_connections_refused_total{reason="per_address"}')
        rows.append(f"200 idle connections fill the table; 20 newcomers from a third address | answered {admitted}/20; "
                    f"the 20 idle longest closed: {evicted}/20; loaderd_connections_evicted_total {evicted_metric:.0f}, "
                    f"refused per address {refused:.0f}, most of one address {most:.0f}")
        check(admitted == 20 and evicted == 20 and evicted_metric == 20 and refused == 1 and most == 100,
              f"eviction: {admitted}/20 answered, {evicted}/20 closed, metric {evicted_metric}, refused {refused}, most {most}")
        still = sum(1 for s in first[20:] if get(s, "/healthz")[0] == 200)
        check(still == 80, f"only the idle longest were closed: {still}/80 of the rest answer")

        for s in first + second + newcomers:
            if s: s.close()
        probe = connect(port, "127.0.0.5")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and metric(probe, "loaderd_connection_addresses") != 1:
            time.sleep(0.05)
        addresses, most = metric(probe, "loaderd_connection_addresses"), metric(probe, "loaderd_connections_per_address_max")
        rows.append(f"every connection closed | addresses with connections {addresses:.0f}, most of one {most:.0f} (the probe's own)")
        check(addresses == 1 and most == 1, f"per-address counts not given back: {addresses} addresses, most {most}")
        probe.close()
    finally:
        server.terminate(); server.wait()


def accept_failures(binary, rows, check):
    """A server with 64 descriptors: connections until accept fails, then
    the CPU of a second, the connections it has, and recovery."""
    import resource as r
    port = free_port()
    env = dict(os.environ, LOADERD_ACCESS_LOG="false")
    limit = 64
    server = subprocess.Popen([binary, "--port", str(port), "--log-level", "info"], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, preexec_fn=lambda: r.setrlimit(r.RLIMIT_NOFILE, (limit, limit)))
    try:
        wait_ready(port, server)
        answered = []
        waiting = None
        for _ in range(limit):
            s = connect(port)
            s.settimeout(1)
            try:
                if get(s, "/healthz")[0] == 200:
                    answered.append(s); continue
            except (socket.timeout, TimeoutError):
                pass
            waiting = s
            break
        check(waiting is not None, f"accept never failed with {limit} descriptors")
        if waiting is None: return
        # More wait in the backlog.
        waiting = [waiting] + [connect(port) for _ in range(4)]
        for s in waiting[1:]: s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        time.sleep(0.2)
        cpu0, t0 = cpu_seconds(server.pid), time.monotonic()
        time.sleep(1.0)
        cpu = (cpu_seconds(server.pid) - cpu0) / (time.monotonic() - t0)
        held = answered[0]
        held.settimeout(2)
        status = get(held, "/healthz")[0]
        failures = metric(held, 'loaderd_accept_failures_total{reason="EMFILE"}')
        paused = metric(held, "loaderd_accept_paused")
        rows.append(f"out of descriptors ({limit}) after {len(answered)} connections | CPU {cpu * 100:.1f}% of a core over 1 s; "
                    f"/healthz on an open connection: {status}; EMFILE failures {failures:.0f}, paused {paused:.0f}")
        check(cpu < 0.10, f"out of descriptors: the server used {cpu * 100:.0f}% of a core")
        check(status == 200 and failures >= 1 and paused == 1,
              f"out of descriptors: /healthz {status}, EMFILE failures {failures}, paused {paused}")
        # Room again: the waiting connections are taken and answered.
        for s in answered[-10:]: s.close()
        got = 0
        for s in waiting:
            s.settimeout(5)
            try:
                got += read_status(s) == 200
            except (socket.timeout, TimeoutError, ConnectionResetError):
                pass
        paused_after = metric(held, "loaderd_accept_paused")
        rows.append(f"10 connections closed | the 5 waiting answered: {got}/5; paused {paused_after:.0f}")
        check(got == 5 and paused_after == 0, f"after room was made: {got}/5 answered, paused {paused_after}")
        for s in answered[:-10] + waiting: s.close()
    finally:
        server.terminate(); server.wait()
    log = server.stdout.read().decode()
    failing, recovered = log.count("accept failing"), log.count("accepting again")
    rows.append(f"log | 'accept failing' {failing} line(s), 'accepting again' {recovered}")
    check(failing == 1 and recovered == 1, f"log: {failing} 'accept failing' and {recovered} 'accepting again' lines (want 1 each)")


if __name__ == "__main__":
    main()
