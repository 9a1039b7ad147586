#!/usr/bin/env python3
"""Elements placed by more than a move, a turn and a scale (a squash, a
skew, a perspective: `matrix` or `matrix3d` and `outline` in a frame) in
headless Chromium, for every loader whose frames have them (the catalogue's
and `placed`, a format 1.1 definition made here with a squashed bar, a
skewed dot and a plane turning under perspective). Run by .ci/run.

At 8 moments of each loader's loop, three drawings side by side in one page,
each captured by Chromium at 8 device pixels a point and box-filtered back
to one pixel a point:
  A. frames.svg of the moment (Chromium's own drawing: the reference);
  B. the frame's JSON drawn by <loader-frames>' painter (FramePainter from
     /client.js) into an inline <svg>;
  C. animation.svg?from=0, inline, paused at the moment (SMIL's own
     interpolation between the export's keyframes).
B and C each against A: at least 40 dB PSNR. And the painter's nodes: a
squashed element is a <g> under exactly the frame's matrix, one under
perspective a <path> of exactly the frame's outline.

    Tests/system/placement_test.py path/to/loaderd output-dir
"""
import base64, json, math, os, sys, tempfile, urllib.request, zlib

from browser_test import chromium
from cdp import Browser
from loaderd_process import start_with_definitions

