#!/usr/bin/env python3
"""Holds N idle keep-alive connections open against a running loaderd, then
measures request latency on a fresh connection and reads the server's
threads and RSS. Prints figures; asserts nothing.

    bench/idle_connections.py --port 8080 --pid <loaderd pid> [--connections 10000]
"""
import argparse, resource, selectors, socket, statistics, time

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--pid", type=int, required=True)
    ap.add_argument("--connections", type=int, default=10000)
    ap.add_argument("--requests", type=int, default=2000)
    a = ap.parse_args()

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    request = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
    sel = selectors.DefaultSelector()
    socks = []
    t0 = time.monotonic()
    for i in range(a.connections):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.connect((a.host, a.port))
        s.sendall(request)
        s.setblocking(False)
        sel.register(s, selectors.EVENT_READ, bytearray())
        socks.append(s)
    answered = 0
    deadline = time.monotonic() + 60
    while answered < len(socks) and time.monotonic() < deadline:
        for key, _ in sel.select(timeout=1):
            data = key.fileobj.recv(65536)
            key.data.extend(data)
            if b"\r\n\r\n" in key.data and key.data.endswith(b"}"):
                answered += 1
                sel.unregister(key.fileobj)
    opened = time.monotonic() - t0
    print(f"idle keep-alive connections: {len(socks)} opened and answered {answered} in {opened:.2f} s")

    def latency_run(n):
        c = socket.create_connection((a.host, a.port))
        c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        times = []
        for _ in range(n):
            start = time.perf_counter()
            c.sendall(b"GET /loaders/typing/frames?t=0.5 HTTP/1.1\r\nHost: x\r\n\r\n")
            buf = b""
            while True:
                buf += c.recv(65536)
                head, sep, body = buf.partition(b"\r\n\r\n")
                if sep:
                    length = int([l for l in head.split(b"\r\n") if l.lower().startswith(b"content-length")][0].split(b":")[1])
                    if len(body) >= length:
                        break
            times.append((time.perf_counter() - start) * 1e6)
        c.close()
        times.sort()
        return times

    times = latency_run(a.requests)
    p50 = times[len(times) // 2]
    p99 = times[int(len(times) * 0.99)]
    status = open(f"/proc/{a.pid}/status").read()
    rss = [l for l in status.splitlines() if l.startswith("VmRSS")][0].split()[1]
    threads = [l for l in status.splitlines() if l.startswith("Threads")][0].split()[1]
    fds = len(__import__("os").listdir(f"/proc/{a.pid}/fd"))
    print(f"with them open: {a.requests} requests on a new connection, latency p50 {p50:.0f} µs, p99 {p99:.0f} µs")
    print(f"server: {threads} threads, {fds} open descriptors, RSS {int(rss) / 1024:.1f} MiB")
    for s in socks:
        s.close()

if __name__ == "__main__":
    main()
