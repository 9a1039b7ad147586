#!/usr/bin/env python3
"""The demo page as a gallery, in headless Chromium over the DevTools
protocol (run by .ci/run; issue 49's tests):
1. axe-core 4.12 (from the axe-playwright-python wheel on PyPI) finds no
   serious or critical violation in light and dark at 1280 × 800, on a
   390 × 844 phone and with the "Use" dialog open and a refused definition
   in the editor; under reduced motion the page still draws;
2. above the fold: at least 12 cards' stages and names at 1280 × 800, 4 on
   the phone;
3. the cards of a row line up (stage and name tops) at 1280, 1440 and 390;
4. search and family chips leave the catalogue's own answer, counted in a
   polite status;
5. the tab order: the skip link first, into #gallery; every stop named,
   no two alike, the scrollable regions reachable;
6. Pause all closes every stream (the service's gauge drops to 0), is kept
   across a reload, and plays again;
7. focus after each action lands on a control, never the page's body; the
   size preset 96 makes every loader's longest side 96 px;
8. the web card's stage is never blank, and its buttons keep to one line;
9. the "Use" dialog: six tabs, arrow keys, one Copy that copies, wrapping
   without splitting words, fits the screen;
10. the editor marks a refused definition aria-invalid and stops its preview;
11. the bytes before the first frame (≤ 150 KB), one event stream for the
    whole catalogue;
12. screenshots at 1280 × 800, 1440 × 900 and 390 × 844 (×3), light and
    dark, and one with the dialog open (CI artefacts).
Expected values come from the service's catalogue (GET /loaders), its
metrics, Chromium's accessibility tree and axe-core, not from the page.
Exits 1 on failure.

    Tests/system/gallery_test.py path/to/loaderd output-dir
"""
import base64, glob, json, os, re, statistics, subprocess, sys, time, urllib.parse, urllib.request, zipfile

from browser_test import chromium, get_json, pixels
from cdp import Browser, Page
from loaderd_process import free_port, start

AXE_WHEEL = "axe-playwright-python==0.1.8"   # ships axe-core 4.12.1
CARDS = 'document.querySelectorAll("#cards section.card[data-loader]")'
# Shown: laid out with a box (a card with `hidden` that a rule still displays is shown).
SHOWN = f'[...{CARDS}].filter((c) => c.getClientRects().length > 0)'
FAILURES = []


def check(ok, message):
    if not ok:
        FAILURES.append(message)
    return ok


def axe_source():
    """axe.min.js from the pinned wheel, downloaded once into the CI cache."""
    cache = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "loaderd-ci",
                         "axe-playwright-python-0.1.8")
    wheels = glob.glob(os.path.join(cache, "*.whl"))
    if not wheels:
        os.makedirs(cache, exist_ok=True)
        venv = os.path.join(cache, "venv")
        if not os.path.exists(os.path.join(venv, "bin", "pip")):
            subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        subprocess.run([os.path.join(venv, "bin", "pip"), "download", "-q", "--no-deps", AXE_WHEEL, "-d", cache], check=True)
        wheels = glob.glob(os.path.join(cache, "*.whl"))
    with zipfile.ZipFile(wheels[0]) as z:
        return z.read("axe_playwright_python/axe.min.js").decode()


# A tab of its own: emulated screen, colour scheme and motion set before
# the page loads (the page reads them as it starts).
def open_tab(browser, url, width, height, scale=1, mobile=False, dark=False, reduced=False, cache_off=False):
    target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    page = Page(browser, session)
    page.target = target
    browser.send("Network.enable", session=session)
    if cache_off:
        browser.send("Network.setCacheDisabled", {"cacheDisabled": True}, session=session)
    browser.send("Page.enable", session=session)
    screen(page, width, height, scale, mobile)
    browser.send("Emulation.setEmulatedMedia", {"features": [
        {"name": "prefers-color-scheme", "value": "dark" if dark else "light"},
        {"name": "prefers-reduced-motion", "value": "reduce" if reduced else "no-preference"}]}, session=session)
    browser.send("Emulation.setFocusEmulationEnabled", {"enabled": True}, session=session)
    browser.send("Page.navigate", {"url": url}, session=session)
    return page


def screen(page, width, height, scale=1, mobile=False):
    page.browser.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": scale,
                                                              "mobile": mobile}, session=page.session)


def close_tab(page):
    page.browser.send("Target.closeTarget", {"targetId": page.target})


def ready(page, total, what):
    """The catalogue's cards laid out, fonts loaded, something drawn."""
    ok = page.wait_for(f'{CARDS}.length === {total} && document.fonts.status === "loaded" && '
                       f'[...{CARDS}].some((c) => Number(c.dataset.frames) > 0) ? 1 : 0', 30)
    check(ok, f"{what}: the page did not show {total} cards with something drawn within 30 s")
    return ok


def js(page, expression):
    return json.loads(page.evaluate(f"JSON.stringify({expression})"))


def send(page, method, params=None):
    return page.browser.send(method, params or {}, session=page.session)


KEYS = {"Tab": ("Tab", 9, None), "Enter": ("Enter", 13, "\r"), "Escape": ("Escape", 27, None), "Space": ("Space", 32, " "),
        "ArrowRight": ("ArrowRight", 39, None), "ArrowLeft": ("ArrowLeft", 37, None)}


def press(page, name, shift=False):
    code, vk, text = KEYS[name]
    key = " " if name == "Space" else name
    down = {"type": "keyDown" if text else "rawKeyDown", "key": key, "code": code, "windowsVirtualKeyCode": vk,
            "nativeVirtualKeyCode": vk, "modifiers": 8 if shift else 0}
    if text:
        down["text"] = text
    send(page, "Input.dispatchKeyEvent", down)
    send(page, "Input.dispatchKeyEvent", {"type": "keyUp", "key": key, "code": code, "windowsVirtualKeyCode": vk,
                                          "nativeVirtualKeyCode": vk, "modifiers": 8 if shift else 0})


