#!/usr/bin/env python3
"""<loader-frames> on a page of its own, in headless Chromium over the
DevTools protocol (run by .ci/run after client_test.py):

1. The page's colour: on a dark page whose CSS colour is rgb(240, 200, 80),
   every shape of three-bounce (fills), material-spinner (strokes) and
   typing (whose original has a black background) is painted in that
   colour, with no background; after the page's colour changes the shapes
   follow it with no new stream. A colour given in params or in the color
   attribute is drawn as given, and so is a shape's own colour in a loader
   of two (a definition in the loaders directory). Pixels at the players' corners are the
   page's background: nothing is painted behind the shapes.
2. The accessibility tree (Accessibility.getFullAXTree): a progressbar named
   "Loading" or its label, with no value; a decorative one is not in the
   tree; a button holding "Saving…" and a decorative player is named
   "Saving…", and so is one holding a player not marked decorative (inside
   a control named by its content a player is decorative); when a
   session is finished the page's polite live region says "Loaded" (or
   done-label), and later no longer does.
3. Back and forward ten times with the back/forward cache: each return is
   from the cache (pageshow's persisted, no Page.backForwardCacheNotUsed),
   every stream is closed while the page is away (loaderd_open_streams 0),
   frames resume on every visit, and at the end the service holds the
   page's own two streams.
Exits 1 on failure.

    Tests/system/client_a11y_test.py path/to/loaderd output-dir
"""
import base64, http.server, json, os, re, sys, threading, time, urllib.request

from browser_test import chromium, pixels
from cdp import Browser
from loaderd_process import serve_pages as serve, start_with_definitions

failures = []

def check(ok, what):
    print(("ok: " if ok else "FAILED: ") + what)
    if not ok:
        failures.append(what)

INK = (240, 200, 80)          # the page's colour
INK2 = (90, 200, 250)         # the page's colour after the theme switch
DARK = (16, 24, 32)           # the page's background
RED = (255, 59, 48)           # a colour given in params
GREEN = (48, 209, 88)         # a colour given in the color attribute
BACKED = (32, 64, 96)         # a background asked for in the background attribute
FIXED = (255, 0, 255)         # a shape's own colour, not the color parameter

# A loader of two colours: a dot of its color parameter and a ring of a
# fixed colour, which must keep it on any page.
TWO_TONE = {
    "format": 1, "name": "two-tone", "summary": "A test loader: a dot of its colour, a ring of a fixed one.",
    "canvas": {"width": 40, "height": 20}, "color": "#40C0FF",
    "layers": [
        {"type": "circle", "id": "dot", "position": [10, 10], "diameter": 12, "backgroundColor": "color"},
        {"type": "ring", "id": "rim", "position": [30, 10], "diameter": 14, "lineWidth": 3, "strokeColor": "#FF00FF"},
    ],
}

def rgb(c):
    return f"rgb({c[0]}, {c[1]}, {c[2]})"

COUNT = """<script>
window.ended = [];
window.shows = [];
addEventListener("pageshow", (e) => window.shows.push(e.persisted));
for (const el of document.querySelectorAll("loader-frames")) {
  el.addEventListener("frame", () => { el.frames = (el.frames || 0) + 1; });
  for (const kind of ["end", "error"]) el.addEventListener(kind, (e) => window.ended.push(`${el.id} ${kind} ${JSON.stringify(e.detail)}`));
}
</script>"""

