#!/usr/bin/env python3
"""<loader-frames> (GET /client.js) in headless Chromium, over the DevTools
protocol, on a page of another origin that embeds it with one <script> and
one tag per loader (run by .ci/run):

1. twenty players in view (every catalogue loader, some with parameters,
   some sized by the page) and one below the fold: exactly one event-stream
   request, carrying the twenty in view;
2. each player's nodes match the frame it last received (its `frame`
   property) as frames.svg draws it, computed here from the frame and the
   element's box: centre and size to 0.1 px (radius, rect sides, ring
   radius and stroke), rotation, ring trim, opacity to 0.01; a squashed
   element's shape unscaled under the frame's `matrix` (to 1e-4 a unit),
   one under perspective a path of the frame's `outline`; the drawing
   aria-hidden (the element itself is the progressbar:
   client_a11y_test.py); one node per element, in the frame's order;
3. the player below the fold joins when scrolled into view;
4. hiding the page (the window minimised) closes the stream (the server's
   loaderd_open_streams falls to 0) and showing it resumes on the shared
   clock's current frame: typing's time moved on by the time the page was
   hidden, modulo its 6 s period (docs/FRAMES.md);
5. prefers-reduced-motion: reduce asks again with motion=reduced for every
   loader;
6. faults: the service stops (SIGTERM), a stand-in answers 503 on its port
   for a few seconds (a proxy while replicas restart), then the service is
   back: the players retry through the network errors and the 503s and draw
   again, and none of them ever dispatches `end` or `error`.
Exits 1 on failure.

    Tests/system/client_test.py path/to/loaderd output-dir
"""
import http.server, json, math, os, re, sys, threading, time, urllib.parse, urllib.request

from browser_test import chromium
from cdp import Browser
from loaderd_process import free_port, serve_pages, start

failures = []

def check(ok, what):
    print(("ok: " if ok else "FAILED: ") + what)
    if not ok:
        failures.append(what)

# The page: one script, one tag per loader. Some take parameters; some are
# sized by the page (wider, taller than their canvas: letterboxed).
def page_html(base, names):
    players = [f'<loader-frames id="{n}" loader="{n}"></loader-frames>' for n in names[:14]]
    players += [
        '<loader-frames id="typing-5" loader="typing" params="count=5&amp;color=%23ff0000" style="width:140px" label="Typing"></loader-frames>',
        '<loader-frames id="switch-big" loader="switch" params="size=14" style="width:90px;height:50px"></loader-frames>',
        '<loader-frames id="arc-red" loader="spinning-arc" params="color=%23ff3b30" style="width:64px"></loader-frames>',
        '<loader-frames id="material-tall" loader="material-spinner" style="width:40px;height:90px"></loader-frames>',
        '<loader-frames id="pacman-small" loader="pacman" style="width:30px"></loader-frames>',
        '<loader-frames id="cap-red" loader="semi-circle-spin" params="color=%23ff3b30" style="width:50px"></loader-frames>',
    ]
    players = players[:20]
    return f"""<!doctype html><html><head><meta charset="utf-8"><title>client test</title>
<style>body {{ margin: 8px; }} .grid {{ display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }}
#web {{ width: 60px; }} #below {{ margin-top: 3000px; }}</style></head><body>
<script type="module" src="{base}/client.js"></script>
<div class="grid">{''.join(players)}</div>
<div id="below"><loader-frames id="below-fold" loader="typing"></loader-frames></div>
<script>
window.ended = [];
for (const el of document.querySelectorAll("loader-frames")) {{
  el.addEventListener("frame", () => {{ el.arrivedAt = Date.now(); el.frames = (el.frames || 0) + 1; }});
  for (const kind of ["end", "error"]) el.addEventListener(kind, (e) => window.ended.push(`${{el.id}} ${{kind}} ${{JSON.stringify(e.detail)}}`));
}}
</script></body></html>"""

