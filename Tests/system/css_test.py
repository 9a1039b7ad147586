#!/usr/bin/env python3
"""The CSS export in headless Chromium (run by .ci/run): for every loader
(and two defined in --loaders-dir, one of them placed by matrices),
animation.html (from its default start, where copies run their first
copy's keyframes with animation-delay) is
loaded in a page that pauses every animation at 30 moments of the loop (Web
Animations API, currentTime = (t - from) × 1000 ms) and measures each
[data-element]: the centre
of its bounding box within 0.1 px of the engine's x, y; its opacity
(multiplied through its ancestors) within 0.01; its box within 0.1 px of the
expected size (a circle: diameter × scale; a rect: the box of the turned
rectangle × scale; a ring: (diameter + lineWidth) × scale; a segment: the
box of its circle's turned square × scale). An element whose frame carries
a placement (`matrix` or `matrix3d`: a squash, a skew, a perspective) is
measured by the four corners of its node's box instead, read from corner
markers added to the node in the page (zero-size children at 0 and 100 %,
whose client rectangles the browser places through every transform), each
within 0.1 px of the frame's placement applied to the corners of the shape's
own box; a loader with such elements is measured at 120 moments, most of
them between keyframes, where the browser interpolates by decomposition.
The same with prefers-reduced-motion forced, against motion=reduced. Near a
jump either side is right: a sample also passes against the frames 0.2 ms
before or after, or between them.

    Tests/system/css_test.py path/to/loaderd output-dir [loader …]

(naming loaders measures only those).
"""
import json, math, os, subprocess, sys, urllib.request

from loaderd_process import DEFINED, start_with_definitions
from browser_test import chromium

TIMES = 30

# A loader in format 1.1 whose elements are placed by matrices: SpinKit's
# rotating-plane's turns (perspective(120px), rotateX then rotateY, 1 s
# each), a dot squashed along a turned axis, a ring skewed by a whole
# matrix that the engine blends as CSS does.
PLACED = {
    "format": 1.1, "name": "placed", "summary": "A test loader: a plane turning under perspective, a squashed dot, a skewed ring.",
    "canvas": {"width": 60, "height": 60}, "color": "#40C0FF",
    "layers": [
        {"type": "rect", "id": "plane", "position": [30, 30], "bounds": [30, 30],
         "transform": {"matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -1 / 120, 0, 0, 0, 1]},
         "animations": [{"type": "keyframe", "keyPath": "transform.rotation.x", "values": [0, -math.pi, -math.pi], "duration": 2, "repeatCount": "infinity"},
                        {"type": "keyframe", "keyPath": "transform.rotation.y", "values": [0, 0, -math.pi], "duration": 2, "repeatCount": "infinity"}]},
        {"type": "circle", "id": "dot", "position": [12, 48], "diameter": 12, "transform": {"rotation.z": 0.7},
         "animations": [{"type": "keyframe", "keyPath": "transform.scale.y", "values": [1, 0.3, 1], "duration": 1, "repeatCount": "infinity"}]},
        {"type": "ring", "id": "arc", "position": [46, 14], "diameter": 14, "lineWidth": 3,
         "animations": [{"type": "keyframe", "keyPath": "transform", "duration": 2, "repeatCount": "infinity",
                         "values": [[1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], [1, 0, 0, 0, 0.4, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
                                    [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]]}]},
    ],
}

PAGE = """<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0">
<div style="position:absolute;left:13px;top:17px">%s<span id="after">after</span></div>
<pre id="out"></pre>
<script>
const times = %s;
const scale = %s;
const container = document.querySelector('[role=progressbar]');
if (scale !== 1) container.style.setProperty('--ld-scale', String(scale));
getComputedStyle(container).width;
// Corner markers: where the browser draws each node's box corners.
for (const el of container.querySelectorAll('[data-element]')) {
  for (const [x, y] of [[0, 0], [100, 0], [100, 100], [0, 100]]) {
    const m = document.createElement('i');
    m.dataset.corner = '';
    m.style.cssText = `position:absolute;left:${x}%%;top:${y}%%;width:0;height:0`;
    el.appendChild(m);
  }
}
const animations = document.getAnimations();
const rows = [];
for (const ms of times) {
  for (const a of animations) { a.pause(); a.currentTime = ms; }
  const c = container.getBoundingClientRect();
  const row = {};
  for (const el of container.querySelectorAll('[data-element]')) {
    const r = el.getBoundingClientRect();
    let opacity = 1;
    for (let n = el; n && n !== document.body; n = n.parentElement) opacity *= Number(getComputedStyle(n).opacity);
    const corners = [...el.querySelectorAll(':scope > [data-corner]')].flatMap(m => { const q = m.getBoundingClientRect(); return [q.left - c.left, q.top - c.top]; });
    row[el.dataset.element] = [r.left + r.width / 2 - c.left, r.top + r.height / 2 - c.top, r.width, r.height, opacity, ...corners];
  }
  rows.push(row);
}
const box = container.getBoundingClientRect(), after = document.getElementById('after').getBoundingClientRect();
document.getElementById('out').textContent = JSON.stringify({ animations: animations.length, rows, box: [box.width, box.height], afterLeft: after.left - box.left });
</script></body></html>"""


def get(base, path):
    with urllib.request.urlopen(base + path, timeout=30) as r:
        return r.read()


def expected(e):
    s = e["scale"]
    if e["shape"] == "circle":
        return e["x"], e["y"], e["diameter"] * s, e["diameter"] * s
    if e["shape"] == "ring":
        d = (e["diameter"] + e["lineWidth"]) * s
        return e["x"], e["y"], d, d
    # A rect, or a segment's circle's square (the clip does not change the box).
    w, h = (e["diameter"], e["diameter"]) if e["shape"] == "segment" else (e["width"], e["height"])
    r = e.get("rotation", 0)
    c, n = abs(math.cos(r)), abs(math.sin(r))
    return e["x"], e["y"], (w * c + h * n) * s, (w * n + h * c) * s


def placed(e):
    """Whether the frame places the element by a matrix (docs/FRAMES.md)."""
    return "matrix" in e or "matrix3d" in e


def corners(e):
    """The corners of the shape's own box (top left, top right, bottom
    right, bottom left) under the frame's placement, as FRAMES.md defines
    it: the shape drawn at the origin, unscaled, then the matrix."""
    if e["shape"] == "ring":
        w = h = e["diameter"] + e["lineWidth"]
    elif e["shape"] in ("rect", "triangle"):
        w, h = e["width"], e["height"]
    else:
        w = h = e["diameter"]
    out = []
    for x, y in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)):
        if "matrix3d" in e:
            m = e["matrix3d"]  # column-major: X = m0 x + m4 y + m12, W = m3 x + m7 y + m15
            W = m[3] * x + m[7] * y + m[15]
            out += [(m[0] * x + m[4] * y + m[12]) / W, (m[1] * x + m[5] * y + m[13]) / W]
        else:
            a, b, c, d, tx, ty = e["matrix"]
            out += [a * x + c * y + tx, b * x + d * y + ty]
    return out


