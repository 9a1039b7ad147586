import HTTPServer

/// `GET /`: every loader live through one multiplexed EventSource on the
/// shared clock (`/streams`), drawn on canvases, with controls, a web-session
/// panel, reduced motion, a definition editor and embeddable SVGs.
///
/// Test hooks: each card carries `data-frames` (frames received) and, once
/// `?frames=N` frames have arrived and its stream is closed, `data-nonblank`
/// (whether any of those frames drew anything but the background). `?view=embed`
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
<link rel="icon" href="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAYAAABzenr0AAAArklEQVR42u2VsQ2EMAxFU1yBTrouIyBlAgZIR8EmLJABWII1WBBcfEu5ECV0pvjFa/BHfrITcN/tdJY4ClCAAhSgQOVhFBKIjZeDMIPQyHlhBL4l8BMO4Sw4UNPcIKzCXrCiprmPMAlLwYTaTaDWPJfQXK15LqG5WvNc4k8gNporEaPeOwSMeungc4H0QCBh3z2BGfvuCYyvEjBfgfkhfMU1NP8Q8V9AAQpQgAImXJ71rJ8guKC/AAAAAElFTkSuQmCC">
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
  .editor { padding: 0 32px 32px; }
  .editor h2 { font-size: 20px; margin: 8px 0 2px; }
  .editor p { margin: 0 0 10px; color: var(--muted); }
  .edit { display: grid; grid-template-columns: minmax(300px, 2fr) minmax(260px, 1fr); gap: 20px; }
  textarea { width: 100%; min-height: 420px; font: 12px/1.4 ui-monospace, Menlo, monospace; border-radius: 10px; padding: 12px; background: var(--card); color: var(--fg); border: 1px solid rgba(128,128,128,.3); }
  textarea.bad { border-color: #ff453a; }
  .error { color: #ff453a; font: 12px ui-monospace, Menlo, monospace; white-space: pre-wrap; }
  details.use { margin-top: 10px; font-size: 13px; }
  details.use summary { cursor: pointer; color: var(--accent); }
  details.use .way { margin: 8px 0; }
  details.use pre, details.use textarea { display: block; width: 100%; margin: 4px 0; padding: 8px; border-radius: 8px; background: var(--bg); color: var(--fg); font: 11px/1.4 ui-monospace, Menlo, monospace; white-space: pre-wrap; word-break: break-all; border: 0; }
  details.use textarea { min-height: 90px; }
  details.use button { padding: 3px 8px; font-size: 12px; }
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
<section class="editor" id="editor">
  <h2>Write a loader</h2>
  <p>A definition in Core Animation's terms: layers, replicators and animations (docs/LOADERS.md). It plays as you type: ten seconds from <code>POST /loaders/preview</code>, in a loop; nothing is installed. Drop the file into the server's loadersDir to keep it.</p>
  <div class="edit">
    <textarea id="definition" spellcheck="false" aria-label="Loader definition (JSON)"></textarea>
    <section class="card" data-loader="editor" data-frames="0"><canvas></canvas><div class="stats">waiting…</div><div class="error" id="editor-error" role="alert"></div></section>
  </div>
</section>
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
  document.getElementById("editor").remove();
}
const reducedQuery = matchMedia("(prefers-reduced-motion: reduce)");
const reducedBox = document.getElementById("reduced");
reducedBox.checked = query.has("motion") ? query.get("motion") === "reduced" : reducedQuery.matches;
const fpsInput = document.getElementById("fps");
const fpsValue = document.getElementById("fpsValue");

// Every loader in the catalogue streams live on one multiplexed EventSource
// (GET /streams, up to 32 loaders per connection) on the shared clock, so the
// page holds one stream connection however many loaders it shows (browsers
// allow six per origin over HTTP/1.1), and every viewer of a loader sees the
// same frame at the same moment. The built-in three have their own controls;
// web's card follows a session's own stream while one runs.
const builtIn = {
  typing: { title: "Typing", scale: 4, controls: [["count", "dots", 1, 8, 3, 1], ["color", "colour", "#ffffff"]] },
  switch: { title: "Switch", scale: 2.5, controls: [["loader.duration", "period s", 0.4, 3, 1.2, 0.1], ["color", "colour", "#ffffff"]] },
  web: { title: "Web page load", scale: 0.6, controls: [["color", "colour", "#0000ff"]], session: true,
         what: "A pulsing indicator, a drop per loaded resource. Start a session and report progress." },
};
const cards = new Map();

// "activity-indicator" → "Activity indicator": a card's title, not its slug.
function humanTitle(name) { const words = name.replace(/-/g, " "); return words.charAt(0).toUpperCase() + words.slice(1); }

function addCard(l) {
  const card = document.createElement("section");
  card.className = "card";
  card.dataset.loader = l.name;
  card.dataset.frames = "0";
  card.innerHTML = `<h2></h2><div class="what"></div><canvas></canvas><div class="controls"></div><div class="stats">waiting…</div>`;
  card.querySelector("h2").textContent = l.title;
  card.querySelector(".what").textContent = l.what;
  const controls = card.querySelector(".controls");
  const values = {};
  const state = { l, card, canvas: card.querySelector("canvas"), stats: card.querySelector(".stats"), values, source: null, frames: 0, session: null };
  for (const [key, label, a, b, c, step] of l.controls) {
    const wrap = document.createElement("label");
    const input = document.createElement("input");
    if (key === "color") { input.type = "color"; input.value = a; } else { input.type = "range"; input.min = a; input.max = b; input.value = c; input.step = step; }
    values[key] = input.value;
    input.addEventListener("change", () => { values[key] = input.value; if (state.session) { state.session = null; reset(state); } connectAll(); });
    wrap.append(label, input);
    controls.append(wrap);
  }
  if (l.session) {
    const buttons = document.createElement("div");
    buttons.innerHTML = `<button data-act="start">Start a page load</button> <button data-act="progress" disabled>Resource loaded</button> <button data-act="finish" disabled>Finish</button>`;
    buttons.addEventListener("click", (e) => session(state, e.target.dataset.act));
    controls.append(buttons);
    state.buttons = buttons;
  }
  card.append(usePanel(l));
  document.getElementById("cards").append(card);
  cards.set(l.name, state);
  return state;
}

// "Use it": the ways to put this loader in a page or an app, ready to copy.
function usePanel(l) {
  const url = (file) => `${location.origin}/loaders/${l.name}/${file}`;
  const panel = document.createElement("details");
  panel.className = "use";
  panel.innerHTML = `<summary>Use it</summary>`;
  const way = (title, text, links = "") => {
    const div = document.createElement("div");
    div.className = "way";
    div.innerHTML = `<strong></strong> ${links} <button type="button">Copy</button>`;
    div.querySelector("strong").textContent = title;
    const box = document.createElement(text === null ? "textarea" : "pre");
    if (text !== null) box.textContent = text; else { box.readOnly = true; box.value = "…"; }
    div.append(box);
    div.querySelector("button").addEventListener("click", () => navigator.clipboard.writeText(box.value ?? box.textContent));
    panel.append(div);
    return box;
  };
  way("An image (animated SVG, no JavaScript)", `<img src="${url("animation.svg")}" alt="Loading">`);
  const css = way("CSS and HTML (no JavaScript; honours prefers-reduced-motion)", null,
                  `<a href="${url("animation.html")}">animation.html</a> · <a href="${url("animation.css")}">animation.css</a>`);
  way("Lottie (lottie-web; the same file plays in lottie-ios, lottie-android)",
      `import lottie from "lottie-web";\n\nlottie.loadAnimation({ container: document.getElementById("loader"), renderer: "svg",\n  loop: true, autoplay: true, path: "${url("animation.json")}" });`,
      `<a href="${url("animation.json")}">animation.json</a>`);
  way("Live frames (EventSource)",
      `const source = new EventSource("${url("frames")}?stream=sse&fps=30");\nsource.addEventListener("frame", (e) => {\n  const frame = JSON.parse(e.data);  // { t, width, height, elements: [{ id, shape, x, y, … }] }\n  draw(frame);\n});`);
  panel.addEventListener("toggle", async () => {
    if (!panel.open || css.dataset.loaded) return;
    css.dataset.loaded = "1";
    const r = await fetch(url("animation.html"));
    css.value = r.ok ? await r.text() : "could not load: " + r.status;
  });
  return panel;
}

// One frame arrived: draw it, count it, stop after ?frames=N.
function shown(s, frame, id, stop) {
  draw(s, frame);
  s.frames += 1;
  s.card.dataset.frames = String(s.frames);
  s.stats.textContent = `frame ${id}  t=${frame.t.toFixed(3)} s  ${frame.elements.length} elements  at ${fpsInput.value} fps${frame.done ? "  done" : ""}`;
  if (!frameLimit) return;
  // Tests: whether any frame so far drew something (a loop may be blank for
  // a moment, as web's is between page loads), and stop after N frames.
  s.inked = s.inked || nonBlank(s);
  if (s.frames >= frameLimit) {
    stop();
    s.card.dataset.nonblank = String(s.inked);
  }
}

// Every card on multiplexed streams of at most 32 loaders each (one for
// the catalogue as it ships): frame events say which loader by index.
let streams = [];
function connectAll() {
  for (const source of streams) source.close();
  streams = [];
  const all = [...cards.values()];
  const motion = reducedBox.checked ? "reduced" : "normal";
  for (let first = 0; first < all.length; first += 32) {
    const group = all.slice(first, first + 32);
    const p = new URLSearchParams({ clock: "shared", fps: fpsInput.value });
    for (const s of group) {
      s.stopped = false;
      if (!s.session) { s.frames = 0; s.inked = false; s.card.dataset.frames = "0"; }
      const own = new URLSearchParams({ motion });
      for (const [k, v] of Object.entries(s.values)) own.set(k.replace(/^loader\./, ""), v);
      p.append("loader", `${s.l.name}?${own}`);
    }
    const source = new EventSource("/streams?" + p);
    streams.push(source);
    source.addEventListener("frame", (e) => {
      const { index, frame } = JSON.parse(e.data);
      const s = group[index];
      if (s.session || s.stopped) return;
      shown(s, frame, e.lastEventId, () => {
        s.stopped = true;
        if (group.every((g) => g.stopped)) source.close();
      });
    });
    source.addEventListener("end", () => source.close());
  }
}

// A running web session streams on its own (its clock is the session's).
function connectSession(s) {
  if (s.source) s.source.close();
  s.frames = 0;
  s.card.dataset.frames = "0";
  const source = new EventSource(`/sessions/${s.session.id}/frames?stream=sse&fps=${fpsInput.value}`);
  s.source = source;
  source.addEventListener("frame", (e) => shown(s, JSON.parse(e.data), e.lastEventId, () => source.close()));
  source.addEventListener("end", (e) => { source.close(); s.stats.textContent += "  (ended: " + JSON.parse(e.data).reason + ")"; reset(s); });
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
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.translate((el.x + margin) * k, (el.y + margin) * k);
    ctx.rotate(el.rotation || 0);
    ctx.scale(el.scale * k, el.scale * k);
    ctx.beginPath();
    if (el.shape === "rect") {
      ctx.fillStyle = el.color;
      ctx.roundRect(-el.width / 2, -el.height / 2, el.width, el.height, Math.min(el.cornerRadius, el.width / 2, el.height / 2));
      ctx.fill();
    } else if (el.shape === "ring") {
      // From 12 o'clock, clockwise: strokeStart to strokeEnd of the circle.
      if (el.strokeEnd <= el.strokeStart && el.lineCap !== "round") continue;
      ctx.strokeStyle = el.color;
      ctx.lineWidth = el.lineWidth;
      ctx.lineCap = el.lineCap;
      ctx.arc(0, 0, el.diameter / 2, -Math.PI / 2 + 2 * Math.PI * el.strokeStart, -Math.PI / 2 + 2 * Math.PI * Math.max(el.strokeEnd, el.strokeStart + 1e-6));
      ctx.stroke();
    } else {
      ctx.fillStyle = el.color;
      ctx.arc(0, 0, Math.max(0, el.diameter / 2), 0, 2 * Math.PI);
      ctx.fill();
    }
  }
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
}

