#!/usr/bin/env python3
"""Lottie exports (run by .ci/run, in a venv with lottie-specs, jsonschema,
rlottie-python and Pillow):

1. every loader's /loaders/{name}/animation.json, including two defined in
   --loaders-dir (`placed`: elements squashed, skewed and in perspective),
   validates against the official Lottie JSON schema
   (lottie-specs) with jsonschema's Draft 2020-12 validator;
2. rlottie renders it at 4x the canvas at 30 frames spread over the loop,
   and each rendering is compared with the engine's frame at the same t
   (from + f/fr), drawn the same way: the frame as a one-frame Lottie
   rendered by rlottie (a placed element: its exact outline from the frame,
   or under a flat `matrix` its shape built here and mapped point by
   point, filled). A pixel counts only by how far it differs beyond
   4/255 (rlottie draws opacity through 8-bit alpha); the differing weight
   must be at most 2% of the elements' total coverage at the loop's fullest
   frame. The worst case per loader is reported;
3. color, speed and scale change the export as they change the frames.

    Tests/system/lottie_test.py path/to/loaderd
"""
import json, math, os, re, sys, urllib.request

import jsonschema
from PIL import ImageChops
from rlottie_python import LottieAnimation

from loaderd_process import DEFINED, PLACED, start_with_definitions

SCALE = 4
TIMES = 30



def lottie_schema():
    """The schema lottie-specs ships (data/lottie.schema.json)."""
    import lottie_specs
    path = os.path.join(os.path.dirname(lottie_specs.__file__), "data", "lottie.schema.json")
    with open(path) as f:
        return json.load(f), path


def get(base, path):
    with urllib.request.urlopen(base + path, timeout=30) as r:
        return r.read()


def arc_pieces(x1, y1, rx, ry, phi, large, sweep, x2, y2):
    """An SVG elliptical arc as cubic pieces [(p0, c0, c1, p1)] of at most a
    sixteenth turn, from the endpoint form through the centre form as the SVG
    specification's implementation notes give it (F.6.5, F.6.6)."""
    cos_p, sin_p = math.cos(phi), math.sin(phi)
    dx, dy = (x1 - x2) / 2, (y1 - y2) / 2
    x1p, y1p = cos_p * dx + sin_p * dy, -sin_p * dx + cos_p * dy
    rx, ry = abs(rx), abs(ry)
    lam = x1p ** 2 / rx ** 2 + y1p ** 2 / ry ** 2
    if lam > 1:
        rx, ry = rx * math.sqrt(lam), ry * math.sqrt(lam)
    num = rx * rx * ry * ry - rx * rx * y1p * y1p - ry * ry * x1p * x1p
    den = rx * rx * y1p * y1p + ry * ry * x1p * x1p
    coef = math.sqrt(max(0, num / den)) if den > 0 else 0
    if large == sweep:
        coef = -coef
    cxp, cyp = coef * rx * y1p / ry, -coef * ry * x1p / rx
    cx, cy = cos_p * cxp - sin_p * cyp + (x1 + x2) / 2, sin_p * cxp + cos_p * cyp + (y1 + y2) / 2
    def angle(ux, uy, vx, vy):
        return math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)
    t1 = angle(1, 0, (x1p - cxp) / rx, (y1p - cyp) / ry)
    dt = angle((x1p - cxp) / rx, (y1p - cyp) / ry, (-x1p - cxp) / rx, (-y1p - cyp) / ry)
    if not sweep and dt > 0:
        dt -= 2 * math.pi
    elif sweep and dt < 0:
        dt += 2 * math.pi
    n = max(1, math.ceil(abs(dt) / (math.pi / 8) - 1e-9))
    step = dt / n
    k = 4 / 3 * math.tan(step / 4)
    def at(t):
        return (cx + rx * cos_p * math.cos(t) - ry * sin_p * math.sin(t), cy + rx * sin_p * math.cos(t) + ry * cos_p * math.sin(t))
    def tangent(t):
        return (-rx * cos_p * math.sin(t) - ry * sin_p * math.cos(t), -rx * sin_p * math.sin(t) + ry * cos_p * math.cos(t))
    pieces = []
    for j in range(n):
        a, b = t1 + j * step, t1 + (j + 1) * step
        p0, p1, d0, d1 = at(a), at(b), tangent(a), tangent(b)
        pieces.append((p0, (p0[0] + k * d0[0], p0[1] + k * d0[1]), (p1[0] - k * d1[0], p1[1] - k * d1[1]), p1))
    pieces[-1] = pieces[-1][:3] + ((x2, y2),)
    return pieces


