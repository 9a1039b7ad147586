#!/usr/bin/env python3
"""Pictures made of pixels, read by decoders no one here wrote (run by
.ci/run in a venv with Pillow and numpy, and Debian's pngcheck):

1. DEFLATE: loaderd's zlib streams (`loaderd-bench zlib`) of empty, tiny,
   random, constant, repetitive and skewed inputs decompress with Python's
   zlib to the input.
2. frames.png of every loader at ten moments and dpr 1, 2 and 3: pngcheck
   passes it, Pillow reads an RGBA image of ceil(canvas × dpr) pixels, and it
   matches a plain 16 × 16 supersampling rasteriser written here from the
   frame's JSON (circles, rects turned with rounded corners, rings with their
   trim and caps, segments, triangles; a placed element's samples taken back
   into its own plane through the inverse of its `matrix` or `matrix3d`,
   for the catalogue's squashed and 3D loaders and `placed`, defined here;
   source-over in sRGB values): at least 40 dB PSNR
   on premultiplied RGBA, no channel more than 24/255 off.
3. animation.png (APNG, fps 10, dpr 1, from 0) of every loader: pngcheck
   passes it; Pillow reads its frames; the delays add up to the loop's
   length (animation.css states it) to the millisecond; every frame
   matches frames.png at its moment at 40 dB, and the
   first is frames.png at t = 0 and the last at one frame interval before
   the loop's end, pixel for pixel.
4. animation.gif (fps 10, dpr 1, from 0): Pillow reads it, it loops for
   ever, the delays add up to the loop's length to the hundredth, and every
   frame is within its palette's reach of frames.png at its moment (30 dB on
   opaque pixels), the last one frame interval before the loop's end.
4b. A GIF without matte on no background (the `faded` loader defined
   here: dots at opacity 0.3, 0.45, 0.55 and 0.7 and one fading in and out):
   at each of its frames' moments, a pixel is opaque in the GIF exactly
   where frames.png has alpha >= 128 (opacity counts as coverage does), in
   frames.png's colour, and transparent elsewhere.
5. Limits: dpr 5, fps 61, a too large picture: 400 with a JSON error.
6. In Chromium: frames.png, animation.png and animation.gif of every
   loader decode (WebCodecs' ImageDecoder) at Pillow's size and frame
   count; frames.png at the ten moments and dpr 1, 2 and 3 of 2 against
   Chromium's own frames.svg drawn at 8x and box-filtered down: 40 dB,
   24/255 (where a frame has no trimmed ring and no stacked shapes: there
   the supersampling reference of 2 is the one).

    Tests/system/pictures_test.py path/to/loaderd path/to/loaderd-bench
"""
import io, json, math, os, re, subprocess, sys, tempfile, urllib.error, urllib.request, zlib

import numpy as np
from PIL import Image

from loaderd_process import PLACED, start_with_definitions

# Shapes partly opaque on no background, for the GIF's rule without matte.
FADED = {
    "format": 1, "name": "faded", "summary": "A test loader: dots at fixed opacities and one fading, on nothing.",
    "canvas": {"width": 60, "height": 20}, "color": "#2060C0",
    "layers": [{"type": "circle", "id": f"dot{i}", "position": [6 + 12 * i, 10], "diameter": 11, "opacity": o}
               for i, o in enumerate((0.3, 0.45, 0.55, 0.7))]
              + [{"type": "circle", "id": "fade", "position": [54, 10], "diameter": 11,
                  "animations": [{"type": "keyframe", "keyPath": "opacity", "values": [0, 1, 0], "duration": 1, "repeatCount": "infinity"}]}],
}

failures = []


def check(ok, what):
    print(("ok: " if ok else "FAILED: ") + what)
    if not ok:
        failures.append(what)


def get(base, path):
    with urllib.request.urlopen(base + path, timeout=60) as r:
        return r.read()


# The reference: 16 × 16 samples a pixel, each inside a shape or not.

def rgb(color):
    return np.array([int(color[i:i + 2], 16) / 255 for i in (1, 3, 5)])


def plane_map(e):
    """A placed element's map from its own plane to the canvas as a 3 × 3
    (rows X, Y, W), from the frame's `matrix` or `matrix3d` (column-major,
    its plane z = 0: columns 1, 2 and 4, rows 1, 2 and 4)."""
    if "matrix" in e:
        a, b, c, d, tx, ty = e["matrix"]
        return np.array([[a, c, tx], [b, d, ty], [0, 0, 1.0]])
    m = e["matrix3d"]
    return np.array([[m[0], m[4], m[12]], [m[1], m[5], m[13]], [m[3], m[7], m[15]]])


