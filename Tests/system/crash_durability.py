#!/usr/bin/env python3
"""Kills loaderd with SIGKILL while session events are posted at a high rate,
restarts it on the same data directory, and checks that every event that got
a 2xx is there, once. Exits 1 if any acknowledged event is lost or doubled.
With --compact-bytes the journal is compacted while the burst runs (the kill
may land in the middle of a compaction).

    Tests/system/crash_durability.py path/to/loaderd [--seconds 1.5] [--writers 8] [--compact-bytes N]
"""
import argparse, http.client, json, os, shutil, signal, subprocess, sys, tempfile, threading, time

import loaderd_process
from loaderd_process import free_port, session_events

def start(binary, port, data, compact_bytes=None, log=subprocess.DEVNULL):
    env = dict(os.environ)
    if compact_bytes:
        env["LOADERD_JOURNAL_COMPACT_BYTES"] = str(compact_bytes)
        env["LOADERD_ACCESS_LOG"] = "false"
    return loaderd_process.start(binary, port, "--data-dir", data, "--log-level", "info", env=env, stdout=log)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--seconds", type=float, default=1.5)
    ap.add_argument("--writers", type=int, default=8)
    ap.add_argument("--sessions", type=int, default=16)
    ap.add_argument("--compact-bytes", type=int, default=None)
    a = ap.parse_args()
    data = tempfile.mkdtemp(prefix="loaderd-crash-")
    port = free_port()
    log = tempfile.TemporaryFile()
    server = start(a.binary, port, data, a.compact_bytes, log)

    sessions = []
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    for _ in range(a.sessions):
        c.request("POST", "/sessions", body='{"loader":"web"}', headers={"Content-Type": "application/json"})
        r = c.getresponse()
        body = json.loads(r.read())
        assert r.status == 201, r.status
        sessions.append((body["id"], body["token"]))

    acknowledged = []   # (session id, t) of every 2xx
    lock = threading.Lock()
    stop = threading.Event()
    errors = [0]

    def writer(n):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        i = n
        while not stop.is_set():
            sid, token = sessions[i % len(sessions)]
            i += a.writers
            try:
                conn.request("POST", f"/sessions/{sid}/events", body='{"type":"progress"}',
                             headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
                r = conn.getresponse()
                body = r.read()
                if r.status == 202:
                    with lock:
                        acknowledged.append((sid, json.loads(body)["t"]))
            except (OSError, http.client.HTTPException):
                errors[0] += 1  # the kill: no answer means not acknowledged
                return

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(a.writers)]
    started = time.monotonic()
    for t in threads: t.start()
    time.sleep(a.seconds)
    server.send_signal(signal.SIGKILL)   # mid-burst, with requests in flight
    server.wait()
    log.seek(0)
    compactions = log.read().count(b'"journal compacted"')
    elapsed = time.monotonic() - started
    stop.set()
    for t in threads: t.join()

    server = start(a.binary, port, data)
    lost = 0
    found = 0
    doubled = 0
    by_session = {}
    for sid, t in acknowledged:
        by_session.setdefault(sid, set()).add(t)
    for sid, times in by_session.items():
        _, events = session_events(port, sid)
        listed = [e["t"] for e in events]
        present = set(listed)
        doubled += len(listed) - len(present)
        found += len(times & present)
        lost += len(times - present)
    server.send_signal(signal.SIGTERM)
    server.wait()
    shutil.rmtree(data, ignore_errors=True)
    rate = len(acknowledged) / elapsed if elapsed > 0 else 0
    compacted = f", {compactions} journal compactions while running" if a.compact_bytes else ""
    print(f"crash durability: {len(acknowledged)} events acknowledged in {elapsed:.2f} s "
          f"({rate:.0f}/s, {a.writers} writers{compacted}) before SIGKILL; after restart {found} found, {lost} lost, {doubled} doubled")
    if not acknowledged or lost or doubled:
        print("FAILED: acknowledged events lost" if lost else "FAILED: events doubled" if doubled else "FAILED: nothing was acknowledged")
        sys.exit(1)
    if a.compact_bytes and not compactions:
        print("FAILED: the journal was never compacted while running")
        sys.exit(1)

if __name__ == "__main__":
    main()
