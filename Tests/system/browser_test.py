#!/usr/bin/env python3
"""Real-browser tests with headless Chromium (run by .ci/run):
1. over the DevTools protocol, the demo page shows every loader of /loaders
   on <loader-frames>, including one dropped into --loaders-dir with no other
   change, and its editor's live preview: each draws at least 40 frames, some
   of them showing something (`?frames=N` pauses each player after N), all
   from one event-stream request (/streams, on the shared clock, carrying
   every loader), counted by the browser itself;
2. the demo page at 1280 px and on a 390 px phone (screenshots kept as CI
   artefacts): no horizontal overflow, every circle node as wide as it is
   tall, every card drawn, human titles, no frame ids;
3. "Use it" follows the card's controls: at the defaults the Use dialog's
   snippets are bare, matted and in the page's colour; after choosing 5 red
   dots in it every tab's snippet says so, and every address answers; the
   editor's Copy puts the definition on the clipboard and Download saves it;
4. the editor shows a bad definition's error with its JSON path;
5. animation.svg in an <img> shows different pixels at two moments.
Exits 1 on failure.

    Tests/system/browser_test.py path/to/loaderd output-dir
"""
import base64, json, os, re, socket, struct, subprocess, sys, tempfile, time, urllib.parse, urllib.request, zlib

from cdp import Browser
from loaderd_process import free_port


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        for d in os.environ.get("PATH", "").split(":"):
            if os.access(os.path.join(d, name), os.X_OK):
                return os.path.join(d, name)
    sys.exit("FAILED: no chromium on PATH")

def page_report(page, out):
    """What a page wrote as JSON into its <pre id="out">, read from the DOM
    headless Chromium dumps after the page's scripts ran (virtual time)."""
    dom = subprocess.run([chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                          "--user-data-dir=" + os.path.join(out, "profile"),
                          "--virtual-time-budget=2000", "--dump-dom", "file://" + page],
                         capture_output=True, text=True, timeout=120).stdout
    try:
        return json.loads(dom.split('<pre id="out">')[1].split("</pre>")[0].replace("&quot;", '"'))
    except (IndexError, ValueError):
        sys.exit("FAILED: the page did not report")

