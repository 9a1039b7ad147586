#!/usr/bin/env python3
"""The session journal when the disk is full, then has room again.

loaderd starts with a small file-size limit (RLIMIT_FSIZE, SIGXFSZ ignored),
so journal writes fail part-way as on a full disk: those events must get a
500, never a 2xx. Then the limit is lifted (prlimit) and more events are
posted; after SIGKILL and a restart every acknowledged event must be there,
once, including those after the failure (a torn record left in the middle of
the journal would hide them: the records after it would be read only by
searching past it).

Then a compaction on a really full disk: loaderd runs on a 64 KiB tmpfs (in
a mount namespace of its own, so this needs root) and compacts its journal
from 36 KiB on, which fails for want of space. The compaction's partial file
must be gone at once (before, it stayed and filled the disk until a
restart), events must still be acknowledged in the space it held, and a
restart on the same directory must find every acknowledged event.

    Tests/system/disk_full.py path/to/loaderd
"""
import http.client, json, os, resource, shutil, signal, subprocess, sys, tempfile

import loaderd_process
from loaderd_process import free_port, session_events

LIMIT = 16 * 1024


def start(binary, port, data, limit=None):
    def constrain():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))
    return loaderd_process.start(binary, port, "--data-dir", data, "--log-level", "off",
                                 preexec_fn=constrain if limit else None)