def outline_shapes(path):
    """SVG path data of M, L, A and Z (a frame's `outline`) as Lottie paths, one per sub-path."""
    tokens = re.findall(r"[MLAZ]|-?[0-9.]+(?:e[-+]?[0-9]+)?", path)
    shapes, run, current, start, i = [], [], None, None, 0
    def finish():
        if run:
            v = [list(p[0]) for p in run]
            o = [[p[1][0] - p[0][0], p[1][1] - p[0][1]] for p in run]
            in_ = [[run[j - 1][2][0] - run[j - 1][3][0], run[j - 1][2][1] - run[j - 1][3][1]] for j in range(len(run))]
            shapes.append({"ty": "sh", "ks": {"a": 0, "k": {"c": True, "v": v, "i": in_, "o": o}}})
    while i < len(tokens):
        op = tokens[i]
        if op == "M":
            finish()
            run, current = [], (float(tokens[i + 1]), float(tokens[i + 2]))
            start, i = current, i + 3
        elif op == "L":
            p = (float(tokens[i + 1]), float(tokens[i + 2]))
            run.append((current, current, p, p))
            current, i = p, i + 3
        elif op == "A":
            rx, ry, deg, large, sweep, x, y = (float(t) for t in tokens[i + 1:i + 8])
            run += arc_pieces(current[0], current[1], rx, ry, math.radians(deg), large != 0, sweep != 0, x, y)
            current, i = (x, y), i + 8
        else:  # Z: back to the start in a line (none when already there)
            if run and math.hypot(current[0] - start[0], current[1] - start[1]) > 1e-9:
                run.append((current, current, start, start))
            finish()
            run, current, i = [], start, i + 1
    finish()
    return shapes


def placed_items(e, color):
    """A placed element's fill: its `outline` when the frame gives one (under
    perspective); under a flat `matrix`, the shape built here in its own plane
    as cubic pieces, each point and control point through the matrix (a flat
    map takes a cubic to the cubic of its mapped points)."""
    if "outline" in e:
        return outline_shapes(e["outline"])
    a, b, c, d, tx, ty = e["matrix"]
    ring_like = []
    def arc(cx, cy, r, a0, a1, n=16):
        step, out = (a1 - a0) / n, []
        k = 4 / 3 * math.tan(step / 4) * r
        for j in range(n):
            s, t = a0 + j * step, a0 + (j + 1) * step
            p0, p1 = (cx + r * math.sin(s), cy - r * math.cos(s)), (cx + r * math.sin(t), cy - r * math.cos(t))
            out.append((p0, (p0[0] + k * math.cos(s), p0[1] + k * math.sin(s)), (p1[0] - k * math.cos(t), p1[1] - k * math.sin(t)), p1))
        return out
    def line(p, q):
        return (p, p, q, q)
    shape = e["shape"]
    if shape == "circle":
        run = arc(0, 0, e["diameter"] / 2, 0, 2 * math.pi)
    elif shape == "segment":
        half = min(e["arc"], 2 * math.pi) / 2
        run = arc(0, 0, e["diameter"] / 2, -half, half)
        run.append(line(run[-1][3], run[0][0]))
    elif shape == "triangle":
        w, h = e["width"] / 2, e["height"] / 2
        corners = [(0, -h), (w, h), (-w, h)]
        run = [line(corners[j], corners[(j + 1) % 3]) for j in range(3)]
    elif shape == "rect":
        w, h = e["width"] / 2, e["height"] / 2
        r = min(e["cornerRadius"], w, h)
        run = []
        for j, (x, y) in enumerate([(w - r, -h + r), (w - r, h - r), (-w + r, h - r), (-w + r, -h + r)]):
            corner = arc(x, y, r, j * math.pi / 2, (j + 1) * math.pi / 2, 4)
            if run:
                run.append(line(run[-1][3], corner[0][0]))
            run += corner
        run.append(line(run[-1][3], run[0][0]))
    else:  # ring: its band, outer edge, end cap, inner edge back, start cap
        r, half = e["diameter"] / 2, e["lineWidth"] / 2
        s0, s1 = max(e["strokeStart"], 0), min(max(e["strokeEnd"], e["strokeStart"] + 1e-3), 1)
        a0, a1 = 2 * math.pi * s0, 2 * math.pi * s1
        outer, inner = arc(0, 0, r + half, a0, a1, 32), arc(0, 0, max(r - half, 0), a1, a0, 32)
        run = outer
        if e["lineCap"] == "round" and s1 - s0 < 1:
            run += arc(r * math.sin(a1), -r * math.cos(a1), half, a1, a1 + math.pi, 8)
        else:
            run.append(line(outer[-1][3], inner[0][0]))
        run += inner
        if e["lineCap"] == "round" and s1 - s0 < 1:
            run += arc(r * math.sin(a0), -r * math.cos(a0), half, a0 + math.pi, a0 + 2 * math.pi, 8)
        else:
            run.append(line(inner[-1][3], outer[0][0]))
    def through(p):
        return (a * p[0] + c * p[1] + tx, b * p[0] + d * p[1] + ty)
    run = [tuple(through(p) for p in piece) for piece in run]
    v = [list(p[0]) for p in run]
    o = [[p[1][0] - p[0][0], p[1][1] - p[0][1]] for p in run]
    in_ = [[run[j - 1][2][0] - run[j - 1][3][0], run[j - 1][2][1] - run[j - 1][3][1]] for j in range(len(run))]
    return [{"ty": "sh", "ks": {"a": 0, "k": {"c": True, "v": v, "i": in_, "o": o}}}]