def unavailable(port):
    """A stand-in on the service's port that answers every request 503, as a
    proxy does while the replicas behind it restart."""
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = b'{"error":{"status":503,"code":"unavailable","message":"restarting"}}'
            self.send_response(503)
            self.send_header("Content-Type", "application/json")
            self.send_header("Retry-After", "1")
            self.send_header("Access-Control-Allow-Origin", "*")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        def do_OPTIONS(self):   # a CORS preflight passes; the request after it gets the 503
            self.send_response(204)
            self.send_header("Access-Control-Allow-Origin", "*")
            self.send_header("Access-Control-Allow-Methods", "GET")
            self.send_header("Access-Control-Allow-Headers", "accept, last-event-id")
            self.end_headers()
        def log_message(self, *args):
            pass
    http.server.ThreadingHTTPServer.allow_reuse_address = True
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server

def serve(html):
    """The page at / of another origin (outage_browser.py uses it too)."""
    return serve_pages({"/": html})

# What each player shows, read in one synchronous step (no frame can land
# between reading `frame` and reading the nodes).
READ = """JSON.stringify([...document.querySelectorAll(".grid loader-frames")].map((el) => {
  const svg = el.shadowRoot.querySelector("svg"), box = svg.getBoundingClientRect();
  const nodes = [...svg.querySelectorAll("[data-element]")].map((n) => {
    const shape = n.tagName === "g" ? n.firstElementChild : n, m = shape.getScreenCTM();
    const num = (a) => Number(shape.getAttribute(a));
    const local = n.tagName === "circle" ? [num("cx"), num("cy")] : shape.tagName === "rect" ? [num("x") + num("width") / 2, num("y") + num("height") / 2] : [0, 0];
    const p = new DOMPoint(local[0], local[1]).matrixTransform(m);
    return { id: n.dataset.element, outer: n.tagName, tag: shape.tagName, x: p.x, y: p.y, a: m.a, b: m.b, c: m.c, d: m.d,
             r: num("r"), w: num("width"), h: num("height"), stroke: num("stroke-width"), path: shape.getAttribute("d"),
             dash: shape.getAttribute("stroke-dasharray"), offset: shape.getAttribute("stroke-dashoffset"),
             opacity: Number(getComputedStyle(n).opacity) };
  });
  return { id: el.id, frame: el.frame, box: [box.x, box.y, box.width, box.height], hidden: svg.getAttribute("aria-hidden"), nodes };
}))"""

def angle_diff(a, b):
    return abs((a - b + math.pi) % (2 * math.pi) - math.pi)

