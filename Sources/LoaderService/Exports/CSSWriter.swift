#if canImport(Glibc)
import Glibc
#endif
import LoaderEngine

/// A loader's loop as CSS: one absolutely placed node per element, each with
/// its own `@keyframes` on the same adaptive keyframes as `animation.svg`
/// (linear between them), and a `prefers-reduced-motion` block with the
/// `motion=reduced` loop. The container's top-left is the canvas origin, in
/// CSS pixels; `--ld-color`, `--ld-speed` and `--ld-scale` on it are the
/// loader's colour, a speed factor and a size factor a page can override.
/// `--ld-color` is `currentColor` (the surrounding text's colour) unless
/// the request gave `color`: the elements drawn in the loader's colour
/// follow the page, the others keep their own.
///
/// Each node is the drawn shape itself: a circle is never turned (its box
/// stays tight); a rect is turned and scaled by its transform; a ring is a
/// square of its outer size whose arc is a conic gradient masked to a
/// band, so turning and trimming move the gradient, not the box. Each node
/// sits in a wrapper: a replicator's copy that is its first copy moved and
/// later (a translation) runs the first copy's keyframes with an
/// `animation-delay`, its wrapper translated by the offset. The wrappers
/// scale by `--ld-scale` about the canvas origin and the container's box
/// grows with it, so a scaled loader takes its room and never draws over
/// its neighbours.
struct CSSWriter {
    let name: String
    let normal: SampledLoop
    let reduced: SampledLoop
    /// Whether the request gave `color`: `--ld-color` is then that colour, not `currentColor`.
    var colorGiven = false

    var prefix: String { "ld-" + name }

    /// Every element of either loop, in first-seen order (normal first).
    var elements: [Element] {
        var seen = Set<ElementID>(), list: [Element] = []
        for track in normal.tracks + reduced.tracks where seen.insert(track.element.id).inserted { list.append(track.element) }
        return list
    }

    /// How element `i` is drawn in one loop: its own keyframes, or another
    /// element's, delayed, with its wrapper moved.
    enum Drawing {
        case own
        case copy(of: Int, delay: Double, offset: Point)
    }

    /// Per element of `elements`, in this loop.
    func drawings(_ loop: SampledLoop, _ all: [Element]) -> [Drawing] {
        let index = Dictionary(uniqueKeysWithValues: all.enumerated().map { ($1.id, $0) })
        var result = [Drawing](repeating: .own, count: all.count)
        guard loop.periodic else { return result }
        let ids = loop.loader.frame(at: loop.start).elements.map(\.id)
        let copies = loop.loader.copies
        guard copies.count == ids.count else { return result }
        let sampled = Set(loop.tracks.map(\.element.id))
        for (k, relation) in copies.enumerated() {
            guard let relation, let i = index[ids[k]], let base = index[ids[relation.base]], sampled.contains(ids[relation.base]) else { continue }
            result[i] = .copy(of: base, delay: relation.delay, offset: relation.offset)
        }
        return result
    }

    /// The rules that place element `i` in one loop (`suffix` "" or "-r").
    func placement(_ i: Int, _ drawing: Drawing, duration: Double, suffix: String) -> String {
        let f = { (v: Double) in SVG.fixed(v, decimals: 4) }
        let node = ".\(prefix) .\(prefix)-\(i)", wrapper = ".\(prefix) > .\(prefix)-w\(i)"
        let time = "calc(\(f(duration * 1000))ms / var(--ld-speed))"
        switch drawing {
        case .own:
            return "\(wrapper) { transform: scale(var(--ld-scale)); } \(node) { animation-name: \(prefix)-\(i)\(suffix); animation-duration: \(time); animation-delay: 0s; }"
        case let .copy(base, delay, offset):
            // A copy `delay` later shows, at loop time s, the first copy's
            // keyframe at s − delay: a negative animation-delay of the rest
            // of the loop (the keyframes repeat every loop).
            var lead = (-delay).truncatingRemainder(dividingBy: duration)
            if lead < 0 { lead += duration }
            return "\(wrapper) { transform: scale(var(--ld-scale)) translate(\(f(offset.x))px, \(f(offset.y))px); } "
                + "\(node) { animation-name: \(prefix)-\(base)\(suffix); animation-duration: \(time); animation-delay: calc(\(f(-lead * 1000))ms / var(--ld-speed)); }"
        }
    }

