#!/usr/bin/env python3
"""chasing-dots where browsers put it (run by .ci/run): SpinKit 1.2.5's own
rules and markup for `chasing-dots` (css/spinners/6-chasing-dots.css, as
released) laid out by headless Chromium, every animation paused at 40
moments of two loops (Web Animations API), and each dot read from the page:
its centre, and its width and height after every transform. The engine's
frames (`GET /loaders/chasing-dots/frames?t=…`) must agree within 0.1 px.

SpinKit gives each dot `position: absolute` and no `left` in a
`text-align: center` box, so its horizontal place is its static position,
which the browser decides: nothing here says where that is.

Each dot holds three zero-sized, absolutely placed probes (its top-left
and top-right corners and its centre); they do not change the dot's
layout, and their boxes are the points the dot's transforms carry them to.
The check must also see the catalogue's old reading (dots centred across
the box): a loader defined that way fails it.

    Tests/system/chasing_dots_test.py path/to/loaderd output-dir
"""
import json, math, os, sys

from loaderd_process import start_with_definitions
from browser_test import get_json, page_report

# SpinKit 1.2.5, css/spinners/6-chasing-dots.css, as released (the usage
# comment left out).
SPINKIT_CSS = """
.sk-chasing-dots {
  margin: 40px auto;
  width: 40px;
  height: 40px;
  position: relative;
  text-align: center;
  -webkit-animation: sk-chasingDotsRotate 2s infinite linear;
          animation: sk-chasingDotsRotate 2s infinite linear; }
  .sk-chasing-dots .sk-child {
    width: 60%;
    height: 60%;
    display: inline-block;
    position: absolute;
    top: 0;
    background-color: #333;
    border-radius: 100%;
    -webkit-animation: sk-chasingDotsBounce 2s infinite ease-in-out;
            animation: sk-chasingDotsBounce 2s infinite ease-in-out; }
  .sk-chasing-dots .sk-dot2 {
    top: auto;
    bottom: 0;
    -webkit-animation-delay: -1s;
            animation-delay: -1s; }

@-webkit-keyframes sk-chasingDotsRotate {
  100% {
    -webkit-transform: rotate(360deg);
            transform: rotate(360deg); } }

@keyframes sk-chasingDotsRotate {
  100% {
    -webkit-transform: rotate(360deg);
            transform: rotate(360deg); } }

@-webkit-keyframes sk-chasingDotsBounce {
  0%, 100% {
    -webkit-transform: scale(0);
            transform: scale(0); }
  50% {
    -webkit-transform: scale(1);
            transform: scale(1); } }

@keyframes sk-chasingDotsBounce {
  0%, 100% {
    -webkit-transform: scale(0);
            transform: scale(0); }
  50% {
    -webkit-transform: scale(1);
            transform: scale(1); } }
"""

PROBES = ('<i class="probe" style="left:0;top:0"></i><i class="probe" style="left:100%;top:0"></i>'
          '<i class="probe" style="left:50%;top:50%"></i>')

# SpinKit's usage markup (whitespace included, as its example page has it),
# plus the probes.
PAGE = """<!doctype html><html><head><meta charset="utf-8"><style>%s
.probe { position: absolute; width: 0; height: 0; }
</style></head><body>
      <div class="sk-chasing-dots">
        <div class="sk-child sk-dot1">%s</div>
        <div class="sk-child sk-dot2">%s</div>
      </div>
<pre id="out"></pre>
<script>
const times = %s;
const box = document.querySelector('.sk-chasing-dots');
const dots = [...box.querySelectorAll('.sk-child')];
const animations = document.getAnimations();
// The box's own corner, read while it is not turned (its box grows as it turns).
for (const a of animations) { a.pause(); a.currentTime = 0; }
const origin = box.getBoundingClientRect();
const point = el => { const r = el.getBoundingClientRect(); return [r.left - origin.left, r.top - origin.top]; };
// Where layout put each dot before any transform (offsetLeft/Top ignore transforms).
const layout = dots.map(d => [d.offsetLeft, d.offsetTop, d.offsetWidth, d.offsetHeight]);
const rows = [];
for (const ms of times) {
  // Every animation shares one timeline, so each is set to the same time; dot2's −1 s delay stays its own.
  for (const a of animations) { a.pause(); a.currentTime = ms; }
  rows.push(dots.map(d => d.querySelectorAll('.probe')).map(([tl, tr, c]) => [point(tl), point(tr), point(c)]));
}
document.getElementById('out').textContent = JSON.stringify({ animations: animations.length, layout, rows });
</script></body></html>"""

