#!/usr/bin/env python3
"""SpinKit's two 3D spinners where Chromium draws them (run by .ci/run):
SpinKit 1.2.5's own rules for `rotating-plane` and `folding-cube`
(css/spinners/1-rotating-plane.css and 11-folding-cube.css, as released)
laid out by headless Chromium, every animation paused at 40 moments of two
loops (Web Animations API), and the corners of each square read from the
page. The engine's frames (`GET /loaders/<name>/frames?t=…`) must put the
same corners within 0.1 px, at the page's opacity.

Each square holds four zero-sized, absolutely placed probes at its corners;
they do not change its layout, and their boxes are the points its
transforms (perspective included) carry them to. folding-cube's faces are
`:before` boxes, which cannot hold probes: here they are `.face` children
under the same rules (the one change to the CSS is that selector), which
lay out as the `:before` boxes do (absolute, at the cube's corner, its
size).

    Tests/system/spinkit_3d_test.py path/to/loaderd output-dir
"""
import json, math, os, sys

from loaderd_process import start_with_definitions
from browser_test import get_json, page_report

# SpinKit 1.2.5, css/spinners/1-rotating-plane.css and 11-folding-cube.css,
# as released (the usage comments and -webkit- duplicates left out).
ROTATING_PLANE_CSS = """
.sk-rotating-plane {
  width: 40px;
  height: 40px;
  background-color: #333;
  margin: 40px auto;
  animation: sk-rotatePlane 1.2s infinite ease-in-out; }

@keyframes sk-rotatePlane {
  0% {
    transform: perspective(120px) rotateX(0deg) rotateY(0deg); }
  50% {
    transform: perspective(120px) rotateX(-180.1deg) rotateY(0deg); }
  100% {
    transform: perspective(120px) rotateX(-180deg) rotateY(-179.9deg); } }
"""

FOLDING_CUBE_CSS = """
.sk-folding-cube {
  margin: 40px auto;
  width: 40px;
  height: 40px;
  position: relative;
  transform: rotateZ(45deg); }
  .sk-folding-cube .sk-cube {
    float: left;
    width: 50%;
    height: 50%;
    position: relative;
    transform: scale(1.1); }
  .sk-folding-cube .sk-cube:before {
    content: '';
    position: absolute;
    top: 0;
    left: 0;
    width: 100%;
    height: 100%;
    background-color: #333;
    animation: sk-foldCubeAngle 2.4s infinite linear both;
    transform-origin: 100% 100%; }
  .sk-folding-cube .sk-cube2 {
    transform: scale(1.1) rotateZ(90deg); }
  .sk-folding-cube .sk-cube3 {
    transform: scale(1.1) rotateZ(180deg); }
  .sk-folding-cube .sk-cube4 {
    transform: scale(1.1) rotateZ(270deg); }
  .sk-folding-cube .sk-cube2:before {
    animation-delay: 0.3s; }
  .sk-folding-cube .sk-cube3:before {
    animation-delay: 0.6s; }
  .sk-folding-cube .sk-cube4:before {
    animation-delay: 0.9s; }

@keyframes sk-foldCubeAngle {
  0%, 10% {
    transform: perspective(140px) rotateX(-180deg);
    opacity: 0; }
  25%, 75% {
    transform: perspective(140px) rotateX(0deg);
    opacity: 1; }
  90%, 100% {
    transform: perspective(140px) rotateY(180deg);
    opacity: 0; } }
""".replace(":before", " > .face")

PROBES = ''.join(f'<i class="probe" style="left:{x};top:{y}"></i>'
                 for x, y in (("0", "0"), ("100%", "0"), ("100%", "100%"), ("0", "100%")))

# SpinKit's usage markup (folding-cube's faces as children), plus the probes.
PAGE = """<!doctype html><html><head><meta charset="utf-8"><style>%s%s
.probe { position: absolute; width: 0; height: 0; }
</style></head><body>
<div class="sk-rotating-plane">%s</div>
<div class="sk-folding-cube">
  <div class="sk-cube1 sk-cube"><div class="face">%s</div></div>
  <div class="sk-cube2 sk-cube"><div class="face">%s</div></div>
  <div class="sk-cube4 sk-cube"><div class="face">%s</div></div>
  <div class="sk-cube3 sk-cube"><div class="face">%s</div></div>
</div>
<pre id="out"></pre>
<script>
const times = %s;
const plane = document.querySelector('.sk-rotating-plane');
const box = document.querySelector('.sk-folding-cube');
const squares = [plane, ...box.querySelectorAll('.face')];
const animations = document.getAnimations();
// Each spinner's own box before any transform: its layout place.
const origins = [[plane.offsetLeft, plane.offsetTop], [box.offsetLeft, box.offsetTop]];
const point = el => { const r = el.getBoundingClientRect(); return [r.left, r.top]; };
const rows = [];
for (const ms of times) {
  for (const a of animations) { a.pause(); a.currentTime = ms; }
  rows.push(squares.map(s => ({corners: [...s.querySelectorAll('.probe')].map(point), opacity: +getComputedStyle(s).opacity})));
}
document.getElementById('out').textContent = JSON.stringify({ animations: animations.length, origins, rows });
</script></body></html>"""