def click(page, selector):
    """A real mouse click at the element's centre (scrolled into view first)."""
    # Two frames after the scroll: the click is aimed where the page has been drawn.
    found = page.evaluate(f'(async () => {{ const e = document.querySelector({json.dumps(selector)}); if (!e) return ""; '
                          f'e.scrollIntoView({{block: "center"}}); for (let i = 0; i < 2; i++) await new Promise(requestAnimationFrame); '
                          f'const r = e.getBoundingClientRect(); return JSON.stringify([r.left + r.width / 2, r.top + r.height / 2]); }})()', await_promise=True)
    if not check(found, f"nothing to click: {selector}"):
        return False
    rect = json.loads(found)
    send(page, "Input.dispatchMouseEvent", {"type": "mouseMoved", "x": rect[0], "y": rect[1]})
    for kind in ("mousePressed", "mouseReleased"):
        send(page, "Input.dispatchMouseEvent", {"type": kind, "x": rect[0], "y": rect[1], "button": "left", "clickCount": 1})
    return True


def type_into(page, selector, text):
    """Real text input: the field focused, its text selected, then typed over."""
    page.evaluate(f'(() => {{ const e = document.querySelector({json.dumps(selector)}); e.focus(); e.select(); }})()')
    send(page, "Input.insertText", {"text": text})


FOCUSED = """(() => { const e = document.activeElement;
  if (!e || e === document.body || e === document.documentElement) return "body";
  return e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.className && typeof e.className === "string" ? "." + e.className.trim().split(/\\s+/).join(".") : "")
    + (e.dataset.act ? `[data-act=${e.dataset.act}]` : "") + (e.dataset.family !== undefined ? `[data-family="${e.dataset.family}"]` : "")
    + (e.closest("[data-loader]") ? ` in ${e.closest("[data-loader]").dataset.loader}` : ""); })()"""


def focused(page):
    return page.evaluate(FOCUSED)


def focused_name(page):
    """The focused element's accessible name, as Chromium's accessibility tree has it."""
    found = send(page, "Runtime.evaluate", {"expression": "document.activeElement"})["result"]
    if "objectId" not in found:
        return ""
    nodes = send(page, "Accessibility.getPartialAXTree", {"objectId": found["objectId"], "fetchRelatives": False})["nodes"]
    return ((nodes[0].get("name") or {}).get("value") or "").strip() if nodes else ""


def screenshot(page, path, clip=None):
    params = {"format": "png"}
    if clip:
        params["clip"] = {**clip, "scale": 1}
    data = base64.b64decode(send(page, "Page.captureScreenshot", params)["data"])
    with open(path, "wb") as f:
        f.write(data)
    return path


def open_streams(base):
    with urllib.request.urlopen(base + "/metrics", timeout=10) as r:
        m = re.search(r"^loaderd_open_streams (\d+)", r.read().decode(), re.M)
    return int(m.group(1)) if m else -1


def poll(condition, seconds, browser):
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value or time.monotonic() > deadline:
            return value
        browser.pump(0.1)


# 1. axe-core in the page, every violation printed; serious and critical fail.
def axe(page, source, state):
    if not page.evaluate("typeof axe === 'object' ? 1 : 0"):
        page.evaluate(source)
    result = page.evaluate('axe.run(document, { resultTypes: ["violations"] }).then((r) => JSON.stringify({ version: axe.version, '
                           'violations: r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, '
                           'nodes: v.nodes.map((n) => n.target.join(" ")) })) }))', await_promise=True)
    report = json.loads(result)
    bad = [v for v in report["violations"] if v["impact"] in ("serious", "critical")]
    print(f"axe {report['version']}, {state}: {len(report['violations'])} violations, {len(bad)} serious or critical")
    for v in report["violations"]:
        print(f"  {v['impact']}: {v['id']} ({v['help']}): {len(v['nodes'])} nodes: {v['nodes'][:6]}")
    check(not bad, f"axe, {state}: {', '.join(v['id'] + ' (' + str(len(v['nodes'])) + ')' for v in bad)}")


# 2. Cards whose stage and name lie wholly inside the first screen.
def above_fold(page, least, what):
    view = js(page, f"""{{ scrollY, innerWidth, innerHeight, cards: {SHOWN}.map((c) => [c.querySelector(".stage"), c.querySelector("h2.name")])
      .filter(([s, n]) => s && n).map((pair) => pair.map((e) => {{ const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }})) }}""")
    inside = lambda r: r[0] >= -0.5 and r[1] >= -0.5 and r[2] <= view["innerWidth"] + 0.5 and r[3] <= view["innerHeight"] + 0.5
    whole = sum(1 for stage, name in view["cards"] if inside(stage) and inside(name))
    print(f"above the fold at {what}: {whole} cards with stage and name in view (at least {least}), scrollY {view['scrollY']}")
    check(view["scrollY"] == 0, f"at {what} the page did not open at its top (scrollY {view['scrollY']})")
    check(whole >= least, f"at {what} only {whole} cards are fully above the fold, not {least}")