function nonBlank(s) {
  const c = s.canvas, ctx = c.getContext("2d");
  if (!c.width) return false;
  const data = ctx.getImageData(0, 0, c.width, c.height).data;
  const bg = [1, 3, 5].map((i) => parseInt(s.l.bg.slice(i, i + 2), 16));
  for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i] - bg[0]) > 8 || Math.abs(data[i + 1] - bg[1]) > 8 || Math.abs(data[i + 2] - bg[2]) > 8) return true;
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
    connectSession(s);
  } else if (s.session) {
    const r = await fetch(`/sessions/${s.session.id}/events`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: "Bearer " + s.session.token }, body: JSON.stringify({ type: act }) });
    if (act === "finish" && r.ok) { b("progress").disabled = true; b("finish").disabled = true; }
  }
}

function reset(s) {
  s.session = null;
  if (s.source) { s.source.close(); s.source = null; }
  const b = (name) => s.buttons.querySelector(`[data-act=${name}]`);
  b("start").disabled = false; b("progress").disabled = true; b("finish").disabled = true;
}

function restartAll() { connectAll(); for (const s of cards.values()) { if (s.session) connectSession(s); } editor.restart(); }
fpsInput.addEventListener("input", () => { fpsValue.textContent = fpsInput.value; });
fpsInput.addEventListener("change", restartAll);
reducedBox.addEventListener("change", restartAll);
reducedQuery.addEventListener("change", (e) => { reducedBox.checked = e.matches; restartAll(); });

