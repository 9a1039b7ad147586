import HTTPServer
import LoaderEngine

/// `GET /`: every loader live on `<loader-frames>` elements (one `/streams`
/// connection on the shared clock for all of them), with controls, a
/// web-session panel, reduced motion, "Use it" snippets that follow each
/// card's controls, a definition editor and embeddable SVGs.
///
/// Test hooks: each card carries `data-frames` (frames drawn) and, once
/// `?frames=N` frames have been drawn and its player paused, `data-nonblank`
/// (whether any of those frames showed something). `?view=embed` shows only
/// the animated SVGs in `<img>` tags.
enum DemoPage {
    static func response(_ request: HTTPRequest) -> HTTPResponse {
        HTTPResponse(status: .ok, headers: [
            "Content-Type": "text/html; charset=utf-8",
            "Cache-Control": "no-cache",
            "Content-Security-Policy": "default-src 'self'; style-src 'unsafe-inline'; script-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'",
        ], body: page)
    }

    static let page: [UInt8] = Array(html.utf8)

    /// `[{"file": "animation.svg", "title": "Animated SVG", "loop": true}, …]`
    static var exportList: String {
        var w = JSONWriter(capacity: 512)
        w.beginArray()
        for export in LoaderService.exports {
            w.beginObject()
            w.field("file", export.file)
            w.field("title", export.title)
            w.field("loop", export.source == .loop)
            w.endObject()
        }
        w.endArray()
        return String(decoding: w.bytes, as: UTF8.self)
    }

