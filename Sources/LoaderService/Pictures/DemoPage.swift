import HTTPServer

/// `GET /`: every loader live through EventSource, drawn on canvases, with
/// controls, a web-session panel, reduced motion, and embeddable SVGs.
///
/// Test hooks: each card carries `data-frames` (frames received) and, once
/// `?frames=N` frames have arrived and its stream is closed, `data-nonblank`
/// (whether the canvas shows anything but its background). `?view=embed`
/// shows only the animated SVGs in `<img>` tags.
enum DemoPage {
    static func response(_ request: HTTPRequest) -> HTTPResponse {
        HTTPResponse(status: .ok, headers: [
            "Content-Type": "text/html; charset=utf-8",
            "Cache-Control": "no-cache",
            "Content-Security-Policy": "default-src 'self'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src 'self' data:; connect-src 'self'",
        ], body: page)
    }

    static let page: [UInt8] = Array(html.utf8)

    static let html = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>loaderd: loading animations, frame by frame</title>
<style>
  :root { color-scheme: light dark; --fg: #1d1d1f; --muted: #6e6e73; --card: #ffffff; --bg: #f2f2f7; --accent: #0a84ff; }
  @media (prefers-color-scheme: dark) { :root { --fg: #f5f5f7; --muted: #a1a1a6; --card: #1c1c1e; --bg: #000; } }
  * { box-sizing: border-box; }
  body { margin: 0; font: 15px/1.45 -apple-system, system-ui, "Segoe UI", Roboto, sans-serif; background: var(--bg); color: var(--fg); }
  header { padding: 28px 32px 8px; }
  h1 { margin: 0 0 4px; font-size: 26px; }
  header p { margin: 0; color: var(--muted); max-width: 760px; }
  .bar { display: flex; gap: 18px; align-items: center; padding: 12px 32px; flex-wrap: wrap; }
  main { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 20px; padding: 12px 32px 32px; }
  .card { background: var(--card); border-radius: 14px; padding: 18px; box-shadow: 0 1px 3px rgba(0,0,0,.08); }
  .card h2 { margin: 0 0 2px; font-size: 18px; }
  .card .what { color: var(--muted); font-size: 13px; min-height: 36px; }
  canvas { display: block; margin: 12px auto; border-radius: 8px; max-width: 100%; outline: 1px solid rgba(128,128,128,.25); }
  label { display: inline-flex; gap: 6px; align-items: center; margin: 4px 12px 4px 0; font-size: 13px; }
  input[type=range] { width: 110px; }
  .stats { font: 12px ui-monospace, Menlo, monospace; color: var(--muted); }
  button { font: inherit; font-size: 13px; border: 0; border-radius: 8px; padding: 6px 12px; background: var(--accent); color: #fff; cursor: pointer; }
  button:disabled { opacity: .4; cursor: default; }
  .embed { display: flex; gap: 24px; align-items: center; padding: 12px 32px 32px; flex-wrap: wrap; }
  .embed img { border-radius: 8px; }
  code { font: 12px ui-monospace, Menlo, monospace; }
</style>
</head>
<body>
<header>
  <h1>loaderd</h1>
  <p>Loading animations computed frame by frame with Core Animation's timing model and streamed live to this page with server-sent events. Every dot below is drawn from a JSON frame the server sent.</p>
</header>
<div class="bar">
  <label><input type="checkbox" id="reduced"> Reduced motion</label>
  <label>fps <input type="range" id="fps" min="1" max="60" value="30"> <span id="fpsValue">30</span></label>
</div>
<main id="cards"></main>
<section class="embed" id="embed">
  <strong>Embed without JavaScript:</strong>
  <img alt="typing loader" src="/loaders/typing/animation.svg" height="60">
  <img alt="switch loader" src="/loaders/switch/animation.svg" height="90">
  <img alt="web loader" src="/loaders/web/animation.svg?width=160&amp;height=240" height="180">
  <code>&lt;img src="/loaders/typing/animation.svg"&gt;</code>
</section>
<script>
"use strict";
const query = new URLSearchParams(location.search);
const frameLimit = Number(query.get("frames") || 0);   // tests: close each stream after N frames
if (query.get("view") === "embed") {
  document.querySelector("header").remove();
  document.querySelector(".bar").remove();
  document.getElementById("cards").remove();
}
const reducedQuery = matchMedia("(prefers-reduced-motion: reduce)");
const reducedBox = document.getElementById("reduced");
reducedBox.checked = query.has("motion") ? query.get("motion") === "reduced" : reducedQuery.matches;
const fpsInput = document.getElementById("fps");
const fpsValue = document.getElementById("fpsValue");

const loaders = [
  { name: "typing", title: "Typing", what: "Chat typing dots: a replicated dot that fades, bounces and grows.", bg: "#000", scale: 4,
    controls: [["count", "dots", 1, 8, 3, 1], ["color", "colour", "#ffffff"]] },
  { name: "switch", title: "Switch", what: "Three dots swapping places along half circles.", bg: "#000", scale: 2.5,
    controls: [["loader.duration", "period s", 0.4, 3, 1.2, 0.1], ["color", "colour", "#ffffff"]] },
  { name: "web", title: "Web page load", what: "A pulsing indicator, a drop per loaded resource. Start a session and report progress.", bg: "#fff", scale: 0.6,
    controls: [["color", "colour", "#0000ff"]], session: true },
];

const cards = new Map();
for (const l of loaders) {
  if (!document.getElementById("cards")) break;
  const card = document.createElement("section");
  card.className = "card";
  card.dataset.loader = l.name;
  card.dataset.frames = "0";
  card.innerHTML = `<h2>${l.title}</h2><div class="what">${l.what}</div><canvas></canvas><div class="controls"></div><div class="stats">waiting…</div>`;
  const controls = card.querySelector(".controls");
  const values = {};
  for (const [key, label, a, b, c, step] of l.controls) {
    const wrap = document.createElement("label");
    const input = document.createElement("input");
    if (key === "color") { input.type = "color"; input.value = a; } else { input.type = "range"; input.min = a; input.max = b; input.value = c; input.step = step; }
    values[key] = input.value;
    input.addEventListener("change", () => { values[key] = input.value; state.session = null; connect(state); });
    wrap.append(label, input);
    controls.append(wrap);
  }
  const state = { l, card, canvas: card.querySelector("canvas"), stats: card.querySelector(".stats"), values, source: null, frames: 0, session: null };
  if (l.session) {
    const buttons = document.createElement("div");
    buttons.innerHTML = `<button data-act="start">Start a page load</button> <button data-act="progress" disabled>Resource loaded</button> <button data-act="finish" disabled>Finish</button>`;
    buttons.addEventListener("click", (e) => session(state, e.target.dataset.act));
    controls.append(buttons);
    state.buttons = buttons;
  }
  document.getElementById("cards").append(card);
  cards.set(l.name, state);
}

function streamURL(s) {
  const fps = fpsInput.value;
  const motion = reducedBox.checked ? "reduced" : "normal";
  if (s.session) return `/sessions/${s.session.id}/frames?stream=sse&fps=${fps}`;
  const p = new URLSearchParams({ stream: "sse", fps, motion });
  for (const [k, v] of Object.entries(s.values)) p.set(k, v);
  return `/loaders/${s.l.name}/frames?${p}`;
}

function connect(s) {
  if (s.source) s.source.close();
  s.frames = 0;
  s.card.dataset.frames = "0";
  const source = new EventSource(streamURL(s));
  s.source = source;
  const fps = fpsInput.value;
  source.addEventListener("frame", (e) => {
    const frame = JSON.parse(e.data);
    draw(s, frame);
    s.frames += 1;
    s.card.dataset.frames = String(s.frames);
    s.stats.textContent = `frame ${e.lastEventId}  t=${frame.t.toFixed(3)} s  ${frame.elements.length} elements  at ${fps} fps${frame.done ? "  done" : ""}`;
    if (frameLimit && s.frames >= frameLimit) {
      source.close();
      s.card.dataset.nonblank = String(nonBlank(s));
    }
  });
  source.addEventListener("end", (e) => { source.close(); s.stats.textContent += "  (ended: " + JSON.parse(e.data).reason + ")"; if (s.buttons) reset(s); });
}

function draw(s, frame) {
  const margin = 12, k = s.l.scale, ratio = window.devicePixelRatio || 1;
  const w = (frame.width + 2 * margin) * k, h = (frame.height + 2 * margin) * k;
  const c = s.canvas;
  if (c.width !== Math.round(w * ratio)) { c.width = Math.round(w * ratio); c.height = Math.round(h * ratio); c.style.width = w + "px"; c.style.height = h + "px"; }
  const ctx = c.getContext("2d");
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.globalAlpha = 1;
  ctx.fillStyle = s.l.bg;
  ctx.fillRect(0, 0, w, h);
  for (const el of frame.elements) {
    ctx.globalAlpha = el.opacity;
    ctx.fillStyle = el.color;
    ctx.beginPath();
    ctx.arc((el.x + margin) * k, (el.y + margin) * k, Math.max(0, el.diameter * el.scale / 2 * k), 0, 2 * Math.PI);
    ctx.fill();
  }
}

function nonBlank(s) {
  const c = s.canvas, ctx = c.getContext("2d");
  if (!c.width) return false;
  const data = ctx.getImageData(0, 0, c.width, c.height).data;
  const bg = s.l.bg === "#000" ? 0 : 255;
  for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i] - bg) > 8 || Math.abs(data[i + 1] - bg) > 8 || Math.abs(data[i + 2] - bg) > 8) return true;
  return false;
}

async function session(s, act) {
  const b = (name) => s.buttons.querySelector(`[data-act=${name}]`);
  if (act === "start") {
    const params = { motion: reducedBox.checked ? "reduced" : "normal", color: s.values.color };
    const r = await fetch("/sessions", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ loader: "web", params }) });
    if (!r.ok) { s.stats.textContent = "could not start: " + r.status; return; }
    s.session = await r.json();
    b("start").disabled = true; b("progress").disabled = false; b("finish").disabled = false;
    connect(s);
  } else if (s.session) {
    const r = await fetch(`/sessions/${s.session.id}/events`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: "Bearer " + s.session.token }, body: JSON.stringify({ type: act }) });
    if (act === "finish" && r.ok) { b("progress").disabled = true; b("finish").disabled = true; }
  }
}

function reset(s) {
  s.session = null;
  const b = (name) => s.buttons.querySelector(`[data-act=${name}]`);
  b("start").disabled = false; b("progress").disabled = true; b("finish").disabled = true;
}

function restartAll() { for (const s of cards.values()) { if (!s.session) connect(s); } }
fpsInput.addEventListener("input", () => { fpsValue.textContent = fpsInput.value; });
fpsInput.addEventListener("change", restartAll);
reducedBox.addEventListener("change", restartAll);
reducedQuery.addEventListener("change", (e) => { reducedBox.checked = e.matches; restartAll(); });
restartAll();
</script>
</body>
</html>
"""#
}
