import HTTPServer
import LoaderEngine

/// `GET /`: the gallery. Every loader live on `<loader-frames>` elements (one
/// `/streams` connection on the shared clock for all of them) in a grid of
/// fixed stages; search and family chips; the stages' background, the
/// loaders' colour and size applied live; Pause all; one "Use" dialog with
/// a tab per way to use a loader, its snippets following the card's
/// settings; a web-session card; a definition editor; embeddable SVGs.
///
/// Test hooks: each card carries `data-frames` (frames drawn) and, once
/// `?frames=N` frames have been drawn and its player paused, `data-nonblank`
/// (whether any of those frames showed something); the first frame drawn
/// sets `performance.mark("loaderd:first-frame")`. `?view=embed` shows only
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
<title>LoaderFrames: every loader, live</title>
<link rel="icon" href="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAYAAABzenr0AAAArklEQVR42u2VsQ2EMAxFU1yBTrouIyBlAgZIR8EmLJABWII1WBBcfEu5ECV0pvjFa/BHfrITcN/tdJY4ClCAAhSgQOVhFBKIjZeDMIPQyHlhBL4l8BMO4Sw4UNPcIKzCXrCiprmPMAlLwYTaTaDWPJfQXK15LqG5WvNc4k8gNporEaPeOwSMeungc4H0QCBh3z2BGfvuCYyvEjBfgfkhfMU1NP8Q8V9AAQpQgAImXJ71rJ8guKC/AAAAAElFTkSuQmCC">
<style>
  /* Colours: text 4.5:1 and controls 3:1 at least, on the card and on the page, in both schemes. */
  :root { color-scheme: light dark; --fg: #1d1d1f; --muted: #5e5e63; --card: #fff; --bg: #f2f2f7; --accent: #0062cc; --on-accent: #fff;
          --control: #7c7c82; --line: rgba(128,128,128,.3); --error: #c5221f; --pad: clamp(12px, 3vw, 28px); --stage: 120px; }
  @media (prefers-color-scheme: dark) {
    :root { --fg: #f5f5f7; --muted: #a1a1a6; --card: #1c1c1e; --bg: #000; --accent: #4da3ff; --on-accent: #000; --control: #8e8e93; --error: #ff6b61; }
  }
  * { box-sizing: border-box; }
  /* A card filtered out is gone, whatever display its rule gives it. */
  [hidden] { display: none !important; }
  html { overflow-x: hidden; }
  body { margin: 0; font: 15px/1.45 -apple-system, system-ui, "Segoe UI", Roboto, sans-serif; background: var(--bg); color: var(--fg); }
  a { color: var(--accent); }
  .skip { position: absolute; left: 8px; top: -60px; z-index: 10; padding: 8px 14px; border-radius: 8px; background: var(--card); color: var(--fg); }
  .skip:focus { top: 8px; }
  .hidden-text { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; border: 0; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  :focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
  body > header { padding: 14px var(--pad) 4px; }
  h1 { margin: 0; font-size: 22px; }
  body > header p { margin: 2px 0 0; color: var(--muted); font-size: 14px; max-width: 70ch; }
  #toolbar { padding: 8px var(--pad) 0; display: flex; flex-wrap: wrap; gap: 8px 12px; align-items: center; }
  #toolbar .find { display: flex; gap: 8px; flex: 1 1 260px; max-width: 420px; }
  #search { flex: 1; min-width: 0; font: inherit; padding: 6px 10px; border-radius: 8px; border: 1px solid var(--control); background: var(--card); color: var(--fg); }
  #more { display: contents; }
  #more > summary { display: none; }
  .group { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
  .chip, .tool { font: inherit; font-size: 13px; padding: 5px 11px; border-radius: 999px; border: 1px solid var(--control); background: var(--card); color: var(--fg); cursor: pointer; }
  .chip[aria-pressed="true"], .tool[aria-pressed="true"] { background: var(--accent); border-color: var(--accent); color: var(--on-accent); }
  #toolbar label, #size { font-size: 13px; display: inline-flex; gap: 6px; align-items: center; }
  #size { border: 0; margin: 0; padding: 0; }
  #size legend { float: left; margin-right: 6px; padding: 0; }
  #toolbar select { font: inherit; font-size: 13px; padding: 4px 6px; border-radius: 8px; border: 1px solid var(--control); background: var(--card); color: var(--fg); }
  input[type=color] { width: 30px; height: 26px; padding: 1px; border: 1px solid var(--control); border-radius: 6px; background: var(--card); }
  #count { margin: 10px var(--pad) 6px; font-size: 13px; color: var(--muted); }
  main:focus { outline: none; }
  #cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 12px; padding: 0 var(--pad) 28px; }
  .card { background: var(--card); border-radius: 12px; box-shadow: 0 1px 3px rgba(0,0,0,.1); min-width: 0; display: flex; flex-direction: column; overflow: hidden; }
  .card.wide { grid-column: span 2; }
  /* The wide card's Use sits by its name, so its session buttons take the line every other card gives its Use. */
  .card.wide .body { position: relative; }
  .card.wide h2 { padding-right: 64px; }
  .card.wide .use { position: absolute; top: 6px; right: 12px; }
  .stage { position: relative; height: var(--stage); display: grid; place-items: center; overflow: hidden; border-bottom: 1px solid var(--line); }
  .stage > * { grid-area: 1 / 1; }
  .stage .ghost { opacity: .22; }
  .card .body { padding: 8px 12px 10px; display: flex; flex-direction: column; gap: 2px; flex: 1; }
  .card h2 { margin: 0; font-size: 15px; line-height: 20px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  .card .origin { margin: 0; color: var(--muted); font-size: 12px; line-height: 16px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  .card .what { margin: 2px 0 0; color: var(--muted); font-size: 12px; line-height: 16px; height: 32px; overflow: hidden; display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 2; }
  .card .actions { margin-top: 8px; display: flex; gap: 6px; flex-wrap: wrap; align-items: center; }
  .card .session { display: flex; gap: 4px; flex-wrap: nowrap; }
  .card .session button { padding: 5px 8px; }
  button { font: inherit; font-size: 13px; border: 0; border-radius: 8px; padding: 5px 10px; background: var(--accent); color: var(--on-accent); cursor: pointer; white-space: nowrap; }
  button.quiet { background: transparent; color: var(--accent); border: 1px solid var(--control); }
  button[aria-disabled="true"] { opacity: .55; cursor: default; }
  .card .stats:empty { display: none; }
  .card .stats { font-size: 11px; color: var(--muted); margin-top: 4px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  /* Stages: the page's own; light and dark as on such a page; a checkerboard; any colour. */
  body[data-stage="page"] .stage { background: var(--bg); }
  body[data-stage="light"] .stage { background: #fff; color: #1d1d1f; }
  body[data-stage="dark"] .stage { background: #1c1c1e; color: #f5f5f7; }
  body[data-stage="checker"] .stage { background: repeating-conic-gradient(#d8d8dc 0 25%, #fff 0 50%) 0 0 / 16px 16px; color: #1d1d1f; }
  body[data-stage="custom"] .stage { background: var(--stage-bg); color: var(--stage-fg); }
  body[data-ink] .stage { color: var(--ink); }
  dialog { width: min(720px, calc(100vw - 24px)); max-height: calc(100dvh - 24px); padding: 0; border: 1px solid var(--line); border-radius: 14px; background: var(--card); color: var(--fg); }
  dialog::backdrop { background: rgba(0,0,0,.45); }
  dialog .inner { padding: 16px 18px; display: flex; flex-direction: column; gap: 10px; }
  dialog header { display: flex; align-items: center; gap: 12px; }
  dialog h2 { margin: 0; font-size: 19px; flex: 1; }
  dialog .what { margin: 0; color: var(--muted); font-size: 13px; }
  dialog .top { display: flex; gap: 16px; align-items: center; flex-wrap: wrap; }
  dialog .preview { width: 120px; height: 96px; display: grid; place-items: center; border-radius: 10px; border: 1px solid var(--line); }
  dialog .settings { display: flex; flex-wrap: wrap; gap: 8px 14px; font-size: 13px; }
  dialog .settings label { display: inline-flex; gap: 6px; align-items: center; }
  [role=tablist] { display: flex; flex-wrap: wrap; gap: 4px; border-bottom: 1px solid var(--line); padding-bottom: 6px; }
  [role=tab] { background: transparent; color: var(--fg); border: 1px solid transparent; border-radius: 8px; }
  [role=tab][aria-selected="true"] { background: var(--accent); color: var(--on-accent); }
  #use-panel .hint { margin: 0 0 6px; font-size: 13px; color: var(--muted); }
  #snippet { margin: 0; padding: 10px; border-radius: 8px; background: var(--bg); border: 1px solid var(--line); font: 12px/1.45 ui-monospace, Menlo, monospace;
             white-space: pre-wrap; overflow-wrap: anywhere; max-height: min(38vh, 300px); overflow: auto; }
  #use-panel .row { display: flex; gap: 10px; align-items: center; margin-top: 8px; }
  #use-status { font-size: 13px; color: var(--muted); }
  dialog .files { font-size: 13px; }
  dialog .files summary { cursor: pointer; color: var(--accent); }
  dialog .files ul { margin: 6px 0 0; padding: 0; list-style: none; display: flex; flex-wrap: wrap; gap: 4px 14px; }
  code { font: 12px ui-monospace, Menlo, monospace; }
  .editor { padding: 8px var(--pad) 28px; }
  .editor h2 { font-size: 19px; margin: 8px 0 2px; }
  .editor > p { margin: 0 0 10px; color: var(--muted); max-width: 80ch; }
  .edit { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(300px, 100%), 1fr)); gap: 20px; align-items: start; }
  .edit .tools { display: flex; gap: 8px; margin-top: 8px; align-items: center; flex-wrap: wrap; }
  textarea { width: 100%; min-height: 360px; font: 12px/1.4 ui-monospace, Menlo, monospace; border-radius: 10px; padding: 12px; background: var(--card); color: var(--fg); border: 1px solid var(--control); }
  textarea[aria-invalid="true"] { border: 2px solid var(--error); }
  .error { color: var(--error); font: 12px ui-monospace, Menlo, monospace; white-space: pre-wrap; margin-top: 6px; min-height: 1em; }
  .editor .card .stage { height: auto; min-height: 200px; padding: 16px; }
  #editor-stage svg { display: block; width: 100%; max-width: 320px; height: auto; margin: 0 auto; overflow: visible; }
  .editor .card .body { padding: 8px 12px; }
  .embed { display: flex; gap: 24px; align-items: center; padding: 12px var(--pad) 28px; flex-wrap: wrap; }
  .embed img { border-radius: 8px; max-width: 100%; height: auto; }
  footer { padding: 12px var(--pad) 24px; color: var(--muted); font-size: 13px; }
  /* A phone: the filters fold under one disclosure, so the first loaders are in view. */
  @media (max-width: 699px) {
    :root { --stage: 100px; }
    body > header p { display: none; }
    #more { display: block; width: 100%; }
    #more > summary { display: list-item; cursor: pointer; font-size: 14px; color: var(--accent); padding: 2px 0; }
    #more[open] > .controls { display: flex; flex-wrap: wrap; gap: 8px 12px; padding-top: 8px; }
  }
  #more > .controls { display: contents; }
  @media (max-width: 699px) { #more > .controls { display: none; } #more[open] > .controls { display: flex; } }
</style>
</head>
<body data-stage="page">
<a class="skip" href="#gallery">Skip to the loaders</a>
<header>
  <h1>LoaderFrames</h1>
  <p>Every loader here is live. Find one, try it on your colours and at your size, then copy it as an image, an element, CSS, Lottie, a GIF or a stream.</p>
</header>
<form id="toolbar" role="search" aria-label="Find and style loaders">
  <div class="find">
    <input id="search" type="search" aria-label="Search loaders" placeholder="Search by name or original" autocomplete="off">
    <button type="button" id="pause-all" class="tool" aria-pressed="false">Pause all</button>
  </div>
  <details id="more" open>
    <summary>Filter and style</summary>
    <div class="controls">
      <div id="families" class="group" role="group" aria-label="Family"></div>
      <label>Stage <select id="stage">
        <option value="page">This page</option><option value="light">Light</option><option value="dark">Dark</option>
        <option value="checker">Checkerboard</option><option value="custom">Custom colour</option></select></label>
      <label><span class="hidden-text">Stage colour</span><input type="color" id="stage-colour" value="#ffd60a"></label>
      <label>Loader colour <input type="color" id="ink" value="#1d1d1f"></label>
      <button type="button" id="ink-reset" class="tool" aria-pressed="true">Page colour</button>
      <fieldset id="size" class="group"><legend>Size</legend>
        <label><input type="radio" name="size" value="24"> 24</label>
        <label><input type="radio" name="size" value="48" checked> 48</label>
        <label><input type="radio" name="size" value="96"> 96</label></fieldset>
      <label><input type="checkbox" id="reduced"> Reduced motion</label>
    </div>
  </details>
</form>
<main id="gallery" tabindex="-1" aria-label="Loaders">
<p id="count" role="status" aria-live="polite"></p>
<div id="cards"></div>
<section class="editor" id="editor" aria-labelledby="editor-title">
  <h2 id="editor-title">Write a loader</h2>
  <p>A definition in Core Animation's terms: layers, replicators and animations (docs/LOADERS.md). It plays as you type, ten seconds in a loop; nothing is installed. Download it and drop the file into the server's loadersDir to keep it.</p>
  <div class="edit">
    <div>
      <label for="definition" class="hidden-text">Loader definition (JSON)</label>
      <textarea id="definition" spellcheck="false" aria-describedby="editor-error"></textarea>
      <div class="error" id="editor-error"></div>
      <div class="tools"><button type="button" id="copy-definition">Copy definition</button> <button type="button" id="download-definition">Download definition</button> <span class="stats" id="editor-note" role="status"></span></div>
    </div>
    <section class="card" data-loader="editor" data-frames="0" aria-label="Preview"><div class="stage" id="editor-stage"><svg role="img" aria-label="Preview of the definition"></svg></div><div class="body"><div class="stats">waiting…</div></div></section>
  </div>
</section>
<section class="embed" id="embed" aria-label="Embed without JavaScript">
  <strong>Embed without JavaScript:</strong>
  <img alt="typing loader" src="/loaders/typing/animation.svg" width="74" height="24">
  <img alt="switch loader" src="/loaders/switch/animation.svg" width="92" height="92">
  <img alt="web loader" src="/loaders/web/animation.svg?width=160&amp;height=240" width="122" height="180">
  <code>&lt;img src="/loaders/typing/animation.svg"&gt;</code>
</section>
</main>
<footer>loaderd \#(LoaderService.version) · <a href="/openapi.json">the API</a> · <a href="/metrics">metrics</a></footer>
<dialog id="use" aria-labelledby="use-title">
  <div class="inner">
    <header><h2 id="use-title"></h2><button type="button" id="use-close" class="quiet">Close</button></header>
    <p class="what"></p>
    <div class="top"><div class="preview"><loader-frames decorative></loader-frames></div><div class="settings"></div></div>
    <div role="tablist" id="use-tabs"></div>
    <div role="tabpanel" id="use-panel">
      <p class="hint"></p>
      <pre id="snippet" tabindex="0" aria-label="Snippet"></pre>
      <div class="row"><button type="button" id="copy">Copy</button><span id="use-status" role="status"></span></div>
    </div>
    <details class="files"><summary>Every file of it, as set now</summary><ul></ul></details>
  </div>
</dialog>
<script type="module" src="/client.js?v=\#(LoaderService.version)"></script>
<script type="module">
import { FramePainter } from "/client.js?v=\#(LoaderService.version)";
const version = "\#(LoaderService.version)";
// Every file the service makes of a loader (its export list), for the Use dialog.
const exportFiles = \#(exportList);
// The catalogue, asked first: the cards wait for it. Without credentials, as
// <loader-frames> asks for it, so that its request is answered from the cache.
const catalogAnswer = fetch("/loaders", { credentials: "omit" }).then((r) => r.json());
const query = new URLSearchParams(location.search);
const frameLimit = Number(query.get("frames") || 0);   // tests: pause each player after N frames
if (query.get("view") === "embed") {
  for (const id of ["cards", "editor", "count", "toolbar"]) document.getElementById(id).remove();
  document.querySelector("body > header").remove();
}
const $ = (id) => document.getElementById(id);
const reducedQuery = matchMedia("(prefers-reduced-motion: reduce)");
const reducedBox = $("reduced");
reducedBox.checked = query.has("motion") ? query.get("motion") === "reduced" : reducedQuery.matches;
const fps = 30;
// A phone folds the filters; a wider screen shows them all.
if (matchMedia("(max-width: 699px)").matches) $("more").open = false;

// The three loaders of the articles have controls of their own; web's card
// follows a live session while one runs and plays on the shared clock when
// none does, framed on the part of its view where something moves.
const builtIn = {
  typing: { title: "Typing", controls: [["count", "dots", 1, 8, 3, 1]] },
  switch: { title: "Switch", controls: [["duration", "period", 0.4, 3, 1.2, 0.1]] },
  web: { title: "Web page load", session: true, frame: { width: 80, height: 150 },
         what: "A pulsing indicator, a drop per loaded resource. Start loading and report each resource; until then a sample page load plays on the shared clock." },
};
const cards = new Map();
let paused = sessionStorage.getItem("loaderd-paused") === "1";
let firstFrame = false;

// Text as search compares it: compatibility forms (full-width letters),
// accents and invisible characters folded away, lower case.
function fold(text) { return text.normalize("NFKD").replace(/[\u0300-\u036f\u200b-\u200d\u2060\ufeff]/g, "").toLowerCase().trim(); }

// "activity-indicator" → "Activity indicator": a card's title, not its slug.
function humanTitle(name) { const words = name.replace(/-/g, " "); return words.charAt(0).toUpperCase() + words.slice(1); }

// #rrggbb of a computed colour (rgb(…)), and which of black or white reads on it.
function hexOf(css) {
  const c = css.match(/[\d.]+/g) || [0, 0, 0];
  return "#" + c.slice(0, 3).map((v) => Math.round(Number(v)).toString(16).padStart(2, "0")).join("");
}
function readableOn(hex) {
  const [r, g, b] = [1, 3, 5].map((i) => { const c = parseInt(hex.slice(i, i + 2), 16) / 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.179 ? "#1d1d1f" : "#f5f5f7";
}
// The stage's colours as drawn now: what a picture snippet bakes in.
function stageBackground(s) { const b = getComputedStyle(s.stage).backgroundColor; return /rgba\(.*,\s*0\)|transparent/.test(b) ? hexOf(getComputedStyle(document.body).backgroundColor) : hexOf(b); }
function stageInk(s) { return hexOf(getComputedStyle(s.stage).color); }
function inkChosen() { return document.body.dataset.ink !== undefined ? $("ink").value : null; }

// A card's loader query: its own settings and the page's motion. A colour
// left at the loader's default is not sent: <loader-frames> then draws it in
// the stage's colour.
function paramsOf(s) {
  const p = new URLSearchParams();
  if (s.l.frame) for (const [k, v] of Object.entries(s.l.frame)) p.set(k, v);
  for (const [k, v] of Object.entries(s.values)) {
    if (k === "color" && s.l.color && v.toUpperCase() === s.l.color) continue;
    p.set(k, v);
  }
  if (reducedBox.checked) p.set("motion", "reduced");
  return p;
}

function size() { return Number(document.querySelector("input[name=size]:checked").value); }
// The loader's longest side at the chosen size; web's view fills its stage.
function fit(s) {
  const c = s.l.frame || s.l.canvas;
  const longest = Math.max(c.width, c.height);
  const side = s.l.frame ? parseFloat(getComputedStyle(s.stage).height) - 8 : size();
  s.player.style.width = (side * c.width / longest) + "px";
  s.player.style.aspectRatio = `${c.width} / ${c.height}`;
  if (s.ghost) { s.ghost.style.width = s.player.style.width; s.ghost.style.aspectRatio = s.player.style.aspectRatio; }
}

function addCard(l) {
  const card = document.createElement("section");
  card.className = "card";
  card.dataset.loader = l.name;
  card.dataset.family = l.family || "";
  card.dataset.frames = "0";
  const id = "t-" + l.name;
  card.setAttribute("aria-labelledby", id);
  card.innerHTML = `<div class="stage"><loader-frames></loader-frames></div><div class="body"><h2 class="name"></h2><p class="origin"></p><p class="what"></p>`
    + `<div class="actions"><button type="button" class="use quiet">Use<span class="hidden-text"></span></button></div>${l.session ? `<div class="stats"></div>` : ""}</div>`;
  const title = card.querySelector("h2");
  title.id = id; title.textContent = l.title;
  card.querySelector(".origin").textContent = l.family ? `${l.family} · ${l.original}` : "";
  card.querySelector(".what").textContent = l.what;
  card.querySelector(".use .hidden-text").textContent = " " + l.title;
  const stage = card.querySelector(".stage");
  const player = card.querySelector("loader-frames");
  player.setAttribute("label", l.title);
  player.setAttribute("fps", fps);
  const s = { l, card, stage, player, stats: card.querySelector(".stats"), values: {}, frames: 0, inked: false, session: null,
              search: fold([l.title, l.name, l.original || "", l.family || ""].join(" ")) };
  for (const [key, , , , value] of l.controls) s.values[key] = String(value);
  if (l.session) {
    card.classList.add("wide");
    const buttons = document.createElement("div");
    buttons.className = "session";
    buttons.innerHTML = `<button type="button" data-act="start">Start loading</button><button type="button" data-act="progress" class="quiet" aria-disabled="true">Resource loaded</button><button type="button" data-act="finish" class="quiet" aria-disabled="true">Finish</button>`;
    buttons.addEventListener("click", (e) => { const b = e.target.closest("button"); if (b && b.getAttribute("aria-disabled") !== "true") session(s, b.dataset.act); });
    card.querySelector(".actions").prepend(buttons);
    // Beside the name, and so before the session's buttons in the tab order too.
    title.after(card.querySelector(".use"));
    s.buttons = buttons;
    // A resting pose under the player: the indicator at rest, faint, so the stage is never blank between pulses.
    stage.insertAdjacentHTML("afterbegin", `<svg class="ghost" aria-hidden="true"></svg>`);
    s.ghost = stage.firstElementChild;
  }
  card.querySelector(".use").addEventListener("click", (e) => use.open(s, e.currentTarget));
  player.addEventListener("frame", (e) => shown(s, e.detail));
  player.addEventListener("end", (e) => { if (s.session) endSession(s); play(s); });
  player.addEventListener("error", (e) => { if (s.stats) s.stats.textContent = e.detail.message || "refused"; });
  $("cards").append(card);
  cards.set(l.name, s);
  fit(s);
  play(s);
  return s;
}

// The card's player shows its loader on the shared clock, with its settings.
function play(s) {
  const p = s.player;
  if (s.session) {
    p.removeAttribute("loader"); p.removeAttribute("params");
    p.setAttribute("session", s.session.id);
  } else {
    p.removeAttribute("session");
    p.setAttribute("loader", s.l.name);
    p.setAttribute("params", paramsOf(s).toString());
  }
  s.frames = 0; s.inked = false;
  s.card.dataset.frames = "0";
  delete s.card.dataset.nonblank;
  hold(s);
  if (s.ghost) rest(s);
  if (use.card === s) use.refresh();
}

// Paused: a player that has drawn its first frame holds it, its stream closed;
// one that has not yet streams until it has one, so a paused page still shows every loader.
function hold(s) {
  if (paused && s.frames > 0) s.player.setAttribute("paused", "");
  else if (!(frameLimit && s.frames >= frameLimit)) s.player.removeAttribute("paused");
}

// Web's resting pose: its first moment (the indicator at full opacity), as the view is framed.
async function rest(s) {
  const p = paramsOf(s); p.set("t", "0"); p.delete("motion");
  const asked = s.rest = p.toString();
  try {
    const r = await fetch(`/loaders/${s.l.name}/frames?${asked}`);
    const frame = await r.json();
    if (s.rest === asked && r.ok) new FramePainter(s.ghost).paint(frame, null, s.values.color && s.values.color.toUpperCase() !== s.l.color ? null : s.l.color);
  } catch { }
}

// A frame was drawn: count it, say where the loop is, stop after ?frames=N.
function shown(s, frame) {
  if (!firstFrame) { firstFrame = true; performance.mark("loaderd:first-frame"); startEditor(); }
  s.frames += 1;
  s.card.dataset.frames = String(s.frames);
  // Tests: whether any frame so far showed something (a loop may be blank
  // for a moment, as web's is between page loads).
  s.inked = s.inked || frame.elements.some((e) => e.opacity > 0.01 && e.scale !== 0);
  if (frameLimit && s.frames >= frameLimit) {
    s.player.setAttribute("paused", "");
    s.card.dataset.nonblank = String(s.inked);
  } else if (paused && s.frames === 1) hold(s);
}

// Find: the search text and the family chip; the count said politely.
let family = "";
function filter() {
  const words = fold($("search").value).split(/\s+/).filter(Boolean);
  let shownCount = 0;
  for (const s of cards.values()) {
    const match = (!family || s.l.family === family) && words.every((w) => s.search.includes(w));
    s.card.hidden = !match;
    if (match) shownCount += 1;
  }
  const total = cards.size;
  const text = shownCount === total ? `${total} loaders` : `${shownCount} of ${total} loaders`;
  clearTimeout(filter.timer);
  // Said once typing pauses, not at every key.
  filter.timer = setTimeout(() => { $("count").textContent = shownCount ? text : `No loader matches; ${total} loaders in all`; }, 250);
}
$("search").addEventListener("input", filter);
$("toolbar").addEventListener("submit", (e) => e.preventDefault());

// Style: the stage's background and the loaders' colour, on every stage at once (CSS only: no stream changes).
function styleStages() {
  const kind = $("stage").value;
  document.body.dataset.stage = kind;
  const custom = $("stage-colour").value;
  document.body.style.setProperty("--stage-bg", custom);
  document.body.style.setProperty("--stage-fg", readableOn(custom));
  if (use.card) use.refresh();
}
$("stage").addEventListener("change", styleStages);
$("stage-colour").addEventListener("input", () => { $("stage").value = "custom"; styleStages(); });
function inkChanged(chosen) {
  if (chosen) { document.body.dataset.ink = ""; document.body.style.setProperty("--ink", $("ink").value); }
  else { delete document.body.dataset.ink; $("ink").value = hexOf(getComputedStyle(document.body).color); }
  $("ink-reset").setAttribute("aria-pressed", String(!chosen));
  if (use.card) use.refresh();
}
$("ink").addEventListener("input", () => inkChanged(true));
$("ink-reset").addEventListener("click", () => inkChanged(false));
$("ink").value = hexOf(getComputedStyle(document.body).color);
let sizeChosen = false;
for (const r of document.querySelectorAll("input[name=size]")) r.addEventListener("change", () => { sizeChosen = true; for (const s of cards.values()) fit(s); });

// Pause all: every player holds its frame and closes its stream; remembered for the visit.
function setPaused(on) {
  paused = on;
  sessionStorage.setItem("loaderd-paused", on ? "1" : "0");
  $("pause-all").setAttribute("aria-pressed", String(on));
  // An animated SVG in an <img> cannot be paused: a still of it instead.
  for (const img of document.querySelectorAll("#embed img")) {
    if (!img.dataset.live) img.dataset.live = img.getAttribute("src");
    const still = img.dataset.live.replace("/animation.svg", "/frames.svg") + (img.dataset.live.includes("?") ? "&" : "?") + "t=1";
    img.setAttribute("src", on ? still : img.dataset.live);
  }
  for (const s of cards.values()) hold(s);
  const preview = document.querySelector("#use loader-frames");
  if (on) preview.setAttribute("paused", ""); else preview.removeAttribute("paused");
  editor.pause(on);
}
$("pause-all").addEventListener("click", () => setPaused(!paused));
$("pause-all").setAttribute("aria-pressed", String(paused));

// The web card's session: each button leaves focus on the next sensible one,
// and none that has focus is ever disabled.
async function session(s, act) {
  // One request at a time: a click while one is out would act on a session that is changing.
  if (s.busy) return;
  s.busy = true;
  try { await sessionStep(s, act); } finally { s.busy = false; }
}
async function sessionStep(s, act) {
  const b = (name) => s.buttons.querySelector(`[data-act=${name}]`);
  const enable = (name, on) => b(name).setAttribute("aria-disabled", String(!on));
  if (act === "start") {
    const params = Object.fromEntries(paramsOf(s));
    const r = await fetch("/sessions", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ loader: "web", params }) });
    if (!r.ok) { s.stats.textContent = "could not start: " + r.status; return; }
    s.session = await r.json();
    enable("start", false); enable("progress", true); enable("finish", true);
    b("progress").focus();
    play(s);
  } else if (s.session) {
    const r = await fetch(`/sessions/${s.session.id}/events`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: "Bearer " + s.session.token }, body: JSON.stringify({ type: act }) });
    if (act === "finish" && r.ok) { enable("progress", false); enable("finish", false); enable("start", true); b("start").focus(); }
  }
}

function endSession(s) {
  s.session = null;
  const b = (name) => s.buttons.querySelector(`[data-act=${name}]`);
  b("start").setAttribute("aria-disabled", "false");
  for (const name of ["progress", "finish"]) {
    if (document.activeElement === b(name)) b("start").focus();
    b(name).setAttribute("aria-disabled", "true");
  }
}

// "Use": one dialog for the card it was opened from — its settings, a
// larger preview, and one tab per way to use it, each snippet carrying the
// card's settings and the stage's colours.
const use = (() => {
  const dialog = $("use"), tabs = $("use-tabs"), snippet = $("snippet"), hint = dialog.querySelector("#use-panel .hint");
  const preview = dialog.querySelector("loader-frames");
  const state = { card: null, opener: null, tab: "image", refresh() {} };
  const origin = location.origin;
  const ways = [
    ["image", "Image", "An animated SVG in an <img>: no JavaScript; in the stage's colours."],
    ["element", "Element", "<loader-frames>: live on the shared clock, transparent, in the page's colour, announced as a progress bar."],
    ["css", "CSS", "HTML and CSS only: no JavaScript, and it honours prefers-reduced-motion."],
    ["lottie", "Lottie", "The same file plays in lottie-web, lottie-ios and lottie-android."],
    ["gif", "GIF/APNG", "Pictures for places without SVG: the GIF's edges blended for the stage's background."],
    ["eventsource", "EventSource", "The frames themselves, drawn by the service's painter."],
  ];
  for (const [id, label] of ways) {
    const b = document.createElement("button");
    b.type = "button"; b.id = "tab-" + id; b.setAttribute("role", "tab"); b.textContent = label;
    b.setAttribute("aria-controls", "use-panel");
    b.addEventListener("click", () => select(id));
    tabs.append(b);
  }
  // Arrow keys move between tabs; Home and End to the ends.
  tabs.addEventListener("keydown", (e) => {
    const ids = ways.map((w) => w[0]);
    let k = ids.indexOf(state.tab);
    if (e.key === "ArrowRight") k = (k + 1) % ids.length;
    else if (e.key === "ArrowLeft") k = (k + ids.length - 1) % ids.length;
    else if (e.key === "Home") k = 0;
    else if (e.key === "End") k = ids.length - 1;
    else return;
    e.preventDefault();
    select(ids[k]);
    $("tab-" + ids[k]).focus();
  });
  function select(id) {
    state.tab = id;
    for (const [w] of ways) {
      const b = $("tab-" + w), on = w === id;
      b.setAttribute("aria-selected", String(on));
      b.tabIndex = on ? 0 : -1;
    }
    $("use-panel").setAttribute("aria-labelledby", "tab-" + id);
    hint.textContent = ways.find((w) => w[0] === id)[2];
    $("use-status").textContent = "";
    state.refresh();
  }
  let html = null;
  state.refresh = async () => {
    const s = state.card;
    if (!s) return;
    const name = s.l.name;
    const q = () => paramsOf(s).toString();
    const url = (file, extra = "") => { const p = [q(), extra].filter(Boolean).join("&"); return `${origin}/loaders/${name}/${file}${p ? "?" + p : ""}`; };
    // At its own size, or, once a size is chosen, at that size (its longest
    // side) as the card shows it; web's view as it is framed.
    const c = s.l.frame || s.l.canvas, longest = Math.max(c.width, c.height);
    const factor = s.l.frame || !sizeChosen ? 1 : size() / longest;
    const w = Math.round(c.width * factor), h = Math.round(c.height * factor);
    // Pictures of pixels drawn at that size, so that they stay sharp.
    const sharp = factor === 1 ? "" : "scale=" + Math.round(factor * 1000) / 1000;
    const sized = factor === 1 ? "" : ` style="width: ${w}px"`;
    // A picture has no page colour to follow: unless the card has a colour of
    // its own, it is drawn in the stage's colour, and on no background of its own, as the card shows it.
    const ink = () => [paramsOf(s).has("color") ? "" : "color=" + encodeURIComponent(stageInk(s)), s.l.background ? "background=none" : ""].filter(Boolean).join("&");
    const matte = () => "matte=" + encodeURIComponent(stageBackground(s));
    const chosen = inkChosen() && !paramsOf(s).has("color") ? ` color="${inkChosen()}"` : "";
    const text = {
      image: () => `<img src="${url("animation.svg", ink())}" alt="Loading" width="${w}" height="${h}">`,
      element: () => `<script type="module" src="${origin}/client.js?v=${version}"></` + `script>\n<loader-frames loader="${name}"${q() ? ` params="${q().replace(/&/g, "&amp;")}"` : ""}${chosen}${sized}></loader-frames>`,
      lottie: () => `<div id="loader" style="width: ${w}px; height: ${h}px"></div>\n<script type="module">\n  import lottie from "lottie-web";\n  lottie.loadAnimation({\n    container: document.getElementById("loader"), renderer: "svg", loop: true, autoplay: true,\n    path: "${url("animation.json", ink())}",\n  });\n</` + `script>`,
      gif: () => `<img src="${url("animation.gif", [ink(), matte(), sharp].filter(Boolean).join("&"))}" alt="Loading" width="${w}" height="${h}">\n<img src="${url("animation.png", [ink(), sharp].filter(Boolean).join("&"))}" alt="Loading" width="${w}" height="${h}">`,
      eventsource: () => `<svg id="loader" style="width: ${w}px; height: ${h}px"></svg>\n<script type="module">\n  import { FramePainter } from "${origin}/client.js?v=${version}";\n  const painter = new FramePainter(document.getElementById("loader"));\n  const source = new EventSource("${url("frames", [ink(), "stream=sse&clock=shared"].filter(Boolean).join("&"))}");\n  // Each frame: { t, width, height, done, elements: [{ id, shape, x, y, … }] }\n  source.addEventListener("frame", (e) => { const frame = JSON.parse(e.data); painter.paint(frame, frame.background || null); });\n</` + `script>`,
    };
    const list = dialog.querySelector(".files ul");
    list.replaceChildren(...exportFiles.map((e) => {
      const item = document.createElement("li"), link = document.createElement("a");
      link.href = url(e.file); link.textContent = e.title;
      item.append(link);
      return item;
    }));
    if (state.tab !== "css") { snippet.textContent = text[state.tab](); return; }
    const mine = html = url("animation.html", ink());
    snippet.textContent = "…";
    try {
      const r = await fetch(mine);
      const body = r.ok ? await r.text() : "could not load: " + r.status;
      if (mine === html && state.tab === "css") snippet.textContent = body;
    } catch { if (mine === html) snippet.textContent = "could not load"; }
  };
  $("copy").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(snippet.textContent); $("use-status").textContent = "Copied"; }
    catch { getSelection().selectAllChildren(snippet); $("use-status").textContent = "Selected: copy it with your keyboard"; }
  });
  $("use-close").addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => {
    preview.removeAttribute("loader"); preview.removeAttribute("params");
    const opener = state.opener;
    state.card = null; state.opener = null;
    if (opener) opener.focus();
  });
  // Settings named with the loader's title, applied live to its card, the preview and the snippets.
  function settings(s) {
    const box = dialog.querySelector(".settings");
    box.replaceChildren();
    const add = (labelText, input, key) => {
      const label = document.createElement("label");
      label.append(labelText, input);
      input.addEventListener("change", () => { s.values[key] = input.value; if (s.session) endSession(s); play(s); previewOf(s); });
      box.append(label);
    };
    if (s.l.colour) {
      // Until one is chosen, the colour the stage draws it in.
      const input = document.createElement("input");
      input.type = "color"; input.value = s.values.color || stageInk(s);
      add(`${s.l.title} colour `, input, "color");
    }
    for (const [key, label, min, max, , step] of s.l.controls) {
      const input = document.createElement("input");
      input.type = "range"; input.min = min; input.max = max; input.step = step; input.value = s.values[key];
      const value = document.createElement("output");
      value.textContent = input.value;
      input.addEventListener("input", () => { value.textContent = input.value; });
      add(`${s.l.title} ${label} `, input, key);
      box.lastChild.append(" ", value);
    }
  }
  function previewOf(s) {
    const c = s.l.frame || s.l.canvas, longest = Math.max(c.width, c.height);
    preview.style.width = (88 * c.width / longest) + "px";
    preview.style.aspectRatio = `${c.width} / ${c.height}`;
    preview.setAttribute("fps", fps);
    preview.setAttribute("loader", s.l.name);
    preview.setAttribute("params", paramsOf(s).toString());
    preview.style.color = stageInk(s);
    dialog.querySelector(".preview").style.background = getComputedStyle(s.stage).background;
    if (paused) preview.setAttribute("paused", ""); else preview.removeAttribute("paused");
  }
  state.open = (s, opener) => {
    state.card = s; state.opener = opener;
    $("use-title").textContent = "Use " + s.l.title;
    dialog.querySelector(".what").textContent = s.l.what;
    tabs.setAttribute("aria-label", "Ways to use " + s.l.title);
    settings(s);
    previewOf(s);
    dialog.showModal();
    select(state.tab);
    $("tab-" + state.tab).focus();
  };
  return state;
})();

function restartAll() { for (const s of cards.values()) play(s); editor.restart(); }
reducedBox.addEventListener("change", restartAll);
reducedQuery.addEventListener("change", (e) => { reducedBox.checked = e.matches; restartAll(); });

// The editor: the definition's frames from POST /loaders/preview, drawn by
// the same painter as <loader-frames>; a refusal is marked on the field,
// said under it, and the stale preview is taken away.
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
  const area = $("definition");
  if (!area) return { restart() {}, pause() {} };
  area.value = query.get("edit") || JSON.stringify(sample, null, 2);
  const card = document.querySelector('[data-loader="editor"]');
  const errorBox = $("editor-error");
  const stats = card.querySelector(".stats");
  const svg = card.querySelector("svg");
  let painter = new FramePainter(svg);
  const note = $("editor-note");
  let controller = null, timer = 0, player = 0, frames = 0, inked = false, batch = null, background = null, started = 0;
  const fileName = () => { try { return (JSON.parse(area.value).name || "loader") + ".json"; } catch { return "loader.json"; } };
  $("copy-definition").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(area.value); note.textContent = "Copied"; } catch { area.select(); note.textContent = "Selected: copy it with your keyboard"; }
  });
  $("download-definition").addEventListener("click", () => {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([area.value], { type: "application/json" }));
    link.download = fileName();
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    note.textContent = `Downloaded ${link.download}`;
  });
  const tick = () => {
    const k = Math.floor((performance.now() - started) / 1000 * fps);
    const frame = batch.frames[k % batch.frames.length];
    painter.paint(frame, background);
    frames += 1;
    card.dataset.frames = String(frames);
    stats.textContent = `preview · t ${frame.t.toFixed(2)} s · ${frame.elements.length} elements`;
    inked = inked || frame.elements.some((e) => e.opacity > 0.01 && e.scale !== 0);
    if (frameLimit && frames >= frameLimit) { clearInterval(player); player = 0; card.dataset.nonblank = String(inked); }
  };
  function run() {
    clearInterval(player); player = 0;
    if (!batch || paused || (frameLimit && frames >= frameLimit)) return;
    player = setInterval(tick, 1000 / fps);
    tick();
  }
  // Ten seconds of the definition as one batch, played in a loop: the page
  // keeps its one stream connection while the editor runs.
  async function restart() {
    if (controller) controller.abort();
    const mine = controller = new AbortController();
    const p = new URLSearchParams({ from: 0, to: 10 - 0.5 / fps, fps, motion: reducedBox.checked ? "reduced" : "normal" });
    let r, answer;
    try {
      r = await fetch("/loaders/preview?" + p, { method: "POST", headers: { "Content-Type": "application/json" }, body: area.value, signal: mine.signal });
      answer = await r.json();
    } catch { return; }
    if (mine !== controller) return;
    clearInterval(player); player = 0;
    frames = 0; inked = false;
    card.dataset.frames = "0";
    delete card.dataset.nonblank;
    if (!r.ok) {
      const e = answer.error || { message: "refused: " + r.status };
      errorBox.textContent = e.path ? `${e.message}` : e.message;
      card.dataset.error = e.path || "";
      area.setAttribute("aria-invalid", "true");
      stats.textContent = "not a loader yet";
      // The old preview must not go on as if it were this definition.
      batch = null;
      svg.replaceChildren();
      svg.removeAttribute("viewBox");
      painter = new FramePainter(svg);
      return;
    }
    errorBox.textContent = "";
    delete card.dataset.error;
    area.removeAttribute("aria-invalid");
    batch = answer;
    background = null;
    try { background = JSON.parse(area.value).background || null; } catch {}
    started = performance.now();
    run();
  }
  area.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(restart, 400); });
  return { restart, pause(on) { if (on) { clearInterval(player); player = 0; } else run(); } };
})();

