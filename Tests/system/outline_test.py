#!/usr/bin/env python3
"""A placed element's `outline` drawn by Chromium (run by .ci/run): a
format-1.1 loader in --loaders-dir puts a circle, a rect with round
corners, a ring with round caps and a segment under a
perspective (a container's sublayerTransform with m34) and turns each
about x and y, and squashes a circle (scale.x ≠ scale.y).

For each element in perspective, the frame's `matrix3d` (CSS order) maps
points of the shape's own plane, computed here from the shape's geometry,
to the canvas; each outline point, moved 0.05 pt inward along its normal in
the shape's plane, must lie in Chromium's fill of the frame's `outline`
path (SVGGeometryElement.isPointInFill, nonzero), and moved 0.05 pt
outward must not. The outline uses only M, L, A and Z. The squashed circle
carries `matrix` [2, 0, 0, 0.5, x, y] and no outline.

    Tests/system/outline_test.py path/to/loaderd output-dir
"""
import json, math, os, re, sys, urllib.request

from browser_test import chromium
from cdp import Browser
from loaderd_process import serve_pages, start_with_definitions

failures = []


def check(ok, what):
    print(("ok: " if ok else "FAILED: ") + what)
    if not ok:
        failures.append(what)


PERSPECTIVE = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -1 / 120, 0, 0, 0, 1]
TILTED = {
    "format": 1.1, "name": "tilted", "summary": "Shapes turned about x and y under a perspective, and a squash.",
    "canvas": {"width": 100, "height": 100}, "color": "#40C0FF",
    "layers": [
        {"type": "layer", "id": "stage", "position": [50, 50], "bounds": [100, 100],
         "sublayerTransform": {"matrix": PERSPECTIVE},
         "sublayers": [
             {"type": "circle", "id": "disc", "position": [25, 25], "diameter": 24, "transform": {"rotation.y": 0.9}},
             {"type": "rect", "id": "card", "position": [75, 25], "bounds": [26, 18], "cornerRadius": 5,
              "transform": {"rotation.x": 0.8, "rotation.z": 0.3}},
             {"type": "ring", "id": "arc", "position": [25, 75], "diameter": 22, "lineWidth": 5, "lineCap": "round",
              "strokeStart": 0.1, "strokeEnd": 0.75, "transform": {"rotation.x": -0.7, "rotation.y": 0.5}},
             {"type": "segment", "id": "cap", "position": [75, 75], "diameter": 26, "arc": 2.2, "transform": {"rotation.y": -1.0}},
         ]},
        {"type": "circle", "id": "squash", "position": [50, 90], "diameter": 10, "transform": {"scale.x": 2, "scale.y": 0.5}},
    ],
}


def boundary(e):
    """Points of the shape's outline in its own plane (centre at the origin,
    y down, clock angles from 12 o'clock), each with its outward normal."""
    out = []
    def arc(cx, cy, r, a0, a1, sign=1, n=24):
        for k in range(1, n):
            a = a0 + (a1 - a0) * k / n
            nx, ny = math.sin(a), -math.cos(a)
            out.append(((cx + r * nx, cy + r * ny), (sign * nx, sign * ny)))
    def edge(p, q, normal, n=12):
        for k in range(1, n):
            out.append(((p[0] + (q[0] - p[0]) * k / n, p[1] + (q[1] - p[1]) * k / n), normal))
    shape = e["shape"]
    if shape == "circle":
        arc(0, 0, e["diameter"] / 2, 0, 2 * math.pi, n=48)
    elif shape == "rect":
        w, h = e["width"] / 2, e["height"] / 2
        cr = min(e["cornerRadius"], w, h)
        edge((-w + cr, -h), (w - cr, -h), (0, -1)); edge((w, -h + cr), (w, h - cr), (1, 0))
        edge((w - cr, h), (-w + cr, h), (0, 1)); edge((-w, h - cr), (-w, -h + cr), (-1, 0))
        for i, (cx, cy) in enumerate([(w - cr, -h + cr), (w - cr, h - cr), (-w + cr, h - cr), (-w + cr, -h + cr)]):
            arc(cx, cy, cr, i * math.pi / 2, (i + 1) * math.pi / 2, n=8)
    elif shape == "ring":
        r, half = e["diameter"] / 2, e["lineWidth"] / 2
        a0, a1 = 2 * math.pi * e["strokeStart"], 2 * math.pi * e["strokeEnd"]
        arc(0, 0, r + half, a0, a1, n=40)
        arc(0, 0, r - half, a0, a1, sign=-1, n=40)
        for a, b in ((a1, a1), (a0, a0 + math.pi)):   # round caps: half discs about the middle line's ends
            arc(r * math.sin(a), -r * math.cos(a), half, b, b + math.pi, n=12)
    elif shape == "segment":
        r, half = e["diameter"] / 2, e["arc"] / 2
        arc(0, 0, r, -half, half, n=40)
        edge((r * math.sin(half), -r * math.cos(half)), (-r * math.sin(half), -r * math.cos(half)), (0, 1))
    return out