LOOP = 2.0
TIMES = [(k + 0.37) * 2 * LOOP / 40 for k in range(40)]

# The catalogue's old reading: the dots centred across the box (left 8 of 40).
CENTRED = {
    "format": 1, "name": "chasing-dots-centred", "summary": "chasing-dots with its dots centred across its box.",
    "canvas": {"width": 40, "height": 40}, "color": "#333333",
    "layers": [{
        "type": "replicator", "id": "box", "position": [20, 20], "bounds": [40, 40],
        "animations": [{"type": "basic", "keyPath": "transform.rotation.z", "fromValue": 0, "toValue": 2 * math.pi,
                        "duration": 2, "repeatCount": "infinity"}],
        "sublayers": [
            {"type": "circle", "id": id, "position": [20, y], "diameter": 24, "backgroundColor": "color",
             "animations": [{"type": "keyframe", "keyPath": "transform.scale", "values": [0, 1, 0], "keyTimes": [0, 0.5, 1],
                             "timingFunctions": ["easeInEaseOut", "easeInEaseOut"], "beginTime": begin, "duration": 2,
                             "repeatCount": "infinity"}]}
            for id, y, begin in (("dot1", 12, 0), ("dot2", 28, -1))
        ],
    }],
}


def measured(row):
    """Each dot as [x, y, size]: its centre, and the length of its top edge
    after every transform (its width × its scale)."""
    return [[c[0], c[1], math.dist(tl, tr)] for tl, tr, c in row]


def worst_difference(base, name, rows):
    """The largest difference, in px, between the page and the engine's
    frames of `name`, and where it is."""
    worst, where = 0.0, ""
    for t, row in zip(TIMES, rows):
        frame = get_json(base, f"/loaders/{name}/frames?t={t!r}")
        elements = frame["elements"]
        # The catalogue sets SpinKit's 40-px box in the middle of its canvas
        # (room for the dots that reach past it): page places move by the margin.
        mx, my = (frame["width"] - 40) / 2, (frame["height"] - 40) / 2
        row = [[[p[0] + mx, p[1] + my] for p in dot] for dot in row]
        for i, (x, y, size) in enumerate(measured(row)):
            # The replicator's copy 0 of dot1 is "dot10". A dot the engine leaves
            # out (one that draws nothing) must be a point in the page.
            e = next((e for e in elements if e["id"] == f"dot{i + 1}0"), None)
            expected = (x, y, 0.0) if e is None else (e["x"], e["y"], e["diameter"] * e["scale"])
            off = max(abs(a - b) for a, b in zip((x, y, size), expected))
            if off > worst:
                worst, where = off, (f"t={t:.4f} dot{i + 1}: page ({x:.3f}, {y:.3f}) size {size:.3f}, "
                                     f"engine ({expected[0]:.3f}, {expected[1]:.3f}) size {expected[2]:.3f}")
    return worst, where


def main():
    binary, out = sys.argv[1], os.path.abspath(sys.argv[2])
    os.makedirs(out, exist_ok=True)
    page = os.path.join(out, "chasing-dots.html")
    with open(page, "w") as f:
        f.write(PAGE % (SPINKIT_CSS, PROBES, PROBES, json.dumps([t * 1000 for t in TIMES])))
    result = page_report(page, out)
    failures = []
    if result["animations"] != 3:
        failures.append(f"{result['animations']} animations in the page, not 3 (the box's turn, each dot's bounce)")
    for i, (left, top, width, height) in enumerate(result["layout"]):
        print(f"chasing-dots: the browser lays out dot{i + 1} at left {left}, top {top}, {width} × {height} in the 40-px box")
    server, base = start_with_definitions(binary, CENTRED)
    try:
        worst, where = worst_difference(base, "chasing-dots", result["rows"])
        print(f"chasing-dots: {len(TIMES)} moments over two loops, worst centre/size difference {worst:.5f} px ({where})")
        if worst > 0.1:
            failures.append(f"the engine's chasing-dots is {worst:.3f} px from the browser's: {where}")
        # The check must see the old reading, whose dots sit 12 px to the left at rest.
        old, where = worst_difference(base, "chasing-dots-centred", result["rows"])
        print(f"chasing-dots: the dots centred across the box (the old reading) are {old:.3f} px off at worst")
        if old <= 0.1:
            failures.append("the check does not see dots centred across the box")
    finally:
        server.terminate()
        server.wait()
    if failures:
        print("FAILED: " + "; ".join(failures))
        sys.exit(1)
    print("chasing-dots: 1 passed, 0 failed")


if __name__ == "__main__":
    main()