# 3. Rows: cards that overlap vertically share a row; their stages and names start at one height.
def rows_line_up(page, what):
    cards = js(page, f"""{SHOWN}.map((c) => {{ const r = c.getBoundingClientRect(), s = c.querySelector(".stage"), n = c.querySelector("h2.name");
      return {{ name: c.dataset.loader, top: r.top + scrollY, bottom: r.bottom + scrollY,
               stage: s ? s.getBoundingClientRect().top + scrollY : null, height: s ? s.getBoundingClientRect().height : null,
               title: n ? n.getBoundingClientRect().top + scrollY : null }}; }})""")
    cards.sort(key=lambda c: c["top"])
    rows, misses = [], []
    for c in cards:
        if rows and c["top"] < rows[-1][0]["bottom"] - 1:
            rows[-1].append(c)
        else:
            rows.append([c])
    heights = {round(c["height"] or -1, 2) for c in cards}
    for row in rows:
        for key in ("top", "stage", "title"):
            values = [c[key] for c in row]
            if None in values or max(values) - min(values) >= 0.5:
                misses.append(f"{key}: " + ", ".join(f"{c['name']} {c[key] if c[key] is None else round(c[key], 2)}" for c in row))
    widest = max((len(r) for r in rows), default=0)
    print(f"rows at {what}: {len(cards)} cards in {len(rows)} rows of up to {widest}, stage heights {sorted(heights)}, {len(misses)} misaligned rows")
    for m in misses[:5]:
        print(f"  misaligned: {m}")
    check(not misses, f"at {what} {len(misses)} rows do not line up: {misses[:2]}")
    check(len(heights) == 1, f"at {what} the stages are not of one height: {sorted(heights)}")


def shots(page, out, name):
    path = screenshot(page, os.path.join(out, name))
    w, h, _, _ = pixels(path)
    print(f"screenshot: {path} ({w}×{h})")


# 11. What crossed the wire before the page's first frame, from Chromium's network events.
def weight_before_first_frame(page, seconds=30):
    """(first frame's startTime in ms, bytes before it, bytes per address) or None."""
    mark = page.wait_for('(() => { const m = performance.getEntriesByName("loaderd:first-frame")[0]; '
                         'return m ? JSON.stringify([m.startTime, performance.timeOrigin]) : ""; })()', seconds)
    if not mark:
        return None
    start_time, origin = json.loads(mark)
    page.browser.pump(0.3)   # the events of the moments before the mark, still in the pipe
    sent = page.events("Network.requestWillBeSent")
    document = next((e for e in sent if e.get("type") == "Document"), sent[0])
    # The events' clock is monotonic; the mark's is the wall's: the document's
    # request carries both.
    mark_ts = (origin + start_time) / 1000 - (document["wallTime"] - document["timestamp"])
    urls = {e["requestId"]: e["request"]["url"] for e in sent}
    finished = {e["requestId"]: e for e in page.events("Network.loadingFinished")}
    heads = {e["requestId"]: e for e in page.events("Network.responseReceived")}
    received = {}
    for e in page.events("Network.dataReceived"):
        if e["timestamp"] <= mark_ts:
            received[e["requestId"]] = received.get(e["requestId"], 0) + e.get("encodedDataLength", 0)
    per = {}
    for rid, url in urls.items():
        if rid in finished and finished[rid]["timestamp"] <= mark_ts:
            per[url] = per.get(url, 0) + finished[rid]["encodedDataLength"]
        elif rid in heads and heads[rid]["timestamp"] <= mark_ts:
            per[url] = per.get(url, 0) + heads[rid]["response"].get("encodedDataLength", 0) + received.get(rid, 0)
    return start_time, sum(per.values()), per


def part(name, fn, *args):
    """One check; a page that lacks what it looks for fails it, not the run."""
    try:
        fn(*args)
    except Exception as e:   # noqa: BLE001 (any failure of the page's script is this check's failure)
        print(f"{name}: stopped: {str(e)[:300]}")
        FAILURES.append(f"{name}: stopped: {str(e)[:200]}")


def main():
    binary, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    source = axe_source()
    port = free_port()
    server = start(binary, port, "--log-level", "warning")
    base = f"http://127.0.0.1:{port}"
    try:
        catalogue = get_json(base, "/loaders")["loaders"]
        names = [l["name"] for l in catalogue]
        total = len(names)
        with Browser(chromium(), os.path.join(out, "chromium-profile"), ["--hide-scrollbars"]) as browser:
            browser.send("Browser.grantPermissions", {"permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"], "origin": base})
            desktop(browser, base, source, total, out)
            phones(browser, base, source, total, out)
            part("reduced motion", reduced_motion, browser, base)
            page = open_tab(browser, base + "/", 1280, 800)
            if ready(page, total, "1280 × 800, interactions"):
                part("tab order", keyboard, page, base)
                part("search and filter", search_and_filter, page, base, catalogue)
                part("the Use dialog and the editor", use_dialog, page, base, source, out)
                part("focus after actions", focus_after_actions, page)
                part("pause all", pause_all, page, base, total)
            close_tab(page)
            part("fast", fast, browser, base, total)
    finally:
        server.terminate()
        server.wait()
    if FAILURES:
        print(f"FAILED: {len(FAILURES)} checks:")
        for f in FAILURES:
            print("  - " + f)
        sys.exit(1)
    print("gallery: 12 passed, 0 failed")


def desktop(browser, base, source, total, out):
    for width, height in ((1280, 800), (1440, 900)):
        for dark in (False, True):
            what = f"{width} × {height} {'dark' if dark else 'light'}"
            page = open_tab(browser, base + "/", width, height, dark=dark)
            if ready(page, total, what):
                if (width, dark) == (1280, False):
                    part(f"above the fold at {what}", above_fold, page, 12, what)
                if not dark:
                    part(f"rows at {width} px", rows_line_up, page, f"{width} px")
                part(f"screenshot at {what}", shots, page, out, f"gallery-{width}x{height}-{'dark' if dark else 'light'}.png")
                if width == 1280:
                    part(f"axe at {what}", axe, page, source, what)
                if (width, dark) == (1280, False):
                    part("the web card", web_card, page, out)
            close_tab(page)


