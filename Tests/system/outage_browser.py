#!/usr/bin/env python3
"""A Redis outage as browsers see it (run by .ci/run): two loaderd replicas
on one real redis-server, and a page of another origin in headless Chromium
that views one session twice: with <loader-frames> (from replica A's
/client.js) and with a plain EventSource (on replica B).

Redis is killed for 5 s and started again on the same directory. Passes when:
- neither viewer reaches a closed state (EventSource.readyState 2, or the
  element's `end` or `error` event);
- frames keep arriving at both during the outage (at least half of the
  outage's frames at 30 fps);
- a progress event posted once Redis is back (its 202) shows in both
  viewers' frames (a new drop) within 2 s;
- two late viewers, added during the outage on a third replica that has
  never read the session (answered 200, `retry:` and `end` "unavailable"):
  neither closes, and both show the session once Redis is back.
Exits 1 on failure.

    Tests/system/outage_browser.py path/to/loaderd output-dir
"""
import json, os, sys, time

from browser_test import chromium
from cdp import Browser
from client_test import serve
from sessions_redis import Redis, call, create, replica

failures = []

def check(ok, what):
    print(("ok: " if ok else "FAILED: ") + what)
    if not ok:
        failures.append(what)

def page_html(a, b, sid):
    return f"""<!doctype html><html><head><meta charset="utf-8"><title>outage</title></head><body>
<script type="module" src="http://127.0.0.1:{a}/client.js"></script>
<loader-frames id="player" session="{sid}" style="width:160px"></loader-frames>
<script>
// What each viewer saw: frames, the first moment each element id showed, closed states.
window.seen = {{}};
for (const who of ["player", "source", "latePlayer", "lateSource"]) window.seen[who] = {{ frames: 0, ids: {{}}, closed: [] }};
function saw(who, frame) {{
  const s = window.seen[who];
  s.frames += 1;
  for (const e of frame.elements) if (!(e.id in s.ids)) s.ids[e.id] = Date.now();
}}
const player = document.getElementById("player");
player.addEventListener("frame", (e) => saw("player", e.detail));
player.addEventListener("end", (e) => window.seen.player.closed.push("end " + e.detail.reason));
player.addEventListener("error", (e) => window.seen.player.closed.push("error " + e.detail.status));
function eventSource(who, port) {{
  const source = new EventSource(`http://127.0.0.1:${{port}}/sessions/{sid}/frames?stream=sse&fps=30`);
  source.addEventListener("frame", (e) => saw(who, JSON.parse(e.data)));
  const closed = () => {{ if (source.readyState === EventSource.CLOSED && !window.seen[who].closed.length) window.seen[who].closed.push("readyState 2"); }};
  source.addEventListener("error", closed);
  setInterval(closed, 50);
}}
eventSource("source", {b});
// Viewers that arrive during the outage, on a replica that never read the session.
window.addLate = (port) => {{
  const late = document.createElement("loader-frames");
  late.setAttribute("session", "{sid}");
  late.setAttribute("src", `http://127.0.0.1:${{port}}`);
  late.addEventListener("frame", (e) => saw("latePlayer", e.detail));
  late.addEventListener("end", (e) => window.seen.latePlayer.closed.push("end " + e.detail.reason));
  late.addEventListener("error", (e) => window.seen.latePlayer.closed.push("error " + e.detail.status));
  document.body.append(late);
  eventSource("lateSource", port);
}};
</script></body></html>"""

def main():
    binary, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    redis = Redis()
    (a, pa), (b, pb), (c, pc) = replica(binary, redis), replica(binary, redis), replica(binary, redis)
    try:
        # Drops that stay for a minute: each progress event is a new element.
        sid, token = create(a, '{"loader":"web","params":{"dropDuration":60}}')
        status, _, _ = call(b, "POST", f"/sessions/{sid}/events", '{"type":"progress"}', token)
        check(status == 202, f"a progress event before the outage ({status})")
        site = serve(page_html(a, b, sid))
        with Browser(chromium(), os.path.join(out, "chromium-outage-profile")) as browser:
            page = browser.open(f"http://127.0.0.1:{site.server_address[1]}/")
            watching = page.wait_for('window.seen && seen.player.ids.drop0 && seen.source.ids.drop0 ? 1 : 0', 20)
            check(bool(watching), "both viewers show the session, with its first drop")

            def state():
                return json.loads(page.evaluate("JSON.stringify(window.seen)"))

            before = state()
            redis.kill()
            killed = time.monotonic()
            closed = []
            added = False
            while time.monotonic() - killed < 5:
                if not added and time.monotonic() - killed > 1:
                    page.evaluate(f"addLate({c})")
                    added = True
                browser.pump(0.25)
                s = state()
                closed = sum((s[who]["closed"] for who in s), [])
                if closed:
                    break
            during = state()
            redis.start()
            gained = {who: during[who]["frames"] - before[who]["frames"] for who in ("player", "source")}
            check(not closed, f"no viewer closed during the outage ({closed})")
            check(all(n >= 75 for n in gained.values()), f"frames kept coming while Redis was down for 5 s: {gained}")

            # Redis back: the first event the store takes reaches both viewers.
            deadline = time.monotonic() + 15
            status = 0
            while time.monotonic() < deadline:
                status, _, _ = call(a, "POST", f"/sessions/{sid}/events", '{"type":"progress"}', token)
                if status == 202:
                    break
                browser.pump(0.1)
            acknowledged = time.time() * 1000
            check(status == 202, f"an event is taken once Redis is back ({status})")
            shown = page.wait_for('seen.player.ids.drop1 && seen.source.ids.drop1 ? 1 : 0', 5)
            s = state()
            delays = {who: (s[who]["ids"].get("drop1", float("inf")) - acknowledged) / 1000 for who in ("player", "source")}
            check(bool(shown) and all(d < 2 for d in delays.values()),
                  f"the event after the outage reached both viewers within 2 s: {', '.join(f'{k} {v:.3f} s' for k, v in delays.items())}")
            late = page.wait_for('seen.latePlayer.ids.drop1 && seen.lateSource.ids.drop1 ? 1 : 0', 15)
            s = state()
            check(bool(late), f"the late viewers show the session once Redis is back ({s['latePlayer']['frames']} and {s['lateSource']['frames']} frames)")
            closed = sum((s[who]["closed"] for who in s), [])
            check(not closed, f"no viewer closed at all ({closed})")
        site.shutdown()
    finally:
        for p in (pa, pb, pc):
            p.terminate()
            p.wait()
        redis.remove()
    if failures:
        print(f"FAILED: {len(failures)}: " + "; ".join(failures))
        sys.exit(1)
    print("outage in the browser: all passed")

if __name__ == "__main__":
    main()
