#!/usr/bin/env python3
"""loaderd at the edge, as users deploy it: nginx terminates TLS (a
self-signed certificate made here with openssl) and speaks HTTP/2 to the
clients, in front of two replicas that share their sessions in Redis. The
nginx configuration is deploy/edge/nginx.conf itself; only the addresses,
the certificate paths and the read timeout are changed (shortened with
loaderd's heartbeat, to keep the test quick).

1. Every endpoint answers through the edge as it does directly (status,
   type, body), over HTTP/2 (curl's %{http_version}).
2. Ten event streams share one HTTP/2 connection (curl --parallel: one
   connect) and each delivers its frames.
3. A stream stays open past nginx's read timeout thanks to heartbeats; the
   same file with a replica whose heartbeat is longer than the timeout cuts
   it (the check sees the difference).
4. The access log names the client: behind the trusted proxy, the address
   nginx forwards; a forged X-Forwarded-For from an untrusted client is not
   believed, through the edge or directly.
5. Headless Chromium, over HTTPS and HTTP/2 (the DevTools protocol's
   `protocol`), draws every loader of the demo page, then holds ten more
   event streams on the shared clock at once, on a quiet page of the same
   origin; each frame's arrival against its scheduled moment (k/fps since
   the epoch) is measured in the browser on the wall clock: p99 within
   50 ms. A replica samples the wall clock's offset once a minute, and a
   machine whose clock is being slewed moves the two apart, so each
   replica's schedule is read directly at the same time and its error
   taken off.
6. deploy/kubernetes/ingress.yaml asks ingress-nginx for the same stream
   settings; DEPLOY.md shows both files as they are.
Exits 1 on failure.

    Tests/system/edge.py path/to/loaderd output-dir
"""
import json, os, re, shutil, socket, subprocess, sys, tempfile, threading, time, urllib.request

from browser_test import chromium
from cdp import Browser
from loaderd_process import free_port, start

HEARTBEAT = 0.25        # loaderd's streamHeartbeatSeconds here (15 in production)
READ_TIMEOUT = "800ms"  # nginx's proxy_read_timeout here (60s in the file)
failures = []


def check(ok, what):
    print(("ok: " if ok else "FAILED: ") + what)
    if not ok:
        failures.append(what)


def render(template, name, front, servers, cert, key, read_timeout):
    """deploy/edge/nginx.conf with its addresses, certificate and read timeout replaced."""
    text = template
    for old, new in [
        ("    server 10.0.0.11:8080;\n    server 10.0.0.12:8080;\n", "".join(f"    server 127.0.0.1:{p};\n" for p in servers)),
        ("listen 443 ssl http2;", f"listen 127.0.0.1:{front} ssl http2;"),
        ("/etc/nginx/tls/loaders.example.com.crt", cert),
        ("/etc/nginx/tls/loaders.example.com.key", key),
        ("proxy_read_timeout 60s;", f"proxy_read_timeout {read_timeout};"),
        ("upstream loaderd {", f"upstream {name} {{"),
        ("proxy_pass http://loaderd;", f"proxy_pass http://{name};"),
    ]:
        if text.count(old) != 1:
            raise SystemExit(f"FAILED: deploy/edge/nginx.conf no longer has {old.strip()!r} once")
        text = text.replace(old, new)
    return text


def curl(url, *args, interface=None):
    command = ["curl", "-sk", "--http2", "--max-time", "20", *args]
    if interface:
        command += ["--interface", interface]
    return subprocess.run(command + [url], capture_output=True)


def fetch(url, method="GET", body=None, headers=None):
    """Directly, HTTP/1.1: (status, content type, body)."""
    request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, r.headers.get("Content-Type"), r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type"), e.read()


