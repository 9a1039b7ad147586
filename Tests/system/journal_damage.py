#!/usr/bin/env python3
"""One flipped bit in a middle record of the session journal, then a restart.

loaderd runs with a data directory; sessions get events, each acknowledged
(202). loaderd is stopped (SIGKILL), one bit is flipped in a record in the
middle of the journal, and it starts again on the same directory. Every
acknowledged event must still be there (GET /sessions/{id}) except the one in
the damaged record, and only where that record cannot be read: a bit in its
payload or payload checksum loses that event; a bit in its length or header
checksum loses none (the record's own payload checksum still matches). The
start-up log must say what was read past and where the damaged part was
kept, and that file must hold the journal from the damaged record on.

The record format (docs/RELIABILITY.md) is decoded here with zlib's CRC-32:
[length u24][0x1E][payload crc32][crc32 of the 8 bytes before][payload].

    Tests/system/journal_damage.py path/to/loaderd [--events 1200]
"""
import argparse, http.client, json, os, shutil, signal, struct, subprocess, sys, tempfile, zlib

import loaderd_process
from loaderd_process import free_port, session_events

SESSIONS = 4


def start(binary, port, data, log):
    return loaderd_process.start(binary, port, "--data-dir", data, "--log-level", "info", stdout=log)


def records(journal):
    """(offset, size, payload) of each record, by the format above; checks every header."""
    out, o = [], 0
    while o < len(journal):
        length = int.from_bytes(journal[o:o + 3], "little")
        assert journal[o + 3] == 0x1E, f"no record marker at {o}"
        crc, header_crc = struct.unpack_from("<II", journal, o + 4)
        assert header_crc == zlib.crc32(journal[o:o + 8]), f"header checksum at {o}"
        payload = journal[o + 12:o + 12 + length]
        assert crc == zlib.crc32(payload), f"payload checksum at {o}"
        out.append((o, 12 + length, payload))
        o += 12 + length
    return out


def run(binary, events, part):
    data = tempfile.mkdtemp(prefix="loaderd-damage-")
    port = free_port()
    server = start(binary, port, data, subprocess.DEVNULL)
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    sessions = []
    for _ in range(SESSIONS):
        c.request("POST", "/sessions", body='{"loader":"web"}', headers={"Content-Type": "application/json"})
        r = c.getresponse()
        body = json.loads(r.read())
        assert r.status == 201, r.status
        sessions.append((body["id"], body["token"]))
    acknowledged = {sid: [] for sid, _ in sessions}
    for i in range(events):
        sid, token = sessions[i % SESSIONS]
        c.request("POST", f"/sessions/{sid}/events", body='{"type":"progress"}',
                  headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
        r = c.getresponse()
        body = r.read()
        assert r.status == 202, (r.status, body)
        acknowledged[sid].append(json.loads(body)["t"])
    server.send_signal(signal.SIGKILL)
    server.wait()

    path = os.path.join(data, "sessions.journal")
    journal = bytearray(open(path, "rb").read())
    found = records(journal)
    assert len(found) == SESSIONS + events, (len(found), SESSIONS + events)
    offset, size, payload = found[len(found) // 2]
    record = json.loads(payload)
    assert record["op"] == "event", record
    at = {"length": offset + 1, "header checksum": offset + 9, "payload checksum": offset + 5,
          "payload": offset + 12 + len(payload) // 2}[part]
    journal[at] ^= 0x08
    open(path, "wb").write(journal)
    lost_expected = {(record["id"], record["t"])} if part in ("payload", "payload checksum") else set()

    log = tempfile.TemporaryFile()
    server = start(binary, port, data, log)
    lost, doubled, present = set(), 0, 0
    for sid, times in acknowledged.items():
        status, listed = session_events(port, sid)
        assert status == 200, status
        got = [e["t"] for e in listed]
        doubled += len(got) - len(set(got))
        present += len(set(times) & set(got))
        lost |= {(sid, t) for t in set(times) - set(got)}
    server.send_signal(signal.SIGTERM)
    server.wait()
    log.seek(0)
    lines = [json.loads(line) for line in log.read().splitlines() if line.startswith(b"{")]
    summary = [l for l in lines if l.get("msg") == "journal damage read past"]
    spans = [l for l in lines if l.get("msg") == "journal damage"]
    failures = []
    if lost != lost_expected:
        failures.append(f"lost {sorted(lost)}, expected {sorted(lost_expected)}")
    if doubled:
        failures.append(f"{doubled} doubled")
    if len(summary) != 1 or len(spans) != 1:
        failures.append(f"log: {len(summary)} summaries, {len(spans)} damage lines")
    else:
        s, d = summary[0], spans[0]
        expect = {"skippedRecords": 1 if part == "payload" else 0,
                  "repairedRecords": 1 if part in ("length", "header checksum") else 0,
                  "unreadableBytes": size if part == "payload checksum" else 0,
                  "keptAsideBytes": len(journal) - offset, "keptAsideFromOffset": offset}
        for key, value in expect.items():
            if s.get(key) != value:
                failures.append(f"log {key} {s.get(key)}, expected {value}")
        if d.get("offset") != offset or d.get("bytes") != size:
            failures.append(f"damage line {d}, expected offset {offset}, {size} bytes")
        kept = s.get("keptAside", "")
        if not kept.startswith(path + ".damaged-") or not os.path.exists(kept):
            failures.append(f"kept aside at {kept!r}: no such file")
        elif open(kept, "rb").read() != bytes(journal[offset:]):
            failures.append("the kept file is not the journal from the damaged record on")
    # The journal was rewritten clean: every record checks.
    try:
        records(open(path, "rb").read())
    except AssertionError as e:
        failures.append(f"journal after the restart: {e}")
    shutil.rmtree(data, ignore_errors=True)
    total = sum(len(t) for t in acknowledged.values())
    print(f"journal damage ({part}): a bit flipped in record {len(found) // 2} of {len(found)} "
          f"(offset {offset}, {size} bytes); {total} events acknowledged, {present} found after the restart, "
          f"{len(lost)} lost (expected {len(lost_expected)}), {doubled} doubled"
          + (f"; kept aside {summary[0].get('keptAsideBytes')} bytes" if summary else ""))
    for f in failures:
        print(f"  FAILED: {f}")
    return not failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--events", type=int, default=1200)
    a = ap.parse_args()
    parts = ["payload", "payload checksum", "length", "header checksum"]
    passed = sum(run(a.binary, a.events, part) for part in parts)
    print(f"journal damage: {passed} passed, {len(parts) - passed} failed")
    if passed != len(parts):
        sys.exit(1)


if __name__ == "__main__":
    main()