def inside(e, px, py, k):
    """Which sample points (pixels, k pixels a point) lie in element e."""
    if "matrix" in e or "matrix3d" in e:
        # Placed: each sample point taken back into the element's own plane
        # (the inverse map), where the shape is unscaled and unturned.
        inv = np.linalg.inv(plane_map(e))
        x, y = px / k, py / k
        w = inv[2, 0] * x + inv[2, 1] * y + inv[2, 2]
        lx = (inv[0, 0] * x + inv[0, 1] * y + inv[0, 2]) / w
        ly = (inv[1, 0] * x + inv[1, 1] * y + inv[1, 2]) / w
        return inside_own(e, lx, ly, 1)
    s = e["scale"] * k
    dx, dy = px - e["x"] * k, py - e["y"] * k
    rot = e.get("rotation", 0)
    if e["shape"] == "circle":
        return dx * dx + dy * dy <= (e["diameter"] * s / 2) ** 2
    # Into the element's own axes.
    lx = dx * math.cos(rot) + dy * math.sin(rot)
    ly = -dx * math.sin(rot) + dy * math.cos(rot)
    return inside_own(e, lx, ly, s)


def inside_own(e, lx, ly, s):
    """Which points (in the element's own axes about its centre, s of them a
    unit of its sizes) lie in its shape."""
    if e["shape"] == "circle":
        return lx * lx + ly * ly <= (e["diameter"] * s / 2) ** 2
    if e["shape"] == "triangle":
        # Apex at the top middle, base along the bottom of the width × height box.
        w, h = e["width"] * s / 2, e["height"] * s / 2
        if w <= 0 or h <= 0:
            return np.zeros_like(lx, dtype=bool)
        return (ly <= h) & (np.abs(lx) <= w * (ly + h) / (2 * h))
    if e["shape"] == "rect":
        w, h = e["width"] * s / 2, e["height"] * s / 2
        r = min(e["cornerRadius"] * s, w, h)
        qx, qy = np.abs(lx) - (w - r), np.abs(ly) - (h - r)
        box = (np.abs(lx) <= w) & (np.abs(ly) <= h)
        corner = (qx > 0) & (qy > 0)
        return box & (~corner | (qx * qx + qy * qy <= r * r))
    if e["shape"] == "segment":
        r, half = e["diameter"] * s / 2, min(e["arc"], 2 * math.pi) / 2
        return (lx * lx + ly * ly <= r * r) & (ly <= -r * math.cos(half))
    # A ring: the band, where the clock angle (from 12, clockwise) is within the trim; caps.
    r, half = e["diameter"] * s / 2, e["lineWidth"] * s / 2
    length = min(e["strokeEnd"], 1) - max(e["strokeStart"], 0)
    if length <= 0 or half <= 0:
        return np.zeros_like(px, dtype=bool)
    d = np.sqrt(lx * lx + ly * ly)
    band = (d >= r - half) & (d <= r + half)
    if length >= 1:
        return band
    angle = np.mod(np.arctan2(lx, -ly) - 2 * math.pi * e["strokeStart"], 2 * math.pi)
    shape = band & (angle <= 2 * math.pi * length)
    if e["lineCap"] == "round":
        for a in (2 * math.pi * e["strokeStart"], 2 * math.pi * (e["strokeStart"] + length)):
            cx, cy = r * math.sin(a), -r * math.cos(a)
            shape |= (lx - cx) ** 2 + (ly - cy) ** 2 <= half * half
    return shape


def reference(frame, background, k):
    """Premultiplied RGBA, 0…1, of a frame at k pixels a point."""
    w, h = math.ceil(frame["width"] * k - 1e-9), math.ceil(frame["height"] * k - 1e-9)
    n = 16
    offsets = (np.arange(n) + 0.5) / n
    ys, xs = np.mgrid[0:h, 0:w]
    out = np.zeros((h, w, 4))
    if background:
        out[..., :3] = rgb(background)
        out[..., 3] = 1
    for e in frame["elements"]:
        cover = np.zeros((h, w))
        for oy in offsets:
            for ox in offsets:
                cover += inside(e, xs + ox, ys + oy, k)
        alpha = (cover / (n * n) * e["opacity"])[..., None]
        color = np.concatenate([rgb(e["color"]), [1.0]])
        out = color * alpha + out * (1 - alpha)
    return out