def compare(player):
    """The differences between a player's nodes and its frame, as frames.svg draws it."""
    problems = []
    frame, (bx, by, bw, bh) = player["frame"], player["box"]
    if frame is None:
        return ["no frame"]
    W, H = frame["width"], frame["height"]
    k = min(bw / W, bh / H)                      # scaled into the box without distortion, centred
    ox, oy = bx + (bw - W * k) / 2, by + (bh - H * k) / 2
    if player["hidden"] != "true":
        problems.append(f"the drawing is not aria-hidden ({player['hidden']})")
    ids = [e["id"] for e in frame["elements"]]
    if [n["id"] for n in player["nodes"]] != ids:
        return problems + [f"nodes {[n['id'] for n in player['nodes']]} for elements {ids}"]
    for e, n in zip(frame["elements"], player["nodes"]):
        px = math.hypot(n["a"], n["b"])          # screen px per unit along the shape's x
        py = math.hypot(n["c"], n["d"])
        got = {"x": n["x"], "y": n["y"], "opacity": n["opacity"]}
        want = {"x": ox + k * e["x"], "y": oy + k * e["y"], "opacity": e["opacity"]}
        s = e["scale"]
        if "matrix3d" in e:
            # Under perspective: a path of exactly the frame's outline, in canvas coordinates.
            if n["tag"] != "path" or n["path"] != e.get("outline"):
                problems.append(f"{e['id']}: under perspective drawn as {n['tag']} {str(n['path'])[:60]}")
            got.update(x=n["x"], y=n["y"], a=n["a"], b=n["b"], c=n["c"], d=n["d"])
            want.update(x=ox, y=oy, a=k, b=0, c=0, d=k)
        elif "matrix" in e:
            # Squashed or skewed: the shape about the origin, unscaled, under the frame's matrix.
            m = e["matrix"]
            got.update(a=n["a"], b=n["b"], c=n["c"], d=n["d"])
            want.update(a=k * m[0], b=k * m[1], c=k * m[2], d=k * m[3])
            own = {"circle": [("r", e.get("diameter", 0) / 2)], "ring": [("r", e.get("diameter", 0) / 2), ("stroke", e.get("lineWidth", 0))],
                   "rect": [("w", e.get("width", 0)), ("h", e.get("height", 0))]}.get(e["shape"], [])
            for key, value in own:
                got["own " + key], want["own " + key] = n[key], value
        elif e["shape"] == "circle":
            if n["outer"] != "circle": problems.append(f"{e['id']}: a circle drawn as {n['outer']}")
            got["radius"], want["radius"] = px * n["r"], k * e["diameter"] * s / 2
        elif e["shape"] == "rect":
            got.update(width=px * n["w"], height=py * n["h"], rotation=math.atan2(n["b"], n["a"]))
            want.update(width=k * e["width"] * s, height=k * e["height"] * s, rotation=e.get("rotation", 0))
        elif e["shape"] == "segment":
            # M x0 y0 A r r 0 0 1 0 -r A r r 0 0 1 x1 y1 Z: the chord's ends
            # on the circle, the arc through 12 o'clock between them.
            v = [float(t) for t in re.findall(r"-?[0-9.]+(?:e-?[0-9]+)?", n["path"] or "")]
            if len(v) != 16 or n["tag"] != "path":
                problems.append(f"{e['id']}: a segment drawn as {n['tag']} {n['path']}")
                continue
            x0, y0, r, x1, y1 = v[0], v[1], v[2], v[14], v[15]
            got.update(radius=px * r, start=math.atan2(x0, -y0), end=math.atan2(x1, -y1), rotation=math.atan2(n["b"], n["a"]))
            half = min(e["arc"], 2 * math.pi) / 2
            want.update(radius=k * e["diameter"] * s / 2, start=-half, end=half, rotation=e.get("rotation", 0))
        elif e["shape"] == "ring":
            got.update(radius=px * n["r"], stroke=px * n["stroke"], rotation=math.atan2(n["b"], n["a"]))
            want.update(radius=k * e["diameter"] * s / 2, stroke=k * e["lineWidth"] * s, rotation=e.get("rotation", 0) - math.pi / 2)
            length = max(e["strokeEnd"] - e["strokeStart"], 0)
            # A whole ring is not dashed (a dash closing on itself leaves a seam); a trimmed one is its trim on a path of length 1.
            whole = length >= 1 and n["dash"] == "none"
            dash = [1.0, 1.0] if whole else [float(v) for v in n["dash"].split()]
            if (length >= 1 and not whole) or abs(dash[0] - min(length, 1)) > 1e-9 or dash[1] != 1 or abs(float(n["offset"]) + e["strokeStart"]) > 1e-9:
                problems.append(f"{e['id']}: trim {n['dash']} offset {n['offset']} for {e['strokeStart']}..{e['strokeEnd']}")
        else:
            problems.append(f"{e['id']}: a {e['shape']}, a shape this test does not measure")
            continue
        if px < 1e-9:
            want.pop("rotation", None)           # scaled to nothing: no direction to compare
        for key in want:
            tolerance = 0.01 if key == "opacity" else 1e-5 if key in ("rotation", "start", "end") else 1e-4 if key in ("a", "b", "c", "d") else 0.1
            off = angle_diff(got[key], want[key]) if key in ("rotation", "start", "end") else abs(got[key] - want[key])
            if off > tolerance:
                problems.append(f"{e['id']}.{key}: {got[key]:.4f}, frame says {want[key]:.4f}")
    return problems

