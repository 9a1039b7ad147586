"""What the system tests share: a free port, a loaderd (or any server)
that is ready to answer, a session's events, and pages of another origin."""
import http.client, http.server, json, socket, subprocess, threading, time


def free_port():
    """A port on 127.0.0.1 that nothing listens on now."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def wait_ready(port, process=None, seconds=20):
    """Polls GET /readyz until it answers 200; stops the process and exits if it never does."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            c.request("GET", "/readyz")
            if c.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.02)
    if process is not None:
        process.kill()
    raise SystemExit(f"nothing ready on port {port}")


def start(binary, port, *args, env=None, stdout=subprocess.DEVNULL, preexec_fn=None):
    """`binary --port PORT ARGS…`, once it is ready."""
    p = subprocess.Popen([binary, "--port", str(port), *args], env=env, stdout=stdout,
                         stderr=subprocess.DEVNULL, preexec_fn=preexec_fn)
    wait_ready(port, p)
    return p


# A loader defined in a loaders directory, for the export tests: a ring that
# turns and trims (round caps) and a rect that turns and fades.
DEFINED = {
    "format": 1, "name": "defined", "summary": "A test loader: a ring that turns and trims, a bar that turns and fades.",
    "canvas": {"width": 40, "height": 40}, "background": "#101010", "color": "#40C0FF",
    "layers": [
        {"type": "ring", "id": "arc", "position": [20, 20], "diameter": 28, "lineWidth": 4, "lineCap": "round",
         "animations": [{"type": "basic", "keyPath": "transform.rotation.z", "byValue": 6.283185307179586, "duration": 1, "repeatCount": "infinity"},
                        {"type": "keyframe", "keyPath": "strokeEnd", "values": [0.2, 0.8, 0.2], "duration": 2, "repeatCount": "infinity"}]},
        {"type": "rect", "id": "bar", "position": [20, 20], "bounds": [4, 14], "cornerRadius": 2,
         "animations": [{"type": "basic", "keyPath": "transform.rotation.z", "byValue": 3.141592653589793, "duration": 2, "repeatCount": "infinity"},
                        {"type": "keyframe", "keyPath": "opacity", "values": [1, 0.2, 1], "duration": 0.8, "repeatCount": "infinity"}]},
    ],
}


# Placed elements of every kind the exports write (format 1.1), for the
# Lottie and pictures tests: a pill squashed along y and a dot skewed by a
# whole matrix, a ring squashed along x while it turns and trims, and under
# a container's perspective a plane turning about y and a disc about x.
PLACED = {
    "format": 1.1, "name": "placed", "summary": "A test loader: squashes, a skew, a squashed ring and two planes in perspective.",
    "canvas": {"width": 120, "height": 40}, "color": "#2060C0",
    "layers": [
        {"type": "rect", "id": "bar", "position": [8, 20], "bounds": [8, 30], "cornerRadius": 4,
         "animations": [{"type": "keyframe", "keyPath": "transform.scale.y", "values": [1, 0.4, 1], "duration": 1.2, "repeatCount": "infinity"}]},
        {"type": "circle", "id": "dot", "position": [28, 20], "diameter": 20,
         "animations": [{"type": "basic", "keyPath": "transform", "fromValue": [1, 0, 0, 0, -0.6, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
                         "toValue": [1, 0, 0, 0, 0.6, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], "duration": 1.2, "autoreverses": True, "repeatCount": "infinity"}]},
        {"type": "ring", "id": "arc", "position": [54, 20], "diameter": 26, "lineWidth": 5, "lineCap": "round",
         "transform": {"scale.x": 0.6},
         "animations": [{"type": "basic", "keyPath": "transform.rotation.z", "byValue": 6.283185307179586, "duration": 2.4, "repeatCount": "infinity"},
                        {"type": "keyframe", "keyPath": "strokeEnd", "values": [0.2, 0.8, 0.2], "duration": 1.2, "repeatCount": "infinity"}]},
        {"type": "layer", "id": "stage", "position": [96, 20], "bounds": [44, 36],
         "sublayerTransform": {"matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -1 / 120, 0, 0, 0, 1]},
         "sublayers": [{"type": "rect", "id": "plane", "position": [11, 18], "bounds": [18, 26], "cornerRadius": 4,
                        "animations": [{"type": "keyframe", "keyPath": "transform.rotation.y", "values": [0, 1.2, 0],
                                        "duration": 2.4, "repeatCount": "infinity"}]},
                       {"type": "circle", "id": "disc", "position": [33, 18], "diameter": 18,
                        "animations": [{"type": "keyframe", "keyPath": "transform.rotation.x", "values": [0, -1.1, 0],
                                        "duration": 1.2, "repeatCount": "infinity"}]}]},
    ],
}


def start_with_definitions(binary, *definitions):
    """A ready loaderd whose loaders directory holds these definitions: the
    process and its base URL."""
    import json, os, tempfile
    directory = tempfile.mkdtemp()
    for definition in definitions:
        with open(os.path.join(directory, definition["name"] + ".json"), "w") as f:
            json.dump(definition, f)
    port = free_port()
    return start(binary, port, "--log-level", "warning", "--loaders-dir", directory), f"http://127.0.0.1:{port}"


def session_events(port, sid):
    """(status, every event of session sid): GET /sessions/{id} page by page
    (1,000 events an answer), following `next`."""
    found, path = [], f"/sessions/{sid}"
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        while path:
            c.request("GET", path)
            r = c.getresponse()
            data = r.read()
            if r.status != 200:
                return r.status, found
            page = json.loads(data)
            found += page["events"]
            path = page.get("next")
    finally:
        c.close()
    return 200, found


def call(host, port, method, path, body=None, headers=None, timeout=5):
    """(status, body) of one request on a new connection."""
    c = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        c.request(method, path, body=body, headers=headers or {})
        r = c.getresponse()
        return r.status, r.read()
    finally:
        c.close()


def until(seconds, condition, interval=0.1):
    """Polls `condition` until it holds or `seconds` pass (a refused or
    broken connection counts as not yet)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if condition():
                return True
        except (OSError, http.client.HTTPException):
            pass
        time.sleep(interval)
    return False


def first_frame(host, port, path):
    """(status, bytes) of an event stream up to the end of its first frame event."""
    c = http.client.HTTPConnection(host, port, timeout=5)
    try:
        c.request("GET", path)
        r = c.getresponse()
        got = b""
        while b"event: frame" not in got or not got.endswith(b"\n\n"):
            chunk = r.read1(4096)
            if not chunk:
                break
            got += chunk
        return r.status, got
    finally:
        c.close()


def serve_pages(pages):
    """Pages of another origin: {path: html} on a port of their own (a
    ThreadingHTTPServer, served from a thread; shut it down when done)."""
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = pages.get(self.path, "").encode()
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