def frame_lottie(frame, background, width, height):
    """One engine frame as a one-frame Lottie, drawn with the exporter's shapes
    (a placed element: its exact outline filled, on the canvas)."""
    layers = []
    for e in reversed(frame["elements"]):
        color = [int(e["color"][i:i + 2], 16) / 255 for i in (1, 3, 5)] + [1]
        if "matrix" in e or "outline" in e:
            items = placed_items(e, color) + [{"ty": "fl", "c": {"a": 0, "k": color}, "o": {"a": 0, "k": 100}, "r": 1},
                                              {"ty": "tr", "a": {"a": 0, "k": [0, 0]}, "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]},
                                               "r": {"a": 0, "k": 0}, "o": {"a": 0, "k": 100}}]
            layers.append({"ty": 4, "ind": len(layers) + 1, "ip": 0, "op": 1, "st": 0, "sr": 1, "ao": 0, "bm": 0, "ddd": 0,
                           "ks": {"a": {"a": 0, "k": [0, 0]}, "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]},
                                  "r": {"a": 0, "k": 0}, "o": {"a": 0, "k": e["opacity"] * 100}},
                           "shapes": [{"ty": "gr", "it": items}]})
            continue
        if e["shape"] == "circle":
            items = [{"ty": "el", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [e["diameter"], e["diameter"]]}},
                     {"ty": "fl", "c": {"a": 0, "k": color}, "o": {"a": 0, "k": 100}, "r": 1}]
        elif e["shape"] == "rect":
            r = min(e["cornerRadius"], e["width"] / 2, e["height"] / 2)
            items = [{"ty": "rc", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [e["width"], e["height"]]}, "r": {"a": 0, "k": r}},
                     {"ty": "fl", "c": {"a": 0, "k": color}, "o": {"a": 0, "k": 100}, "r": 1}]
        elif e["shape"] == "segment":
            # The arc in 16 cubic pieces (this test's own, finer than the
            # exporter's), from its start through 12 o'clock, and the chord.
            r, sweep = e["diameter"] / 2, min(e["arc"], 2 * math.pi)
            step = sweep / 16
            k = 4 / 3 * math.tan(step / 4) * r
            angles = [-sweep / 2 + i * step for i in range(17)]
            v = [[r * math.sin(a), -r * math.cos(a)] for a in angles]
            i_ = [[0, 0]] + [[-k * math.cos(a), -k * math.sin(a)] for a in angles[1:]]
            o_ = [[k * math.cos(a), k * math.sin(a)] for a in angles[:-1]] + [[0, 0]]
            items = [{"ty": "sh", "ks": {"a": 0, "k": {"c": True, "v": v, "i": i_, "o": o_}}},
                     {"ty": "fl", "c": {"a": 0, "k": color}, "o": {"a": 0, "k": 100}, "r": 1}]
        elif e["shape"] == "triangle":
            w, h = e["width"] / 2, e["height"] / 2
            items = [{"ty": "sh", "ks": {"a": 0, "k": {"c": True, "v": [[0, -h], [w, h], [-w, h]], "i": [[0, 0]] * 3, "o": [[0, 0]] * 3}}},
                     {"ty": "fl", "c": {"a": 0, "k": color}, "o": {"a": 0, "k": 100}, "r": 1}]
        else:
            items = [{"ty": "el", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [e["diameter"], e["diameter"]]}},
                     {"ty": "tm", "s": {"a": 0, "k": e["strokeStart"] * 100}, "e": {"a": 0, "k": max(e["strokeEnd"], e["strokeStart"] + 1e-3) * 100},
                      "o": {"a": 0, "k": 0}, "m": 1},
                     {"ty": "st", "c": {"a": 0, "k": color}, "o": {"a": 0, "k": 100}, "w": {"a": 0, "k": e["lineWidth"]},
                      "lc": 2 if e["lineCap"] == "round" else 1, "lj": 1}]
        items.append({"ty": "tr", "a": {"a": 0, "k": [0, 0]}, "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]},
                      "r": {"a": 0, "k": 0}, "o": {"a": 0, "k": 100}})
        scale = e["scale"] * 100
        layers.append({"ty": 4, "ind": len(layers) + 1, "ip": 0, "op": 1, "st": 0, "sr": 1, "ao": 0, "bm": 0, "ddd": 0,
                       "ks": {"a": {"a": 0, "k": [0, 0]}, "p": {"a": 0, "k": [e["x"], e["y"]]}, "s": {"a": 0, "k": [scale, scale]},
                              "r": {"a": 0, "k": e.get("rotation", 0) * 57.29577951308232}, "o": {"a": 0, "k": e["opacity"] * 100}},
                       "shapes": [{"ty": "gr", "it": items}]})
    if background:
        c = [int(background[i:i + 2], 16) / 255 for i in (1, 3, 5)] + [1]
        layers.append({"ty": 4, "ind": len(layers) + 1, "ip": 0, "op": 1, "st": 0, "sr": 1, "ao": 0, "bm": 0, "ddd": 0,
                       "ks": {"a": {"a": 0, "k": [0, 0]}, "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]}, "r": {"a": 0, "k": 0}, "o": {"a": 0, "k": 100}},
                       "shapes": [{"ty": "gr", "it": [{"ty": "rc", "p": {"a": 0, "k": [width / 2, height / 2]}, "s": {"a": 0, "k": [width, height]}, "r": {"a": 0, "k": 0}},
                                                      {"ty": "fl", "c": {"a": 0, "k": c}, "o": {"a": 0, "k": 100}, "r": 1},
                                                      {"ty": "tr", "a": {"a": 0, "k": [0, 0]}, "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]}, "r": {"a": 0, "k": 0}, "o": {"a": 0, "k": 100}}]}]})
    return {"v": "5.12.0", "ver": 10000, "fr": 60, "ip": 0, "op": 1, "w": width, "h": height, "ddd": 0, "assets": [], "layers": layers}


def render(document, frame, width, height):
    animation = LottieAnimation.from_data(json.dumps(document))
    image = animation.render_pillow_frame(frame_num=frame, width=width * SCALE, height=height * SCALE)
    return image.convert("RGBA")


def weight(histogram, floor):
    """Sum over pixels of (value - floor) / 255 where value > floor."""
    return sum((v - floor) * n for v, n in enumerate(histogram) if v > floor) / 255


def largest(image):
    """Per pixel, the largest of the bands."""
    bands = image.split()
    out = bands[0]
    for band in bands[1:]:
        out = ImageChops.lighter(out, band)
    return out


def difference(a, b, background):
    """Weight of the pixels that differ beyond 4/255, and the elements' coverage."""
    differ = weight(largest(ImageChops.difference(a, b)).histogram(), 4)
    if background:
        bg = tuple(int(background[i:i + 2], 16) for i in (1, 3, 5))
        flat = b.convert("RGB")
        plain = flat.copy()
        plain.paste(bg, (0, 0, flat.width, flat.height))
        coverage = weight(largest(ImageChops.difference(flat, plain)).histogram(), 0)
    else:
        coverage = weight(b.split()[3].histogram(), 0)
    return differ, coverage


def main():
    binary = sys.argv[1]
    server, base = start_with_definitions(binary, DEFINED, PLACED)
    failures = []
    try:
        schema, schema_path = lottie_schema()
        validator = jsonschema.Draft202012Validator(schema)
        print(f"lottie: schema {os.path.basename(schema_path)} from lottie-specs")
        catalog = json.loads(get(base, "/loaders"))["loaders"]
        for entry in catalog:
            name = entry["name"]
            # The web loop is a sample page load with these events (docs/LOADERS.md).
            events = "&progress=0.3,0.9,1.4,1.8&finish=2.2" if name == "web" else ""
            source = get(base, f"/loaders/{name}/animation.json?from=0")
            document = json.loads(source)
            errors = sorted(validator.iter_errors(document), key=lambda e: list(e.path))
            if errors:
                failures.append(f"{name}: not valid Lottie: {errors[0].message} at {list(errors[0].path)}")
                continue
            if b'"w":' + str(document["w"]).encode() + b"," not in source:
                failures.append(f"{name}: w is not written as an integer")
            width, height = document["w"], document["h"]
            # Each frame's difference over the loop's largest coverage: a frame
            # that shows almost nothing (a stroke trimmed to a sliver) is held
            # to the same pixels as the loader at its fullest, not to a
            # fraction of its own few.
            measured = []
            for k in range(TIMES):
                f = int(k * document["op"] / TIMES)
                t = f / document["fr"]
                frame = json.loads(get(base, f"/loaders/{name}/frames?t={t!r}{events}"))
                mine = render(document, f, width, height)
                # The frame's own background: present only when one is drawn.
                truth = render(frame_lottie(frame, frame.get("background"), width, height), 0, width, height)
                measured.append((f,) + difference(mine, truth, frame.get("background")))
            fullest = max(max(c for _, _, c in measured), 1)
            worst, at = max((d / fullest, f) for f, d, _ in measured)
            print(f"lottie: {name}: worst difference {worst * 100:.2f}% of coverage (frame {at})")
            if worst > 0.02:
                failures.append(f"{name}: rlottie differs from the engine by {worst * 100:.2f}% at frame {at}")
        # The comparison sees a wrong frame: the export's frame 0 against the engine at t = 0.3.
        document = json.loads(get(base, "/loaders/pulse-dots/animation.json?from=0"))
        differ, coverage = difference(render(document, 0, document["w"], document["h"]),
                           render(frame_lottie(json.loads(get(base, "/loaders/pulse-dots/frames?t=0.3")), None, document["w"], document["h"]), 0,
                                  document["w"], document["h"]), None)
        wrong = differ / max(coverage, 1)
        print(f"lottie: a frame 0.3 s off differs by {wrong * 100:.1f}% (must be far above 2%)")
        if wrong < 0.1: failures.append("the comparison does not see a frame 0.3 s off")
        # Parameters change the export as they change the frames.
        plain = json.loads(get(base, "/loaders/pulse-dots/animation.json"))
        red = json.loads(get(base, "/loaders/pulse-dots/animation.json?color=%23FF0000"))
        fast = json.loads(get(base, "/loaders/pulse-dots/animation.json?speed=2"))
        big = json.loads(get(base, "/loaders/pulse-dots/animation.json?scale=2"))
        fill = red["layers"][0]["shapes"][0]["it"][1]["c"]["k"]
        # background: a layer named background, filled, only when one is drawn
        # (pulse-dots has none of its own, typing black).
        backed = json.loads(get(base, "/loaders/pulse-dots/animation.json?background=%23102030"))
        bare = json.loads(get(base, "/loaders/typing/animation.json?background=none"))
        solids = lambda d: [[round(v * 255) for v in layer["shapes"][0]["it"][1]["c"]["k"][:3]]
                            for layer in d["layers"] if layer.get("nm") == "background"]
        checks = {"color": fill[:3] == [1, 0, 0], "speed": abs(fast["op"] - plain["op"] / 2) < 1e-9,
                  "scale": big["w"] == 2 * plain["w"] and big["h"] == 2 * plain["h"],
                  "background": not solids(plain) and solids(backed) == [[0x10, 0x20, 0x30]] and not solids(bare)}
        print(f"lottie: parameters change the export: {checks}")
        failures += [f"{k} does not change the export" for k, ok in checks.items() if not ok]
    finally:
        server.terminate()
        server.wait()
    if failures:
        print("FAILED: " + "; ".join(failures))
        sys.exit(1)
    print("lottie: 1 passed, 0 failed")


if __name__ == "__main__":
    main()