// The catalogue: every loader the server has, in its order, and its families as chips.
const catalog = await catalogAnswer;
const families = [];
for (const entry of catalog.loaders) {
  if (!$("cards")) break;
  if (entry.family && !families.includes(entry.family)) families.push(entry.family);
  const known = builtIn[entry.name] || {};
  const colour = entry.parameters.find((p) => p.name === "color");
  addCard({
    name: entry.name, title: known.title || humanTitle(entry.name), what: known.what || entry.description,
    background: entry.background || null, color: colour ? colour.default.toUpperCase() : null, colour: colour ? colour.default : null,
    canvas: entry.canvas, family: entry.family, original: entry.original, frame: known.frame || null,
    controls: known.controls || [], session: known.session || false,
  });
}
if ($("families")) {
  for (const name of ["", ...families]) {
    const chip = document.createElement("button");
    chip.type = "button"; chip.className = "chip"; chip.dataset.family = name; chip.textContent = name || "All";
    chip.setAttribute("aria-pressed", String(name === family));
    chip.addEventListener("click", () => {
      family = name;
      for (const c of $("families").children) c.setAttribute("aria-pressed", String(c.dataset.family === family));
      filter();
    });
    $("families").append(chip);
  }
  $("count").textContent = `${cards.size} loaders`;
}
// The editor's ten seconds of preview wait for the gallery's first frame (or a second): they are below the fold.
let editorStarted = false;
function startEditor() { if (!editorStarted) { editorStarted = true; editor.restart(); } }
setTimeout(startEditor, 1000);
if (paused) setPaused(true);
</script>
</body>
</html>
"""#
}
