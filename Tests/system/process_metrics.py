#!/usr/bin/env python3
"""The process_* metrics and loaderd_build_info of a running loaderd, against
what this script reads of the same process: /proc/<pid>/stat, status and
fd (proc(5)), its descriptor limit (prlimit), and `loaderd --version`.

    Tests/system/process_metrics.py path/to/loaderd
"""
import http.client, os, resource, subprocess, sys, time

import loaderd_process
from loaderd_process import free_port

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
    return condition


def scrape(port):
    """{series: value} of one GET /metrics (labels kept in the name)."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    c.request("GET", "/metrics")
    text = c.getresponse().read().decode()
    c.close()
    values = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            values[name] = float(value)
    return values


def stat(pid):
    """proc(5)'s fields of /proc/<pid>/stat by number (1-based), counted
    after the command name's closing parenthesis."""
    text = open(f"/proc/{pid}/stat").read()
    rest = text[text.rindex(")") + 2:].split()
    return {n: rest[n - 3] for n in range(3, len(rest) + 3)}


def status_kib(pid, field):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise SystemExit(f"no {field} in /proc/{pid}/status")


def main():
    binary = sys.argv[1]
    tick = os.sysconf("SC_CLK_TCK")
    boot = next(int(line.split()[1]) for line in open("/proc/stat") if line.startswith("btime "))
    launched = time.time()
    port = free_port()
    p = loaderd_process.start(binary, port, "--log-level", "warning")
    try:
        # Let the readiness probes' connections close, then count.
        check(loaderd_process.until(5, lambda: scrape(port).get("loaderd_open_connections") == 1.0),
              "connections other than the scrape's stayed open")
        fds_before = len(os.listdir(f"/proc/{p.pid}/fd"))
        s = stat(p.pid)
        cpu_before = (int(s[14]) + int(s[15])) / tick
        metrics = scrape(port)
        s = stat(p.pid)
        cpu_after = (int(s[14]) + int(s[15])) / tick
        fds_after = len(os.listdir(f"/proc/{p.pid}/fd"))
        start = boot + int(s[22]) / tick
        rss = status_kib(p.pid, "VmRSS") * 1024
        vsize = status_kib(p.pid, "VmSize") * 1024
        soft = resource.prlimit(p.pid, resource.RLIMIT_NOFILE)[0]
    finally:
        p.terminate()
        p.wait(timeout=20)

    version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout.split()[-1]
    got = {k: v for k, v in metrics.items() if k.startswith("process_") or k.startswith("loaderd_build_info")}
    print("  " + ", ".join(f"{k} {v:g}" for k, v in sorted(got.items())))
    check(cpu_before <= metrics.get("process_cpu_seconds_total", -1) <= cpu_after,
          f"process_cpu_seconds_total {metrics.get('process_cpu_seconds_total')} not within {cpu_before}..{cpu_after}")
    # The scrape's own connection is open while it is counted.
    fds = metrics.get("process_open_fds", -1)
    check(min(fds_before, fds_after) <= fds <= max(fds_before, fds_after) + 1,
          f"process_open_fds {fds}; /proc/{p.pid}/fd held {fds_before} before and {fds_after} after")
    check(metrics.get("process_max_fds") == soft, f"process_max_fds {metrics.get('process_max_fds')}, prlimit says {soft}")
    check(abs(metrics.get("process_start_time_seconds", 0) - start) < 0.011,
          f"process_start_time_seconds {metrics.get('process_start_time_seconds')}, /proc says {start}")
    check(launched - 1 <= start <= time.time(), f"start time {start} is not when the process was launched ({launched})")
    check(abs(metrics.get("process_resident_memory_bytes", 0) - rss) <= 0.2 * rss,
          f"process_resident_memory_bytes {metrics.get('process_resident_memory_bytes')}, VmRSS {rss}")
    check(abs(metrics.get("process_virtual_memory_bytes", 0) - vsize) <= 0.05 * vsize,
          f"process_virtual_memory_bytes {metrics.get('process_virtual_memory_bytes')}, VmSize {vsize}")
    build = [k for k in metrics if k.startswith("loaderd_build_info{")]
    check(len(build) == 1 and f'version="{version}"' in build[0] and metrics[build[0]] == 1,
          f"loaderd_build_info {build}, version {version}")
    for f in failures:
        print(f"  FAILED: {f}")
    print(f"process metrics: {'all passed' if not failures else f'{len(failures)} failed'}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