def compared(m, e):
    """The measured numbers and the engine's, side by side: a placed
    element's eight corner coordinates, any other's box centre and size."""
    if placed(e): return m[5:13], corners(e)
    return m[:4], list(expected(e))


def matches(measured, frame):
    """Whether every element of the page matches this engine frame."""
    by_id = {e["id"]: e for e in frame["elements"]}
    worst = 0.0
    for id, m in measured.items():
        opacity = m[4]
        e = by_id.get(id)
        if e is None:
            if opacity > 0.01: return False, f"{id} shows (opacity {opacity:.3f}) but is not in the frame"
            continue
        got, want = compared(m, e)
        if len(got) != len(want): return False, f"{id}: {len(got)} numbers measured for {len(want)}"
        off = max(abs(g - w) for g, w in zip(got, want))
        if off > 0.1:
            what = "corners" if placed(e) else "box centre, size"
            return False, f"{id}: {what} " + ", ".join(f"{g:.3f}" for g in got) + ", engine " + ", ".join(f"{w:.3f}" for w in want)
        if abs(opacity - e["opacity"]) > 0.01: return False, f"{id}: opacity {opacity:.4f}, engine {e['opacity']:.4f}"
        worst = max(worst, off)
    return True, worst


def between(measured, before, after):
    """Whether every element lies between two engine frames 0.4 ms apart
    (a jump falls between them; the CSS brackets it in 0.1 ms)."""
    a = {e["id"]: e for e in before["elements"]}
    b = {e["id"]: e for e in after["elements"]}
    for id, m in measured.items():
        if id not in a or id not in b or placed(a[id]) != placed(b[id]): continue
        got, ea = compared(m, a[id])
        eb = compared(m, b[id])[1]
        for value, va, vb in zip(got + [m[4]], ea + [a[id]["opacity"]], eb + [b[id]["opacity"]]):
            if not (min(va, vb) - 0.1 <= value <= max(va, vb) + 0.1): return False
    return True


