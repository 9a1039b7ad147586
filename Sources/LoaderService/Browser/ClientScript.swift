import HTTPServer

/// `GET /client.js`: an ES module with no dependencies that defines
/// `<loader-frames>`, a live loader drawn as SVG from the service's frames
/// (docs/CLIENT.md). It reads event streams with `fetch` rather than
/// EventSource: that way it can resume with `Last-Event-ID` on a connection
/// of its own making and retry after any answer, where EventSource gives up
/// for good after one non-200.
enum ClientScript {
    static let body: [UInt8] = Array(source.utf8)

    static let source = #"""
// <loader-frames> from loaderd \#(LoaderService.version): one module, no dependencies.
//   <script type="module" src="/client.js"></script>
//   <loader-frames loader="typing" params="count=5"></loader-frames>
// docs/CLIENT.md in the service's repository says everything it does.

const svgNS = "http://www.w3.org/2000/svg";
const scriptOrigin = new URL(import.meta.url).origin;
const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");
const maxPerStream = 64;        // GET /streams carries at most 64 loaders
const retryCeiling = 10000;     // ms: the longest wait between two attempts

// The wait before reconnecting: doubling from the server's retry: (1 s
// unless it says otherwise) up to a ceiling, each wait drawn from its upper
// half so that a crowd of clients does not come back all at once.
function backoff(attempt, first) {
  const ceiling = Math.min(retryCeiling, first * 2 ** Math.min(attempt, 16));
  return ceiling / 2 + Math.random() * ceiling / 2;
}

// One event stream, made again after every failure (a network error, any
// answer but 200, a stream that ends without saying it is done) with
// Last-Event-ID, until it ends for good or is closed.
class Feed {
  constructor(url, handlers) {
    this.url = url;
    this.handlers = handlers;   // frame(data), end(reason) → true when final, refused(status, error) → true when final
    this.lastId = null;
    this.retry = 1000;
    this.attempt = 0;
    this.closed = false;
    this.controller = null;
    this.timer = 0;
    this.run();
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.controller) this.controller.abort();
  }

  async run() {
    while (!this.closed) {
      this.controller = new AbortController();
      let final = false;
      try { final = await this.read(this.controller.signal); } catch { final = false; }
      if (final || this.closed) return;
      await new Promise((resume) => { this.timer = setTimeout(resume, backoff(this.attempt++, this.retry)); });
    }
  }

  // Reads one response; true when the stream is over for good.
  async read(signal) {
    const headers = { Accept: "text/event-stream" };
    if (this.lastId !== null) headers["Last-Event-ID"] = this.lastId;
    const response = await fetch(this.url, { headers, signal, cache: "no-store", credentials: "omit" });
    if (response.status === 204) return this.handlers.end("done");   // resumed with nothing left
    if (response.status !== 200) {
      let error = null;
      try { error = (await response.json()).error; } catch { }
      return this.handlers.refused(response.status, error);
    }
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let partial = "", type = "", data = [];
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return false;
      const lines = (partial + value).split("\n");
      partial = lines.pop();
      for (let line of lines) {
        if (line.endsWith("\r")) line = line.slice(0, -1);
        if (line === "") {
          if (data.length) {
            const text = data.join("\n");
            if (type === "frame") { this.attempt = 0; this.handlers.frame(text); }
            else if (type === "end") {
              let reason = "";
              try { reason = JSON.parse(text).reason; } catch { }
              // Not the end of the loader: the session's store could not be
              // reached, or the replica is shutting down. Try again.
              if (reason === "unavailable" || reason === "shutdown") { reader.cancel(); return false; }
              if (this.handlers.end(reason)) { reader.cancel(); return true; }
            }
          }
          type = ""; data = [];
          continue;
        }
        const colon = line.indexOf(":");
        if (colon === 0) continue;   // a comment (keep-alive)
        const field = colon < 0 ? line : line.slice(0, colon);
        let value = colon < 0 ? "" : line.slice(colon + 1);
        if (value.startsWith(" ")) value = value.slice(1);
        if (field === "event") type = value;
        else if (field === "data") data.push(value);
        else if (field === "id") this.lastId = value;
        else if (field === "retry" && /^\d+$/.test(value)) this.retry = Math.max(100, Number(value));
      }
    }
  }
}