def mapped(m, p):
    x, y = p
    w = m[3] * x + m[7] * y + m[15]
    return ((m[0] * x + m[4] * y + m[12]) / w, (m[1] * x + m[5] * y + m[13]) / w)


def main():
    binary, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    process, base = start_with_definitions(binary, TILTED)
    try:
        with urllib.request.urlopen(base + "/loaders/tilted/frames?t=0", timeout=30) as r:
            frame = json.loads(r.read())
        elements = {e["id"]: e for e in frame["elements"]}
        check(sorted(elements) == ["arc", "cap", "card", "disc", "squash"], f"the five elements: {sorted(elements)}")
        squash = elements.get("squash", {})
        check(squash.get("matrix") == [2, 0, 0, 0.5, squash.get("x"), squash.get("y")] and "outline" not in squash and "matrix3d" not in squash,
              f"the squashed circle: matrix {squash.get('matrix')}, no outline")
        placed = [e for e in frame["elements"] if "matrix3d" in e]
        check(len(placed) == 4, f"four elements in perspective, each with matrix3d: {[e['id'] for e in placed]}")
        probes = []
        for e in placed:
            m = e["matrix3d"]
            check(len(m) == 16 and m[15] == 1 and "outline" in e and "matrix" not in e, f"{e['id']}: 16 numbers, m44 = 1, an outline, no matrix")
            check(re.fullmatch(r"[MLAZ0-9eE.+\- ]*", e["outline"]) is not None and e["outline"].endswith("Z"),
                  f"{e['id']}: only M, L, A, Z: {e['outline'][:80]}…")
            for (x, y), (nx, ny) in boundary(e):
                inside = mapped(m, (x - 0.05 * nx, y - 0.05 * ny))
                outside = mapped(m, (x + 0.05 * nx, y + 0.05 * ny))
                probes.append([e["id"], e["outline"], inside, outside])
        page = """<!doctype html><html><body><svg id="s" xmlns="http://www.w3.org/2000/svg" width="100" height="100"></svg>
<pre id="out"></pre><script>
const probes = %s;
const svg = document.getElementById('s');
const bad = [];
for (const [id, d, inside, outside] of probes) {
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('d', d);
  svg.append(path);
  if (!path.isPointInFill(new DOMPoint(inside[0], inside[1]))) bad.push([id, 'in', inside]);
  if (path.isPointInFill(new DOMPoint(outside[0], outside[1]))) bad.push([id, 'out', outside]);
  path.remove();
}
document.getElementById('out').textContent = JSON.stringify({ count: probes.length, bad });
</script></body></html>""" % json.dumps(probes)
        server = serve_pages({"/outline.html": page})
        page_base = f"http://127.0.0.1:{server.server_address[1]}"
        try:
            with Browser(chromium(), os.path.join(out, "outline-profile")) as browser:
                view = browser.open(page_base + "/outline.html")
                view.wait_for("(document.getElementById('out')?.textContent || '').length > 0", 30)
                result = json.loads(view.evaluate("document.getElementById('out').textContent"))
        finally:
            server.shutdown()
        check(result["count"] == len(probes) and len(probes) > 200, f"{result['count']} probes of {len(probes)} measured")
        per = {}
        for id, side, p in result["bad"]:
            per.setdefault(id, []).append((side, p))
        for e in placed:
            wrong = per.get(e["id"], [])
            check(not wrong, f"{e['id']}: every outline point 0.05 pt in is filled and 0.05 pt out is not ({len(wrong)} wrong: {wrong[:3]})")
    finally:
        process.terminate()
        process.wait()
    if failures:
        sys.exit(1)


if __name__ == "__main__":
    main()