def phones(browser, base, source, total, out):
    for dark in (False, True):
        what = f"390 × 844 ×3 {'dark' if dark else 'light'}"
        page = open_tab(browser, base + "/", 390, 844, 3, True, dark=dark)
        if ready(page, total, what):
            if not dark:
                part(f"above the fold at {what}", above_fold, page, 4, what)
                part("rows at 390 px", rows_line_up, page, "390 px")
                part(f"axe at {what}", axe, page, source, what)
            part(f"screenshot at {what}", shots, page, out, f"gallery-390x844-{'dark' if dark else 'light'}.png")
            if not dark:
                part(f"the Use dialog at {what}", dialog_fits, page, "typing", "390 × 844")
        close_tab(page)


def reduced_motion(browser, base):
    page = open_tab(browser, base + "/", 1280, 800, reduced=True)
    drawn = page.wait_for('[...document.querySelectorAll("loader-frames")].filter((p) => p.frame && '
                          'p.frame.elements.some((e) => e.opacity > 0)).length', 30)
    box = page.evaluate('(() => { const b = document.getElementById("reduced"); return b ? b.checked : null; })()')
    print(f"reduced motion: {drawn or 0} players drawing something; the Reduced motion box checked: {box}")
    check(drawn, "under prefers-reduced-motion nothing is drawn")
    check(box is True, f"under prefers-reduced-motion #reduced is {box}")
    close_tab(page)


# 8. The web card: ink at every moment; its three buttons on one line.
def web_card(page, out):
    rect = js(page, '(() => { const s = document.querySelector("[data-loader=web] .stage"); if (!s) return null; '
                    's.scrollIntoView({ block: "center" }); const r = s.getBoundingClientRect(); '
                    'return [r.left + scrollX, r.top + scrollY, r.width, r.height, getComputedStyle(s).backgroundColor]; })()')
    if not check(rect, "no web card stage"):
        return
    inset = 12   # past the stage's rounded corners and outline
    clip = {"x": rect[0] + inset, "y": rect[1] + inset, "width": rect[2] - 2 * inset, "height": rect[3] - 2 * inset}
    page.wait_for('Number(document.querySelector("[data-loader=web]").dataset.frames) > 0', 10)
    inks, started = [], time.monotonic()
    path = os.path.join(out, "web-stage.png")   # each moment over the last
    while len(inks) < 20 or time.monotonic() - started < 5:
        w, h, bpp, rows = pixels(screenshot(page, path, clip))
        counts = {}
        for row in rows:
            for x in range(0, w * bpp, bpp):
                counts[row[x:x + 3]] = counts.get(row[x:x + 3], 0) + 1
        background = max(counts, key=counts.get)   # the stage's own colour: most of it
        inks.append(sum(n for c, n in counts.items() if max(abs(a - b) for a, b in zip(c, background)) > 12))
        page.browser.pump(0.2)
    blank = sum(1 for n in inks if n < 10)
    print(f"web card: {len(inks)} moments over {time.monotonic() - started:.1f} s, ink pixels min {min(inks)} median "
          f"{statistics.median(inks)} max {max(inks)}, {blank} blank (stage background {rect[4]})")
    check(blank == 0, f"the web card's stage was blank at {blank} of {len(inks)} moments")
    lines = []
    for width in (361, 390, 768, 1280, 1440):
        screen(page, width, 800)
        tops = js(page, '[...document.querySelectorAll("[data-loader=web] .session button")].map((b) => b.getBoundingClientRect().top)')
        lines.append(f"{width}: {[round(t, 1) for t in tops]}")
        check(len(tops) == 3 and max(tops) - min(tops) < 0.5, f"at {width} px the web card's buttons are not on one line: {tops}")
    print(f"web card's buttons' tops: {'; '.join(lines)}")
    screen(page, 1280, 800)


def dialog_fits(page, loader, what):
    if not click(page, f'[data-loader="{loader}"] button.use'):
        return
    box = page.wait_for('(() => { const d = document.getElementById("use"); if (!d || !d.open) return ""; const r = d.getBoundingClientRect(); '
                        'return JSON.stringify([r.top, r.bottom, innerHeight, r.right, innerWidth]); })()', 10)
    if not check(box, f"at {what} the Use dialog did not open"):
        return
    top, bottom, height, right, width = json.loads(box)
    print(f"use dialog at {what}: top {top:.1f}, bottom {bottom:.1f} of {height}, right {right:.1f} of {width}")
    check(top >= -0.5 and bottom <= height + 0.5 and right <= width + 0.5, f"at {what} the Use dialog does not fit the screen: {box}")
    press(page, "Escape")
    page.wait_for('document.getElementById("use").open ? 0 : 1', 5)


# 5. The tab order, its names, the skip link.
def tab_walk(page, limit=400):
    """Tab from where focus is until a stop comes round again: [(description, name)]."""
    page.evaluate("window.__stops = []")
    stops = []
    for _ in range(limit):
        press(page, "Tab")
        again = page.evaluate("(() => { const e = document.activeElement; const i = __stops.indexOf(e); if (i < 0) __stops.push(e); return i; })()")
        where = focused(page)
        if again >= 0 and where != "body":
            break
        if where != "body":
            stops.append((where, focused_name(page)))
    return stops


def names_check(stops, what):
    unnamed = [s for s, n in stops if not n]
    seen, dupes = {}, {}
    for s, n in stops:
        if n in seen:
            dupes.setdefault(n, [seen[n]]).append(s)
        seen.setdefault(n, s)
    print(f"tab order, {what}: {len(stops)} stops, {len(unnamed)} unnamed, {len(dupes)} names used twice")
    for n, where in dupes.items():
        print(f"  '{n}': {where}")
    for s in unnamed:
        print(f"  unnamed: {s}")
    check(not unnamed, f"{what}: stops with no accessible name: {unnamed[:5]}")
    check(not dupes, f"{what}: names used by more than one control: {list(dupes)[:5]}")


