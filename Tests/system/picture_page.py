#!/usr/bin/env python3
"""A page of pictures, in headless Chromium over the DevTools protocol (run
by .ci/run):

1. a page of another origin with sixteen <img> of sixteen loaders' exports
   (GIF and APNG, none built yet), all from one client, shows sixteen
   pictures: requests past the client's running places
   (maxHeavyRequestsPerClient, 2) wait for them instead of getting 429.
   Each picture's size is checked against the loader's canvas (dpr as the
   export says, never below the canvas);
2. the bound still holds for the others: while the page loads, another
   client (named by X-Forwarded-For through a trusted proxy) gets its own
   export built, 200, not queued behind the page;
3. the demo page of a freshly started service shows every picture it has.
Exits 1 on failure.

    Tests/system/picture_page.py path/to/loaderd output-dir
"""
import json, os, sys, threading, urllib.request

from browser_test import chromium
from cdp import Browser
from loaderd_process import free_port, serve_pages, start

failures = []


def check(ok, what):
    print(("ok: " if ok else "FAILED: ") + what)
    if not ok:
        failures.append(what)


def main():
    binary, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ, LOADERD_TRUSTED_PROXIES="127.0.0.1")
    service = start(binary, port, env=env)
    try:
        catalogue = json.load(urllib.request.urlopen(base + "/loaders"))["loaders"]
        loaders = [l for l in catalogue if l["name"] not in ("typing", "switch", "web")][:16]
        check(len(loaders) == 16, f"sixteen loaders to show ({len(loaders)})")
        canvas = {l["name"]: (l["canvas"]["width"], l["canvas"]["height"]) for l in loaders}
        files = ["animation.gif" if i % 2 == 0 else "animation.png" for i in range(len(loaders))]
        images = "".join(f'<img id="{l["name"]}" alt="{l["name"]}" src="{base}/loaders/{l["name"]}/{f}">'
                         for l, f in zip(loaders, files))
        page = serve_pages({"/": f'<!doctype html><html><head><meta charset="utf-8"><title>pictures</title></head><body>{images}</body></html>'})

        # The other client's export, asked for while the page's wait.
        other = {}

        def other_client():
            request = urllib.request.Request(base + "/loaders/typing/animation.gif?fps=10",
                                             headers={"X-Forwarded-For": "203.0.113.7"})
            try:
                with urllib.request.urlopen(request, timeout=30) as r:
                    other["status"] = r.status
            except urllib.error.HTTPError as e:
                other["status"] = e.code

        with Browser(chromium(), os.path.join(out, "profile")) as browser:
            tab = browser.open(f"http://127.0.0.1:{page.server_address[1]}/")
            tab.wait_for("document.readyState !== 'loading' && document.images.length === 16", 10)
            asker = threading.Thread(target=other_client)
            asker.start()
            done = tab.wait_for("[...document.images].every(i => i.complete)", 60)
            asker.join(60)
            shown = tab.evaluate("[...document.images].map(i => [i.id, i.naturalWidth, i.naturalHeight])")
            check(bool(done), "every picture finished loading")
            broken = [name for name, w, h in shown if w == 0 or h == 0]
            check(not broken, f"sixteen pictures shown, none broken ({broken})")
            # Never below the canvas without dpr: at least its width and height, in proportion.
            for name, w, h in shown:
                cw, ch = canvas[name]
                if w and h:
                    check(w >= cw - 0.5 and h >= ch - 0.5 and abs(w / h - cw / ch) < 0.05,
                          f"{name}: {w} × {h} pixels for a {cw} × {ch} canvas")
            answers = [e for e in tab.events("Network.responseReceived") if "/loaders/" in e["response"]["url"]]
            refused = [(e["response"]["url"], e["response"]["status"]) for e in answers if e["response"]["status"] != 200]
            check(len(answers) == 16 and not refused, f"sixteen exports answered, each 200 ({len(answers)}; {refused})")
            check(other.get("status") == 200, f"another client's export while the page loads: {other.get('status')}")
            metrics = urllib.request.urlopen(base + "/metrics").read().decode()
            check("loaderd_heavy_waiting 0" in metrics and "loaderd_heavy_requests 0" in metrics,
                  "no heavy request left running or waiting")

            # The demo page on a service started afresh: every picture loads.
            service.terminate()
            service.wait(10)
            service = start(binary, port, env=env)
            demo = browser.open(base + "/")
            demo.wait_for("document.readyState === 'complete'", 30)
            demo_done = demo.wait_for("[...document.images].every(i => i.complete)", 60)
            pictures = demo.evaluate("[...document.images].map(i => [i.currentSrc, i.naturalWidth])")
            check(bool(demo_done) and all(w > 0 for _, w in pictures),
                  f"the demo page shows every one of its {len(pictures)} pictures ({[s for s, w in pictures if w == 0]})")
        page.shutdown()
    finally:
        service.terminate()
        service.wait(10)
    if failures:
        print(f"{len(failures)} FAILED")
        sys.exit(1)
    print("picture page: all checks passed")


if __name__ == "__main__":
    main()