    static let html = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>loaderd: loading animations, frame by frame</title>
<link rel="icon" href="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAYAAABzenr0AAAArklEQVR42u2VsQ2EMAxFU1yBTrouIyBlAgZIR8EmLJABWII1WBBcfEu5ECV0pvjFa/BHfrITcN/tdJY4ClCAAhSgQOVhFBKIjZeDMIPQyHlhBL4l8BMO4Sw4UNPcIKzCXrCiprmPMAlLwYTaTaDWPJfQXK15LqG5WvNc4k8gNporEaPeOwSMeungc4H0QCBh3z2BGfvuCYyvEjBfgfkhfMU1NP8Q8V9AAQpQgAImXJ71rJ8guKC/AAAAAElFTkSuQmCC">
<style>
  :root { color-scheme: light dark; --fg: #1d1d1f; --muted: #6e6e73; --card: #ffffff; --bg: #f2f2f7; --accent: #0a84ff; --line: rgba(128,128,128,.25); --pad: clamp(14px, 4vw, 32px); }
  @media (prefers-color-scheme: dark) { :root { --fg: #f5f5f7; --muted: #a1a1a6; --card: #1c1c1e; --bg: #000; } }
  * { box-sizing: border-box; }
  html { overflow-x: hidden; }
  body { margin: 0; font: 15px/1.45 -apple-system, system-ui, "Segoe UI", Roboto, sans-serif; background: var(--bg); color: var(--fg); }
  header { padding: 28px var(--pad) 8px; }
  h1 { margin: 0 0 4px; font-size: 26px; }
  header p { margin: 0; color: var(--muted); max-width: 760px; }
  .bar { display: flex; gap: 18px; align-items: center; padding: 12px var(--pad); flex-wrap: wrap; }
  main { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(290px, 100%), 1fr)); gap: 20px; padding: 12px var(--pad) 32px; }
  .card { background: var(--card); border-radius: 14px; padding: 18px; box-shadow: 0 1px 3px rgba(0,0,0,.08); min-width: 0; display: flex; flex-direction: column; }
  .card h2 { margin: 0 0 2px; font-size: 18px; }
  .card .what { color: var(--muted); font-size: 13px; min-height: 36px; }
  .card .origin { color: var(--muted); font: 11px ui-monospace, Menlo, monospace; margin-bottom: 4px; }
  .stage { display: flex; align-items: center; justify-content: center; margin: 12px 0; border-radius: 10px; min-height: 150px; padding: 16px; overflow: hidden; }
  .stage loader-frames { max-width: 100%; }
  label { display: inline-flex; gap: 6px; align-items: center; margin: 4px 12px 4px 0; font-size: 13px; }
  input[type=range] { width: 110px; }
  .stats { font-size: 12px; color: var(--muted); min-height: 18px; }
  button { font: inherit; font-size: 13px; border: 0; border-radius: 8px; padding: 6px 12px; background: var(--accent); color: #fff; cursor: pointer; }
  button:disabled { opacity: .4; cursor: default; }
  .embed { display: flex; gap: 24px; align-items: center; padding: 12px var(--pad) 32px; flex-wrap: wrap; }
  .embed img { border-radius: 8px; max-width: 100%; height: auto; }
  code { font: 12px ui-monospace, Menlo, monospace; }
  .editor { padding: 0 var(--pad) 32px; }
  .editor h2 { font-size: 20px; margin: 8px 0 2px; }
  .editor p { margin: 0 0 10px; color: var(--muted); }
  .edit { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(300px, 100%), 1fr)); gap: 20px; }
  .edit .tools { display: flex; gap: 8px; margin-top: 8px; }
  textarea { width: 100%; min-height: 420px; font: 12px/1.4 ui-monospace, Menlo, monospace; border-radius: 10px; padding: 12px; background: var(--card); color: var(--fg); border: 1px solid var(--line); }
  textarea.bad { border-color: #ff453a; }
  .error { color: #ff453a; font: 12px ui-monospace, Menlo, monospace; white-space: pre-wrap; }
  details.use { margin-top: auto; padding-top: 10px; font-size: 13px; }
  details.use summary { cursor: pointer; color: var(--accent); }
  details.use .way { margin: 10px 0; }
  details.use .way header { display: flex; align-items: baseline; gap: 8px; padding: 0; }
  details.use .way header strong { flex: 1; }
  details.use pre { margin: 4px 0; padding: 8px; border-radius: 8px; background: var(--bg); font: 11px/1.4 ui-monospace, Menlo, monospace; white-space: pre-wrap; word-break: break-all; max-height: 180px; overflow: auto; }
  details.use button { padding: 3px 8px; font-size: 12px; }
  #editor-stage svg { display: block; width: 100%; max-width: 360px; height: auto; margin: 0 auto; overflow: visible; }
</style>
</head>
<body>
<header>
  <h1>loaderd</h1>
  <p>Loading animations computed frame by frame with Core Animation's timing model and streamed live to this page. Every shape below is drawn by <code>&lt;loader-frames&gt;</code> from a JSON frame the server sent, all of them over one connection, on one clock shared by every viewer.</p>
</header>
<div class="bar">
  <label><input type="checkbox" id="reduced"> Reduced motion</label>
  <label>fps <input type="range" id="fps" min="1" max="60" value="30"> <span id="fpsValue">30</span></label>
</div>
<main id="cards"></main>
<section class="editor" id="editor">
  <h2>Write a loader</h2>
  <p>A definition in Core Animation's terms: layers, replicators and animations (docs/LOADERS.md). It plays as you type: ten seconds from <code>POST /loaders/preview</code>, in a loop; nothing is installed. Download it and drop the file into the server's loadersDir to keep it.</p>
  <div class="edit">
    <div>
      <textarea id="definition" spellcheck="false" aria-label="Loader definition (JSON)"></textarea>
      <div class="tools"><button type="button" id="copy-definition">Copy</button> <button type="button" id="download-definition">Download</button> <span class="stats" id="editor-note"></span></div>
    </div>
    <section class="card" data-loader="editor" data-frames="0"><div class="stage" id="editor-stage"><svg role="img" aria-label="Preview of the definition"></svg></div><div class="stats">waiting…</div><div class="error" id="editor-error" role="alert"></div></section>
  </div>
</section>
<section class="embed" id="embed">
  <strong>Embed without JavaScript:</strong>
  <img alt="typing loader" src="/loaders/typing/animation.svg" width="74" height="24">
  <img alt="switch loader" src="/loaders/switch/animation.svg" width="92" height="92">
  <img alt="web loader" src="/loaders/web/animation.svg?width=160&amp;height=240" width="122" height="180">
  <code>&lt;img src="/loaders/typing/animation.svg"&gt;</code>
</section>
<script type="module" src="/client.js?v=\#(LoaderService.version)"></script>
<script type="module">
import { FramePainter } from "/client.js?v=\#(LoaderService.version)";
const version = "\#(LoaderService.version)";
// Every file the service makes of a loader (its export list), for "Use it".
const exportFiles = \#(exportList);
const query = new URLSearchParams(location.search);
const frameLimit = Number(query.get("frames") || 0);   // tests: pause each player after N frames
if (query.get("view") === "embed") {
  for (const id of ["cards", "editor"]) document.getElementById(id).remove();
  document.querySelector("body > header").remove();
  document.querySelector(".bar").remove();
}
const reducedQuery = matchMedia("(prefers-reduced-motion: reduce)");
const reducedBox = document.getElementById("reduced");
reducedBox.checked = query.has("motion") ? query.get("motion") === "reduced" : reducedQuery.matches;
const fpsInput = document.getElementById("fps");
const fpsValue = document.getElementById("fpsValue");

// Each card is a <loader-frames>: on the shared clock they all ride one
// /streams connection, however many cards the catalogue has. The built-in
// three have controls of their own; web's card follows a live session while
// one runs and plays a sample page load, on the shared clock, when none does.
const builtIn = {
  typing: { title: "Typing", size: 210, controls: [["count", "dots", 1, 8, 3, 1], ["color", "colour", "#ffffff"]] },
  switch: { title: "Switch", size: 160, controls: [["duration", "period s", 0.4, 3, 1.2, 0.1], ["color", "colour", "#ffffff"]] },
  web: { title: "Web page load", size: 240, controls: [["color", "colour", "#0000ff"]], session: true,
         what: "A pulsing indicator, a drop per loaded resource. Start a session and report progress; until then, a sample page load plays in a loop." },
};
const cards = new Map();

// "activity-indicator" → "Activity indicator": a card's title, not its slug.
function humanTitle(name) { const words = name.replace(/-/g, " "); return words.charAt(0).toUpperCase() + words.slice(1); }

// A card's loader query: its controls and the page's motion. A colour left
// at the loader's default is not sent: <loader-frames> then draws it in the
// page's colour (the stage's, on a stage of the loader's own background).
function paramsOf(s) {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(s.values)) {
    if (k === "color" && s.l.color && v.toUpperCase() === s.l.color) continue;
    p.set(k, v);
  }
  p.set("motion", reducedBox.checked ? "reduced" : "normal");
  return p;
}

// This page's background as #rrggbb (rgb() as computed; black if transparent).
function hexOf(css) {
  const c = css.match(/[\d.]+/g) || [0, 0, 0];
  return "#" + c.slice(0, 3).map((v) => Math.round(Number(v)).toString(16).padStart(2, "0")).join("");
}
function pageBackground() { return hexOf(getComputedStyle(document.body).backgroundColor); }
function pageColor() { return hexOf(getComputedStyle(document.body).color); }

function addCard(l) {
  const card = document.createElement("section");
  card.className = "card";
  card.dataset.loader = l.name;
  card.dataset.frames = "0";
  card.innerHTML = `<h2></h2><div class="origin"></div><div class="what"></div><div class="stage"><loader-frames></loader-frames></div><div class="controls"></div><div class="stats" aria-live="off"></div>`;
  card.querySelector("h2").textContent = l.title;
  card.querySelector(".what").textContent = l.what;
  card.querySelector(".origin").textContent = l.family ? `${l.family} · ${l.original}` : "";
  const stage = card.querySelector(".stage");
  if (l.bg) { stage.style.background = l.bg; stage.style.color = l.color; } else stage.style.outline = "1px solid var(--line)";
  const player = card.querySelector("loader-frames");
  player.setAttribute("label", l.title);
  // The canvas's proportions from the start: the page does not shift when the first frame comes.
  player.style.width = l.width + "px";
  player.style.aspectRatio = `${l.canvas.width} / ${l.canvas.height}`;
  const values = {};
  const s = { l, card, player, stats: card.querySelector(".stats"), values, frames: 0, inked: false, session: null };
  for (const [key, label, a, b, c, step] of l.controls) {
    const wrap = document.createElement("label");
    const input = document.createElement("input");
    if (key === "color") { input.type = "color"; input.value = a; } else { input.type = "range"; input.min = a; input.max = b; input.value = c; input.step = step; }
    values[key] = input.value;
    input.addEventListener("change", () => { values[key] = input.value; if (s.session) endSession(s); play(s); });
    wrap.append(label, input);
    card.querySelector(".controls").append(wrap);
  }
  if (l.session) {
    const buttons = document.createElement("div");
    buttons.innerHTML = `<button data-act="start">Start a page load</button> <button data-act="progress" disabled>Resource loaded</button> <button data-act="finish" disabled>Finish</button>`;
    buttons.addEventListener("click", (e) => { if (e.target.dataset.act) session(s, e.target.dataset.act); });
    card.querySelector(".controls").append(buttons);
    s.buttons = buttons;
  }
  player.addEventListener("frame", (e) => shown(s, e.detail));
  player.addEventListener("end", (e) => { s.stats.textContent = `session ${e.detail.reason}`; endSession(s); play(s); });
  player.addEventListener("error", (e) => { s.stats.textContent = e.detail.message || "refused"; });
  card.append(usePanel(s));
  document.getElementById("cards").append(card);
  cards.set(l.name, s);
  play(s);
  return s;
}

// The card's player shows its loader on the shared clock, with its controls.
function play(s) {
  const p = s.player;
  p.setAttribute("fps", fpsInput.value);
  if (s.session) {
    p.removeAttribute("loader"); p.removeAttribute("params");
    p.setAttribute("session", s.session.id);
  } else {
    p.removeAttribute("session");
    p.setAttribute("loader", s.l.name);
    p.setAttribute("params", paramsOf(s).toString());
  }
  p.removeAttribute("paused");
  s.frames = 0; s.inked = false;
  s.card.dataset.frames = "0";
  delete s.card.dataset.nonblank;
  s.use.refresh();
}

// A frame was drawn: count it, say where the loop is, stop after ?frames=N.
function shown(s, frame) {
  s.frames += 1;
  s.card.dataset.frames = String(s.frames);
  const where = s.session ? "live session" : "shared clock";
  s.stats.textContent = frame.done ? `${where} · page loaded` : `${where} · t ${frame.t.toFixed(2)} s · ${fpsInput.value} fps`;
  // Tests: whether any frame so far showed something (a loop may be blank
  // for a moment, as web's is between page loads).
  s.inked = s.inked || frame.elements.some((e) => e.opacity > 0.01 && e.scale > 0);
  if (frameLimit && s.frames >= frameLimit) {
    s.player.setAttribute("paused", "");
    s.card.dataset.nonblank = String(s.inked);
  }
}

// "Use it": this card as it is now (its controls, the page's motion), in
// every form the service gives, each ready to copy.
function usePanel(s) {
  const panel = document.createElement("details");
  panel.className = "use";
  panel.innerHTML = `<summary>Use it</summary>`;
  const ways = [];
  const way = (title, text) => {
    const div = document.createElement("div");
    div.className = "way";
    div.innerHTML = `<header><strong></strong><button type="button">Copy</button></header><pre></pre>`;
    div.querySelector("strong").textContent = title;
    const pre = div.querySelector("pre");
    const button = div.querySelector("button");
    button.addEventListener("click", async () => {
      try { await navigator.clipboard.writeText(pre.textContent); button.textContent = "Copied"; }
      catch { getSelection().selectAllChildren(pre); button.textContent = "Selected"; }
      setTimeout(() => { button.textContent = "Copy"; }, 1500);
    });
    panel.append(div);
    ways.push({ pre, text });
  };
  const origin = location.origin, name = s.l.name;
  const q = () => { const p = paramsOf(s); if (p.get("motion") === "normal") p.delete("motion"); return p.toString(); };
  const url = (file, extra = "") => { const p = [q(), extra].filter(Boolean).join("&"); return `${origin}/loaders/${name}/${file}${p ? "?" + p : ""}`; };
  const size = () => `width: ${s.l.canvas.width}px; height: ${s.l.canvas.height}px`;
  // A picture has no page colour to follow: unless a colour is chosen (or
  // the loader has a background of its own) it is drawn in this page's text
  // colour, and a GIF's edges are blended against this page's background
  // (its matte), as they would be on a page of these colours.
  const ink = () => paramsOf(s).has("color") || s.l.background ? "" : "color=" + encodeURIComponent(pageColor());
  way("An image: animated SVG, no JavaScript, in this page's colours", () => `<img src="${url("animation.svg", ink())}" alt="Loading" width="${s.l.canvas.width}" height="${s.l.canvas.height}">`);
  way("A picture: animated GIF, in this page's colour, edges blended for its background", () =>
    `<img src="${url("animation.gif", [ink(), "matte=" + encodeURIComponent(pageBackground())].filter(Boolean).join("&"))}" alt="Loading" width="${s.l.canvas.width}" height="${s.l.canvas.height}">`);
  way("<loader-frames>: live, on the shared clock, transparent, in the page's colour", () =>
    `<script type="module" src="${origin}/client.js?v=${version}"></` + `script>\n<loader-frames loader="${name}"${q() ? ` params="${q().replace(/&/g, "&amp;")}"` : ""}></loader-frames>`);
  way("CSS and HTML: no JavaScript, honours prefers-reduced-motion", null);
  const css = ways[ways.length - 1];
  way("Lottie (lottie-web; the same file plays in lottie-ios and lottie-android)", () =>
    `<div id="loader" style="${size()}"></div>\n<script type="module">\n  import lottie from "lottie-web";\n  lottie.loadAnimation({\n    container: document.getElementById("loader"), renderer: "svg", loop: true, autoplay: true,\n    path: "${url("animation.json")}",\n  });\n</` + `script>`);
  way("Files: every export of this loader as it is now", () =>
    exportFiles.map((e) => `${e.title}: ${url(e.file)}`).join("\n"));
  way("EventSource: the frames themselves", () =>
    `<svg id="loader" style="${size()}"></svg>\n<script type="module">\n  import { FramePainter } from "${origin}/client.js?v=${version}";\n  const painter = new FramePainter(document.getElementById("loader"));\n  const source = new EventSource("${url("frames", "stream=sse&clock=shared")}");\n  // Each frame: { t, width, height, done, elements: [{ id, shape, x, y, … }] }\n  source.addEventListener("frame", (e) => { const frame = JSON.parse(e.data); painter.paint(frame, frame.background || null); });\n</` + `script>`);
  let html = null;
  const refresh = async () => {
    for (const w of ways) if (w.text) w.pre.textContent = w.text();
    if (!panel.open) return;
    const mine = html = url("animation.html");
    css.pre.textContent = "…";
    const r = await fetch(mine);
    if (mine === html) css.pre.textContent = r.ok ? await r.text() : "could not load: " + r.status;
  };
  panel.addEventListener("toggle", refresh);
  s.use = { refresh };
  return panel;
}

async function session(s, act) {
  const b = (name) => s.buttons.querySelector(`[data-act=${name}]`);
  if (act === "start") {
    const params = { motion: reducedBox.checked ? "reduced" : "normal", color: s.values.color };
    const r = await fetch("/sessions", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ loader: "web", params }) });
    if (!r.ok) { s.stats.textContent = "could not start: " + r.status; return; }
    s.session = await r.json();
    b("start").disabled = true; b("progress").disabled = false; b("finish").disabled = false;
    play(s);
  } else if (s.session) {
    const r = await fetch(`/sessions/${s.session.id}/events`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: "Bearer " + s.session.token }, body: JSON.stringify({ type: act }) });
    if (act === "finish" && r.ok) { b("progress").disabled = true; b("finish").disabled = true; }
  }
}

