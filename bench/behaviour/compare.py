#!/usr/bin/env python3
"""Byte-for-byte behaviour check of two loaderd binaries.

    bench/behaviour/compare.py BEFORE AFTER

Starts each binary in turn (the same config.json, the loaders in loaders/,
a fresh data directory, port 0), sends every request of corpus.jsonl in
order, each on a connection of its own, and compares the status line, the
headers and the body bytes of every answer. Prints the rules it normalises
by, a summary and a short diff of each answer that differs; exits 1 on any
difference, or when a (path, method) of /openapi.json is not in the corpus.

Then the corpus's requests that carry an Origin (and need no captured
variable) run again under config-allowlist.json, where only
https://page.example may read, each also with an origin that is not listed:
the CORS answers of a list differ from those of `*` (Vary, the origin
echoed, a preflight judged by its Origin), and `*` alone once hid a
preflight that lost its Allow-Methods under a list.

A corpus line is a JSON object:
  name, method, path           the request (${var} is replaced, see capture_*; ${c*n} is c n times)
  headers                      sent in order after Host
  body | body_repeat [s, n]    the body (s repeated n times), with Content-Length
  raw                          the request's bytes as they are (path/method only name it)
  stream                       an event stream: read up to the end of its first event
  capture_json {var: field}    keep a field of the JSON answer (a session id, a token)
  capture_headers {var: name}  keep a header of the answer (an ETag)
  volatile                     the answer depends on the moment: see RULES
"""
import json, os, re, shutil, signal, socket, subprocess, sys, tempfile, threading, time

HERE = os.path.dirname(os.path.abspath(__file__))
TIMEOUT = 120  # an export may take up to a minute on a loaded machine

# Headers that carry the time of the answer, left out of the comparison.
TIME_HEADERS = {"date"}

RULES = [
    "header Date: left out (the time of the answer)",
    "captured values (session ids and tokens, which are 128 and 256 random bits with no seed; "
    "ETags, which are compared where they are first seen): replaced by ${name} in head and body",
    "volatile=session (answers of /sessions that carry the session clock): \"createdAt\":\"…\" -> <time>, "
    "\"t\":<number> -> <t>, \"clock (N s)\" in a message -> <t>, an event's 'id: N' -> <id> "
    "(ticks since the session began), \"viewers\":N -> <viewers> (a viewer leaves when the server "
    "notices its closed connection, at a moment of its own)",
    "volatile=session-frame: as session, and every number in the body -> <n> (a frame of the moment "
    "the request arrived; keys, ids, shapes and colours still compared)",
    "volatile=session-stream (the stream of a session that finished or stopped a moment ago): as "
    "session, and each 'data:' line -> <frame> (whether its first frame is before or after the event "
    "depends on the tick it falls in)",
    "volatile=clock (clock=shared streams): 'id: N' -> <id> and every number -> <n> (the frame of "
    "the Unix time the request arrived)",
    "volatile=metrics: each sample's value dropped, series names and labels compared (counts, "
    "latencies, memory and CPU of the process)",
    "Content-Length: compared only where no rule changed the body; where one did, each binary's must "
    "equal its own body's length (and a HEAD of a volatile answer has no body to measure it by)",
]