    func css() -> String {
        let f = { (v: Double) in SVG.fixed(v, decimals: 4) }
        let loader = normal.loader
        let color = loader.parameters.color("color")
        let ldColor = colorGiven ? color.description : "currentColor"
        var out = """
        /* \(name): one loop of \(SVG.n(normal.duration)) s from t = \(SVG.n(normal.start)) s (reduced motion: \(SVG.n(reduced.duration)) s from t = \(SVG.n(reduced.start)) s), from loaderd. */
        @property --ld-a0 { syntax: "<angle>"; inherits: false; initial-value: 0deg; }
        @property --ld-a1 { syntax: "<angle>"; inherits: false; initial-value: 0deg; }
        @property --ld-lw { syntax: "<length>"; inherits: false; initial-value: 0px; }
        .\(prefix) { --ld-color: \(ldColor); --ld-speed: 1; --ld-scale: 1; position: relative; display: inline-block; width: calc(\(f(loader.width))px * var(--ld-scale)); height: calc(\(f(loader.height))px * var(--ld-scale));\(loader.definition.background.map { " background: \($0);" } ?? "") }
        .\(prefix) > div { position: absolute; left: 0; top: 0; transform-origin: 0 0; }
        .\(prefix) [data-element] { position: absolute; left: 0; top: 0; box-sizing: border-box; animation-timing-function: linear; animation-iteration-count: infinite; animation-fill-mode: both; }

        """
        let all = elements
        let normalDrawings = drawings(normal, all), reducedDrawings = drawings(reduced, all)
        for (i, e) in all.enumerated() {
            let paint = e.color == color ? "var(--ld-color)" : e.color.description
            switch e.shape {
            case .circle:
                out += ".\(prefix)-\(i) { width: \(f(e.diameter))px; height: \(f(e.diameter))px; border-radius: 50%; background: \(paint); }\n"
            case .rect:
                out += ".\(prefix)-\(i) { background: \(paint); }\n"
            case .segment:
                // The circle less what lies below the chord: the segment is
                // r (1 − cos(arc/2)) tall from the top of the circle.
                let below = e.diameter - e.diameter / 2 * (1 - cos(min(max(e.arc, 0), 2 * .pi) / 2))
                out += ".\(prefix)-\(i) { width: \(f(e.diameter))px; height: \(f(e.diameter))px; border-radius: 50%; background: \(paint); clip-path: inset(0 0 \(f(max(below, 0)))px 0); }\n"
            case .ring:
                let band = "radial-gradient(farthest-side, transparent calc(100% - var(--ld-lw)), #000 calc(100% - var(--ld-lw)))"
                out += ".\(prefix)-\(i) { border-radius: 50%; background: conic-gradient(from var(--ld-a0), \(paint) 0deg calc(var(--ld-a1) - var(--ld-a0)), transparent 0deg); -webkit-mask: \(band); mask: \(band); }\n"
            }
            // An element on a period of its own loops on it.
            let track = normal.tracks.first { $0.element.id == e.id }
            out += placement(i, normalDrawings[i], duration: track?.duration ?? normal.duration, suffix: "") + "\n"
            if case .own = normalDrawings[i] {
                out += keyframes("\(prefix)-\(i)", e, track, duration: track?.duration ?? normal.duration)
            }
        }
        // The same selectors, later: these win when the page asks for less motion.
        out += "@media (prefers-reduced-motion: reduce) {\n"
        for (i, e) in all.enumerated() {
            let track = reduced.tracks.first { $0.element.id == e.id }
            out += "  " + placement(i, reducedDrawings[i], duration: track?.duration ?? reduced.duration, suffix: "-r") + "\n"
            if case .own = reducedDrawings[i] {
                out += keyframes("\(prefix)-\(i)-r", e, track, duration: track?.duration ?? reduced.duration)
            }
        }
        return out + "}\n"
    }

    /// The element's keyframes; one that the loop never shows stays hidden.
    func keyframes(_ name: String, _ e: Element, _ track: SampledLoop.Track?, duration: Double) -> String {
        guard let track else { return "@keyframes \(name) { 0%, 100% { opacity: 0; } }\n" }
        var out = "@keyframes \(name) {"
        for key in track.keys {
            out += " " + SVG.fixed(key.s / duration * 100, decimals: 5) + "% { " + declarations(e, key.v) + "}"
        }
        return out + " }\n"
    }

    /// The CSS of one element at one keyframe: its box placed so that its
    /// centre is the element's x, y.
    func declarations(_ e: Element, _ s: SampledLoop.Sample) -> String {
        let f = { (v: Double) in SVG.fixed(v, decimals: 4) }
        let opacity = "opacity: \(f(s.present ? s.opacity : 0)); "
        switch e.shape {
        case .circle:
            let k = e.diameter > 0 ? 2 * s.r / e.diameter : 0
            return "transform: translate(\(f(s.x - e.diameter / 2))px, \(f(s.y - e.diameter / 2))px) scale(\(f(k))); " + opacity
        case .segment:
            return "transform: translate(\(f(s.x - e.diameter / 2))px, \(f(s.y - e.diameter / 2))px) rotate(\(f(s.rotation * 180 / .pi))deg) scale(\(f(s.scale))); " + opacity
        case .rect:
            return "width: \(f(s.width))px; height: \(f(s.height))px; border-radius: \(f(s.cornerRadius))px; "
                + "transform: translate(\(f(s.x - s.width / 2))px, \(f(s.y - s.height / 2))px) rotate(\(f(s.rotation * 180 / .pi))deg) scale(\(f(s.scale))); " + opacity
        case .ring:
            let size = e.diameter + s.lineWidth
            let degrees = s.rotation * 180 / .pi
            return "width: \(f(size))px; height: \(f(size))px; --ld-lw: \(f(s.lineWidth))px; "
                + "--ld-a0: \(f(degrees + s.strokeStart * 360))deg; --ld-a1: \(f(degrees + max(s.strokeEnd, s.strokeStart) * 360))deg; "
                + "transform: translate(\(f(s.x - size / 2))px, \(f(s.y - size / 2))px) scale(\(f(s.scale))); " + opacity
        }
    }

    /// A snippet to paste into a page: the style and the markup, one
    /// container with `role="status"` and a label.
    func html(label: String) -> String {
        var out = "<style>\n" + css() + "</style>\n"
        out += "<div class=\"\(prefix)\" role=\"status\" aria-label=\"\(escaped(label))\">"
        for (i, e) in elements.enumerated() {
            out += "<div class=\"\(prefix)-w\(i)\"><div class=\"\(prefix)-\(i)\" data-element=\"\(e.id)\"></div></div>"
        }
        return out + "</div>\n"
    }

    func escaped(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}
