#!/usr/bin/env python3
"""Exports that fit the page, in headless Chromium (run by .ci/run):
1. every catalogue loader's animation.svg in an <img> with no size has
   naturalWidth × naturalHeight equal to its canvas (GET /loaders/{name}:
   canvas.width, canvas.height), and the SVG's root width, height and
   viewBox are exactly the canvas, with overflow="visible" (frames.svg too);
2. animation.html without color draws in the page's colour: on a dark page
   every element painted with --ld-color has the computed background colour
   (a ring: the colour in its conic gradient) of its container's CSS color,
   and follows a change of it; elements of other colours keep theirs; with
   color=#FF0000 they are red whatever the page's colour.
Exits 1 on failure.

    Tests/system/exports_fit.py path/to/loaderd output-dir
"""
import json, os, re, sys, tempfile, urllib.request

from browser_test import chromium
from cdp import Browser
from loaderd_process import free_port, start


def get(base, path):
    with urllib.request.urlopen(base + path, timeout=120) as r:
        return r.read()


def root_attributes(svg):
    """The root <svg>'s attributes, by name."""
    tag = re.match(r"<svg\b([^>]*)>", svg)
    return dict(re.findall(r'([\w:-]+)="([^"]*)"', tag.group(1))) if tag else {}


def number(text):
    v = float(text)
    return int(v) if v == int(v) else v


# Colours as getComputedStyle writes them.
def rgb(hex_color):
    h = hex_color.lstrip("#")
    return "rgb(%d, %d, %d)" % (int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16))


PAINTS = r"""(() => {
  // Each [data-element]: [id, background colour, background image, its container's colour].
  return [...document.querySelectorAll('#host [data-element]')].map(el => {
    const s = getComputedStyle(el), c = el.closest('[role=progressbar]');
    return [el.dataset.element, s.backgroundColor, s.backgroundImage, getComputedStyle(c).color];
  });
})()"""


def main():
    binary, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    port = free_port()
    process = start(binary, port, "--log-level", "warning")
    base = f"http://127.0.0.1:{port}"
    failures = []
    try:
        entries = json.loads(get(base, "/loaders"))["loaders"]
        names = [entry["name"] for entry in entries]
        # A loader drawn on a background of its own keeps its own colour.
        own = {e["name"]: next(p["default"] for p in e["parameters"] if p["name"] == "color")
               for e in entries if e["background"]}
        canvases = {}
        for name in names:
            canvas = json.loads(get(base, f"/loaders/{name}"))["canvas"]
            canvases[name] = (number(canvas["width"]), number(canvas["height"]))
            w, h = canvases[name]
            for file in ("animation.svg", "frames.svg?t=0.5"):
                a = root_attributes(get(base, f"/loaders/{name}/{file}").decode())
                got = (a.get("width"), a.get("height"), a.get("viewBox"), a.get("overflow"))
                want = (str(w), str(h), f"0 0 {w} {h}", "visible")
                if got != want:
                    failures.append(f"{name}/{file}: root {got}, not {want}")
        with tempfile.TemporaryDirectory() as profile, Browser(chromium(), profile) as browser:
            page = browser.open(base + "/healthz")
            page.wait_for("document.readyState === 'complete'", 10)
            # 1. Natural sizes of the animated SVGs.
            sizes = page.evaluate("""Promise.all(%s.map(async name => {
                const img = new Image();
                img.src = '/loaders/' + name + '/animation.svg';
                await img.decode();
                return [name, img.naturalWidth, img.naturalHeight];
            }))""" % json.dumps(names), await_promise=True)
            for name, width, height in sizes:
                want = tuple(round(v) for v in canvases[name])
                if (width, height) != want:
                    failures.append(f"{name}: <img> of animation.svg is {width} × {height}, the canvas {want[0]} × {want[1]}")
            # 2. The CSS in the page's colour, on a dark page.
            page.evaluate("document.body.innerHTML = '<div id=host></div>'; document.body.style.cssText = 'background: #101418; color: rgb(230, 230, 230)'")
            followed = 0
            for name in names:
                html = get(base, f"/loaders/{name}/animation.html").decode()
                css = get(base, f"/loaders/{name}/animation.css").decode()
                # Which elements take --ld-color, and the colour of the others.
                rules = dict(re.findall(r"^\.ld-[\w-]+?-(\d+) \{[^\n]*?background: (?:conic-gradient\(from var\(--ld-a0\), )?(var\(--ld-color\)|#[0-9A-Fa-f]{6})", css, re.M))
                ids = re.findall(r'<div class="ld-[\w-]+?-(\d+)" data-element="([^"]+)">', html)
                paint = {element: rules.get(i) for i, element in ids}
                for page_color in ("rgb(230, 230, 230)", "rgb(255, 128, 0)"):
                    page.evaluate("document.getElementById('host').style.color = %s; document.getElementById('host').innerHTML = %s"
                                  % (json.dumps(page_color), json.dumps(html)))
                    for element, background, image, container in page.evaluate(PAINTS):
                        want = paint.get(element)
                        if want is None:
                            failures.append(f"{name}: {element} has no colour in the CSS")
                            continue
                        if want == "var(--ld-color)" and name in own:
                            if background != rgb(own[name]):
                                failures.append(f"{name}: {element} is {background} on its own background, not its colour {own[name]}")
                            continue
                        expected = container if want == "var(--ld-color)" else rgb(want)
                        if want == "var(--ld-color)" and container != page_color:
                            failures.append(f"{name}: the container's colour is {container}, not the page's {page_color}")
                        shown = background if image == "none" else (re.search(r"rgba?\([^)]*\)", image) or [None])[0]
                        if shown != expected:
                            failures.append(f"{name}: {element} is {shown} on a page of {page_color}, not {expected}")
                        elif want == "var(--ld-color)":
                            followed += 1
            # A colour asked is kept, whatever the page's.
            html = get(base, "/loaders/three-bounce/animation.html?color=%23FF0000").decode()
            page.evaluate("document.getElementById('host').style.color = 'rgb(0, 200, 0)'; document.getElementById('host').innerHTML = %s" % json.dumps(html))
            for element, background, image, container in page.evaluate(PAINTS):
                if background != "rgb(255, 0, 0)":
                    failures.append(f"three-bounce?color=#FF0000: {element} is {background}, not red")
            if followed < len(names):
                failures.append(f"only {followed} elements followed the page's colour over {len(names)} loaders")
    finally:
        process.kill()
        process.wait()
    for f in failures:
        print("FAILED:", f)
    if failures:
        sys.exit(1)
    print(f"ok: {len(names)} loaders' animation.svg and frames.svg are their canvas; their CSS follows the page's colour")


if __name__ == "__main__":
    main()
