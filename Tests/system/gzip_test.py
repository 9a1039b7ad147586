#!/usr/bin/env python3
"""gzip Content-Encoding against decoders loaderd did not write (run by
.ci/run): for the demo page, /client.js, the catalog, /openapi.json, an
animation.svg and a batch of frames, the gzip answer (Python's gzip module,
and curl --compressed through its zlib) is the identity answer byte for
byte; it says Content-Encoding: gzip, Vary: Accept-Encoding and its own
strong ETag, and that tag gives 304; HEAD gives the gzip length. Without
Accept-Encoding, or refusing gzip, the body is identity; an event stream
and a PNG are never compressed. Then headless Chromium loads the demo page:
the page, /client.js and /loaders come gzip'd (Network.responseReceived),
the catalog in under 40 KB on the wire (Network.loadingFinished's
encodedDataLength).

    Tests/system/gzip_test.py path/to/loaderd output-dir
"""
import gzip, http.client, os, socket, subprocess, sys, time, urllib.parse, zlib

from browser_test import chromium
from cdp import Browser
from loaderd_process import free_port, start

PATHS = ["/", "/client.js", "/loaders", "/openapi.json", "/loaders/typing/animation.svg",
         "/loaders/switch/frames?from=0&to=2&fps=30"]
CATALOG_LIMIT = 40_000

failures = []


def check(ok, message):
    print(("ok: " if ok else "FAILED: ") + message)
    if not ok:
        failures.append(message)