def through_edge(base, path, method="GET", body=None, headers=None):
    """Through nginx, HTTP/2: (status, content type, body, http version)."""
    out = tempfile.mktemp()
    args = ["-o", out, "-w", "%{http_code} %{http_version} %{content_type}", "-X", method]
    if body is not None:
        args += ["--data-binary", body]
    for name, value in (headers or {}).items():
        args += ["-H", f"{name}: {value}"]
    r = curl(base + path, *args)
    status, version, content_type = (r.stdout.decode().split(" ", 2) + ["", ""])[:3]
    data = open(out, "rb").read() if os.path.exists(out) else b""
    return int(status or 0), content_type or None, data, version


def direct_lateness(port, found, seconds=6):
    """Reads a shared-clock stream from one replica directly for `seconds`; appends each frame's arrival on the
    wall clock less its moment (id/30 s), in ms."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(f"GET /loaders/typing/frames?stream=sse&fps=30&clock=shared&duration={seconds} HTTP/1.1\r\n"
                  f"Host: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        pending = b""
        while True:
            chunk = s.recv(65536)
            now = time.time()
            if not chunk:
                return
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for line in lines:
                if line.startswith(b"id: "):
                    found.append(now * 1000 - int(line[4:]) * 1000 / 30)


def main():
    binary, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="loaderd-edge-")
    os.chmod(work, 0o755)
    cert, key = os.path.join(work, "edge.crt"), os.path.join(work, "edge.key")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", key, "-out", cert],
                   check=True, capture_output=True)
    os.chmod(key, 0o644)  # a throwaway key; nginx's workers read it

    redis_port = free_port()
    redis = subprocess.Popen(["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "", "--dir", work],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    processes, nginx_conf = [redis], None
    try:
        for _ in range(500):
            try:
                socket.create_connection(("127.0.0.1", redis_port), timeout=1).close(); break
            except OSError:
                time.sleep(0.02)
        env = dict(os.environ, LOADERD_SESSION_STORE=f"redis://127.0.0.1:{redis_port}", LOADERD_TRUSTED_PROXIES="127.0.0.1",
                   LOADERD_STREAM_HEARTBEAT_SECONDS=str(HEARTBEAT))
        replicas, logs = [], []
        for i in range(2):
            port = free_port()
            log = open(os.path.join(work, f"replica{i}.log"), "w")
            logs.append(log.name)
            processes.append(start(binary, port, "--log-level", "info", env=env, stdout=log))
            replicas.append(port)
        # The self-check: a replica whose heartbeat is longer than nginx's read timeout.
        quiet_port = free_port()
        processes.append(start(binary, quiet_port, "--log-level", "warning",
                               env=dict(env, LOADERD_STREAM_HEARTBEAT_SECONDS="30")))

        template = open("deploy/edge/nginx.conf").read()
        front, quiet_front = free_port(), free_port()
        nginx_conf = os.path.join(work, "nginx.conf")
        with open(nginx_conf, "w") as f:
            f.write(f"worker_processes 1;\npid {work}/nginx.pid;\nerror_log {work}/error.log;\nevents {{ worker_connections 1024; }}\n"
                    f"http {{\naccess_log off;\n"
                    + render(template, "loaderd", front, replicas, cert, key, READ_TIMEOUT)
                    + render(template, "loaderd_quiet", quiet_front, [quiet_port], cert, key, READ_TIMEOUT) + "}\n")
        subprocess.run(["nginx", "-c", nginx_conf], check=True)
        base, quiet = f"https://127.0.0.1:{front}", f"https://127.0.0.1:{quiet_front}"
        direct = f"http://127.0.0.1:{replicas[0]}"
        for _ in range(200):
            if curl(base + "/readyz").returncode == 0: break
            time.sleep(0.05)

        # 1. Every endpoint, through the edge and directly.
        definition = json.dumps({"format": 1, "name": "edge", "summary": "A dot that fades.", "canvas": {"width": 20, "height": 20},
                                 "layers": [{"type": "circle", "id": "dot", "position": [10, 10], "diameter": 8,
                                             "animations": [{"type": "basic", "keyPath": "opacity", "fromValue": 1, "toValue": 0,
                                                             "duration": 1, "repeatCount": "infinity"}]}]}).encode()
        same = [("GET", p, None, {}) for p in [
            "/", "/healthz", "/version", "/loaders", "/loaders/typing", "/loaders/typing/frames?t=0.5",
            "/loaders/switch/frames?from=0&to=0.5&fps=10", "/loaders/typing/frames.svg?t=0.5", "/loaders/three-bounce/animation.svg",
            "/loaders/three-bounce/animation.json", "/loaders/three-bounce/animation.css", "/loaders/three-bounce/animation.html",
            "/openapi.json", "/loaders/spinner", "/loaders/typing/frames?t=-1", "/streams"]]
        same.append(("POST", "/loaders/preview?t=0.25", definition, {"Content-Type": "application/json"}))
        same.append(("GET", "/loaders/typing/frames?t=1", None, {"Accept": "text/html"}))
        versions = set()
        for method, path, body, headers in same:
            a = fetch(direct + path, method, body, headers)
            b = through_edge(base, path, method, body, headers)
            versions.add(b[3])
            if (a[0], a[1], a[2]) != b[:3]:
                check(False, f"{method} {path}: directly {a[0]} {a[1]} {len(a[2])} bytes, through the edge {b[0]} {b[1]} {len(b[2])} bytes")
        check(not any(f.startswith("GET /") or f.startswith("POST /") for f in failures),
              f"{len(same)} requests answer the same through the edge as directly")
        # Sessions: made through the edge, seen on both replicas (Redis), events accepted.
        status, _, created, _ = through_edge(base, "/sessions", "POST", b'{"loader":"web"}', {"Content-Type": "application/json"})
        session = json.loads(created) if status == 201 else {}
        event = through_edge(base, f"/sessions/{session.get('id')}/events", "POST", b'{"type":"progress"}',
                             {"Content-Type": "application/json", "Authorization": "Bearer " + session.get("token", "")})
        seen = [fetch(f"http://127.0.0.1:{p}/sessions/{session.get('id')}")[0] for p in replicas]
        check(status == 201 and event[0] == 202 and seen == [200, 200],
              f"a session made through the edge (201), an event (202), seen by both replicas {seen}")
        stream = through_edge(base, "/loaders/typing/frames?stream=sse&fps=30&duration=1")
        check(stream[0] == 200 and stream[2].count(b"event: frame") == 30 and stream[2].endswith(b'data: {"reason":"duration"}\n\n'),
              f"a stream through the edge: {stream[2].count(b'event: frame')} frames of 30, then its end")
        versions.add(stream[3])
        check(versions == {"2"}, f"every answer came over HTTP/2 (curl's http_version: {sorted(versions)})")

        # 2. Ten streams on one HTTP/2 connection.
        names = ["typing", "switch", "pulse-dots", "ripple", "equalizer", "fading-circle", "three-bounce", "wave", "double-bounce", "pacman"]
        args = ["--parallel", "--parallel-max", "10", "-w", "%{http_version} %{num_connects}\n"]
        files = []
        for name in names:
            files.append(os.path.join(work, f"stream-{name}"))
            args += ["-o", files[-1], f"{base}/loaders/{name}/frames?stream=sse&fps=30&duration=2&clock=shared"]
        r = subprocess.run(["curl", "-sk", "--http2", "--max-time", "20", *args], capture_output=True)
        lines = r.stdout.decode().split()
        connects = sum(int(n) for n in lines[1::2])
        frames = [open(f, "rb").read().count(b"event: frame") for f in files]
        check(set(lines[0::2]) == {"2"} and connects == 1 and all(n >= 55 for n in frames),
              f"ten streams over {connects} connection(s) ({sorted(set(lines[0::2]))}), frames each: {frames}")

        # 3. Heartbeats keep a stream open past the read timeout; without them nginx cuts it.
        started = time.monotonic()
        kept = curl(base + "/loaders/switch/frames?stream=sse&fps=1&duration=4")
        kept_for = time.monotonic() - started
        started = time.monotonic()
        cut = curl(quiet + "/loaders/switch/frames?stream=sse&fps=1&duration=4")
        cut_for = time.monotonic() - started
        check(kept.stdout.count(b"event: frame") == 4 and b'"reason":"duration"' in kept.stdout and b": keep-alive" in kept.stdout,
              f"with heartbeats every {HEARTBEAT} s a 1 fps stream outlives nginx's {READ_TIMEOUT} read timeout: "
              f"{kept.stdout.count(b'event: frame')} frames in {kept_for:.1f} s, then its end")
        check(b'"reason":"duration"' not in cut.stdout and cut_for < 3,
              f"self-check: with a 30 s heartbeat nginx cuts the same stream after {cut_for:.1f} s "
              f"({cut.stdout.count(b'event: frame')} frame(s))")

        # 4. The client in the access log (a path of its own for each request).
        forged = ["-o", "/dev/null", "-H", "X-Forwarded-For: 203.0.113.9"]
        # From 127.0.0.1 (the trusted proxy's own address), then from an untrusted client.
        curl(base + "/loaders/material-spinner/frames?t=0.1", *forged)
        curl(base + "/loaders/activity-indicator/frames?t=0.1", *forged, interface="127.0.0.5")
        subprocess.run(["curl", "-s", "--interface", "127.0.0.5", *forged, f"http://127.0.0.1:{replicas[1]}/loaders/cube-grid/frames?t=0.1"])
        wanted = {"/loaders/material-spinner/frames": "203.0.113.9", "/loaders/activity-indicator/frames": "127.0.0.5",
                  "/loaders/cube-grid/frames": "127.0.0.5"}
        found = {}
        deadline = time.monotonic() + 5
        while len(found) < len(wanted) and time.monotonic() < deadline:
            time.sleep(0.1)
            for path in logs:
                for line in open(path):
                    entry = json.loads(line)
                    if entry.get("msg") == "request" and entry.get("path") in wanted:
                        found[entry["path"]] = entry.get("client")
        check(found == wanted,
              "access log: through the trusted edge, the forwarded client; an untrusted client (127.0.0.5) as itself, "
              f"through the edge or directly, its forged X-Forwarded-For not believed: {found}")

        # 5. The browser over HTTPS and HTTP/2.
        with Browser(chromium(), os.path.join(out, "chromium-profile"), ["--ignore-certificate-errors"]) as browser:
            # A tall screen: a card's player streams only while it is in view.
            page = browser.open(base + "/?frames=40", device=(1280, 8000, 1, False))
            cards = '[...document.querySelectorAll("section.card")]'
            page.wait_for(f'{cards}.length > 3 && {cards}.every((c) => c.dataset.nonblank !== undefined)', 60)
            drawn = json.loads(page.evaluate(f'JSON.stringify({cards}.map((c) => [c.dataset.loader, Number(c.dataset.frames), c.dataset.nonblank]))'))
            check(all(f >= 40 and b == "true" for _, f, b in drawn), f"the demo page over HTTPS drew all {len(drawn)} cards")
            # The ten streams are measured on a quiet page: the demo's cards stop playing, so what is measured
            # is the edge, not a renderer busy drawing forty canvases on a small machine.
            page.evaluate(f"location.assign({json.dumps(base + '/healthz')})")
            page.wait_for(f"location.pathname === '/healthz' && document.readyState === 'complete'", 30)
            # Each replica's shared clock, read directly at the same time: how far its schedule is from the wall
            # clock now (it samples that offset once a minute; a clock being slewed moves the two apart).
            clock_errors = [[] for _ in replicas]
            readers = [threading.Thread(target=direct_lateness, args=(port, clock_errors[i]), daemon=True)
                       for i, port in enumerate(replicas)]
            for reader in readers:
                reader.start()
            page.evaluate("""(() => {
                window.lateness = [];
                const names = %s;
                window.streams = names.map((name) => {
                  const s = new EventSource(`/loaders/${name}/frames?stream=sse&fps=30&clock=shared`);
                  let first = true;
                  s.addEventListener("frame", (e) => {
                    // Date.now() is the system's wall clock itself, as the replicas' offsets are.
                    if (!first) window.lateness.push(Date.now() - Number(e.lastEventId) * 1000 / 30);
                    first = false;
                  });
                  return s;
                });
            })()""" % json.dumps(names))
            page.wait_for("window.lateness.length >= 10 * 90", 30)
            raw = sorted(page.evaluate("window.lateness"))
            open_streams = page.evaluate("window.streams.filter((s) => s.readyState === 1).length")
            page.evaluate("window.streams.forEach((s) => s.close())")
            for reader in readers:
                reader.join(15)
            # A frame read directly on 127.0.0.1 arrives well under a millisecond after it is sent, so the least
            # lateness seen directly is the replica's clock error; the replicas sample it together (step 2).
            errors = [min(e) if e else float("nan") for e in clock_errors]
            agree = all(e == e for e in errors) and max(errors) - min(errors) <= 5
            error = sum(errors) / len(errors) if agree else 0.0
            lateness = [x - error for x in raw]
            p50, p99 = lateness[len(lateness) // 2], lateness[int(0.99 * (len(lateness) - 1))]
            check(agree, f"the replicas' shared clocks agree: each one's schedule against the wall clock, read directly: "
                         f"{', '.join(f'{e:.1f} ms' for e in errors)}")
            check(open_streams == 10 and p99 <= 50,
                  f"{open_streams} streams open at once in Chromium over the edge; {len(lateness)} frames, "
                  f"arrival after their moment p50 {p50:.1f} ms, p99 {p99:.1f} ms (limit 50; "
                  f"{raw[len(raw) // 2]:.1f} and {raw[int(0.99 * (len(raw) - 1))]:.1f} ms by the wall clock, less the replicas' {error:.1f} ms)")
            responses = page.events("Network.responseReceived")
            protocols = {r["response"].get("protocol") for r in responses if r["response"]["url"].startswith(base)}
            stream_connections = {r["response"].get("connectionId") for r in responses if r["type"] == "EventSource"}
            check(protocols == {"h2"}, f"Chromium's protocol for every answer: {sorted(p or '?' for p in protocols)}")
            check(len(stream_connections) == 1,
                  f"the page's {sum(1 for r in responses if r['type'] == 'EventSource')} event streams on {len(stream_connections)} connection(s)")

        # 6. The Ingress asks for what the nginx file does; DEPLOY.md shows both files.
        ingress = open("deploy/kubernetes/ingress.yaml").read()
        annotations = dict(re.findall(r'nginx\.ingress\.kubernetes\.io/([\w-]+): "([^"]*)"', ingress))
        check(annotations.get("proxy-buffering") == "off" and "proxy_buffering off;" in template
              and int(annotations.get("proxy-read-timeout", 0)) == 60 and "proxy_read_timeout 60s;" in template
              and int(annotations.get("proxy-read-timeout", 0)) > 15,
              f"the Ingress annotations match deploy/edge/nginx.conf (buffering off, read timeout 60 s > the 15 s heartbeat): {annotations}")
        deploy = open("docs/DEPLOY.md").read()
        check(template.strip() in deploy and ingress.strip() in deploy, "docs/DEPLOY.md shows deploy/edge/nginx.conf and the Ingress as they are")
    finally:
        if nginx_conf and os.path.exists(os.path.join(os.path.dirname(nginx_conf), "nginx.pid")):
            subprocess.run(["nginx", "-c", nginx_conf, "-s", "stop"], capture_output=True)
        for p in processes:
            p.terminate()
            p.wait()
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        sys.exit(1)
    print("edge: 6 passed, 0 failed")


if __name__ == "__main__":
    main()
