#!/usr/bin/env python3
"""Real-browser tests with headless Chromium (run by .ci/run):
1. the demo page shows every loader of /loaders, including one dropped into
   --loaders-dir with no other change, and its editor's live preview: each
   receives at least 10 frames and draws a non-blank canvas (`?frames=N`
   stops each after N frames so that --dump-dom returns); a screenshot is kept;
2. the editor shows a bad definition's error with its JSON path;
3. animation.svg in an <img> shows different pixels at two moments;
4. over the DevTools protocol, the demo page draws every loader (16, with the
   dropped-in one) from one multiplexed EventSource on the shared clock: the
   page's requests are counted, and exactly one is an event stream.
Exits 1 on failure.

    Tests/system/browser_test.py path/to/loaderd output-dir
"""
import json, os, re, socket, struct, subprocess, sys, tempfile, time, urllib.parse, urllib.request, zlib

from cdp import Browser
from loaderd_process import free_port


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        for d in os.environ.get("PATH", "").split(":"):
            if os.access(os.path.join(d, name), os.X_OK):
                return os.path.join(d, name)
    sys.exit("FAILED: no chromium on PATH")

def run_browser(args, timeout=60):
    base = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
            "--user-data-dir=" + os.path.join(OUT, "chromium-profile")]
    return subprocess.run(base + args, capture_output=True, text=True, timeout=timeout)

def pixels(path):
    data = open(path, "rb").read()
    pos, idat = 8, b""
    while pos < len(data):
        n = struct.unpack(">I", data[pos:pos + 4])[0]
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
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
        rows.append(bytes(line)); prev = line
    return w, h, bpp, rows