// The shared clock: the elements of one service at one fps share one
// /streams connection (64 loaders a connection). It is made again, at the
// clock's current frame, whenever elements join or leave, a moment later so
// that a page's elements arriving together make one connection.
const hubs = new Map();
class Hub {
  static for(base, fps) {
    const key = base + " " + fps;
    if (!hubs.has(key)) hubs.set(key, new Hub(base, fps));
    return hubs.get(key);
  }

  constructor(base, fps) { this.base = base; this.fps = fps; this.members = new Set(); this.feeds = []; this.timer = 0; }
  join(element) { this.members.add(element); this.schedule(); }
  leave(element) { if (this.members.delete(element)) this.schedule(); }
  schedule() { clearTimeout(this.timer); this.timer = setTimeout(() => this.connect(), 20); }
  // At once, not a moment later: a page going into the back/forward cache
  // runs no more timers, and an open stream would keep it out of the cache.
  closeNow() { clearTimeout(this.timer); for (const feed of this.feeds) feed.close(); this.feeds = []; }

  connect() {
    for (const feed of this.feeds) feed.close();
    this.feeds = [];
    const members = [...this.members];
    for (let first = 0; first < members.length; first += maxPerStream) {
      const group = members.slice(first, first + maxPerStream);
      const query = new URLSearchParams({ stream: "sse", clock: "shared" });
      if (this.fps) query.set("fps", this.fps);
      for (const element of group) query.append("loader", element.reference());
      this.feeds.push(new Feed(`${this.base}/streams?${query}`, {
        frame: (text) => { const { index, frame } = JSON.parse(text); if (group[index]) group[index].show(frame); },
        end: (reason) => { for (const element of group) element.ended(reason); return true; },
        // A refusal that names one loader ("loader 3: …") is that element's
        // alone: it leaves, and the others go on without it.
        refused: (status, error) => {
          const which = status === 400 && error && /^loader (\d+): /.exec(error.message || "");
          if (!which || !group[Number(which[1])]) return false;
          group[Number(which[1])].refused(status, error);
          return true;
        },
      }));
    }
  }
}

// Catalogue entries, one request per service: each loader's `color`
// default, by its name and its aliases (the colour that follows the page).
const catalogues = new Map();
function catalogue(base) {
  if (!catalogues.has(base)) {
    catalogues.set(base, fetch(`${base}/loaders`, { credentials: "omit" })
      .then((r) => r.ok ? r.json() : { loaders: [] })
      .then((c) => {
        const colours = new Map();
        for (const l of c.loaders) {
          const p = (l.parameters || []).find((p) => p.name === "color");
          const colour = p && typeof p.default === "string" ? p.default.toUpperCase() : null;
          for (const name of [l.name, ...(l.aliases || [])]) colours.set(name, colour);
        }
        return colours;
      })
      .catch(() => { catalogues.delete(base); return new Map(); }));
  }
  return catalogues.get(base);
}

// One visually hidden polite live region for the page, made before anything
// is said in it (a region made and filled at once is often not read).
let liveRegion = null;
function announcer() {
  if ((!liveRegion || !liveRegion.isConnected) && document.body) {
    liveRegion = document.createElement("div");
    liveRegion.setAttribute("aria-live", "polite");
    liveRegion.setAttribute("data-loader-frames-live", "");
    liveRegion.style.cssText = "position:absolute;width:1px;height:1px;margin:-1px;padding:0;border:0;overflow:hidden;clip-path:inset(50%);white-space:nowrap";
    document.body.append(liveRegion);
  }
  return liveRegion;
}
const announcementTime = 5000;   // ms a said text stays in the region

// Draws frames into an <svg>, exactly as GET /loaders/{name}/frames.svg
// does: circles never turned, rects turned about their centre, rings as
// strokes trimmed from 12 o'clock, a squashed shape under its matrix, one
// under perspective as its outline; one node per element, with data-element.
// Elements of the colour `follow` (#RRGGBB) are painted `currentColor`.
export class FramePainter {
  constructor(svg) { this.svg = svg; this.nodes = new Map(); this.width = 0; this.height = 0; this.backdrop = null; }