# The shapes compare() measures: each one /openapi.json declares, so that a
# new shape fails here until the test measures it too.
SHAPES = ["circle", "rect", "ring", "segment"]

def metric(base, name):
    text = urllib.request.urlopen(base + "/metrics", timeout=5).read().decode()
    return float(re.search(rf"^{name} (\S+)$", text, re.M).group(1))

def stream_requests(page):
    return [r for r in page.events("Network.requestWillBeSent")
            if r["request"]["headers"].get("Accept") == "text/event-stream"]

def loaders_of(url):
    return urllib.parse.parse_qs(urllib.parse.urlsplit(url).query).get("loader", [])

def main():
    binary, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    port = free_port()
    server = start(binary, port, "--log-level", "warning")
    base = f"http://127.0.0.1:{port}"
    try:
        names = [l["name"] for l in json.load(urllib.request.urlopen(base + "/loaders"))["loaders"]]
        element = json.load(urllib.request.urlopen(base + "/openapi.json"))["components"]["schemas"]["Element"]
        declared = element["properties"]["shape"]["enum"]
        check(declared == SHAPES, f"the shapes /openapi.json declares are the ones measured here ({declared})")
        site = serve(page_html(base, names))
        with Browser(chromium(), os.path.join(out, "chromium-client-profile"), ["--window-size=1280,900"]) as browser:
            page = browser.open(f"http://127.0.0.1:{site.server_address[1]}/")
            grid = 'document.querySelectorAll(".grid loader-frames")'
            ready = page.wait_for(f'{grid}.length === 20 && [...{grid}].every((el) => el.frames >= 5)', 30)
            # The five with parameters or sizes of their own are among the twenty.
            check(bool(ready), "twenty players each drew at least 5 frames")

            # 1. One connection for the twenty in view.
            streams = stream_requests(page)
            check(len(streams) == 1 and "/streams?" in streams[0]["request"]["url"],
                  f"one event-stream request for twenty players ({len(streams)})")
            if streams:
                carried = loaders_of(streams[0]["request"]["url"])
                check(len(carried) == 20 and "typing?count=5&color=%23ff0000&background=none" in carried,
                      f"it carries the twenty in view, with their parameters ({len(carried)})")

            # 2. Geometry, three times over a second.
            for round in range(3):
                players = json.loads(page.evaluate(READ))
                bad = {p["id"]: compare(p) for p in players}
                bad = {k: v for k, v in bad.items() if v}
                elements = sum(len(p["frame"]["elements"]) for p in players if p["frame"])
                check(not bad, f"round {round}: every node of 20 players matches its frame ({elements} elements){'' if not bad else ': ' + json.dumps(bad)[:600]}")
                browser.pump(0.35)

            # 3. The player below the fold joins when it comes into view.
            below_before = page.evaluate('document.getElementById("below-fold").frames || 0')
            page.evaluate('document.getElementById("below-fold").scrollIntoView()')
            joined = page.wait_for('(document.getElementById("below-fold").frames || 0) >= 3', 10)
            latest = stream_requests(page)[-1]["request"]["url"]
            check(below_before == 0 and bool(joined) and len(loaders_of(latest)) >= 1,
                  f"the player below the fold drew nothing until scrolled into view, then streams ({below_before} frames before)")
            page.evaluate("window.scrollTo(0, 0)")

            # 4. Hidden: no stream. Shown: the shared clock's current frame.
            page.wait_for('(() => { const t = document.getElementById("typing"); return t.frame && Date.now() - t.arrivedAt < 200; })()', 5)
            window = browser.send("Browser.getWindowForTarget", session=page.session)["windowId"]
            browser.send("Browser.setWindowBounds", {"windowId": window, "bounds": {"windowState": "minimized"}})
            hidden = page.wait_for('document.visibilityState === "hidden"', 5)
            deadline = time.monotonic() + 5
            while metric(base, "loaderd_open_streams") > 0 and time.monotonic() < deadline:
                browser.pump(0.05)
            open_streams = metric(base, "loaderd_open_streams")
            before = json.loads(page.evaluate('JSON.stringify([document.getElementById("typing").frame.t, document.getElementById("typing").arrivedAt, document.getElementById("typing").frames])'))
            browser.pump(2.0)
            still = page.evaluate('document.getElementById("typing").frames')
            check(bool(hidden) and open_streams == 0 and still == before[2],
                  f"hidden page: no stream open on the server ({open_streams}), no frames drawn ({still - before[2]})")
            count = before[2]
            browser.send("Browser.setWindowBounds", {"windowId": window, "bounds": {"windowState": "normal"}})
            page.wait_for(f'document.getElementById("typing").frames > {count}', 10)
            after = json.loads(page.evaluate('JSON.stringify([document.getElementById("typing").frame.t, document.getElementById("typing").arrivedAt])'))
            moved = after[0] - before[0]
            elapsed = (after[1] - before[1]) / 1000
            off = abs((moved - elapsed + 3) % 6 - 3)
            check(off < 0.15, f"shown again: typing's time moved {moved:.3f} s in {elapsed:.3f} s (mod 6 s: {off:.3f} s off the shared clock)")

            # 5. Reduced motion: every loader asked again with motion=reduced.
            n = len(stream_requests(page))
            browser.send("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]}, session=page.session)
            page.wait_for(f'document.getElementById("typing").frames > {count} + 5', 5)
            deadline = time.monotonic() + 5
            while len(stream_requests(page)) == n and time.monotonic() < deadline:
                browser.pump(0.05)
            latest = stream_requests(page)[-1]["request"]["url"] if len(stream_requests(page)) > n else ""
            carried = loaders_of(latest)
            check(len(carried) >= 20 and all("motion=reduced" in v for v in carried),
                  f"reduced motion: a new stream with motion=reduced for each of its {len(carried)} loaders")
            page.wait_for('[...document.querySelectorAll(".grid loader-frames")].every((el) => el.frame && el.frame.loader)', 5)
            players = json.loads(page.evaluate(READ))
            bad = {p["id"]: compare(p) for p in players}
            check(not any(bad.values()), "reduced motion: every node still matches its frame")
            # 6. The service goes away, a stand-in answers 503, the service comes back.
            count = page.evaluate('document.getElementById("typing").frames')
            server.terminate()
            server.wait()
            stand_in = unavailable(port)
            deadline = time.monotonic() + 15
            refused = []
            while not refused and time.monotonic() < deadline:
                browser.pump(0.2)
                refused = [r for r in page.events("Network.responseReceived")
                           if "/streams?" in r["response"]["url"] and r["response"]["status"] == 503]
            browser.pump(1.5)
            stand_in.shutdown()
            stand_in.server_close()
            server = start(binary, port, "--log-level", "warning")
            back = page.wait_for(f'document.getElementById("typing").frames > {count} + 10', 25)
            closed = page.evaluate("window.ended")
            check(bool(refused) and bool(back) and not closed,
                  f"through a stopped service and {len(refused)} answers of 503 the players retried and drew again; ended or refused: {closed}")
            shot = browser.send("Page.captureScreenshot", {"format": "png"}, session=page.session)
            with open(os.path.join(out, "client.png"), "wb") as f:
                import base64
                f.write(base64.b64decode(shot["data"]))
        site.shutdown()
    finally:
        server.terminate()
        server.wait()
    if failures:
        print(f"FAILED: {len(failures)}: " + "; ".join(f[:200] for f in failures))
        sys.exit(1)
    print("client: all passed")

if __name__ == "__main__":
    main()