def keyboard(page, base):
    send(page, "Accessibility.enable")
    stops = tab_walk(page)
    first = stops[0][0] if stops else None
    print(f"tab order: first stop {first}; " + ", ".join(s for s, _ in stops[:12]) + " …")
    check(first and first.startswith("a") and ".skip" in first, f"the first tab stop is {first}, not the skip link")
    names_check(stops, "the page")
    check(any(s.startswith("textarea#definition") for s, _ in stops), "the editor's textarea is not in the tab order")
    page.evaluate('document.querySelector("a.skip").focus()')
    press(page, "Enter")
    landed = page.wait_for('document.activeElement && document.activeElement.id === "gallery" ? location.hash : ""', 5)
    print(f"skip link: focus in {focused(page)}, address {landed}")
    check(landed == "#gallery", f"the skip link left focus on {focused(page)}, not #gallery")
    page.evaluate('history.replaceState(null, "", "/"); scrollTo(0, 0)')


# 4. Search and family chips against the catalogue.
def search_and_filter(page, base, catalogue):
    total = len(catalogue)
    page.wait_for('document.getElementById("count").textContent.trim() ? 1 : 0', 5)
    status = js(page, '(() => { const c = document.getElementById("count"); return c && [c.getAttribute("role"), c.getAttribute("aria-live"), c.textContent.trim()]; })()')
    print(f"count region: role {status and status[0]}, aria-live {status and status[1]}, '{status and status[2]}'")
    check(status and status[0] == "status" and status[1] in (None, "polite"), f"#count is not a polite status: {status}")
    check(status and status[2] == f"{total} loaders", f"#count says '{status and status[2]}', not '{total} loaders'")
    type_into(page, "#search", "bounce")
    by_name = {l["name"]: l for l in catalogue}
    titles = dict(js(page, f'[...{CARDS}].map((c) => [c.dataset.loader, c.querySelector("h2.name").textContent])'))
    expected = sorted(n for n in names_of(catalogue) if any("bounce" in (v or "").lower() for v in
                      (n, titles.get(n), by_name[n].get("original"), by_name[n].get("family"))))
    shown = page.wait_for(f'(() => {{ const s = {SHOWN}.map((c) => c.dataset.loader).sort(); '
                          f'return JSON.stringify(s) === {json.dumps(json.dumps(expected, separators=(",", ":")))} ? JSON.stringify(s) : ""; }})()', 5)
    shown = json.loads(shown) if shown else js(page, f'{SHOWN}.map((c) => c.dataset.loader).sort()')
    said = page.wait_for(f'document.getElementById("count").textContent.trim() === "{len(expected)} of {total} loaders" ? 1 : 0', 5)
    count = page.evaluate('document.getElementById("count").textContent.trim()')
    print(f"search 'bounce': {len(shown)} cards shown ({', '.join(shown)}), {len(expected)} expected; #count '{count}'")
    check(shown == expected, f"search 'bounce' shows {shown}, not {expected}")
    check(said, f"#count does not say '{len(expected)} of {total} loaders'")
    page.evaluate('(() => { const s = document.getElementById("search"); s.value = ""; s.dispatchEvent(new Event("input", { bubbles: true })); })()')
    page.wait_for(f'{SHOWN}.length === {total} ? 1 : 0', 5)
    chips = js(page, '[...document.querySelectorAll("#families button[data-family]")].map((b) => [b.dataset.family, b.textContent.trim(), b.getAttribute("aria-pressed")])')
    families = []
    for l in catalogue:
        if l.get("family") and l["family"] not in families:
            families.append(l["family"])
    print(f"chips: {[c[1] for c in chips]}; the catalogue's families: {families}")
    check([c[0] for c in chips] == [""] + families, f"the chips {[c[0] for c in chips]} are not All and the catalogue's families {families}")
    check([c[2] for c in chips].count("true") == 1 and chips and chips[0][2] == "true", f"at first 'All' alone is not pressed: {chips}")
    for family in families[:2] + families[-1:]:
        selector = f'#families button[data-family="{family}"]'
        click(page, selector)
        expected = sorted(l["name"] for l in get_json(base, "/loaders?family=" + urllib.parse.quote(family))["loaders"])
        page.wait_for(f'{SHOWN}.length === {len(expected)} && document.getElementById("count").textContent.trim() === '
                      f'"{len(expected)} of {total} loaders" ? 1 : 0', 5)
        shown = js(page, f'{SHOWN}.map((c) => c.dataset.loader).sort()')
        pressed = js(page, '[...document.querySelectorAll("#families button[data-family]")].filter((b) => b.getAttribute("aria-pressed") === "true").map((b) => b.dataset.family)')
        count = page.evaluate('document.getElementById("count").textContent.trim()')
        print(f"chip {family}: {len(shown)} cards, GET /loaders?family= gives {len(expected)}; pressed {pressed}; #count '{count}'; focus {focused(page)}")
        check(shown == expected, f"chip {family} shows {shown}, not the service's {expected}")
        check(pressed == [family], f"chip {family}: pressed chips are {pressed}")
        check(count == f"{len(expected)} of {total} loaders", f"chip {family}: #count says '{count}'")
        check("button" in focused(page) and f'data-family="{family}"' in focused(page), f"after the chip {family} focus is on {focused(page)}")
    click(page, '#families button[data-family=""]')
    restored = page.wait_for(f'{SHOWN}.length === {total} && document.getElementById("count").textContent.trim() === "{total} loaders" ? 1 : 0', 5)
    print(f"chip All: {page.evaluate(f'{SHOWN}.length')} cards")
    check(restored, "'All' did not bring every card back")
    page.evaluate("scrollTo(0, 0)")


