#!/usr/bin/env python3
"""Shared-clock streams agree across two server processes: two loaderd
processes (as two replicas would be), each read by its own client at the
same time, send the same ids with the same frames, each id at the same
moment (within 25 ms at the 99th percentile), for a single loader
(clock=shared) and for a multiplexed stream of three. Exits 1 on failure.

    Tests/system/shared_clock.py path/to/loaderd
"""
import http.client, sys, threading, time

from loaderd_process import free_port, start

SECONDS = 2.0


def read_stream(port, target, into):
    """(arrival monotonic s, id, data) of every frame event for SECONDS."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    c.request("GET", target, headers={"Accept": "text/event-stream"})
    r = c.getresponse()
    if r.status != 200:
        into.append(("status", r.status))
        return
    end = time.monotonic() + SECONDS
    event, data, ident = None, [], None
    while time.monotonic() < end:
        line = r.fp.readline().decode().rstrip("\n")
        if line == "":
            if event == "frame":
                into.append((time.monotonic(), ident, "\n".join(data)))
            event, data = None, []
        elif line.startswith("id: "):
            ident = line[4:]
        elif line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: "):
            data.append(line[6:])
    c.close()


def compare(name, ports, target, failures):
    results = [[] for _ in ports]
    threads = [threading.Thread(target=read_stream, args=(p, target, out)) for p, out in zip(ports, results)]
    for t in threads: t.start()
    for t in threads: t.join()
    if any(r and r[0][0] == "status" for r in results):
        failures.append(f"{name}: a server answered {[r[0] for r in results]}")
        return
    a = {(ident, data): at for at, ident, data in results[0]}
    b = {(ident, data): at for at, ident, data in results[1]}
    ids_a = {ident for ident, _ in a}
    ids_b = {ident for ident, _ in b}
    common = ids_a & ids_b
    same = set(a) & set(b)
    lag = sorted(abs(a[k] - b[k]) * 1000 for k in same)
    p99 = lag[int(0.99 * (len(lag) - 1))] if lag else float("inf")
    print(f"{name}: {len(results[0])} and {len(results[1])} frames, {len(common)} ids in common, "
          f"{len(same)} with the same frame; the same id arrives {p99:.1f} ms apart at p99")
    if len(common) < 40:
        failures.append(f"{name}: only {len(common)} ids in common")
    # Multiplexed ticks carry the id on their last event only: compare whole ticks by id.
    if len(same) < len(common):
        failures.append(f"{name}: {len(common) - len(same)} ids carry different frames on the two servers")
    if p99 > 25:
        failures.append(f"{name}: the same frame arrived {p99:.1f} ms apart at p99 (> 25 ms)")


def main():
    binary = sys.argv[1]
    ports = [free_port(), free_port()]
    servers = [start(binary, port, "--log-level", "warning") for port in ports]
    failures = []
    try:
        compare("typing, clock=shared, 30 fps", ports, "/loaders/typing/frames?clock=shared&fps=30&count=4", failures)
        compare("multiplexed: material-spinner, switch, pulse-dots, clock=shared, 30 fps", ports,
                "/streams?clock=shared&fps=30&loader=material-spinner&loader=switch%3Fcolor%3D%2523FF0000&loader=pulse-dots", failures)
    finally:
        for s in servers:
            s.terminate()
            s.wait()
    for f in failures:
        print("FAILED:", f)
    if failures:
        sys.exit(1)
    print("shared clock: 2 passed, 0 failed")


if __name__ == "__main__":
    main()