def get_json(base, path):
    with urllib.request.urlopen(base + path, timeout=30) as r:
        return json.loads(r.read())

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

        names = [l["name"] for l in json.load(urllib.request.urlopen(base + "/loaders"))["loaders"]]
        if "dropped-in" not in names: failures.append("the dropped-in loader is not in /loaders")
        paths = json.load(urllib.request.urlopen(base + "/openapi.json"))["paths"]
        served = paths.get("/loaders/{name}/frames", {}).get("get", {}).get("parameters", [{}])[0].get("schema", {}).get("enum", [])
        if "dropped-in" not in served: failures.append("the dropped-in loader is not among /openapi.json's defined loaders")
        cards_js = '[...document.querySelectorAll("section.card")]'

        with Browser(chromium(), os.path.join(OUT, "chromium-cdp-profile")) as browser:
            # 1. Every loader on one connection, counted by the browser itself.
            # A tall screen: a player streams only while it is in view.
            page = browser.open(base + "/?frames=40", device=(1280, 8000, 1, False))
            page.wait_for(f'{cards_js}.length > {len(names)} && {cards_js}.every((c) => c.dataset.nonblank !== undefined)', 60)
            drawn = json.loads(page.evaluate(f'JSON.stringify({cards_js}.map((c) => [c.dataset.loader, Number(c.dataset.frames), c.dataset.nonblank]))'))
            streams = [r["request"]["url"] for r in page.events("Network.requestWillBeSent")
                       if r["request"]["headers"].get("Accept") == "text/event-stream"]
            print(f"demo page: {len(streams)} event stream(s): {[u[:60] for u in streams]}")
            for name, frames, nonblank in drawn:
                print(f"demo page: {name}: {frames} frames drawn, something shown: {nonblank}")
                if frames < 40 or nonblank != "true":
                    failures.append(f"{name} drew {frames} frames (showing something: {nonblank})")
            if {n for n, _, _ in drawn} != set(names) | {"editor"}:
                failures.append(f"the demo page's cards {sorted(n for n, _, _ in drawn)} are not the catalogue's")
            if len(streams) != 1 or "/streams?" not in streams[0] or "clock=shared" not in streams[0]:
                failures.append(f"the demo page opened {len(streams)} event streams, not one multiplexed shared-clock stream")
            elif streams[0].count("loader=") != len(names):
                failures.append(f"the page's stream carries {streams[0].count('loader=')} loaders, not {len(names)}")

            # 2. At 1280 px and on a phone: fits, round, drawn, titled.
            for width, scale, mobile in ((1280, 1, False), (390, 2, True)):
                page = browser.open(base + "/", device=(width, 900, scale, mobile))
                page.wait_for(f'{cards_js}.length > {len(names)}', 20)
                height = page.evaluate("document.documentElement.scrollHeight")
                browser.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile}, session=page.session)
                page.wait_for(f'{cards_js}.every((c) => Number(c.dataset.frames) >= 20)', 30)
                view = json.loads(page.evaluate(f"""JSON.stringify({{
                  scrollWidth: document.documentElement.scrollWidth, innerWidth,
                  titles: {cards_js}.filter((c) => c.dataset.loader !== "editor").map((c) => c.querySelector("h2").textContent),
                  text: document.body.innerText,
                  circles: [...document.querySelectorAll("loader-frames")].flatMap((p) => [...p.shadowRoot.querySelectorAll("circle[data-element]")])
                    .concat([...document.querySelectorAll("#editor-stage circle")])
                    .map((c) => c.getBoundingClientRect()).filter((r) => r.width > 0.5).map((r) => [r.width, r.height]),
                  players: [...document.querySelectorAll("loader-frames")].filter((p) => !p.closest("dialog:not([open])")).map((p) => [p.frame ? p.frame.loader : null, p.getBoundingClientRect().width]),
                }})"""))
                shot = browser.send("Page.captureScreenshot", {"format": "png"}, session=page.session)
                path = os.path.join(OUT, f"demo-{width}.png")
                with open(path, "wb") as f:
                    f.write(base64.b64decode(shot["data"]))
                w, h, bpp, rows = pixels(path)
                colours = {rows[y][x * bpp:x * bpp + 3] for y in range(0, h, 7) for x in range(0, w, 7)}
                oval = [c for c in view["circles"] if abs(c[0] - c[1]) > 0.5]
                slugs = [t for t in view["titles"] if re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)+", t)]
                ids = re.findall(r"frame \d{6,}|id \d{6,}", view["text"])
                undrawn = [p for p in view["players"] if p[0] is None or p[1] < 10]
                print(f"demo page at {width} px: {path} ({w}×{h}, {len(colours)} colours), scroll width {view['scrollWidth']}, "
                      f"{len(view['circles'])} circles, {len(oval)} not round, {len(view['players'])} players")
                if view["scrollWidth"] > view["innerWidth"]: failures.append(f"at {width} px the page scrolls sideways ({view['scrollWidth']} px)")
                if oval: failures.append(f"at {width} px {len(oval)} circles are not round: {oval[:3]}")
                if undrawn: failures.append(f"at {width} px players not drawn: {undrawn}")
                if slugs: failures.append(f"at {width} px cards titled with slugs: {slugs}")
                if ids: failures.append(f"at {width} px raw frame ids show: {ids[:3]}")
                if len(colours) < 8: failures.append(f"the demo screenshot at {width} px is nearly uniform")

            # 3. "Use it" follows the card's controls; the editor copies and downloads.
            page = browser.open(base + "/", device=(1280, 900, 1, False))
            page.wait_for('document.querySelector(\'[data-loader="typing"] button.use\') ? 1 : 0', 20)
            # Every tab of the Use dialog, each snippet once it has come
            # (the CSS tab's is fetched): {tab id: text}.
            tab_js = """(async (id, last) => {
              const tab = document.getElementById(id);
              if (!tab) return "";
              tab.click();
              const until = performance.now() + 15000;
              let text = "";
              while (performance.now() < until) {
                text = document.getElementById("snippet").textContent;
                if (text.length > 40 && text !== last) break;
                await new Promise((r) => setTimeout(r, 50));
              }
              return text;
            })"""
            def tabs():
                out, last = {}, ""
                for id in ("tab-image", "tab-element", "tab-css", "tab-lottie", "tab-gif", "tab-eventsource"):
                    out[id] = last = page.evaluate(f"{tab_js}({json.dumps(id)}, {json.dumps(last)})", await_promise=True)
                return out
            open_use = """(async (loader) => {
              const d = document.getElementById("use");
              // Closed first, and its close event awaited: it is dispatched a task later.
              if (d.open) { const closed = new Promise((r) => d.addEventListener("close", r, { once: true })); d.close(); await closed; }
              document.querySelector(`[data-loader="${loader}"] button.use`).click();
              const until = performance.now() + 10000;
              while (!d.open && performance.now() < until) await new Promise((r) => setTimeout(r, 50));
              return d.open ? 1 : 0;
            })"""
            # At the card's defaults: the live element has no colour and no
            # background (it draws in the page's colour on no background);
            # the GIF is matted for this page's background.
            if not page.evaluate(open_use + '("three-bounce")', await_promise=True):
                failures.append("Three bounce's Use button did not open the Use dialog")
            plain = tabs()
            live, gif, svg = plain["tab-element"], plain["tab-gif"], plain["tab-image"]
            back = [int(v) for v in re.findall(r"\d+", page.evaluate("getComputedStyle(document.body).backgroundColor"))[:3]]
            matte = "matte=%23" + "".join(f"{v:02x}" for v in back)
            print(f"use it at the defaults: {live.splitlines()[-1] if live else None}; {gif}")
            if not re.search(r'<loader-frames loader="three-bounce"></loader-frames>', live):
                failures.append(f"the <loader-frames> snippet at the defaults is not bare: {live[-120:]}")
            if "animation.gif?" not in gif or matte not in gif.lower():
                failures.append(f"the GIF snippet is not matted for the page's background {matte}: {gif}")
            # A picture cannot follow the page's colour: the snippet gives it.
            ink = [int(v) for v in re.findall(r"\d+", page.evaluate("getComputedStyle(document.body).color"))[:3]]
            color = "color=%23" + "".join(f"{v:02x}" for v in ink)
            if color not in gif.lower() or color not in svg.lower():
                failures.append(f"the picture snippets are not in the page's text colour {color}: {gif}; {svg}")
            # Typing's own controls in its dialog, found by their names.
            if not page.evaluate(open_use + '("typing")', await_promise=True):
                failures.append("Typing's Use button did not open the Use dialog")
            changed = page.evaluate("""(() => {
              const name = (e) => (e.getAttribute("aria-label") || (e.labels && e.labels[0] ? e.labels[0].textContent : "")).trim();
              const inputs = [...document.querySelectorAll("#use .settings input")];
              const set = (label, value) => {
                const input = inputs.find((e) => name(e).startsWith(label));
                if (!input) return 0;
                input.value = value;
                input.dispatchEvent(new Event("input", { bubbles: true }));
                input.dispatchEvent(new Event("change", { bubbles: true }));
                return 1;
              };
              return set("Typing dots", "5") + set("Typing colour", "#ff0000");
            })()""")
            if changed != 2: failures.append(f"the Use dialog has not both 'Typing dots' and 'Typing colour' ({changed} found)")
            snippets = tabs()
            five = page.wait_for('(() => { const f = document.querySelector(\'[data-loader="typing"] .stage loader-frames\').frame; return f && f.elements.length === 5 && f.elements[0].color === "#FF0000" ? 1 : 0; })()', 10)
            if not five: failures.append("the typing card's player does not show 5 red dots after its controls changed")
            for title, text in snippets.items():
                addresses = re.findall(r'(http://127\.0\.0\.1:\d+/[^"\s<>]*)', text)
                if title == "tab-css":   # the export itself: five red dots, no address
                    follows = 'data-element="dot4"' in text and "#ff0000" in text.lower()
                    addresses = [base + "/loaders/typing/animation.html"]
                else:
                    follows = "count=5" in text and ("color=%23ff0000" in text.lower() or "#ff0000" in text.lower())
                bad = []
                for address in addresses:
                    address = address.replace("&amp;", "&")
                    try:
                        # A stream answers with its head at once; an animation of pixels takes seconds in a debug build.
                        urllib.request.urlopen(address, timeout=60).close()
                    except Exception as e:
                        bad.append(f"{address}: {e}")
                print(f"use it: {title}: follows the controls: {follows}, {len(addresses)} addresses, {len(bad)} failing")
                if not follows: failures.append(f"'{title}' does not follow the card's controls: {text[:160]}")
                if bad or not addresses: failures.append(f"'{title}': addresses {bad or 'none'}")
            page.evaluate('document.getElementById("use").close()')
            downloads = tempfile.mkdtemp()
            browser.send("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
            browser.send("Browser.grantPermissions", {"permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"], "origin": base})
            browser.send("Emulation.setFocusEmulationEnabled", {"enabled": True}, session=page.session)
            page.evaluate('document.getElementById("download-definition").click(); document.getElementById("copy-definition").click()')
            written = page.evaluate("document.getElementById('definition').value")
            deadline = time.time() + 10
            while not os.path.exists(os.path.join(downloads, "my-loader.json")) and time.time() < deadline:
                browser.pump(0.1)
            saved = open(os.path.join(downloads, "my-loader.json")).read() if os.path.exists(os.path.join(downloads, "my-loader.json")) else None
            copied = page.evaluate("navigator.clipboard.readText()", await_promise=True)
            print(f"editor: downloaded my-loader.json: {saved == written}; copied: {copied == written}")
            if saved != written: failures.append("the editor's Download did not save the definition as my-loader.json")
            if copied != written: failures.append("the editor's Copy did not put the definition on the clipboard")

        # 4. The editor with a mistake: the message and its path are shown.
        bad = json.loads(json.dumps(dropped))
        bad["layers"][1]["animations"][0]["keyTimes"] = [0, 0.7, 0.5]
        dom = run_browser(["--virtual-time-budget=5000", "--dump-dom",
                           base + "/?frames=12&edit=" + urllib.parse.quote(json.dumps(bad))]).stdout
        path = "layers[1].animations[0].keyTimes"
        shown = f'data-error="{path}"' in dom and f"{path}: must be non-decreasing from 0 to 1" in dom
        print(f"editor: a bad definition shows its error at {path}: {shown}")
        if not shown: failures.append("the editor did not show the definition's error and path")

        # 5. animation.svg in <img> tags at two moments.
        shots = []
        for ms in (300, 1100):
            path = os.path.join(OUT, f"embed-{ms}ms.png")
            run_browser(["--window-size=900,260", f"--virtual-time-budget={ms}", "--screenshot=" + path, base + "/?view=embed"])
            shots.append(pixels(path))
        (w, h, bpp, a), (_, _, _, b) = shots
        changed = sum(1 for y in range(h) for x in range(w) if a[y][x * bpp:x * bpp + 3] != b[y][x * bpp:x * bpp + 3])
        print(f"animation.svg in <img>: {changed} pixels differ between 300 ms and 1100 ms")
        if changed < 50: failures.append("animation.svg did not change between two moments")
    finally:
        server.terminate()
        server.wait()
    if failures:
        print("FAILED: " + "; ".join(failures))
        sys.exit(1)
    print("browser: 5 passed, 0 failed")

if __name__ == "__main__":
    main()