def request(port, path, headers=None, method="GET"):
    """(status, headers lower-cased, body); no Accept-Encoding unless given."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    c.putrequest(method, path, skip_accept_encoding=True)
    for name, value in (headers or {}).items():
        c.putheader(name, value)
    c.endheaders()
    r = c.getresponse()
    body = r.read()
    c.close()
    return r.status, {k.lower(): v for k, v in r.getheaders()}, body


def curl(port, path, *args):
    return subprocess.run(["curl", "-s", "--fail", *args, f"http://127.0.0.1:{port}{path}"],
                          capture_output=True, check=True, timeout=60).stdout


def over_http(port):
    for path in PATHS:
        status, plain_headers, plain = request(port, path)
        check(status == 200 and "content-encoding" not in plain_headers, f"{path}: identity without Accept-Encoding ({status}, {len(plain)} bytes)")
        status, headers, packed = request(port, path, {"Accept-Encoding": "gzip"})
        check(status == 200 and headers.get("content-encoding") == "gzip", f"{path}: Content-Encoding {headers.get('content-encoding')}")
        try:
            same = gzip.decompress(packed) == plain
        except (OSError, EOFError, zlib.error) as e:
            same = False
            print(f"{path}: Python's gzip refuses it: {e}")
        check(same, f"{path}: gzip.decompress of {len(packed)} bytes is the identity body ({len(plain)} bytes)")
        # zlib reads one member with its header and trailer checked (wbits 31).
        d = zlib.decompressobj(31)
        try:
            one = d.decompress(packed) == plain and d.eof and d.unused_data == b""
        except zlib.error:
            one = False
        check(one, f"{path}: one gzip member, nothing after it")
        check(headers.get("vary") == "Accept-Encoding" and plain_headers.get("vary") == "Accept-Encoding",
              f"{path}: Vary {headers.get('vary')!r} (identity: {plain_headers.get('vary')!r})")
        check(curl(port, path, "--compressed") == plain, f"{path}: curl --compressed gives the identity body")
        status, head, body = request(port, path, {"Accept-Encoding": "gzip"}, method="HEAD")
        check(status == 200 and head.get("content-length") == str(len(packed)) and body == b"",
              f"{path}: HEAD says Content-Length {head.get('content-length')} (gzip body {len(packed)})")
        tag, plain_tag = headers.get("etag"), plain_headers.get("etag")
        if plain_tag:
            check(tag == plain_tag[:-1] + '-gzip"', f"{path}: gzip ETag {tag} beside {plain_tag}")
            status, h, body = request(port, path, {"Accept-Encoding": "gzip", "If-None-Match": tag})
            check(status == 304 and body == b"" and h.get("etag") == tag, f"{path}: If-None-Match with the gzip tag: {status} {h.get('etag')}")
            status, h, body = request(port, path, {"If-None-Match": tag})
            check(status == 200 and body == plain, f"{path}: the gzip tag without Accept-Encoding gets the identity body ({status})")
            status, h, body = request(port, path, {"If-None-Match": plain_tag})
            check(status == 304 and h.get("etag") == plain_tag, f"{path}: If-None-Match with the identity tag: {status}")
        print(f"{path}: {len(plain)} bytes, {len(packed)} gzip'd")
    for value in ("gzip;q=0", "br", "identity", "*;q=0"):
        status, headers, body = request(port, "/loaders", {"Accept-Encoding": value})
        check(status == 200 and "content-encoding" not in headers and body[:1] == b"{", f"Accept-Encoding: {value}: identity")
    for value in ("x-gzip", "GZIP;q=0.5", "*", "identity;q=0.1, gzip"):
        status, headers, body = request(port, "/loaders", {"Accept-Encoding": value})
        check(headers.get("content-encoding") == "gzip", f"Accept-Encoding: {value}: gzip")
    status, headers, body = request(port, "/loaders/typing/frames.png", {"Accept-Encoding": "gzip"})
    check(status == 200 and "content-encoding" not in headers and body[:4] == b"\x89PNG", "a PNG is sent as it is")
    # An event stream: its head is read, then the connection closed.
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(b"GET /loaders/typing/frames HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\nAccept-Encoding: gzip\r\n\r\n")
    head = b""
    deadline = time.monotonic() + 10
    while b"\r\n\r\n" not in head and time.monotonic() < deadline:
        head += s.recv(4096)
    s.close()
    lines = head.split(b"\r\n\r\n")[0].decode().lower().split("\r\n")
    check(lines[0].startswith("http/1.1 200") and "content-type: text/event-stream; charset=utf-8" in lines
          and not any(l.startswith("content-encoding") for l in lines), f"an event stream is not compressed: {lines}")


def in_chromium(port, out):
    base = f"http://127.0.0.1:{port}"
    wanted = {"/", "/client.js", "/loaders"}
    with Browser(chromium(), os.path.join(out, "chromium-profile")) as browser:
        page = browser.open(base + "/", device=(1280, 800, 1, False))
        deadline = time.monotonic() + 30
        loads = {}
        while time.monotonic() < deadline:
            browser.pump(0.2)
            # Each request of a wanted path (the query aside: /client.js?v=…), and how it ended.
            received = {e["requestId"]: e for e in page.events("Network.responseReceived")
                        if e["response"]["url"].startswith(base) and urllib.parse.urlsplit(e["response"]["url"]).path in wanted}
            loads = {}
            for e in page.events("Network.loadingFinished"):
                if e["requestId"] in received:
                    r = received[e["requestId"]]
                    loads.setdefault(urllib.parse.urlsplit(r["response"]["url"]).path, []).append((r["response"], e["encodedDataLength"]))
            if set(loads) == wanted:
                break
        check(set(loads) == wanted, f"Chromium loaded {sorted(loads)}")
        for path, answers in sorted(loads.items()):
            # A second fetch of one URL may come from the memory cache: 0 bytes on the wire.
            for response, size in answers:
                headers = {k.lower(): v for k, v in response["headers"].items()}
                print(f"chromium: {path}: {size:.0f} bytes on the wire, Content-Encoding {headers.get('content-encoding')}"
                      + (" (from a cache)" if response.get("fromDiskCache") or size == 0 else ""))
                check(headers.get("content-encoding") == "gzip", f"chromium: {path} came gzip'd")
            wire = [size for _, size in answers if size > 0]
            check(bool(wire), f"chromium: {path} went over the network")
            if path == "/loaders":
                check(bool(wire) and max(wire) < CATALOG_LIMIT, f"chromium: /loaders took {wire} bytes on the wire (under {CATALOG_LIMIT} each)")


def main():
    binary, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    port = free_port()
    server = start(binary, port, "--log-level", "warning")
    try:
        over_http(port)
        in_chromium(port, out)
    finally:
        server.terminate()
        server.wait(timeout=30)
    if failures:
        sys.exit(f"gzip: {len(failures)} failed")
    print("gzip: passed")


if __name__ == "__main__":
    main()