def names_of(catalogue):
    return [l["name"] for l in catalogue]


# 9 and 10, and axe's fourth state: the Use dialog open over a refused definition.
BAD = {"format": 1, "name": "bad-times", "summary": "A bar that fades, with keyTimes that go back.",
       "canvas": {"width": 40, "height": 40},
       "layers": [{"type": "rect", "id": "bar", "position": [20, 20], "bounds": [4, 14], "cornerRadius": 2,
                   "animations": [{"type": "keyframe", "keyPath": "opacity", "values": [1, 0.2, 1], "keyTimes": [0, 0.7, 0.5],
                                   "duration": 0.8, "repeatCount": "infinity"}]}]}
EDITOR_FRAMES = 'Number(document.querySelector("[data-loader=editor]").dataset.frames)'


def use_dialog(page, base, source, out):
    # 10. The editor with a refused definition.
    page.wait_for(f"{EDITOR_FRAMES} > 0", 15)
    type_into(page, "#definition", json.dumps(BAD, indent=2))
    invalid = page.wait_for('document.getElementById("definition").getAttribute("aria-invalid") === "true" ? 1 : 0', 10)
    described = js(page, '(() => { const a = document.getElementById("definition"); const ids = (a.getAttribute("aria-describedby") || "").split(/\\s+/).filter(Boolean);'
                         'return ids.map((id) => { const e = document.getElementById(id); if (!e) return [id, null, 0]; const r = e.getBoundingClientRect();'
                         'return [id, e.textContent.trim(), r.width * r.height]; }); })()')
    drawn = page.evaluate('document.querySelector("#editor-stage svg").childElementCount')
    before = page.evaluate(EDITOR_FRAMES)
    page.browser.pump(1.0)   # a stopped preview draws nothing over a second
    after = page.evaluate(EDITOR_FRAMES)
    print(f"editor, refused definition: aria-invalid {bool(invalid)}, described by {described}, preview elements {drawn}, frames {before} → {after}")
    check(invalid, "the refused definition is not marked aria-invalid")
    check(any(text and "keyTimes" in text and area > 0 for _, text, area in described),
          f"the textarea is not described by a visible message naming keyTimes: {described}")
    check(drawn == 0, f"the refused definition's preview still shows {drawn} elements")
    check(after == before, f"the refused definition's preview still draws ({before} → {after} frames)")

    # 9. The dialog, opened from a card's Use button.
    click(page, '[data-loader="typing"] button.use')
    opened = page.wait_for('(() => { const d = document.getElementById("use"); return d && d.open && d.matches(":modal") ? 1 : 0; })()', 10)
    check(opened, "the Use button did not open a modal dialog#use")
    if not opened:
        return
    where = focused(page)
    selected = page.evaluate('(() => { const t = document.querySelector("#use [role=tab][aria-selected=true]"); return t ? t.id : ""; })()')
    print(f"use dialog: open, focus on {where}, selected tab {selected}")
    check(where.startswith("button#" + selected) and selected, f"after Use focus is on {where}, not the selected tab {selected}")
    page.wait_for('document.getElementById("snippet").textContent.length > 20 ? 1 : 0', 10)
    still = page.evaluate('document.getElementById("definition").getAttribute("aria-invalid")')
    check(still == "true", f"with the dialog open the refused definition is no longer marked aria-invalid ({still})")
    axe(page, source, "1280 × 800 with the Use dialog open and a refused definition")
    shots(page, out, "gallery-1280x800-use.png")
    tabs = js(page, '[...document.querySelectorAll("#use [role=tablist] [role=tab]")].map((t) => [t.id, t.textContent.trim()])')
    want = [["tab-image", "Image"], ["tab-element", "Element"], ["tab-css", "CSS"], ["tab-lottie", "Lottie"],
            ["tab-gif", "GIF/APNG"], ["tab-eventsource", "EventSource"]]
    print(f"use dialog tabs: {tabs}")
    check(tabs == want, f"the dialog's tabs are {tabs}, not {want}")
    page.evaluate('document.querySelector("#use [role=tab][aria-selected=true]").focus()')
    moves = []
    for key in ("ArrowRight", "ArrowRight", "ArrowLeft"):
        was = page.evaluate("document.activeElement.id")
        press(page, key)
        now = page.evaluate('(() => { const e = document.activeElement; return e.id + (e.getAttribute("aria-selected") === "true" ? "" : " (not selected)"); })()')
        moves.append(f"{key}: {was} → {now}")
        ids = [t[0] for t in want]
        step = 1 if key == "ArrowRight" else -1
        check(was in ids and now == ids[(ids.index(was) + step) % len(ids)], f"{key} on {was} moved to {now}")
    print("use dialog arrows: " + "; ".join(moves))
    copies = page.evaluate('[...document.querySelectorAll("#use button")].filter((b) => b.textContent.trim() === "Copy").length')
    check(copies == 1, f"the dialog has {copies} Copy buttons, not one")
    for tab in ("tab-css", "tab-element"):
        click(page, "#" + tab)
        page.wait_for('(() => { const s = document.getElementById("snippet").textContent; return s.length > 40 && s !== "…" ? 1 : 0; })()', 15)
        click(page, "#copy")
        page.wait_for('document.getElementById("use-status") && /Copied/.test(document.getElementById("use-status").textContent) ? 1 : 0', 5)
        snippet = page.evaluate('document.getElementById("snippet").textContent')
        copied = page.evaluate("navigator.clipboard.readText()", await_promise=True)
        status = page.evaluate('(() => { const s = document.getElementById("use-status"); return s ? [s.getAttribute("role"), s.textContent.trim()].join(": ") : null; })()')
        print(f"copy on {tab}: {len(copied)} characters on the clipboard, the snippet's {len(snippet)}; status {status}; focus {focused(page)}")
        check(copied == snippet and snippet, f"Copy on {tab} did not put the visible snippet on the clipboard")
        check(status and status.startswith("status: Copied"), f"Copy on {tab}: #use-status is {status}")
        check(focused(page).startswith("button#copy"), f"after Copy focus is on {focused(page)}")
    wrap = js(page, '(() => { const s = getComputedStyle(document.getElementById("snippet")); return [s.overflowWrap, s.wordBreak, document.getElementById("snippet").tabIndex]; })()')
    print(f"snippet: overflow-wrap {wrap[0]}, word-break {wrap[1]}, tabindex {wrap[2]}")
    check(wrap[0] == "anywhere" and wrap[1] != "break-all", f"the snippet wraps with overflow-wrap {wrap[0]}, word-break {wrap[1]}")
    check(wrap[2] >= 0, "pre#snippet is not focusable")
    page.evaluate('document.querySelector("#use [role=tab][aria-selected=true]").focus()')
    stops = tab_walk(page, 60)
    names_check(stops, "the Use dialog")
    check(any(s.startswith("pre#snippet") for s, _ in stops), f"pre#snippet is not in the dialog's tab order: {[s for s, _ in stops]}")
    box = js(page, '(() => { const r = document.getElementById("use").getBoundingClientRect(); return [r.top, r.bottom, innerHeight]; })()')
    print(f"use dialog at 1280 × 800: top {box[0]:.1f}, bottom {box[1]:.1f} of {box[2]}")
    check(box[0] >= -0.5 and box[1] <= box[2] + 0.5, f"at 1280 × 800 the Use dialog does not fit: {box}")
    page.evaluate('document.querySelector("#use [role=tab][aria-selected=true]").focus()')
    press(page, "Escape")
    closed = page.wait_for('document.getElementById("use").open ? 0 : 1', 5)
    back = page.wait_for('document.activeElement.matches("[data-loader=typing] button.use") ? 1 : 0', 5)
    print(f"Escape: dialog closed {bool(closed)}, focus on {focused(page)}")
    check(closed and back, f"Escape left the dialog open ({not closed}) or focus on {focused(page)}, not Typing's Use button")
    # The editor back to a definition it takes (keyTimes in order): its
    # preview plays again, and Pause all has something to stop.
    good = json.loads(json.dumps(BAD))
    good["layers"][0]["animations"][0]["keyTimes"] = [0, 0.5, 1]
    type_into(page, "#definition", json.dumps(good, indent=2))
    plays = page.wait_for(f'document.getElementById("definition").getAttribute("aria-invalid") !== "true" && {EDITOR_FRAMES} > 0 ? 1 : 0', 15)
    print(f"editor, the definition put right: aria-invalid cleared and the preview plays: {bool(plays)}")
    check(plays, "the editor did not take a definition put right, or its preview does not play")