def colour_page(base):
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>colour</title>
<style>html, body {{ margin: 0; background: {rgb(DARK)}; color: {rgb(INK)}; }}
.row {{ display: flex; gap: 24px; padding: 24px; align-items: center; }} loader-frames {{ width: 96px; }}</style></head><body>
<script type="module" src="{base}/client.js"></script>
<div class="row">
<loader-frames id="dots" loader="three-bounce"></loader-frames>
<loader-frames id="ring" loader="material-spinner"></loader-frames>
<loader-frames id="typing" loader="typing"></loader-frames>
<loader-frames id="red" loader="three-bounce" params="color=%23ff3b30"></loader-frames>
<loader-frames id="green" loader="three-bounce" color="#30d158"></loader-frames>
<loader-frames id="backed" loader="three-bounce" background="#204060"></loader-frames>
<loader-frames id="two-tone" loader="two-tone"></loader-frames>
</div>{COUNT}</body></html>"""

def a11y_page(base, sid, sid2, sid4, sid5):
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>a11y</title>
<style>loader-frames {{ width: 40px; }} p {{ margin: 4px; }}</style></head><body>
<script type="module" src="{base}/client.js"></script>
<p><loader-frames id="plain" loader="three-bounce"></loader-frames></p>
<p><loader-frames id="named" loader="three-bounce" label="Fetching results"></loader-frames></p>
<p>Sending <loader-frames id="deco" loader="three-bounce" decorative></loader-frames></p>
<button id="with-decorative">Saving…<loader-frames loader="three-bounce" decorative></loader-frames></button>
<button id="with-player">Saving…<loader-frames id="inner" loader="three-bounce"></loader-frames></button>
<p><label><input type="checkbox" id="box"> Remember me <loader-frames loader="three-bounce"></loader-frames></label></p>
<p><loader-frames id="session" session="{sid}" label="Uploading" done-label="Upload complete"></loader-frames></p>
<p><loader-frames id="session2" session="{sid2}"></loader-frames></p>
<p>Sending <loader-frames id="session3" session="{sid2}" decorative></loader-frames></p>
<p><loader-frames id="session4" session="{sid4}" label="Uploading files"></loader-frames></p>
<div style="height: 5000px"></div>
<p><loader-frames id="session5" session="{sid5}" done-label="Upload finished"></loader-frames></p>
{COUNT}</body></html>"""

def bf_page(base):
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bf</title></head><body>
<script type="module" src="{base}/client.js"></script>
<loader-frames id="shared" loader="three-bounce"></loader-frames>
<loader-frames id="own" loader="typing" clock="own"></loader-frames>
<a href="/other">elsewhere</a>{COUNT}</body></html>"""

OTHER = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>other</title></head><body><p>Another page.</p></body></html>"""

def until(page, expression, seconds):
    """page.wait_for, with an expression that may throw while the page loads."""
    return page.wait_for(f"(() => {{ try {{ return {expression}; }} catch {{ return false; }} }})()", seconds)

def metric(base, name):
    text = urllib.request.urlopen(base + "/metrics", timeout=5).read().decode()
    return float(re.search(rf"^{name} (\S+)$", text, re.M).group(1))

def wait_metric(browser, base, name, want, seconds):
    deadline = time.monotonic() + seconds
    value = metric(base, name)
    while value != want and time.monotonic() < deadline:
        browser.pump(0.05)
        value = metric(base, name)
    return value

def stream_requests(page):
    return [r for r in page.events("Network.requestWillBeSent")
            if r["request"]["headers"].get("Accept") == "text/event-stream"]