def post(conn, sid, token):
    conn.request("POST", f"/sessions/{sid}/events", body='{"type":"progress"}',
                 headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    r = conn.getresponse()
    body = r.read()
    return r.status, json.loads(body)


def main():
    binary = sys.argv[1]
    data = tempfile.mkdtemp(prefix="loaderd-full-")
    port = free_port()
    server = start(binary, port, data, LIMIT)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("POST", "/sessions", body='{"loader":"web"}', headers={"Content-Type": "application/json"})
    r = conn.getresponse()
    created = json.loads(r.read())
    assert r.status == 201, r.status
    sid, token = created["id"], created["token"]

    acknowledged, failed, wrong = [], 0, 0
    # Until the journal is full: each event that cannot be written gets a 500.
    for _ in range(2000):
        status, body = post(conn, sid, token)
        if status == 202:
            acknowledged.append(body["t"])
        elif status == 500 and body["error"]["code"] == "journal_failed":
            failed += 1
            if failed >= 20:
                break
        else:
            wrong += 1
    before = len(acknowledged)
    # Room again.
    resource.prlimit(server.pid, resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    for _ in range(200):
        status, body = post(conn, sid, token)
        if status == 202:
            acknowledged.append(body["t"])
        else:
            wrong += 1
    server.send_signal(signal.SIGKILL)
    server.wait()

    server = start(binary, port, data)
    status, events = session_events(port, sid)
    server.send_signal(signal.SIGTERM)
    server.wait()
    shutil.rmtree(data, ignore_errors=True)
    listed = [e["t"] for e in events] if status == 200 else []
    present = set(listed)
    lost = len(set(acknowledged) - present)
    doubled = len(listed) - len(present)
    print(f"disk full: {before} events acknowledged, then {failed} answered 500 at the {LIMIT // 1024} KiB limit; "
          f"{len(acknowledged) - before} more acknowledged once there was room; after SIGKILL and restart "
          f"{len(acknowledged) - lost} found, {lost} lost, {doubled} doubled; {wrong} unexpected answers")
    ok = not (failed == 0 or lost or doubled or wrong or len(acknowledged) == before)
    if not ok:
        print("FAILED")
    ok2 = compaction_on_a_full_disk(binary)
    passed = int(ok) + int(ok2)
    print(f"disk full: {passed} passed, {2 - passed} failed")
    if passed != 2:
        sys.exit(1)


TMPFS = 64 * 1024
COMPACT_AT = 36 * 1024


def compaction_on_a_full_disk(binary):
    data = tempfile.mkdtemp(prefix="loaderd-tmpfs-")
    # The namespace's holder: the tmpfs lives as long as it does, across
    # loaderd's restart.
    holder = subprocess.Popen(["unshare", "-m", "--propagation", "private", "sh", "-c",
                               f"mount -t tmpfs -o size={TMPFS} tmpfs {data} && echo mounted && exec sleep 300"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    line = holder.stdout.readline()
    if line.strip() != b"mounted":
        print(f"compaction on a full disk: FAILED: no tmpfs (this test needs root): {holder.stderr.read().decode().strip()}")
        holder.kill()
        return False
    inside = f"/proc/{holder.pid}/root{data}"
    env = dict(os.environ, LOADERD_JOURNAL_COMPACT_BYTES=str(COMPACT_AT), LOADERD_ACCESS_LOG="false")
    port = free_port()

    def start_inside(log):
        p = subprocess.Popen(["nsenter", "-t", str(holder.pid), "-m", os.path.abspath(binary), "--port", str(port), "--data-dir", data,
                              "--log-level", "info"], env=env, stdout=log, stderr=subprocess.DEVNULL)
        loaderd_process.wait_ready(port, p)
        return p

    failures = []
    log = tempfile.TemporaryFile()
    server = start_inside(log)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("POST", "/sessions", body='{"loader":"web"}', headers={"Content-Type": "application/json"})
    r = conn.getresponse()
    created = json.loads(r.read())
    sid, token = created["id"], created["token"]

    def compaction_failed():
        log.seek(0)
        return b'"journal compaction failed"' in log.read()

    acknowledged, refused, after_failure, leftover_seen = [], 0, 0, None
    failed_at = None
    # Until the compaction has failed, then until the disk is full: every
    # write that cannot be made gets a 500.
    for _ in range(3000):
        status, body = post(conn, sid, token)
        if status == 202:
            acknowledged.append(body["t"])
            if failed_at is not None:
                after_failure += 1
        elif status == 500 and body["error"]["code"] == "journal_failed":
            refused += 1
            if refused >= 5:
                break
        else:
            failures.append(f"answer {status} {body}")
            break
        if failed_at is None and compaction_failed():
            failed_at = len(acknowledged)
            # The failure is logged after the partial file was removed.
            leftover_seen = os.path.exists(inside + "/sessions.journal.compact")
    journal_bytes = os.path.getsize(inside + "/sessions.journal")
    leftover_at_end = os.path.exists(inside + "/sessions.journal.compact")
    server.send_signal(signal.SIGKILL)
    server.wait()
    log2 = tempfile.TemporaryFile()
    server = start_inside(log2)
    status, events = session_events(port, sid)
    server.send_signal(signal.SIGTERM)
    server.wait()
    holder.kill()
    holder.wait()
    shutil.rmtree(data, ignore_errors=True)
    listed = [e["t"] for e in events] if status == 200 else []
    lost = len(set(acknowledged) - set(listed))
    doubled = len(listed) - len(set(listed))
    if failed_at is None:
        failures.append("the compaction never failed")
    if leftover_seen or leftover_at_end:
        failures.append("the compaction's partial file stayed")
    if after_failure == 0:
        failures.append("nothing acknowledged after the failed compaction")
    if refused == 0:
        failures.append("the disk never filled")
    if lost or doubled:
        failures.append(f"{lost} lost, {doubled} doubled after the restart")
    print(f"compaction on a full disk ({TMPFS // 1024} KiB tmpfs, compaction from {COMPACT_AT // 1024} KiB): "
          f"{failed_at} events acknowledged when the compaction failed, no partial file left: "
          f"{not (leftover_seen or leftover_at_end)}; {after_failure} more acknowledged in the space it had held, "
          f"then {refused} answered 500 at {journal_bytes} journal bytes; after SIGKILL and restart "
          f"{len(acknowledged) - lost} found, {lost} lost, {doubled} doubled")
    for f in failures:
        print(f"  FAILED: {f}")
    return not failures


if __name__ == "__main__":
    main()
