#!/usr/bin/env python3
"""Lottie exports (run by .ci/run, in a venv with lottie-specs, jsonschema,
rlottie-python and Pillow):

1. every loader's /loaders/{name}/animation.json, including one defined in
   --loaders-dir, validates against the official Lottie JSON schema
   (lottie-specs) with jsonschema's Draft 2020-12 validator;
2. rlottie renders it at 4x the canvas at 30 frames spread over the loop,
   and each rendering is compared with the engine's frame at the same t
   (from + f/fr), drawn the same way: the frame as a one-frame Lottie
   rendered by rlottie. A pixel counts only by how far it differs beyond
   4/255 (rlottie draws opacity through 8-bit alpha); the differing weight
   must be at most 2% of the elements' total coverage at the loop's fullest
   frame. The worst case per loader is reported;
3. color, speed and scale change the export as they change the frames.

    Tests/system/lottie_test.py path/to/loaderd
"""
import json, math, os, sys, urllib.request

import jsonschema
from PIL import ImageChops
from rlottie_python import LottieAnimation

from loaderd_process import DEFINED, start_with_definitions

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


def frame_lottie(frame, background, width, height):
    """One engine frame as a one-frame Lottie, drawn with the exporter's shapes."""
    layers = []
    for e in reversed(frame["elements"]):
        color = [int(e["color"][i:i + 2], 16) / 255 for i in (1, 3, 5)] + [1]
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
    server, base = start_with_definitions(binary, DEFINED)
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
