#!/usr/bin/env python3
"""The session journal when the disk is full, then has room again.

loaderd starts with a small file-size limit (RLIMIT_FSIZE, SIGXFSZ ignored),
so journal writes fail part-way as on a full disk: those events must get a
500, never a 2xx. Then the limit is lifted (prlimit) and more events are
posted; after SIGKILL and a restart every acknowledged event must be there,
once, including those after the failure (a torn record left in the middle of
the journal would hide them: replay stops at the first damaged record).

    Tests/system/disk_full.py path/to/loaderd
"""
import http.client, json, resource, shutil, signal, sys, tempfile

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
    if failed == 0 or lost or doubled or wrong or len(acknowledged) == before:
        print("FAILED")
        sys.exit(1)
    print("disk full: 1 passed, 0 failed")


if __name__ == "__main__":
    main()