def main():
    global OUT
    binary, OUT = sys.argv[1], sys.argv[2]
    os.makedirs(OUT, exist_ok=True)
    port = free_port()
    # A loader dropped into the loaders directory: nothing else names it.
    loaders_dir = tempfile.mkdtemp()
    dropped = {
        "format": 1, "name": "dropped-in", "summary": "A test loader: a ring that turns and a bar that fades.",
        "canvas": {"width": 40, "height": 40}, "background": "#101010", "color": "#40C0FF",
        "layers": [
            {"type": "ring", "id": "arc", "position": [20, 20], "diameter": 30, "lineWidth": 4, "strokeEnd": 0.6,
             "animations": [{"type": "basic", "keyPath": "transform.rotation.z", "byValue": 6.283185307179586,
                             "duration": 1, "repeatCount": "infinity"}]},
            {"type": "rect", "id": "bar", "position": [20, 20], "bounds": [4, 14], "cornerRadius": 2,
             "animations": [{"type": "keyframe", "keyPath": "opacity", "values": [1, 0.2, 1], "duration": 0.8,
                             "repeatCount": "infinity"}]},
        ],
    }
    with open(os.path.join(loaders_dir, "dropped-in.json"), "w") as f:
        json.dump(dropped, f)
    server = subprocess.Popen([binary, "--port", str(port), "--log-level", "warning", "--loaders-dir", loaders_dir],
                              stdout=subprocess.DEVNULL)
    failures = []
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(200):
            try:
                urllib.request.urlopen(base + "/readyz", timeout=1); break
            except OSError:
                time.sleep(0.05)

        # 1. The demo page: every loader (and the editor), frames, canvases drawn.
        names = [l["name"] for l in json.load(urllib.request.urlopen(base + "/loaders"))["loaders"]]
        if "dropped-in" not in names: failures.append("the dropped-in loader is not in /loaders")
        paths = json.load(urllib.request.urlopen(base + "/openapi.json"))["paths"]
        if "/loaders/dropped-in/frames" not in paths: failures.append("the dropped-in loader has no path in /openapi.json")
        dom = run_browser(["--virtual-time-budget=15000", "--dump-dom", base + "/?frames=40"]).stdout
        cards = re.findall(r'<section class="card" data-loader="([\w-]+)" data-frames="(\d+)"(?: data-nonblank="(\w+)")?', dom)
        seen = {name: (int(frames), nonblank) for name, frames, nonblank in cards}
        for name in names + ["editor"]:
            frames, nonblank = seen.get(name, (0, None))
            print(f"demo page: {name}: {frames} frames received, canvas non-blank: {nonblank}")
            if frames < 10: failures.append(f"{name} received {frames} frames (< 10)")
            if nonblank != "true": failures.append(f"{name} canvas is blank")
        shot = os.path.join(OUT, "demo.png")
        run_browser(["--window-size=1280,900", "--virtual-time-budget=15000", "--screenshot=" + shot, base + "/?frames=12"])
        w, h, bpp, rows = pixels(shot)
        colours = {rows[y][x * bpp:x * bpp + 3] for y in range(0, h, 7) for x in range(0, w, 7)}
        print(f"demo page screenshot: {shot} ({w}×{h}, {len(colours)} colours sampled)")
        if len(colours) < 8: failures.append("the demo screenshot is nearly uniform")

        # 2. The editor with a mistake: the message and its path are shown.
        bad = json.loads(json.dumps(dropped))
        bad["layers"][1]["animations"][0]["keyTimes"] = [0, 0.7, 0.5]
        dom = run_browser(["--virtual-time-budget=5000", "--dump-dom",
                           base + "/?frames=12&edit=" + urllib.parse.quote(json.dumps(bad))]).stdout
        path = "layers[1].animations[0].keyTimes"
        shown = f'data-error="{path}"' in dom and f"{path}: must be non-decreasing from 0 to 1" in dom
        print(f"editor: a bad definition shows its error at {path}: {shown}")
        if not shown: failures.append("the editor did not show the definition's error and path")

        # 3. animation.svg in <img> tags at two moments.
        shots = []
        for ms in (300, 1100):
            path = os.path.join(OUT, f"embed-{ms}ms.png")
            run_browser(["--window-size=900,260", f"--virtual-time-budget={ms}", "--screenshot=" + path, base + "/?view=embed"])
            shots.append(pixels(path))
        (w, h, bpp, a), (_, _, _, b) = shots
        changed = sum(1 for y in range(h) for x in range(w) if a[y][x * bpp:x * bpp + 3] != b[y][x * bpp:x * bpp + 3])
        print(f"animation.svg in <img>: {changed} pixels differ between 300 ms and 1100 ms")
        if changed < 50: failures.append("animation.svg did not change between two moments")

        # 4. One connection for every loader, counted by the browser itself.
        with Browser(chromium(), os.path.join(OUT, "chromium-cdp-profile")) as browser:
            page = browser.open(base + "/?frames=40")
            cards_js = '[...document.querySelectorAll("section.card")]'
            page.wait_for(f'{cards_js}.length > {len(names)} && {cards_js}.every((c) => c.dataset.nonblank !== undefined)', 60)
            drawn = json.loads(page.evaluate(f'JSON.stringify({cards_js}.map((c) => [c.dataset.loader, Number(c.dataset.frames), c.dataset.nonblank]))'))
            requests = page.events("Network.requestWillBeSent")
            streams = [r["request"]["url"] for r in requests if r["type"] == "EventSource"]
            print(f"demo page over DevTools: {len(requests)} requests, {len(streams)} event stream(s): {[u[:60] for u in streams]}")
            print(f"demo page over DevTools: {sum(1 for n, f, b in drawn if f >= 40 and b == 'true')} of {len(drawn)} cards drew 40 frames")
            if len(streams) != 1 or "/streams?" not in streams[0] or "clock=shared" not in streams[0]:
                failures.append(f"the demo page opened {len(streams)} event streams, not one multiplexed shared-clock stream")
            elif streams[0].count("loader=") != len(names):
                failures.append(f"the page's stream carries {streams[0].count('loader=')} loaders, not {len(names)}")
            for name, frames, nonblank in drawn:
                if frames < 40 or nonblank != "true":
                    failures.append(f"over one connection, {name} drew {frames} frames (non-blank: {nonblank})")
    finally:
        server.terminate()
        server.wait()
    if failures:
        print("FAILED: " + "; ".join(failures))
        sys.exit(1)
    print("browser: 4 passed, 0 failed")

if __name__ == "__main__":
    main()