# A squashed pill (transform.scale.y, as NVActivityIndicatorView's line
# loaders), a dot skewed by a whole matrix, and a plane turning about y
# under its container's perspective (m34 = -1/120, as CSS perspective(120px)).
PLACED = {
    "format": 1.1, "name": "placed", "summary": "A test loader: a squash, a skew and a perspective.",
    "canvas": {"width": 90, "height": 40}, "color": "#2060C0",
    "layers": [
        {"type": "rect", "id": "bar", "position": [12, 20], "bounds": [8, 30], "cornerRadius": 4,
         "animations": [{"type": "keyframe", "keyPath": "transform.scale.y", "values": [1, 0.4, 1], "duration": 1.2, "repeatCount": "infinity"}]},
        {"type": "circle", "id": "dot", "position": [36, 20], "diameter": 20,
         "animations": [{"type": "basic", "keyPath": "transform", "fromValue": [1, 0, 0, 0, -0.6, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
                         "toValue": [1, 0, 0, 0, 0.6, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], "duration": 1.2, "autoreverses": True, "repeatCount": "infinity"}]},
        {"type": "layer", "id": "stage", "position": [68, 20], "bounds": [34, 34],
         "sublayerTransform": {"matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -1 / 120, 0, 0, 0, 1]},
         "sublayers": [{"type": "rect", "id": "plane", "position": [17, 17], "bounds": [26, 26], "cornerRadius": 5,
                        "animations": [{"type": "keyframe", "keyPath": "transform.rotation.y", "values": [0, 1.2, 0],
                                        "duration": 2.4, "repeatCount": "infinity"}]}]},
    ],
}

failures = []


def check(ok, what):
    print(("ok: " if ok else "FAILED: ") + what)
    if not ok:
        failures.append(what)


def get(base, path):
    with urllib.request.urlopen(base + path, timeout=60) as r:
        return r.read()


def rgb_rows(png):
    """An 8-bit RGB or RGBA PNG's pixels as rows of (r, g, b) (Chromium's
    screenshots: no interlace)."""
    pos, idat = 8, b""
    while pos < len(png):
        n = int.from_bytes(png[pos:pos + 4], "big")
        kind, body = png[pos + 4:pos + 8], png[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, ctype = int.from_bytes(body[0:4], "big"), int.from_bytes(body[4:8], "big"), body[9]
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, bpp = zlib.decompress(idat), 4 if ctype == 6 else 3
    stride, rows, prev, i = w * bpp, [], bytearray(w * bpp), 0
    for _ in range(h):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0; b = prev[x]; c = prev[x - bpp] if x >= bpp else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line); prev = line
    return w, h, [[tuple(row[x * bpp:x * bpp + 3]) for x in range(w)] for row in rows]


def box_filtered(png, k):
    """The screenshot's k × k blocks averaged, as [0, 1] RGB values."""
    w, h, rows = rgb_rows(png)
    out = []
    for by in range(h // k):
        line = []
        for bx in range(w // k):
            s = [0, 0, 0]
            for y in range(by * k, by * k + k):
                for px in rows[y][bx * k:bx * k + k]:
                    s[0] += px[0]; s[1] += px[1]; s[2] += px[2]
            line.append([v / (k * k * 255) for v in s])
        out.append(line)
    return out


def psnr(a, b):
    se = n = 0
    for ra, rb in zip(a, b):
        for pa, pb in zip(ra, rb):
            se += sum((u - v) ** 2 for u, v in zip(pa, pb)); n += 3
    return math.inf if se == 0 else 10 * math.log10(n / se)


# In the page (on the service's origin): the three drawings of one moment,
# each in a box of the canvas's size on white.
SHOW = r"""
window.show = async (name, t) => {
  const { FramePainter } = await import("/client.js");
  const frame = await (await fetch(`/loaders/${name}/frames?t=${t}`)).json();
  const still = await (await fetch(`/loaders/${name}/frames.svg?t=${t}`)).text();
  const moving = await (await fetch(`/loaders/${name}/animation.svg?from=0`)).text();
  document.body.innerHTML = "";
  document.body.style.cssText = "margin:0;background:#fff";
  const parse = (text) => document.importNode(new DOMParser().parseFromString(text, "image/svg+xml").documentElement, true);
  const boxes = [];
  const place = (svg, i) => {
    const box = document.createElement("div");
    box.style.cssText = `position:absolute;left:${10 + i * (frame.width + 40)}px;top:10px;width:${frame.width}px;height:${frame.height}px`;
    svg.style.display = "block";
    box.append(svg);
    document.body.append(box);
    boxes.push([box.offsetLeft, box.offsetTop]);
  };
  place(parse(still), 0);
  const painted = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  painted.setAttribute("width", frame.width); painted.setAttribute("height", frame.height);
  painted.setAttribute("overflow", "visible");
  place(painted, 1);
  new FramePainter(painted).paint(frame, frame.background || null);
  const animated = parse(moving);
  place(animated, 2);
  animated.pauseAnimations();
  animated.setCurrentTime(t);
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  // The painter's nodes, as it made them.
  const nodes = [...painted.querySelectorAll("[data-element]")].map((n) => ({
    id: n.dataset.element, tag: n.tagName, transform: n.getAttribute("transform"), d: n.getAttribute("d") }));
  return JSON.stringify({ frame, boxes, nodes });
};
"""


def main():
    binary, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    server, base = start_with_definitions(binary, PLACED)
    try:
        loaders = json.loads(get(base, "/loaders"))["loaders"]
        check(any(l["name"] == "placed" for l in loaders), "the format 1.1 definition `placed` is served")
        # Every loader with a placed element at some moment of a few.
        chosen = {}
        for entry in loaders:
            name = entry["name"]
            for t in (0.1, 0.35, 0.6, 0.85):
                frame = json.loads(get(base, f"/loaders/{name}/frames?t={t}"))
                if any("matrix" in e or "matrix3d" in e for e in frame["elements"]):
                    css = get(base, f"/loaders/{name}/animation.css?from=0").decode()
                    chosen[name] = float(css.split("one loop of ", 1)[1].split(" s", 1)[0])
                    break
        check("placed" in chosen and len(chosen) >= 1, f"loaders with placed elements: {sorted(chosen)}")
        kinds = set()
        with Browser(chromium(), tempfile.mkdtemp(), ["--window-size=1200,600", "--force-device-scale-factor=1"]) as browser:
            page = browser.open(base + "/healthz")
            page.wait_for("document.readyState === 'complete'", 10)
            page.evaluate(SHOW)
            worst = {"painter": (math.inf, ""), "animation.svg": (math.inf, "")}
            for name, duration in sorted(chosen.items()):
                for i in range(8):
                    t = round(duration * (i + 0.37) / 8, 4)
                    shown = json.loads(page.evaluate(f"show({json.dumps(name)}, {t})", await_promise=True))
                    frame = shown["frame"]
                    # The painter's nodes: the frame's own matrix, or its outline as is.
                    for e, n in zip(frame["elements"], shown["nodes"]):
                        if "matrix3d" in e:
                            kinds.add("matrix3d")
                            if n["tag"] != "path" or n["d"] != e["outline"]:
                                check(False, f"{name} t={t} {e['id']}: under perspective drawn as {n['tag']} d={str(n['d'])[:80]}")
                        elif "matrix" in e:
                            kinds.add("matrix")
                            want = "matrix(" + " ".join(json.dumps(v) for v in e["matrix"]) + ")"
                            if n["tag"] != "g" or n["transform"] != want:
                                check(False, f"{name} t={t} {e['id']}: squashed drawn as {n['tag']} {n['transform']}, not {want}")
                    shots, pngs = [], []
                    for x, y in shown["boxes"]:
                        shot = browser.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True,
                                                                       "clip": {"x": x, "y": y, "width": frame["width"], "height": frame["height"], "scale": 8}},
                                            session=page.session)
                        pngs.append(base64.b64decode(shot["data"]))
                        shots.append(box_filtered(pngs[-1], 8))
                    for which, shot, png in (("painter", shots[1], pngs[1]), ("animation.svg", shots[2], pngs[2])):
                        p = psnr(shots[0], shot)
                        if p < worst[which][0]:
                            worst[which] = (p, f"{name} t={t}")
                        if p < 40:
                            check(False, f"{name} t={t}: {which} against frames.svg at 8x: {p:.1f} dB")
                            for label, data in (("frames.svg", pngs[0]), (which, png)):
                                with open(os.path.join(out, f"{name}-{t}-{label}.png"), "wb") as f:
                                    f.write(data)
            check(kinds == {"matrix", "matrix3d"}, f"frames with both kinds of placement were drawn ({sorted(kinds)})")
            for which, (p, at) in worst.items():
                check(p >= 40, f"{which} against Chromium's frames.svg at 8x, {len(chosen)} loaders at 8 moments: worst {p:.1f} dB at {at}")
    finally:
        server.terminate()
        server.wait()
    if failures:
        print(f"FAILED: {len(failures)}: " + "; ".join(f[:200] for f in failures))
        sys.exit(1)
    print("placement: all passed")


if __name__ == "__main__":
    main()