def start(binary, data_dir, config="config.json"):
    """The binary on 127.0.0.1 port 0 once /readyz answers: (process, port)."""
    p = subprocess.Popen([binary, "--config", os.path.join(HERE, config), "--port", "0",
                          "--data-dir", data_dir, "--loaders-dir", os.path.join(HERE, "loaders")],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    port = None
    deadline = time.monotonic() + 60
    for line in p.stdout:
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if record.get("msg") == "started":
            port = int(record["address"].rsplit(":", 1)[1])
            break
        if time.monotonic() > deadline:
            break
    if port is None:
        p.kill()
        raise SystemExit(f"{binary} did not start")
    # Keep reading its log so that it never blocks on a full pipe.
    threading.Thread(target=lambda: [None for _ in p.stdout], daemon=True).start()
    while time.monotonic() < deadline:
        try:
            if exchange(port, b"GET /readyz HTTP/1.1\r\nHost: loaderd.test\r\n\r\n", "GET", False)[0].startswith(b"HTTP/1.1 200"):
                return p, port
        except OSError:
            time.sleep(0.05)
    p.kill()
    raise SystemExit(f"{binary} never became ready")


def stop(p):
    p.send_signal(signal.SIGTERM)
    try:
        p.wait(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()


def substitute(text, variables):
    """${name}: a captured value; ${c*n}: the character c n times."""
    text = re.sub(r"\$\{(.)\*(\d+)\}", lambda m: m.group(1) * int(m.group(2)), text)
    return re.sub(r"\$\{(\w+)\}", lambda m: variables[m.group(1)], text)


def request_bytes(entry, variables):
    if "raw" in entry:
        return substitute(entry["raw"], variables).encode("latin-1")
    if "body_repeat" in entry:
        body = (entry["body_repeat"][0] * entry["body_repeat"][1]).encode()
    else:
        body = entry["body"].encode() if "body" in entry else None
    lines = [f"{entry['method']} {substitute(entry['path'], variables)} HTTP/1.1", "Host: loaderd.test"]
    for name, value in entry.get("headers", {}).items():
        lines.append(f"{name}: {substitute(value, variables)}")
    if body is not None:
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + (body or b"")


def exchange(port, data, method, stream):
    """(head, body) of one answer on a new connection; for a stream, the
    body up to the end of its first event (a block with a data line)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
    try:
        try:
            s.sendall(data)
        except OSError:
            pass  # refused before the body was read (413): the answer is still there to read
        got = b""
        while b"\r\n\r\n" not in got:
            chunk = s.recv(65536)
            if not chunk:
                return got, b""
            got += chunk
        head, rest = got.split(b"\r\n\r\n", 1)
        status = int(head.split(b" ", 2)[1])
        headers = {}
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            headers[name.strip().lower()] = value.strip()
        if method == "HEAD" or status in (204, 304) or status < 200:
            return head, b""
        if b"content-length" in headers:
            n = int(headers[b"content-length"])
            while len(rest) < n:
                chunk = s.recv(65536)
                if not chunk:
                    break
                rest += chunk
            return head, rest
        if headers.get(b"transfer-encoding", b"").lower() == b"chunked":
            while not rest.endswith(b"0\r\n\r\n"):
                chunk = s.recv(65536)
                if not chunk:
                    break
                rest += chunk
            return head, rest
        while True:
            if stream:
                end = 0
                for block in rest.split(b"\n\n")[:-1]:  # the last is not complete yet
                    end += len(block) + 2
                    if re.search(rb"^data:", block, re.M):
                        return head, rest[:end]
            chunk = s.recv(65536)
            if not chunk:
                return head, rest
            rest += chunk
    finally:
        s.close()


def run(binary, corpus, config="config.json"):
    """Every answer of `binary` to the corpus, normalised by RULES, and the
    /openapi.json it served."""
    data_dir = tempfile.mkdtemp(prefix="behaviour-")
    p, port = start(binary, data_dir, config)
    variables, answers, openapi = {}, [], None
    try:
        for entry in corpus:
            head, body = exchange(port, request_bytes(entry, variables), entry["method"], entry.get("stream", False))
            for var, field in entry.get("capture_json", {}).items():
                try:
                    variables[var] = str(json.loads(body)[field])
                except (ValueError, KeyError, TypeError):
                    variables[var] = f"<no {field}>"
            for var, name in entry.get("capture_headers", {}).items():
                m = re.search(rb"^" + name.encode() + rb": *(.*)$", head, re.M | re.I)
                variables[var] = m.group(1).strip().decode("latin-1") if m else f"<no {name}>"
            if entry["path"] == "/openapi.json" and entry["method"] == "GET" and head.startswith(b"HTTP/1.1 200"):
                openapi = json.loads(body)
            answers.append(normalise(entry, head, body, variables))
    finally:
        stop(p)
        shutil.rmtree(data_dir, ignore_errors=True)
    return answers, openapi


def normalise(entry, head, body, variables):
    """(head lines, body, notes) with RULES applied."""
    original = body
    for name, value in sorted(variables.items(), key=lambda kv: -len(kv[1])):
        if len(value) >= 8:
            body = body.replace(value.encode("latin-1"), b"${" + name.encode() + b"}")
            head = head.replace(value.encode("latin-1"), b"${" + name.encode() + b"}")
    volatile = entry.get("volatile")
    if volatile in ("session", "session-frame", "session-stream"):
        body = re.sub(rb'"createdAt":"[^"]*"', b'"createdAt":"<time>"', body)
        body = re.sub(rb'"viewers":[0-9]+', b'"viewers":<viewers>', body)
        body = re.sub(rb'"t":-?[0-9][0-9.eE+-]*', b'"t":<t>', body)
        body = re.sub(rb"^id: *\d+$", b"id: <id>", body, flags=re.M)
        body = re.sub(rb"clock \(-?[0-9][0-9.eE+-]* s\)", b"clock (<t> s)", body)
    if volatile == "session-stream":
        body = re.sub(rb"^data: .*$", b"data: <frame>", body, flags=re.M)
    if volatile in ("session-frame", "clock"):
        body = re.sub(rb"^id: *\d+$", b"id: <id>", body, flags=re.M)
        body = re.sub(rb'(?<=[:,\[])-?[0-9][0-9.eE+-]*', b"<n>", body)
    if volatile == "metrics":
        body = re.sub(rb"^([^#\n][^ \n]*) [^\n]*$", rb"\1", body, flags=re.M)
    lines = head.split(b"\r\n")
    kept, notes = [lines[0]], []
    for line in lines[1:]:
        name = line.split(b":", 1)[0].strip().lower().decode("latin-1")
        if name in TIME_HEADERS:
            continue
        if name == "content-length" and (body != original or (volatile and entry["method"] == "HEAD")):
            if int(line.split(b":", 1)[1]) != len(original) and entry["method"] != "HEAD":
                notes.append(f"Content-Length {line.split(b':', 1)[1].strip().decode()} is not the body's {len(original)}")
            continue
        kept.append(line)
    return kept, body, notes


def templates_hit(corpus, openapi):
    """The (path, method) pairs of the OpenAPI document no corpus request hits:
    each request counts for the most specific path (an exact one before a
    template's {…})."""
    paths = {p: {m.upper() for m in ops if m in ("get", "post", "put", "delete", "patch", "options", "head")}
             for p, ops in openapi["paths"].items()}
    hit = set()
    for entry in corpus:
        path = entry["path"].split("?", 1)[0]
        if path in paths:
            hit.add((path, entry["method"]))
            continue
        for p in paths:
            if "{" in p and re.fullmatch(re.sub(r"\\\{\w+\\\}", "[^/]+", re.escape(p)), path):
                hit.add((p, entry["method"]))
    return sorted((p, m) for p, ms in paths.items() for m in ms if (p, m) not in hit)


def show(b, limit=160):
    return b[:limit].decode("utf-8", "replace").replace("\n", "\\n").replace("\r", "\\r")


def differences(corpus, a, b):
    """Prints each answer that differs; (how many differ, length mismatches)."""
    differing, problems = 0, 0
    for entry, (ha, ba, na), (hb, bb, nb) in zip(corpus, a, b):
        for note in na + nb:
            problems += 1
            print(f"! {entry['name']}: {note}")
        if ha == hb and ba == bb:
            continue
        differing += 1
        print(f"DIFFERS: {entry['name']} ({entry['method']} {entry['path'][:100]})")
        for line in sorted(set(ha) ^ set(hb), key=lambda l: (l not in ha, l)):
            print(f"   {'before' if line in ha else 'after '}: {show(line)}")
        if ha != hb and set(ha) == set(hb):
            print("   the same headers in another order")
        if ba != bb:
            i = next((k for k in range(min(len(ba), len(bb))) if ba[k] != bb[k]), min(len(ba), len(bb)))
            print(f"   body ({len(ba)} vs {len(bb)} bytes) first differs at byte {i}:")
            print(f"   before: …{show(ba[max(0, i - 40):i + 80])}")
            print(f"   after : …{show(bb[max(0, i - 40):i + 80])}")
    return differing, problems


def allowlist_corpus(corpus):
    """The requests with an Origin and no captured variable, each as it is
    (a listed origin) and with an origin the list does not have."""
    listed = []
    for entry in corpus:
        headers = entry.get("headers", {})
        if not any(k.lower() == "origin" for k in headers) or "${" in json.dumps(entry):
            continue
        listed.append(dict(entry, name=entry["name"] + " (listed origin)"))
        other = {k: ("https://elsewhere.example" if k.lower() == "origin" else v) for k, v in headers.items()}
        listed.append(dict(entry, name=entry["name"] + " (origin not listed)", headers=other))
    return listed


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    before, after = sys.argv[1:]
    with open(os.path.join(HERE, "corpus.jsonl")) as f:
        corpus = [json.loads(line) for line in f if line.strip()]
    print("Normalised by these rules:")
    for rule in RULES:
        print("  -", rule)
    print(f"Corpus: {len(corpus)} requests. Running {before} …", flush=True)
    a, openapi = run(before, corpus)
    print(f"Running {after} …", flush=True)
    b, _ = run(after, corpus)
    differing, problems = differences(corpus, a, b)
    listed = allowlist_corpus(corpus)
    print(f"Allow-list pass: {len(listed)} requests with an Origin under config-allowlist.json …", flush=True)
    la, _ = run(before, listed, "config-allowlist.json")
    lb, _ = run(after, listed, "config-allowlist.json")
    d, pr = differences(listed, la, lb)
    differing, problems = differing + d, problems + pr
    corpus = corpus + listed
    missing = templates_hit(corpus, openapi) if openapi else [("/openapi.json", "GET (not served)")]
    for path, method in missing:
        print(f"NOT COVERED: {method} {path}")
    statuses = {}
    for head, _, _ in a:
        status = head[0].split(b" ")[1].decode() if len(head[0].split(b" ")) > 1 else "?"
        statuses[status] = statuses.get(status, 0) + 1
    print(f"Statuses (before): {', '.join(f'{k}×{v}' for k, v in sorted(statuses.items()))}")
    print(f"Requests: {len(corpus)}, identical: {len(corpus) - differing}, differing: {differing}, "
          f"OpenAPI (path, method) pairs not covered: {len(missing)}, length mismatches: {problems}")
    sys.exit(1 if differing or missing or problems else 0)


if __name__ == "__main__":
    main()