// The editor: the definition's frames from POST /loaders/preview; a refusal
// shows its message and JSON path.
const sample = {
  format: 1, name: "my-loader", summary: "Three dots that fade, bounce and grow in turn.",
  canvas: { width: 70, height: 20 }, background: "#000000", color: "#FFFFFF",
  layers: [{
    type: "replicator", id: "dots", position: [35, 10], bounds: [70, 20],
    instanceCount: 3, instanceDelay: 0.2, instanceTransform: { translation: [15, 0] },
    sublayers: [{
      type: "circle", id: "dot", position: [20, 7], diameter: 8, backgroundColor: "color", transform: { scale: 1.4 },
      animations: [
        { type: "basic", keyPath: "opacity", fromValue: 1, byValue: -0.8, duration: 1, repeatCount: "infinity" },
        { type: "basic", keyPath: "position.y", fromValue: 7, byValue: 3, duration: 1.2, repeatCount: "infinity" },
        { type: "basic", keyPath: "transform.scale", fromValue: 1, byValue: 0.4, duration: 0.6, repeatCount: "infinity" },
      ],
    }],
  }],
};
const editor = (() => {
  const area = document.getElementById("definition");
  if (!area) return { restart() {} };
  area.value = query.get("edit") || JSON.stringify(sample, null, 2);
  const card = document.querySelector('[data-loader="editor"]');
  const errorBox = document.getElementById("editor-error");
  const state = { l: { name: "editor", scale: 3, bg: "#ffffff" }, card, canvas: card.querySelector("canvas"), stats: card.querySelector(".stats"), frames: 0 };
  let controller = null, timer = 0, player = 0;
  // Ten seconds of the definition as one batch, played in a loop: the page
  // keeps its one stream connection while the editor runs.
  async function restart() {
    if (controller) controller.abort();
    clearInterval(player);
    const mine = controller = new AbortController();
    state.frames = 0;
    card.dataset.frames = "0";
    delete card.dataset.nonblank;
    const fps = Number(fpsInput.value);
    const p = new URLSearchParams({ from: 0, to: 10 - 0.5 / fps, fps, motion: reducedBox.checked ? "reduced" : "normal" });
    let r, batch;
    try {
      r = await fetch("/loaders/preview?" + p, { method: "POST", headers: { "Content-Type": "application/json" }, body: area.value, signal: mine.signal });
      batch = await r.json();
    } catch { return; }
    if (mine !== controller) return;
    if (!r.ok) {
      const e = batch.error;
      errorBox.textContent = e.message;
      card.dataset.error = e.path || "";
      area.classList.add("bad");
      state.stats.textContent = "not a loader yet";
      return;
    }
    errorBox.textContent = "";
    delete card.dataset.error;
    area.classList.remove("bad");
    try { state.l.bg = JSON.parse(area.value).background || "#ffffff"; } catch {}
    const started = performance.now();
    const tick = () => {
      const k = Math.floor((performance.now() - started) / 1000 * fps);
      shown(state, batch.frames[k % batch.frames.length], k, () => clearInterval(player));
    };
    player = setInterval(tick, 1000 / fps);
    tick();
  }
  area.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(restart, 400); });
  return { restart };
})();

// The catalogue: every loader the server has, in its order.
async function start() {
  const catalog = await (await fetch("/loaders")).json();
  for (const entry of catalog.loaders) {
    if (!document.getElementById("cards")) break;
    const known = builtIn[entry.name];
    const colour = entry.parameters.find((p) => p.name === "color");
    const size = Math.max(entry.canvas.width, entry.canvas.height);
    addCard({
      name: entry.name, title: known ? known.title : humanTitle(entry.name), what: known && known.what ? known.what : entry.description,
      bg: entry.background || "#ffffff", scale: known ? known.scale : Math.min(4, 180 / size),
      controls: known ? known.controls : colour ? [["color", "colour", colour.default.toLowerCase()]] : [],
      session: known && known.session,
    });
  }
  restartAll();
}
start();
</script>
</body>
</html>
"""#
}