# 7. Focus after each action.
def focus_after_actions(page):
    results = []

    def after(label, selector, expect, how="click"):
        if how == "click":
            click(page, selector)
        else:
            page.evaluate(f'document.querySelector({json.dumps(selector)}).focus()')
            press(page, how)
        ok = page.wait_for(f'document.activeElement && document.activeElement.matches({json.dumps(expect)}) && !document.activeElement.disabled ? 1 : 0', 10)
        where = focused(page)
        results.append(f"{label} → {where}")
        check(ok and where != "body", f"after {label} focus is on {where}, not {expect}")

    after("Start a page load", "[data-loader=web] [data-act=start]", "[data-loader=web] [data-act=progress]")
    after("Resource loaded", "[data-loader=web] [data-act=progress]", "[data-loader=web] [data-act=progress]")
    after("Resource loaded (Enter)", "[data-loader=web] [data-act=progress]", "[data-loader=web] [data-act=progress]", "Enter")
    after("Finish", "[data-loader=web] [data-act=finish]", "[data-loader=web] [data-act=start]")
    after("Use", "[data-loader=switch] button.use", "#use [role=tab][aria-selected=true]")
    after("Escape", "#use [role=tab][aria-selected=true]", "[data-loader=switch] button.use", "Escape")
    after("a size radio", "#size input[value='96']", "#size input[value='96']")
    # The size presets: each loader's longest side that many CSS px (web's view fills its stage).
    sides = js(page, f'[...{CARDS}].filter((c) => c.dataset.loader !== "web").map((c) => {{ const r = c.querySelector(".stage loader-frames").getBoundingClientRect(); return Math.max(r.width, r.height); }})')
    off = [round(x, 2) for x in sides if abs(x - 96) > 0.5]
    print(f"size 96: {len(sides)} players, longest sides {min(sides):.2f} to {max(sides):.2f} px")
    check(sides and not off, f"at size 96 the players' longest sides are not 96 px: {off[:5]}")
    after("a size radio (back)", "#size input[value='48']", "#size input[value='48']")
    print("focus after actions: " + "; ".join(results))


