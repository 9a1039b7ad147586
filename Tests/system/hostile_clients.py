#!/usr/bin/env python3
"""Hostile clients against loaderd (bounded in count and time), while a
well-behaved client keeps asking for frames: its p99 must stay under 50 ms,
every attack must get its answer, and afterwards the server's open
descriptors and RSS must return to their baseline. Exits 1 on failure.

    Tests/system/hostile_clients.py path/to/loaderd
"""
import os, resource, socket, statistics, subprocess, sys, threading, time

from loaderd_process import free_port


def fds(pid): return len(os.listdir(f"/proc/{pid}/fd"))
def rss_mib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS"): return int(line.split()[1]) / 1024
    return 0

def connect(port):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    return s

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
    env = dict(os.environ, LOADERD_HEADER_TIMEOUT_SECONDS="2", LOADERD_STREAM_STALL_TIMEOUT_SECONDS="3",
               LOADERD_IDLE_TIMEOUT_SECONDS="5", LOADERD_ACCESS_LOG="false")
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
    for r in rows: print("hostile: " + r)
    if failures:
        print("FAILED: " + "; ".join(failures)); sys.exit(1)
    print("hostile: 1 passed, 0 failed")

if __name__ == "__main__":
    main()