  paint(frame, background, follow = null) {
    const paint = (colour) => follow && colour && colour.toUpperCase() === follow ? "currentColor" : colour;
    const svg = this.svg;
    if (frame.width !== this.width || frame.height !== this.height) {
      this.width = frame.width; this.height = frame.height;
      svg.setAttribute("viewBox", `0 0 ${frame.width} ${frame.height}`);
    }
    if (background) {
      if (!this.backdrop) { this.backdrop = document.createElementNS(svgNS, "rect"); this.backdrop.setAttribute("data-background", ""); }
      set(this.backdrop, { x: 0, y: 0, width: frame.width, height: frame.height, fill: background });
      if (svg.firstChild !== this.backdrop) svg.prepend(this.backdrop);
    } else if (this.backdrop) { this.backdrop.remove(); this.backdrop = null; }
    const seen = new Set();
    let previous = this.backdrop;
    for (const e of frame.elements) {
      seen.add(e.id);
      // Under perspective (matrix3d), the projected outline; squashed or
      // skewed (matrix), the shape in a <g> even for a circle.
      const kind = e.matrix3d ? "outline" : e.matrix ? `${e.shape} matrix` : e.shape;
      let node = this.nodes.get(e.id);
      if (!node || node.kind !== kind) {
        if (node) node.remove();
        if (e.matrix3d) node = document.createElementNS(svgNS, "path");
        else if (e.shape === "circle" && !e.matrix) node = document.createElementNS(svgNS, "circle");
        else {
          node = document.createElementNS(svgNS, "g");
          node.append(document.createElementNS(svgNS, { rect: "rect", segment: "path", triangle: "path", circle: "circle" }[e.shape] || "circle"));
        }
        node.kind = kind;
        node.setAttribute("data-element", e.id);
        this.nodes.set(e.id, node);
      }
      if (e.matrix3d) {
        // No SVG transform is projective: the outline is in canvas coordinates, exact.
        set(node, { d: e.outline, fill: paint(e.color), opacity: e.opacity });
      } else if (e.shape === "circle" && !e.matrix) {
        set(node, { cx: e.x, cy: e.y, r: e.diameter * e.scale / 2, fill: paint(e.color), opacity: e.opacity });
      } else {
        // The shape about the origin, unscaled, under the element's own
        // matrix, else placed, turned and scaled. A turn folded into one
        // turn: the same angle, exact in the browser's single-precision transforms.
        const degrees = ((e.rotation || 0) % (2 * Math.PI)) * 180 / Math.PI;
        const transform = e.matrix ? `matrix(${e.matrix.join(" ")})` : `translate(${e.x} ${e.y}) rotate(${degrees}) scale(${e.scale})`;
        set(node, { transform, opacity: e.opacity });
        const shape = node.firstChild;
        if (e.shape === "circle") {
          set(shape, { r: e.diameter / 2, fill: paint(e.color) });
        } else if (e.shape === "rect") {
          set(shape, { x: -e.width / 2, y: -e.height / 2, width: e.width, height: e.height, rx: e.cornerRadius, fill: paint(e.color) });
        } else if (e.shape === "segment") {
          // From the arc's start through 12 o'clock to its end, then the chord.
          const r = e.diameter / 2, half = Math.min(Math.max(e.arc, 0), 2 * Math.PI) / 2;
          const sx = r * Math.sin(half), sy = -r * Math.cos(half);
          set(shape, { d: `M${-sx} ${sy}A${r} ${r} 0 0 1 0 ${-r}A${r} ${r} 0 0 1 ${sx} ${sy}Z`, fill: paint(e.color) });
        } else if (e.shape === "triangle") {
          // Apex at the top middle of the box, base along its bottom.
          const w = e.width / 2, h = e.height / 2;
          set(shape, { d: `M0 ${-h}L${w} ${h}L${-w} ${h}Z`, fill: paint(e.color) });
        } else {
          const length = Math.max(e.strokeEnd - e.strokeStart, 0);
          set(shape, { r: e.diameter / 2, fill: "none", stroke: paint(e.color), "stroke-width": e.lineWidth, "stroke-linecap": e.lineCap,
                       pathLength: 1, transform: "rotate(-90)", "stroke-dasharray": length >= 1 ? "none" : `${length} 1`,
                       "stroke-dashoffset": -e.strokeStart });
        }
      }
      // In the frame's order, which is the order of drawing.
      const wanted = previous ? previous.nextSibling : svg.firstChild;
      if (wanted !== node) svg.insertBefore(node, wanted);
      previous = node;
    }
    for (const [id, node] of this.nodes) if (!seen.has(id)) { node.remove(); this.nodes.delete(id); }
  }
}