def premultiplied(image):
    a = np.asarray(image.convert("RGBA"), dtype=float) / 255
    return np.concatenate([a[..., :3] * a[..., 3:4], a[..., 3:4]], axis=2)


def psnr(a, b):
    mse = float(np.mean((a - b) ** 2))
    return math.inf if mse == 0 else 10 * math.log10(1 / mse)


def pngcheck(data):
    with tempfile.NamedTemporaryFile(suffix=".png", delete=False) as f:
        f.write(data)
    r = subprocess.run(["pngcheck", "-q", f.name], capture_output=True, text=True)
    os.unlink(f.name)
    return r.returncode == 0, (r.stdout + r.stderr).strip()


def trimmed_ring(frame):
    """frames.svg draws a trimmed ring as a dash of a pathLength-1 circle,
    which Chromium places up to about 2° off."""
    return any(e["shape"] == "ring" and (e["strokeStart"] > 0 or e["strokeEnd"] < 1) for e in frame["elements"])


def stacked(frame):
    """Shapes that overlap: loaderd, a browser at 1× and the supersampling
    reference blend one shape's edge pixels over another's, shape by shape,
    where Chromium at 8× blends them within an eighth of a pixel (two balls
    crossing are up to 33/255 apart there at 1×). Where one of two is
    placed, they overlap where their boxes on the canvas come within a point."""
    def extent(e):
        if e["shape"] == "circle":
            return e["diameter"] * e["scale"] / 2
        return max(e.get("diameter", 0) + e.get("lineWidth", 0), math.hypot(e.get("width", 0), e.get("height", 0))) * e["scale"] / 2
    def box(e):
        """An element's box on the canvas: its own box's corners through its map
        (the image of a convex box under a flat or projective map is the hull of theirs)."""
        if e["shape"] == "circle" or e["shape"] == "segment":
            hw = hh = e["diameter"] / 2
        elif e["shape"] == "ring":
            hw = hh = (e["diameter"] + e["lineWidth"]) / 2
        else:
            hw, hh = e["width"] / 2, e["height"] / 2
        if placed(e):
            m = plane_map(e)
        else:
            c, s = math.cos(e.get("rotation", 0)) * e["scale"], math.sin(e.get("rotation", 0)) * e["scale"]
            m = np.array([[c, -s, e["x"]], [s, c, e["y"]], [0, 0, 1.0]])
        corners = [m @ np.array([x, y, 1.0]) for x in (-hw, hw) for y in (-hh, hh)]
        xs, ys = [c[0] / c[2] for c in corners], [c[1] / c[2] for c in corners]
        return min(xs), min(ys), max(xs), max(ys)
    def placed(e):
        return "matrix" in e or "matrix3d" in e
    shown = [e for e in frame["elements"] if e["opacity"] > 0 and e["scale"] > 0]
    def overlap(a, b):
        if placed(a) or placed(b):
            (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = box(a), box(b)
            # Within a point: sharing edge pixels is enough.
            return ax0 < bx1 + 1 and bx0 < ax1 + 1 and ay0 < by1 + 1 and by0 < ay1 + 1
        return math.hypot(a["x"] - b["x"], a["y"] - b["y"]) < extent(a) + extent(b)
    return any(overlap(a, b) for i, a in enumerate(shown) for b in shown[i + 1:])


# In the page: frames.svg as an image drawn into a canvas at 8 × dpr device
# pixels a point, each 8 × 8 block summed as premultiplied RGBA (0…64 × 255,
# a Uint16 each), returned as base64.
REFERENCE_8X = r"""
window.reference8x = async (name, t, dpr, w, h) => {
  const text = await (await fetch(`/loaders/${name}/frames.svg?t=${t}`)).text();
  const [vx, vy, vw, vh] = /viewBox="([^"]+)"/.exec(text)[1].trim().split(/[\s,]+/).map(Number);
  const image = new Image();
  image.src = URL.createObjectURL(new Blob([text], { type: "image/svg+xml" }));
  await image.decode();
  const k = 8 * dpr, W = 8 * w, H = 8 * h;
  const g = new OffscreenCanvas(W, H).getContext("2d", { willReadFrequently: true });
  g.drawImage(image, vx * k, vy * k, vw * k, vh * k);
  URL.revokeObjectURL(image.src);
  const d = g.getImageData(0, 0, W, H).data, out = new Uint16Array(w * h * 4);
  for (let y = 0; y < H; y++) {
    const row = (y >> 3) * w;
    for (let x = 0; x < W; x++) {
      const i = (y * W + x) * 4, o = (row + (x >> 3)) * 4, a = d[i + 3];
      out[o] += Math.round(d[i] * a / 255); out[o + 1] += Math.round(d[i + 1] * a / 255);
      out[o + 2] += Math.round(d[i + 2] * a / 255); out[o + 3] += a;
    }
  }
  const bytes = new Uint8Array(out.buffer);
  let text64 = "";
  for (let i = 0; i < bytes.length; i += 32768) text64 += String.fromCharCode.apply(null, bytes.subarray(i, i + 32768));
  return btoa(text64);
};
"""


def chromium_checks(base, loaders, pictures):
    import base64, tempfile
    from browser_test import chromium
    from cdp import Browser
    with Browser(chromium(), tempfile.mkdtemp()) as browser:
        # Size and frame count as Chromium decodes them.
        page = browser.open(base + "/healthz")
        page.wait_for("document.readyState === 'complete'", 10)
        mismatches, decoded = [], 0
        for entry in loaders:
            name = entry["name"]
            for file, kind in (("frames.png?t=0.5&dpr=2", "image/png"), ("animation.png?fps=10&dpr=1&from=0", "image/png"), ("animation.gif?fps=10&dpr=1&from=0", "image/gif")):
                url = f"/loaders/{name}/{file}"
                got = page.evaluate(f"""(async () => {{
                    const bytes = await (await fetch("{url}")).arrayBuffer();
                    const d = new ImageDecoder({{ data: bytes, type: "{kind}" }});
                    await d.tracks.ready;
                    const first = await d.decode({{ frameIndex: 0 }});
                    return [first.image.displayWidth, first.image.displayHeight, d.tracks.selectedTrack.frameCount];
                }})()""", await_promise=True)
                image = Image.open(io.BytesIO(get(base, url)))
                want = [image.size[0], image.size[1], getattr(image, "n_frames", 1)]
                decoded += 1
                if got != want:
                    mismatches.append(f"{url}: Chromium {got}, Pillow {want}")
        check(not mismatches, f"Chromium decodes {decoded} pictures of {len(loaders)} loaders at their size and frame count {mismatches[:3]}")

        # frames.png against Chromium at 8x: the page draws frames.svg into a
        # canvas of 8 × 8 device pixels a pixel and sums each block of 64
        # (premultiplied), so only the small picture crosses the pipe.
        page.evaluate(REFERENCE_8X)
        worst, compared, skipped = (math.inf, 0.0, ""), 0, set()
        for (name, t, dpr), (frame, png) in pictures.items():
            if trimmed_ring(frame) or stacked(frame):
                skipped.add(name)
                continue
            w, h = math.ceil(frame["width"] * dpr - 1e-9), math.ceil(frame["height"] * dpr - 1e-9)
            sums = page.evaluate(f"reference8x({json.dumps(name)}, {t}, {dpr}, {w}, {h})", await_promise=True)
            reference_8x = np.frombuffer(base64.b64decode(sums), dtype=np.uint16).reshape(h, w, 4) / (64 * 255)
            got = premultiplied(Image.open(io.BytesIO(png)))
            p, off = psnr(got, reference_8x), float(np.max(np.abs(got - reference_8x))) * 255
            compared += 1
            if p < worst[0]:
                worst = (p, off, f"{name} t={t} dpr={dpr}")
            if p < 40 or off > 24:
                check(False, f"{name} frames.png t={t} dpr={dpr} against Chromium at 8x: {p:.1f} dB, {off:.0f}/255 at worst")
        check(compared > 600 and worst[0] >= 40,
              f"frames.png against Chromium's frames.svg at 8x box-filtered, {compared} pictures of {len(loaders)} loaders at 10 moments and dpr 1, 2, 3 "
              f"(not {len(pictures) - compared}, with a trimmed ring or stacked shapes, of {len(skipped)} loaders): worst {worst[0]:.1f} dB ({worst[1]:.0f}/255) at {worst[2]}")


def main():
    binary, bench = sys.argv[1], sys.argv[2]

    # 1. DEFLATE against zlib's inflate.
    import random
    random.seed(7)
    inputs = [b"", b"a", os.urandom(70000), bytes(300000), b"loading... " * 9000,
              bytes(random.choice(b"ab") for _ in range(100000)), bytes(range(256)) * 600,
              bytes(random.getrandbits(3) for _ in range(150000))]
    for data in inputs:
        out = subprocess.run([bench, "zlib"], input=data, capture_output=True, check=True).stdout
        check(zlib.decompress(out) == data, f"deflate: {len(data)} bytes -> {len(out)}, inflated by zlib to the same bytes")

    server, base = start_with_definitions(binary, FADED, PLACED)
    try:
        loaders = json.loads(get(base, "/loaders"))["loaders"]
        # 2. frames.png against the reference (the pictures kept for Chromium).
        worst, pictures = (math.inf, 0.0, ""), {}
        for entry in loaders:
            name = entry["name"]
            for t in [round(0.13 + 0.29 * i, 2) for i in range(10)]:
                frame = json.loads(get(base, f"/loaders/{name}/frames?t={t}"))
                for dpr in (1, 2, 3):
                    data = get(base, f"/loaders/{name}/frames.png?t={t}&dpr={dpr}")
                    ok, text = pngcheck(data)
                    if not ok:
                        check(False, f"pngcheck {name} t={t} dpr={dpr}: {text}")
                        continue
                    image = Image.open(io.BytesIO(data))
                    want = (math.ceil(frame["width"] * dpr - 1e-9), math.ceil(frame["height"] * dpr - 1e-9))
                    if image.size != want or image.mode != "RGBA":
                        check(False, f"{name} frames.png dpr={dpr}: {image.size} {image.mode}, want {want} RGBA")
                        continue
                    pictures[(name, t, dpr)] = (frame, data)
                    # The frame's own background: present only when one is drawn.
                    got, ref = premultiplied(image), reference(frame, frame.get("background"), dpr)
                    p, off = psnr(got, ref), float(np.max(np.abs(got - ref))) * 255
                    if p < worst[0]:
                        worst = (p, off, f"{name} t={t} dpr={dpr}")
                    if p < 40 or off > 24:
                        check(False, f"{name} frames.png t={t} dpr={dpr}: {p:.1f} dB, {off:.0f}/255 at worst")
        check(worst[0] >= 40, f"frames.png of {len(loaders)} loaders at 10 moments and dpr 1, 2, 3 against 16x16 supersampling: worst {worst[0]:.1f} dB ({worst[1]:.0f}/255 at worst) at {worst[2]}")
        # background: nothing where nothing is drawn, unless the parameter (or
        # typing's and switch's own black) gives a colour.
        def corner(name, query=""):
            image = Image.open(io.BytesIO(get(base, f"/loaders/{name}/frames.png?t=0.3&dpr=1{query}"))).convert("RGBA")
            return image.getpixel((0, 0))
        corners = [corner("circle"), corner("circle", "&background=%23102030"), corner("typing"), corner("typing", "&background=none")]
        check(corners == [(0, 0, 0, 0), (16, 32, 48, 255), (0, 0, 0, 255), (0, 0, 0, 0)],
              f"frames.png corners: circle transparent, #102030 when asked, typing black, transparent with none: {corners}")

        # 3 and 4. The animations against frames.png at each frame's moment:
        # frames evenly spaced, N = the loop × fps rounded, frame j at j × loop / N
        # (a frame that repeats the one before is merged into it).
        for entry in loaders:
            name = entry["name"]
            css = get(base, f"/loaders/{name}/animation.css?from=0").decode()
            duration = float(re.search(r"one loop of ([0-9.]+) s", css).group(1))
            count = max(1, math.floor(duration * 10 + 0.5))
            events = "&progress=0.3,0.9,1.4,1.8&finish=2.2" if name == "web" else ""   # the loop's sample page load
            def moment(elapsed_ms):
                return round(elapsed_ms / 1000 * count / duration) * duration / count
            apng = get(base, f"/loaders/{name}/animation.png?fps=10&dpr=1&from=0")
            ok, text = pngcheck(apng)
            image = Image.open(io.BytesIO(apng))
            frames, delays = [], []
            for i in range(getattr(image, "n_frames", 1)):
                image.seek(i)
                frames.append(premultiplied(image))
                delays.append(image.info.get("duration", 0))
            total = sum(delays)
            lowest, at = math.inf, 0.0
            for i in range(len(frames)):
                t = moment(sum(delays[:i]))
                want = premultiplied(Image.open(io.BytesIO(get(base, f"/loaders/{name}/frames.png?t={t}&dpr=1{events}"))))
                p = psnr(frames[i], want)
                if p < lowest: lowest, at = p, t
            # The loop's ends: the first frame is the loop's start and the last one
            # frame interval before its end (a last frame merged into the one
            # before it shows that same picture), so that the loop closes.
            interval = duration / count
            ends = [psnr(frames[i], premultiplied(Image.open(io.BytesIO(get(base, f"/loaders/{name}/frames.png?t={t}&dpr=1{events}")))))
                    for i, t in ((0, 0), (-1, duration - interval))]
            good = ok and abs(total - duration * 1000) < 1 and lowest >= 40 and min(ends) == math.inf
            check(good, f"{name} animation.png: pngcheck {'ok' if ok else text}; {len(frames)} frames, {total:.0f} ms for a {duration} s loop; every frame against frames.png: "
                        f"{lowest:.1f} dB at worst (t={at:.3f}); first = frames.png at t=0: {ends[0] == math.inf}, last = frames.png at t={duration - interval:.3f}, one interval before the end: {ends[1] == math.inf}")

            gif = Image.open(io.BytesIO(get(base, f"/loaders/{name}/animation.gif?fps=10&dpr=1&from=0")))
            gframes, gdelays = [], []
            for i in range(getattr(gif, "n_frames", 1)):
                gif.seek(i)
                gframes.append(np.asarray(gif.convert("RGBA"), dtype=float) / 255)
                gdelays.append(gif.info.get("duration", 0))
            lowest = math.inf
            for i, t in [(i, moment(sum(gdelays[:i]))) for i in range(len(gframes))] + [(-1, duration - interval)]:
                want = np.asarray(Image.open(io.BytesIO(get(base, f"/loaders/{name}/frames.png?t={t}&dpr=1{events}"))).convert("RGBA"), dtype=float) / 255
                opaque = (gframes[i][..., 3] > 0) & (want[..., 3] > 0.999)
                if opaque.any():
                    lowest = min(lowest, psnr(gframes[i][opaque][:, :3], want[opaque][:, :3]))
            good = gif.info.get("loop") == 0 and abs(sum(gdelays) - round(duration * 100) * 10) < 1 and lowest >= 30
            check(good, f"{name} animation.gif: loops {gif.info.get('loop')}, {len(gframes)} frames, {sum(gdelays)} ms for {duration} s; every frame's opaque pixels against frames.png: {lowest:.1f} dB at worst")

        # 4b. The GIF's rule without matte: opaque where the PNG's alpha is at
        # least half, in its colour (one colour: the palette holds it exactly).
        gif = Image.open(io.BytesIO(get(base, "/loaders/faded/animation.gif?fps=10&dpr=2&from=0")))
        elapsed, compared, wrong = 0, 0, []
        for i in range(getattr(gif, "n_frames", 1)):
            gif.seek(i)
            g = np.asarray(gif.convert("RGBA"))
            t = round(elapsed / 10) / 10   # frames at tenths of a second: delays are whole hundredths
            p = np.asarray(Image.open(io.BytesIO(get(base, f"/loaders/faded/frames.png?t={t}&dpr=2"))).convert("RGBA"))
            kept = p[..., 3] >= 128
            if not np.array_equal(g[..., 3] == 255, kept) or not np.all((g[..., 3] == 0) | (g[..., 3] == 255)) \
                    or not np.array_equal(g[kept][:, :3], p[kept][:, :3]):
                wrong.append(t)
            compared += 1
            elapsed += gif.info.get("duration", 0) // 10
        check(not wrong and compared >= 5, f"faded animation.gif without matte: {compared} frames, opaque exactly where frames.png's alpha >= 128, in its colour; wrong at t = {wrong}")

        # 6. In Chromium: each picture loads as an image of its size and
        # frame count (WebCodecs' ImageDecoder); frames.png against Chromium's
        # own drawing of frames.svg at 8x, box-filtered down (where there is
        # no ring, whose dashes Chromium places up to 2° off, and no
        # translucent shapes overlap: there the supersampling reference above
        # is the one).
        chromium_checks(base, loaders, pictures)

        # 5. Limits: refused before any work, with a JSON error.
        for path in ("/loaders/typing/frames.png?dpr=5", "/loaders/typing/animation.gif?fps=61", "/loaders/web/frames.png?dpr=4",
                     "/loaders/material-spinner/animation.png?dpr=4&fps=50", "/loaders/typing/animation.gif?matte=red"):
            try:
                get(base, path)
                check(False, f"{path} was not refused")
            except urllib.error.HTTPError as e:
                body = json.loads(e.read())
                check(e.code == 400 and "error" in body, f"{path}: {e.code} {body['error']['code']}: {body['error']['message']}")
    finally:
        server.terminate()
        server.wait()
    print("pictures: " + ("all passed" if not failures else f"{len(failures)} failed"))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