# 6. Pause all: every player paused, no stream left open, kept across a reload.
# A player that has not drawn yet (out of view) streams nothing, and the page
# lets it take its first frame when it comes into view before holding it:
# such players need not carry `paused`; the service's gauge says that none
# streams.
EVERY_PAUSED = '[...document.querySelectorAll("loader-frames")].every((p) => p.hasAttribute("paused") || !p.frame)'
def pause_all(page, base, total):
    browser = page.browser
    streaming = poll(lambda: open_streams(base) > 0, 10, browser)
    check(streaming, "no stream was open before Pause all")
    click(page, "#pause-all")
    state = page.wait_for(f'(() => {{ const b = document.getElementById("pause-all"); return b.getAttribute("aria-pressed") === "true" && {EVERY_PAUSED} ? 1 : 0; }})()', 5)
    gauge = poll(lambda: open_streams(base) == 0, 10, browser)
    page.wait_for(f"{EDITOR_FRAMES} > 0", 10)
    before = page.evaluate(EDITOR_FRAMES)
    cards_before = js(page, f'[...{CARDS}].map((c) => Number(c.dataset.frames))')
    browser.pump(1.0)   # paused players draw nothing over a second
    after = page.evaluate(EDITOR_FRAMES)
    cards_after = js(page, f'[...{CARDS}].map((c) => Number(c.dataset.frames))')
    stored = page.evaluate('sessionStorage.getItem("loaderd-paused")')
    print(f"pause all: pressed and every player paused {bool(state)}; open streams {open_streams(base)}; "
          f"editor frames {before} → {after}; cards' frames {sum(cards_before)} → {sum(cards_after)}; focus {focused(page)}; "
          f"sessionStorage {stored}")
    check(state, "after Pause all not every <loader-frames> is paused, or the button is not pressed")
    check(gauge, f"after Pause all the service still counts {open_streams(base)} open streams")
    check(before > 0 and after == before, f"after Pause all the editor's preview still draws, or never drew ({before} → {after})")
    check(cards_after == cards_before, "after Pause all the cards still draw")
    check(focused(page).startswith("button#pause-all"), f"after Pause all focus is on {focused(page)}")
    check(stored == "1", f"Pause all is not remembered in sessionStorage (loaderd-paused = {stored})")
    # An animated SVG in an <img> cannot be paused: each embed must show a still frame instead, and it must load.
    embeds = page.wait_for('(() => { const i = [...document.querySelectorAll("#embed img")]; '
                           'return i.length && i.every((m) => !m.src.includes("animation.svg") && m.complete && m.naturalWidth > 0) ? '
                           'JSON.stringify(i.map((m) => new URL(m.src).pathname)) : ""; })()', 10)
    print(f"pause all: the embedded pictures show {embeds or 'animations still'}")
    check(embeds, "after Pause all an embedded animated SVG is still animated (or its still does not load)")
    send(page, "Page.reload")
    browser.pump(0.5)
    page.wait_for(f'{CARDS}.length === {total} ? 1 : 0', 20)
    kept = page.wait_for(f'(() => {{ const b = document.getElementById("pause-all"); '
                         f'return b && b.getAttribute("aria-pressed") === "true" && [...{CARDS}].some((c) => c.dataset.frames > 0) && {EVERY_PAUSED} ? 1 : 0; }})()', 10)
    poll(lambda: open_streams(base) == 0, 10, browser)
    still = open_streams(base)
    held = page.evaluate(EDITOR_FRAMES)
    browser.pump(1.0)   # the editor's preview, paused from the start, draws nothing over a second
    held_after = page.evaluate(EDITOR_FRAMES)
    print(f"pause all after a reload: still pressed and paused {bool(kept)}; open streams {still}; editor frames {held} → {held_after}")
    check(held == held_after, f"after a reload, paused, the editor's preview draws ({held} → {held_after})")
    check(kept and still == 0, f"after a reload Pause all is not kept (pressed and paused: {bool(kept)}, open streams {still})")
    click(page, "#pause-all")
    again = poll(lambda: open_streams(base) > 0, 10, browser)
    first = js(page, f'[...{CARDS}].map((c) => Number(c.dataset.frames))')
    grew = page.wait_for(f'[...{CARDS}].some((c, i) => Number(c.dataset.frames) > {json.dumps(first)}[i]) ? 1 : 0', 10)
    pressed = page.evaluate('document.getElementById("pause-all").getAttribute("aria-pressed")')
    print(f"pause all pressed again: aria-pressed {pressed}, open streams {open_streams(base)}, frames grow {bool(grew)}")
    check(pressed == "false" and again and grew, f"pressed again, the page does not play (aria-pressed {pressed}, streams {open_streams(base)}, frames grow {bool(grew)})")


# 11. The weight before the first frame; one stream for the whole catalogue.
def fast(browser, base, total):
    page = open_tab(browser, base + "/", 1280, 800, cache_off=True)
    figures = weight_before_first_frame(page)
    if check(figures, "the page set no performance mark loaderd:first-frame"):
        at, weight, per = figures
        print(f"before the first frame ({at:.0f} ms, debug build; timed in bench/first_frame.py): {weight / 1000:.1f} KB in "
              f"{len(per)} responses: " + ", ".join(f"{urllib.parse.urlsplit(u).path} {n}" for u, n in per.items()))
        check(weight <= 150_000, f"the page transferred {weight} bytes before its first frame (at most 150 KB)")
    close_tab(page)
    # A tall screen: every card in view, every player on the one stream.
    page = open_tab(browser, base + "/", 1280, 12000)
    page.wait_for(f'{CARDS}.length === {total} && [...{CARDS}].every((c) => Number(c.dataset.frames) > 0) ? 1 : 0', 30)
    streams = [r["request"]["url"] for r in page.events("Network.requestWillBeSent") if r["request"]["headers"].get("Accept") == "text/event-stream"]
    last = streams[-1] if streams else ""
    one = poll(lambda: open_streams(base) == 1, 10, browser)
    print(f"one stream: {len(streams)} event-stream requests, the last carrying {last.count('loader=')} loaders, {open_streams(base)} open at the service")
    check(streams and "/streams?" in last and last.count("loader=") >= total and one,
          f"the catalogue does not ride one stream: {len(streams)} requests, {last.count('loader=')} loaders, {open_streams(base)} open")
    close_tab(page)


if __name__ == "__main__":
    main()