function set(node, attributes) {
  for (const name in attributes) {
    const value = String(attributes[name]);
    if (node.getAttribute(name) !== value) node.setAttribute(name, value);
  }
}

const players = new Set();
// Controls named by their content, and labels (whose content names their
// control): a player inside one is decorative.
const namedByContent = ["button", "a[href]", "summary", "label", ...["button", "link", "menuitem", "menuitemcheckbox",
  "menuitemradio", "tab", "option", "checkbox", "radio", "switch", "treeitem"].map((role) => `[role=${role}]`)].join(", ");
let pageHidden = false;   // between pagehide and pageshow: no streams at all

// <loader-frames loader="typing" params="count=5" clock="shared|own" fps="30"
//                session="…" src="https://…" color="#rrggbb" background="none|#rrggbb"
//                label="Loading" done-label="Loaded" decorative paused>
export class LoaderFramesElement extends HTMLElement {
  static observedAttributes = ["loader", "params", "session", "clock", "fps", "src", "label", "background", "color",
                               "decorative", "done-label", "paused"];

  // Whether each element is in view: one observer for the page.
  static #observer = new IntersectionObserver((entries) => {
    for (const entry of entries) entry.target.#inView(entry.isIntersecting);
  });

  #svg; #style; #painter; #internals; #frame = null; #visible = false; #joined = null; #feed = null;
  #follow;             // the colour drawn as currentColor: undefined until the catalogue says, null for none
  #asking = null;      // the catalogue's answer awaited for #follow
  #announced = false;  // this session's end has been said
  #ownLastId = null;   // own clock and sessions: where a hidden element resumes

  constructor() {
    super();
    const root = this.attachShadow({ mode: "open" });
    this.#style = document.createElement("style");
    this.#svg = document.createElementNS(svgNS, "svg");
    // The host carries the role and the name; the drawing says nothing.
    this.#svg.setAttribute("aria-hidden", "true");
    this.#svg.setAttribute("focusable", "false");
    this.#svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    this.#painter = new FramePainter(this.#svg);
    this.#internals = this.attachInternals();
    root.append(this.#style, this.#svg);
    this.#size(0, 0);
    this.#label();
  }

  /** The last frame drawn, as the service sent it. */
  get frame() { return this.#frame; }

  connectedCallback() {
    players.add(this);
    LoaderFramesElement.#observer.observe(this);
    this.#label();
    this.#update();
  }

  disconnectedCallback() {
    players.delete(this);
    LoaderFramesElement.#observer.unobserve(this);
    this.#visible = false;
    this.#update();
  }

  attributeChangedCallback(name, before, after) {
    if (before === after) return;
    if (name === "label" || name === "decorative" || name === "done-label") return this.#label();
    if (name === "paused") return this.#update();
    this.#follow = undefined;
    this.#asking = null;
    if (name === "session") { this.#announced = false; this.#label(); }
    // Anything else is another stream: leave, forget where this one was, join again.
    this.#leave();
    this.#ownLastId = null;
    this.#update();
  }

  #inView(visible) { this.#visible = visible; this.#update(); }

  // Streams while connected, in view, the page shown and not paused. A
  // session's player that is named streams out of view too: a reader who
  // scrolled away still hears that it finished.
  #update() {
    const inView = this.#visible || (this.hasAttribute("session") && !this.#decorative());
    const wanted = this.isConnected && inView && !pageHidden && document.visibilityState !== "hidden" && !this.hasAttribute("paused")
      && (this.hasAttribute("loader") || this.hasAttribute("session"));
    if (wanted && !this.#joined) this.#join();
    else if (!wanted && this.#joined) this.#leave();
  }

  // Called when reduced motion changes: the stream asks again.
  restart() { this.#leave(); this.#update(); }

  #base() { return (this.getAttribute("src") || scriptOrigin).replace(/\/+$/, ""); }
  #fps() { return this.getAttribute("fps") || ""; }

  // The loader's query: its params; the color and background attributes
  // unless params has them (no background unless asked for); motion=reduced
  // when the reader asks for it.
  #query() {
    const query = new URLSearchParams(this.getAttribute("params") || "");
    if (this.hasAttribute("color") && !query.has("color")) query.set("color", this.getAttribute("color"));
    if (!query.has("background")) query.set("background", this.getAttribute("background") || "none");
    if (reducedMotion.matches && !query.has("motion")) query.set("motion", "reduced");
    return query;
  }

  // A colour given (params or the color attribute) is drawn as it is;
  // otherwise the loader's default colour follows the page's.
  #colourGiven() {
    if (this.hasAttribute("session")) return false;
    return this.hasAttribute("color") || new URLSearchParams(this.getAttribute("params") || "").has("color");
  }

  /** This element's `loader` value on a /streams connection. */
  reference() {
    const query = this.#query().toString();
    return this.getAttribute("loader") + (query ? "?" + query : "");
  }

  #join() {
    const base = this.#base();
    catalogue(base);   // asked now, so that it is there by the first frame
    const session = this.getAttribute("session");
    if (!session && this.getAttribute("clock") !== "own") {
      this.#joined = Hub.for(base, this.#fps());
      this.#joined.join(this);
      return;
    }
    let url;
    if (session) {
      url = `${base}/sessions/${encodeURIComponent(session)}/frames?stream=sse`;
      if (this.#fps()) url += "&fps=" + encodeURIComponent(this.#fps());
    } else {
      const query = this.#query();
      query.set("stream", "sse");
      if (this.#fps()) query.set("fps", this.#fps());
      url = `${base}/loaders/${encodeURIComponent(this.getAttribute("loader"))}/frames?${query}`;
    }
    const feed = new Feed(url, {
      frame: (text) => { this.#ownLastId = feed.lastId; this.show(JSON.parse(text)); },
      end: (reason) => { this.ended(reason); return true; },
      // A request that cannot succeed as it stands: say so and stop. Anything
      // else (a 503, a 429, a proxy's 502) is tried again.
      refused: (status, error) => {
        if (status !== 400 && status !== 404 && status !== 406) return false;
        this.refused(status, error);
        return true;
      },
    });
    feed.lastId = this.#ownLastId;
    this.#feed = feed;
    this.#joined = feed;
  }

  #leave() {
    if (this.#joined instanceof Hub) this.#joined.leave(this);
    if (this.#feed) { this.#ownLastId = this.#feed.lastId; this.#feed.close(); this.#feed = null; }
    this.#joined = null;
  }

  /** Draws a frame from the stream and dispatches `frame`. */
  show(frame) {
    this.#frame = frame;
    this.#size(frame.width, frame.height);
    this.#paint();
    this.#value(frame.progress);
    if (frame.done) this.#finished();
    this.dispatchEvent(new CustomEvent("frame", { detail: frame }));
  }

  /** The stream is over for good: `end`, with why. */
  ended(reason) {
    this.#leave();
    if (reason === "done") this.#finished();
    this.dispatchEvent(new CustomEvent("end", { detail: { reason } }));
  }

  /** The service refused this element's stream: `error`, with its answer. */
  refused(status, error) {
    this.#leave();
    this.dispatchEvent(new CustomEvent("error", { detail: { status, ...(error || {}) } }));
  }

  // The frame's background when it has one, nothing otherwise. Until the
  // catalogue has said which colour follows the page nothing is drawn, so
  // that the loader's own colour never flashes on a page of another.
  #paint() {
    const frame = this.#frame;
    if (!frame) return;
    if (this.#colourGiven()) this.#follow = null;
    if (this.#follow === undefined) {
      // One wait, however many frames come meanwhile; the latest is drawn.
      const base = this.#base();
      if (this.#asking === base) return;
      this.#asking = base;
      catalogue(base).then((colours) => {
        if (this.#asking !== base) return;
        this.#asking = null;
        if (this.#follow !== undefined || base !== this.#base() || !this.#frame) return;
        this.#follow = colours.get(this.#frame.loader) || null;
        this.#paint();
      });
      return;
    }
    // On a background of its own a loader keeps its colours: the page's text
    // colour could be that background's.
    this.#painter.paint(frame, frame.background || null, frame.background ? null : this.#follow);
  }

  // A session is over: said once, politely, then taken away.
  #finished() {
    if (this.#announced || !this.hasAttribute("session")) return;
    this.#announced = true;
    if (this.#decorative()) return;
    const said = document.createElement("div");
    said.textContent = this.getAttribute("done-label") || "Loaded";
    const region = announcer();
    if (!region) return;
    region.append(said);
    setTimeout(() => said.remove(), announcementTime);
  }

  // The canvas's size in CSS pixels unless the page sizes the element;
  // the drawing is scaled into the element's box without distortion.
  #size(width, height) {
    const key = width + "x" + height;
    if (this.#style.dataset.size === key) return;
    this.#style.dataset.size = key;
    const box = width > 0 && height > 0 ? `width: ${width}px; aspect-ratio: ${width} / ${height};` : "width: 1em; aspect-ratio: 1;";
    this.#style.textContent = `:host { display: inline-block; vertical-align: middle; color: inherit; ${box} }
:host([hidden]) { display: none; }
svg { display: block; width: 100%; height: 100%; overflow: visible; color: inherit; }`;
  }

  // Decorative by choice (the text beside it says what is happening), or
  // inside a control named by its content: Chromium would fold a
  // progressbar's name into the control's ("Saving… Loading").
  #decorative() { return this.hasAttribute("decorative") || !!this.closest(namedByContent); }

  // The bar's value, 0 to 100, while the frames say how much is done (a
  // web session with steps); none otherwise: indeterminate.
  #value(share) {
    const known = typeof share === "number" && !this.#decorative();
    const now = known ? String(Math.round(Math.min(Math.max(share, 0), 1) * 100)) : null;
    if (this.#internals.ariaValueNow === now) return;
    this.#internals.ariaValueMin = known ? "0" : null;
    this.#internals.ariaValueMax = known ? "100" : null;
    this.#internals.ariaValueNow = now;
  }

  // A progress bar named by `label`; decorative, nothing at all. Set through
  // ElementInternals, so the page's own role and aria-* attributes on the
  // element still win.
  #label() {
    const decorative = this.#decorative();
    this.#internals.role = decorative ? null : "progressbar";
    this.#internals.ariaLabel = decorative ? null : this.getAttribute("label") || "Loading";
    this.#internals.ariaHidden = decorative ? "true" : null;
    this.#value(this.#frame && this.#frame.progress);
    // A live region inside the element would be hidden with it; the page's
    // region is made now, before its first announcement.
    if (!decorative && this.hasAttribute("session") && this.isConnected) announcer();
  }
}

document.addEventListener("visibilitychange", () => { for (const player of players) player.restart(); });
// A page kept in the back/forward cache keeps its scripts' fetches open
// (and Chromium may refuse a page with open streams): close every stream
// on pagehide, synchronously, and open them again when it is shown from the
// cache (pageshow with persisted).
addEventListener("pagehide", () => {
  pageHidden = true;
  for (const player of players) player.restart();
  for (const hub of hubs.values()) hub.closeNow();
});
addEventListener("pageshow", () => {
  if (!pageHidden) return;   // the first pageshow of a load: nothing was closed
  pageHidden = false;
  for (const player of players) player.restart();
});
reducedMotion.addEventListener("change", () => { for (const player of players) player.restart(); });

if (!customElements.get("loader-frames")) customElements.define("loader-frames", LoaderFramesElement);
"""#
}