LOOPS = {"rotating-plane": 1.2, "folding-cube": 2.4}
# Two loops of folding-cube (and four of rotating-plane), after its last delay too.
TIMES = [(k + 0.37) * (2 * 2.4 + 0.9) / 40 for k in range(40)]


def corners(e):
    """The engine's element's four corners on the canvas (top left, top
    right, bottom right, bottom left of its own plane)."""
    hw, hh = e["width"] / 2, e["height"] / 2
    out = []
    for x, y in ((-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)):
        if "matrix3d" in e:
            m = e["matrix3d"]
            w = m[3] * x + m[7] * y + m[15]
            out.append(((m[0] * x + m[4] * y + m[12]) / w, (m[1] * x + m[5] * y + m[13]) / w))
        elif "matrix" in e:
            a, b, c, d, tx, ty = e["matrix"]
            out.append((a * x + c * y + tx, b * x + d * y + ty))
        else:
            s, r = e["scale"], e["rotation"]
            out.append((e["x"] + s * (x * math.cos(r) - y * math.sin(r)), e["y"] + s * (x * math.sin(r) + y * math.cos(r))))
    return out


def worst_difference(base, name, origin, index, rows):
    """The largest difference, in px (or in opacity), between the page's
    squares and the engine's elements of `name`."""
    worst, where = 0.0, ""
    for t, row in zip(TIMES, rows):
        frame = get_json(base, f"/loaders/{name}/frames?t={t!r}")
        # The catalogue sets SpinKit's 40-px box in the middle of its canvas.
        mx, my = (frame["width"] - 40) / 2 - origin[0], (frame["height"] - 40) / 2 - origin[1]
        squares = row[index]
        if len(frame["elements"]) != len(squares):
            return math.inf, f"t={t:.4f}: {len(frame['elements'])} elements, the page has {len(squares)} squares"
        for i, (e, square) in enumerate(zip(frame["elements"], squares)):
            page = [(x + mx, y + my) for x, y in square["corners"]]
            off = max(max(abs(a[0] - b[0]), abs(a[1] - b[1])) for a, b in zip(page, corners(e)))
            off = max(off, abs(e["opacity"] - square["opacity"]))
            if off > worst:
                worst, where = off, f"t={t:.4f} square {i} ({e['id']}): page {page}, engine {corners(e)}"
    return worst, where


def main():
    binary, out = sys.argv[1], os.path.abspath(sys.argv[2])
    os.makedirs(out, exist_ok=True)
    page = os.path.join(out, "spinkit-3d.html")
    with open(page, "w") as f:
        f.write(PAGE % (ROTATING_PLANE_CSS, FOLDING_CUBE_CSS, PROBES, PROBES, PROBES, PROBES, PROBES,
                        json.dumps([t * 1000 for t in TIMES])))
    result = page_report(page, out)
    failures = []
    if result["animations"] != 5:
        failures.append(f"{result['animations']} animations in the page, not 5 (the plane's, each face's)")
    # Rows as [plane], [four faces].
    rows = [[[r[0]], r[1:]] for r in result["rows"]]
    server, base = start_with_definitions(binary)
    try:
        for index, name in enumerate(["rotating-plane", "folding-cube"]):
            worst, where = worst_difference(base, name, result["origins"][index], index, rows)
            print(f"{name}: {len(TIMES)} moments, worst corner/opacity difference {worst:.5f} ({where})")
            if worst > 0.1:
                failures.append(f"the engine's {name} is {worst:.3f} from the browser's: {where}")
    finally:
        server.terminate()
        server.wait()
    if failures:
        print("FAILED: " + "; ".join(failures))
        sys.exit(1)
    print("spinkit 3d: 2 passed, 0 failed")


if __name__ == "__main__":
    main()