def main():
    binary, out = sys.argv[1], os.path.abspath(sys.argv[2])
    os.makedirs(out, exist_ok=True)
    server, base = start_with_definitions(binary, DEFINED, PLACED)
    failures = []
    try:
        only = set(sys.argv[3:])
        for entry in json.loads(get(base, "/loaders"))["loaders"]:
            name = entry["name"]
            if only and name not in only: continue
            events = "&progress=0.3,0.9,1.4,1.8&finish=2.2" if name == "web" else ""
            snippet = get(base, f"/loaders/{name}/animation.html").decode()
            # "one loop of D s from t = S s (reduced motion: D2 s from t = S2 s)"
            words = snippet.split("one loop of ")[1].split(")")[0].replace("(reduced motion: ", "").split()
            loops = {"normal": (float(words[0]), float(words[5])), "reduced": (float(words[7]), float(words[12]))}
            staggered = snippet.count("animation-delay: calc(-")
            # Every loader at its own size; typing also at --ld-scale: 3, whose box must grow
            # with it (the next inline content starts after it) and whose nodes scale about the origin.
            for motion, (duration, start), scale in [(m, loops[m], 1) for m in loops] + ([("normal", loops["normal"], 3)] if name == "typing" else []):
                # 30 moments, off the round instants where copies start and cycles wrap;
                # 120 where an element is placed by a matrix, which a browser
                # interpolates by decomposition between keyframes.
                count = TIMES * 4 if "matrix" in snippet else TIMES
                times = [(k + 0.37) * duration / count for k in range(count)]
                page = os.path.join(out, f"{name}-{motion}" + (f"-x{scale}" if scale != 1 else "") + ".html")
                with open(page, "w") as f:
                    f.write(PAGE % (snippet, json.dumps([t * 1000 for t in times]), scale))
                flags = ["--force-prefers-reduced-motion"] if motion == "reduced" else []
                dom = subprocess.run([chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                      "--user-data-dir=" + os.path.join(out, "profile"), *flags,
                                      "--virtual-time-budget=2000", "--dump-dom", "file://" + page],
                                     capture_output=True, text=True, timeout=120).stdout
                try:
                    result = json.loads(dom.split('<pre id="out">')[1].split("</pre>")[0].replace("&quot;", '"'))
                except (IndexError, ValueError):
                    failures.append(f"{name} ({motion}): the page did not report"); continue
                worst, problem = 0.0, None
                if scale != 1:
                    canvas = json.loads(get(base, f"/loaders/{name}/frames?t=0"))
                    box, after = result["box"], result["afterLeft"]
                    ok_box = abs(box[0] - canvas["width"] * scale) <= 0.1 and abs(box[1] - canvas["height"] * scale) <= 0.1
                    print(f"css: {name} at --ld-scale {scale}: box {box[0]:.2f}×{box[1]:.2f} for a {canvas['width']}×{canvas['height']} canvas, next content at {after:.2f} px")
                    if not ok_box or after < box[0] - 0.1:
                        failures.append(f"{name} at --ld-scale {scale}: box {box} does not hold the scaled canvas, or content after it starts at {after}")
                    # Measured in scaled pixels: compare at the canvas's own size.
                    result["rows"] = [{id: [v / scale for v in m[:4]] + [m[4]] + [v / scale for v in m[5:]] for id, m in row.items()} for row in result["rows"]]
                for t, measured in zip(times, result["rows"]):
                    ok = False
                    frames = []
                    for dt in (0, -0.0002, 0.0002):
                        frame = json.loads(get(base, f"/loaders/{name}/frames?t={max(start + t + dt, 0)!r}&motion={motion}{events}"))
                        frames.append(frame)
                        ok, detail = matches(measured, frame)
                        if ok:
                            worst = max(worst, detail); break
                    if not ok and between(measured, frames[1], frames[2]):
                        ok = True
                    if not ok:
                        problem = f"t={t:.4f}: {detail}"; break
                if name == "typing" and motion == "normal" and scale == 1:
                    # The check sees a wrong moment: the page at t against the engine 0.25 s later.
                    late = json.loads(get(base, f"/loaders/typing/frames?t={start + times[3] + 0.25!r}"))
                    seen = not matches(result["rows"][3], late)[0]
                    print(f"css: a moment 0.25 s off is seen: {seen}")
                    if not seen: failures.append("the check does not see a moment 0.25 s off")
                print(f"css: {name} ({motion}" + (f", --ld-scale {scale}" if scale != 1 else "") + f"): {len(result['rows'])} moments, {result['animations']} animations"
                      + (f" ({staggered} copies by animation-delay in all)" if motion == "normal" else "")
                      + f", worst box/centre difference {worst:.4f} px"
                      + (f" — {problem}" if problem else ""))
                if problem: failures.append(f"{name} ({motion}, scale {scale}) {problem}")
    finally:
        server.terminate()
        server.wait()
    if failures:
        print("FAILED: " + "; ".join(failures[:5]))
        sys.exit(1)
    print("css: 1 passed, 0 failed")


if __name__ == "__main__":
    main()