function endSession(s) {
  s.session = null;
  const b = (name) => s.buttons.querySelector(`[data-act=${name}]`);
  b("start").disabled = false; b("progress").disabled = true; b("finish").disabled = true;
}

function restartAll() { for (const s of cards.values()) play(s); editor.restart(); }
fpsInput.addEventListener("input", () => { fpsValue.textContent = fpsInput.value; });
fpsInput.addEventListener("change", restartAll);
reducedBox.addEventListener("change", restartAll);
reducedQuery.addEventListener("change", (e) => { reducedBox.checked = e.matches; restartAll(); });

// The editor: the definition's frames from POST /loaders/preview, drawn by
// the same painter as <loader-frames>; a refusal shows its message and JSON path.
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
  const stats = card.querySelector(".stats");
  const painter = new FramePainter(card.querySelector("svg"));
  const note = document.getElementById("editor-note");
  let controller = null, timer = 0, player = 0, frames = 0, inked = false;
  const fileName = () => { try { return (JSON.parse(area.value).name || "loader") + ".json"; } catch { return "loader.json"; } };
  document.getElementById("copy-definition").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(area.value); note.textContent = "copied"; } catch { area.select(); note.textContent = "selected: copy it with your keyboard"; }
  });
  document.getElementById("download-definition").addEventListener("click", () => {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([area.value], { type: "application/json" }));
    link.download = fileName();
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    note.textContent = `downloaded ${link.download}`;
  });
  // Ten seconds of the definition as one batch, played in a loop: the page
  // keeps its one stream connection while the editor runs.
  async function restart() {
    if (controller) controller.abort();
    clearInterval(player);
    const mine = controller = new AbortController();
    frames = 0; inked = false;
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
      stats.textContent = "not a loader yet";
      return;
    }
    errorBox.textContent = "";
    delete card.dataset.error;
    area.classList.remove("bad");
    let background = null;
    try { background = JSON.parse(area.value).background || null; } catch {}
    const started = performance.now();
    const tick = () => {
      const k = Math.floor((performance.now() - started) / 1000 * fps);
      const frame = batch.frames[k % batch.frames.length];
      painter.paint(frame, background);
      frames += 1;
      card.dataset.frames = String(frames);
      stats.textContent = `preview · t ${frame.t.toFixed(2)} s · ${frame.elements.length} elements`;
      inked = inked || frame.elements.some((e) => e.opacity > 0.01 && e.scale > 0);
      if (frameLimit && frames >= frameLimit) { clearInterval(player); card.dataset.nonblank = String(inked); }
    };
    player = setInterval(tick, 1000 / fps);
    tick();
  }
  area.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(restart, 400); });
  return { restart };
})();

// The catalogue: every loader the server has, in its order.
const catalog = await (await fetch("/loaders")).json();
for (const entry of catalog.loaders) {
  if (!document.getElementById("cards")) break;
  const known = builtIn[entry.name];
  const colour = entry.parameters.find((p) => p.name === "color");
  const longest = Math.max(entry.canvas.width, entry.canvas.height);
  const display = known ? known.size : 120;
  addCard({
    name: entry.name, title: known ? known.title : humanTitle(entry.name), what: known && known.what ? known.what : entry.description,
    bg: entry.background || null, color: colour ? colour.default.toUpperCase() : null, canvas: entry.canvas, family: entry.family, original: entry.original,
    width: Math.round(display * entry.canvas.width / longest),
    controls: known ? known.controls : colour ? [["color", "colour", colour.default.toLowerCase()]] : [],
    session: known && known.session,
  });
}
editor.restart();
</script>
</body>
</html>
"""#
}