def post(base, path, body, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(request, timeout=5) as r:
        return json.load(r)

# Every drawn shape of the players named: its computed paint (fill, or
# stroke for a ring), whether a background rect is there.
PAINTS = """((ids) => JSON.stringify(ids.map((id) => {
  const svg = document.getElementById(id).shadowRoot.querySelector("svg");
  const shapes = [...svg.querySelectorAll("[data-element]")].map((n) => n.tagName === "g" ? n.firstElementChild : n);
  return { id, background: !!svg.querySelector("[data-background]") || [...svg.children].some((c) => !c.hasAttribute("data-element")),
           paints: shapes.map((s) => { const cs = getComputedStyle(s); return s.getAttribute("fill") === "none" ? cs.stroke : cs.fill; }),
           svgColor: getComputedStyle(svg).color };
})))"""

def paints(page, ids):
    return json.loads(page.evaluate(PAINTS + "(" + json.dumps(ids) + ")"))

def colour_checks(browser, page, base, out):
    ids = ["dots", "ring", "typing", "red", "green"]
    drawn = until(page, f'{json.dumps(ids + ["two-tone"])}.every((id) => (document.getElementById(id).frames || 0) >= 3 && '
                          f'document.getElementById(id).shadowRoot.querySelectorAll("[data-element]").length > 0)', 30)
    check(bool(drawn), "six players drew frames")
    got = {p["id"]: p for p in paints(page, ids)}
    for id in ("dots", "ring", "typing"):
        p = got[id]
        check(len(p["paints"]) > 0 and all(c == rgb(INK) for c in p["paints"]),
              f"{id}: every shape painted in the page's colour {rgb(INK)}: {sorted(set(p['paints']))}")
        check(not p["background"], f"{id}: no background drawn")
    check(all(c == rgb(RED) for c in got["red"]["paints"]), f"a colour in params is drawn as given: {sorted(set(got['red']['paints']))}")
    check(all(c == rgb(GREEN) for c in got["green"]["paints"]), f"the color attribute is drawn as given: {sorted(set(got['green']['paints']))}")
    tones = paints(page, ["two-tone"])[0]["paints"]
    check(tones == [rgb(INK), rgb(FIXED)], f"a shape of the color default follows the page, one of its own colour keeps it: {tones}")
    backdrop = page.evaluate('(() => { const r = document.getElementById("backed").shadowRoot.querySelector("svg > rect[data-background]"); return r && getComputedStyle(r).fill; })()')
    check(backdrop == rgb(BACKED), f"the background attribute draws that background: {backdrop}")

    # Nothing behind the shapes: the players' corners are the page's background.
    boxes = json.loads(page.evaluate(f'JSON.stringify({json.dumps(ids + ["backed"])}.map((id) => {{ const r = document.getElementById(id).getBoundingClientRect(); return [id, r.x, r.y, r.width, r.height]; }}))'))
    shot = browser.send("Page.captureScreenshot", {"format": "png"}, session=page.session)
    path = os.path.join(out, "colour.png")
    with open(path, "wb") as f:
        f.write(base64.b64decode(shot["data"]))
    w, h, bpp, rows = pixels(path)
    off = []
    for id, x, y, bw, bh in [b for b in boxes if b[0] != "backed"]:
        for px, py in ((x + 1, y + 1), (x + bw - 2, y + 1), (x + 1, y + bh - 2), (x + bw - 2, y + bh - 2)):
            px, py = int(px), int(py)
            c = tuple(rows[py][px * bpp:px * bpp + 3])
            if max(abs(a - b) for a, b in zip(c, DARK)) > 2:
                off.append((id, px, py, c))
    backed = [b for b in boxes if b[0] == "backed"][0]
    x, y = int(backed[1] + 2), int(backed[2] + 2)
    corner = tuple(rows[y][x * bpp:x * bpp + 3])
    check(len(boxes) == 6 and not off, f"every player's corners show the page's background {DARK}: {off[:4]}")
    check(max(abs(a - b) for a, b in zip(corner, BACKED)) <= 2, f"the backed player's corner shows its background {BACKED}: {corner}")

    # The theme switches: the shapes follow, with no new stream.
    streams, open_before = len(stream_requests(page)), metric(base, "loaderd_open_streams")
    page.evaluate(f'document.body.style.color = "{rgb(INK2)}"')
    followed = until(page, f'(() => {{ const all = {PAINTS}({json.dumps(ids[:3])}); return JSON.parse(all).every((p) => p.paints.length && p.paints.every((c) => c === "{rgb(INK2)}")); }})()', 5)
    browser.pump(0.5)
    after = {p["id"]: p for p in paints(page, ids)}
    check(bool(followed), f"after the page's colour changed every shape follows it: {[sorted(set(after[i]['paints'])) for i in ids[:3]]}")
    tones = paints(page, ["two-tone"])[0]["paints"]
    check(all(c == rgb(RED) for c in after["red"]["paints"]) and all(c == rgb(GREEN) for c in after["green"]["paints"])
          and tones == [rgb(INK2), rgb(FIXED)], f"colours given and a shape's own colour keep theirs after the change: {tones}")
    open_after = metric(base, "loaderd_open_streams")
    check(len(stream_requests(page)) == streams and open_after == open_before,
          f"no new stream for the change ({len(stream_requests(page)) - streams} requests; open streams {open_before} → {open_after})")

def ax_node(browser, page, expression):
    """The node of the full accessibility tree for the DOM element `expression`, or None if it is not in it."""
    target = browser.send("Runtime.evaluate", {"expression": expression}, session=page.session)["result"]["objectId"]
    backend = browser.send("DOM.describeNode", {"objectId": target}, session=page.session)["node"]["backendNodeId"]
    nodes = browser.send("Accessibility.getFullAXTree", {}, session=page.session)["nodes"]
    return next((n for n in nodes if n.get("backendDOMNodeId") == backend), None), nodes

def ax_props(node):
    """The node's properties by name; a range's current value (the node's own
    `value`, as Chromium gives aria-valuenow) as `valuenow`."""
    props = {p["name"]: p["value"].get("value") for p in node.get("properties", [])}
    if "value" in node:
        props["valuenow"] = node["value"].get("value")
    return props

def shown(node):
    return node is not None and not node.get("ignored")

def value_checks(browser, page, base, session):
    """A session that knows its whole (web, steps 4): the progressbar's value
    is the share of its progress events, 0 to 100, then 100 on finish."""
    def value_becomes(want, seconds=10):
        deadline = time.monotonic() + seconds
        while True:
            node, _ = ax_node(browser, page, 'document.getElementById("session4")')
            props = ax_props(node) if node else {}
            if (props.get("valuenow"), props.get("valuemin"), props.get("valuemax")) == (want, 0, 100) or time.monotonic() > deadline:
                return node and node["role"].get("value"), props
            browser.pump(0.1)
    posted = 0
    for events, want in ((0, 0), (1, 25), (3, 75)):   # want: 100 × events / 4
        while posted < events:
            post(base, f"/sessions/{session['id']}/events", {"type": "progress"}, session["token"])
            posted += 1
        role, props = value_becomes(want)
        check(role == "progressbar" and props.get("valuenow") == want and props.get("valuemin") == 0 and props.get("valuemax") == 100,
              f"after {events} of 4 progress events: {role} value {props.get('valuenow')} of {props.get('valuemin')}–{props.get('valuemax')} (want {want})")
    post(base, f"/sessions/{session['id']}/events", {"type": "finish"}, session["token"])
    role, props = value_becomes(100)
    check(props.get("valuenow") == 100, f"finished: value {props.get('valuenow')} (want 100)")

def a11y_checks(browser, page, base, session, session2, session5):
    browser.send("DOM.enable", session=page.session)
    browser.send("Accessibility.enable", session=page.session)
    until(page, '["plain", "named", "inner"].every((id) => (document.getElementById(id).frames || 0) >= 3)', 20)
    for id, name in (("plain", "Loading"), ("named", "Fetching results")):
        node, _ = ax_node(browser, page, f'document.getElementById("{id}")')
        role = node and node["role"].get("value")
        label = node and node.get("name", {}).get("value")
        props = ax_props(node) if node else {}
        check(shown(node) and role == "progressbar" and label == name and "valuenow" not in props,
              f"{id}: role {role}, name {label!r}, valuenow {props.get('valuenow')} (a progressbar named {name!r}, no value)")
    # The drawing itself says nothing.
    svg, nodes = ax_node(browser, page, 'document.getElementById("plain").shadowRoot.querySelector("svg")')
    check(not shown(svg), "the inner svg is not in the tree")
    statuses = [n for n in nodes if not n.get("ignored") and n["role"].get("value") == "status"]
    check(not statuses, f"no status role anywhere ({len(statuses)})")

    node, _ = ax_node(browser, page, 'document.getElementById("deco")')
    check(not shown(node), f"decorative: not in the tree ({node and node['role'].get('value')})")
    for id, want in (("with-decorative", "Saving…"), ("with-player", "Saving…")):
        node, _ = ax_node(browser, page, f'document.getElementById("{id}")')
        name = node and node.get("name", {}).get("value")
        check(shown(node) and node["role"].get("value") == "button" and name == want,
              f"button {id}: name {name!r} (want {want!r})")
    # Inside a control named by its content a player is decorative: its
    # name would otherwise be folded into the control's ("Saving… Loading").
    inner, _ = ax_node(browser, page, 'document.getElementById("inner")')
    check(not shown(inner), f"the player inside a button is not in the tree ({inner and inner['role'].get('value')})")
    box, _ = ax_node(browser, page, 'document.getElementById("box")')
    name = box and box.get("name", {}).get("value")
    check(shown(box) and name == "Remember me", f"a checkbox labelled by a <label> holding a player: name {name!r}")

    # A finished session: one polite announcement, gone later.
    live = until(page, '(() => { const r = document.querySelector("[aria-live=polite]"); return r && r.textContent === "" ? 1 : 0; })()', 10)
    check(bool(live), "the page has an empty polite live region before the session finishes")
    streaming = until(page, '["session", "session2", "session3"].every((id) => (document.getElementById(id).frames || 0) >= 3)', 20)
    check(bool(streaming), "three session players drew frames")
    post(base, f"/sessions/{session['id']}/events", {"type": "finish"}, session["token"])
    post(base, f"/sessions/{session2['id']}/events", {"type": "finish"}, session2["token"])
    post(base, f"/sessions/{session5['id']}/events", {"type": "finish"}, session5["token"])
    # Each said once; the decorative viewer of the second session says nothing;
    # the one below the fold, never scrolled to, is said too.
    said = until(page, '(() => { const r = document.querySelector("[aria-live=polite]"); return r && r.children.length >= 3 ? 1 : 0; })()', 20)
    browser.pump(0.5)
    said = json.loads(page.evaluate('JSON.stringify([...document.querySelector("[aria-live=polite]").children].map((c) => c.textContent).sort())'))
    check(said == ["Loaded", "Upload complete", "Upload finished"], f"the finished sessions are announced once each, by done-label or 'Loaded', in view or not: {said}")
    if said:
        region, nodes = ax_node(browser, page, 'document.querySelector("[aria-live=polite]")')
        props = ax_props(region) if region else {}
        texts = {n.get("name", {}).get("value") for n in nodes if not n.get("ignored") and n["role"].get("value") == "StaticText"}
        check(shown(region) and props.get("live") == "polite" and {"Loaded", "Upload complete"} <= texts,
              f"the live region and its two texts are in the tree, live={props.get('live')}")
        # Visually hidden: a box of at most 1 px.
        size = json.loads(page.evaluate('JSON.stringify((() => { const r = document.querySelector("[aria-live=polite]").getBoundingClientRect(); return [r.width, r.height]; })())'))
        check(size[0] <= 1 and size[1] <= 1, f"the live region is visually hidden ({size})")
    ended = until(page, 'window.ended.filter((e) => e.startsWith("session")).length === 4 && window.ended.filter((e) => e.startsWith("session")).sort()', 10)
    check(bool(ended) and all(' end {"reason":"done"}' in e for e in ended), f"the sessions' players ended, done: {ended}")
    gone = until(page, '(() => { const r = document.querySelector("[aria-live=polite]"); return !r || r.textContent.trim() === "" ? 1 : 0; })()', 15)
    count = page.evaluate('[...document.querySelectorAll("[aria-live]")].length')
    check(bool(gone) and count == 1, f"the announcement is taken away later, the region stays empty ({count} regions)")

def bf_checks(browser, page, base, site):
    until(page, '["shared", "own"].every((id) => (document.getElementById(id).frames || 0) >= 3)', 20)
    own = wait_metric(browser, base, "loaderd_open_streams", 2, 10)
    check(own == 2, f"the page holds its own two streams ({own})")
    other = f"http://127.0.0.1:{site.server_address[1]}/other"
    restored, away_open, resumed = 0, [], 0
    for visit in range(10):
        before = page.evaluate("window.shows.length")
        browser.send("Page.navigate", {"url": other}, session=page.session)
        until(page, 'location.pathname === "/other" && document.readyState === "complete"', 10)
        away_open.append(wait_metric(browser, base, "loaderd_open_streams", 0, 10))
        browser.send("Runtime.evaluate", {"expression": "history.back()"}, session=page.session)
        back = until(page, f'location.pathname === "/bf" && window.shows && window.shows.length > {before}', 10)
        if back and page.evaluate("window.shows[window.shows.length - 1]") is True:
            restored += 1
        frames = page.evaluate('["shared", "own"].map((id) => document.getElementById(id).frames || 0)')
        more = until(page, f'document.getElementById("shared").frames > {frames[0]} + 2 && document.getElementById("own").frames > {frames[1]} + 2', 10)
        resumed += bool(more)
    refused = page.events("Page.backForwardCacheNotUsed")
    check(restored == 10 and not refused, f"ten returns from the back/forward cache ({restored}; not used: {[r.get('notRestoredExplanations') for r in refused][:2]})")
    check(all(v == 0 for v in away_open), f"while the page was away the service held no stream ({away_open})")
    check(resumed == 10, f"frames resumed on every visit ({resumed} of 10)")
    final = wait_metric(browser, base, "loaderd_open_streams", 2, 10)
    check(final == 2, f"after ten round trips the service holds the page's own two streams ({final})")
    ended = page.evaluate("window.ended")
    check(not ended, f"no player ended or was refused: {ended}")

def main():
    binary, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    server, base = start_with_definitions(binary, TWO_TONE)
    try:
        session = post(base, "/sessions", {"loader": "web", "params": {}})
        session2 = post(base, "/sessions", {"loader": "web", "params": {}})
        # A load of four resources, known beforehand: its player has a value.
        session4 = post(base, "/sessions", {"loader": "web", "params": {"steps": 4}})
        # Far below the fold: never scrolled to, yet its end is announced.
        session5 = post(base, "/sessions", {"loader": "web", "params": {}})
        pages = {"/colour": colour_page(base), "/a11y": a11y_page(base, session["id"], session2["id"], session4["id"], session5["id"]), "/bf": bf_page(base), "/other": OTHER}
        site = serve(pages)
        origin = f"http://127.0.0.1:{site.server_address[1]}"
        with Browser(chromium(), os.path.join(out, "chromium-a11y-profile"), ["--window-size=1024,600"]) as browser:
            page = browser.open(origin + "/colour")
            colour_checks(browser, page, base, out)
            browser.send("Page.close", session=page.session)
            if wait_metric(browser, base, "loaderd_open_streams", 0, 10) != 0:
                check(False, "the colour page's streams closed with it")
            page = browser.open(origin + "/a11y")
            a11y_checks(browser, page, base, session, session2, session5)
            value_checks(browser, page, base, session4)
            browser.send("Page.close", session=page.session)
            wait_metric(browser, base, "loaderd_open_streams", 0, 10)
            page = browser.open(origin + "/bf")
            bf_checks(browser, page, base, site)
        site.shutdown()
    finally:
        server.terminate()
        server.wait()
    if failures:
        print(f"FAILED: {len(failures)}: " + "; ".join(f[:200] for f in failures))
        sys.exit(1)
    print("client a11y: all passed")

if __name__ == "__main__":
    main()
