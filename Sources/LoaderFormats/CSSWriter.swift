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
/// band, so turning and trimming move the gradient, not the box. A placed
/// element (a squash, a skew, a perspective) is its own box centred on
/// the origin under `matrix()` or `matrix3d()` of its placement, keyframes
/// chosen against the browser's blend of them (`PlacedCorners`). Each node
/// sits in a wrapper: a replicator's copy that is its first copy moved and
/// later (a translation) runs the first copy's keyframes with an
/// `animation-delay`, its wrapper translated by the offset. The wrappers
/// scale by `--ld-scale` about the canvas origin and the container's box
/// grows with it, so a scaled loader takes its room and never draws over
/// its neighbours.
package struct CSSWriter {
    let name: String
    let normal: SampledLoop
    let reduced: SampledLoop
    /// Whether the request gave `color`: `--ld-color` is then that colour, not `currentColor`.
    var colorGiven = false
    /// Keyframes this export may still add where decomposition strays,
    /// shared by all its elements (`maxExportPlacedKeys`).
    let placedKeysLeft = Budget(CSSWriter.maxExportPlacedKeys)

    /// A count the writer's elements draw on in turn (one writer, one thread).
    final class Budget {
        var left: Int
        init(_ left: Int) { self.left = left }
    }

    /// The memberwise initialiser, for the service's exports (Swift makes it internal only).
    package init(name: String, normal: SampledLoop, reduced: SampledLoop, colorGiven: Bool = false) {
        self.name = name
        self.normal = normal
        self.reduced = reduced
        self.colorGiven = colorGiven
    }

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

    /// The rules that place element `i` in one loop (`suffix` "" or "-r");
    /// `constants` are the declarations its keyframes never change.
    func placement(_ i: Int, _ drawing: Drawing, duration: Double, suffix: String, constants: String) -> String {
        let f = { (v: Double) in SVG.fixed(v, decimals: 4) }
        let node = ".\(prefix) .\(prefix)-\(i)", wrapper = ".\(prefix) > .\(prefix)-w\(i)"
        let time = "calc(\(f(duration * 1000))ms / var(--ld-speed))"
        switch drawing {
        case .own:
            return "\(wrapper) { transform: scale(var(--ld-scale)); } \(node) { animation-name: \(prefix)-\(i)\(suffix); animation-duration: \(time); animation-delay: 0s; \(constants)}"
        case let .copy(base, delay, offset):
            // A copy `delay` later shows, at loop time s, the first copy's
            // keyframe at s − delay: a negative animation-delay of the rest
            // of the loop (the keyframes repeat every loop).
            var lead = (-delay).truncatingRemainder(dividingBy: duration)
            if lead < 0 { lead += duration }
            return "\(wrapper) { transform: scale(var(--ld-scale)) translate(\(f(offset.x))px, \(f(offset.y))px); } "
                + "\(node) { animation-name: \(prefix)-\(base)\(suffix); animation-duration: \(time); animation-delay: calc(\(f(-lead * 1000))ms / var(--ld-speed)); \(constants)}"
        }
    }

    package func css() -> String {
        let f = { (v: Double) in SVG.fixed(v, decimals: 4) }
        let loader = normal.loader
        let color = loader.parameters.color("color")
        // The page's colour unless one is asked for, or the loader is drawn on
        // a background of its own (typing's white on black stays white).
        let ldColor = colorGiven || loader.background != nil ? color.description : "currentColor"
        var out = """
        /* \(name): one loop of \(SVG.n(normal.duration)) s from t = \(SVG.n(normal.start)) s (reduced motion: \(SVG.n(reduced.duration)) s from t = \(SVG.n(reduced.start)) s), from loaderd. */
        @property --ld-a0 { syntax: "<angle>"; inherits: false; initial-value: 0deg; }
        @property --ld-a1 { syntax: "<angle>"; inherits: false; initial-value: 0deg; }
        @property --ld-lw { syntax: "<length>"; inherits: false; initial-value: 0px; }
        .\(prefix) { --ld-color: \(ldColor); --ld-speed: 1; --ld-scale: 1; position: relative; display: inline-block; width: calc(\(f(loader.width))px * var(--ld-scale)); height: calc(\(f(loader.height))px * var(--ld-scale));\(loader.background.map { " background: \($0);" } ?? "") }
        .\(prefix) > div { position: absolute; left: 0; top: 0; transform-origin: 0 0; }
        .\(prefix) [data-element] { position: absolute; left: 0; top: 0; box-sizing: border-box; animation-timing-function: linear; animation-iteration-count: infinite; animation-fill-mode: both; }

        """
        let all = elements
        let normalDrawings = drawings(normal, all), reducedDrawings = drawings(reduced, all)
        let normalKeys = allKeys(normal, all, normalDrawings, suffix: ""), reducedKeys = allKeys(reduced, all, reducedDrawings, suffix: "-r")
        for (i, e) in all.enumerated() {
            let paint = e.color == color ? "var(--ld-color)" : e.color.description
            switch e.shape {
            case .circle:
                out += ".\(prefix)-\(i) { width: \(f(e.diameter))px; height: \(f(e.diameter))px; border-radius: 50%; background: \(paint); }\n"
            case .rect:
                out += ".\(prefix)-\(i) { background: \(paint); }\n"
            case .triangle:
                // The box cut to its triangle: apex top middle, base along the bottom.
                out += ".\(prefix)-\(i) { background: \(paint); clip-path: polygon(50% 0, 100% 100%, 0 100%); }\n"
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
            let own = normalKeys[i] ?? Keys(constants: "", rules: "")
            let constants = if case let .copy(base, _, _) = normalDrawings[i] { normalKeys[base]?.constants ?? "" } else { own.constants }
            out += placement(i, normalDrawings[i], duration: track?.duration ?? normal.duration, suffix: "", constants: constants) + "\n"
            out += own.rules
        }
        // The same selectors, later: these win when the page asks for less motion.
        out += "@media (prefers-reduced-motion: reduce) {\n"
        for (i, e) in all.enumerated() {
            let track = reduced.tracks.first { $0.element.id == e.id }
            let own = reducedKeys[i] ?? Keys(constants: "", rules: "")
            var constants = if case let .copy(base, _, _) = reducedDrawings[i] { reducedKeys[base]?.constants ?? "" } else { own.constants }
            // Placed in the normal loop only (a squash whose still pose is
            // none): its box goes back to the canvas origin.
            let normalBase = if case let .copy(base, _, _) = normalDrawings[i] { base } else { i }
            let reducedBase = if case let .copy(base, _, _) = reducedDrawings[i] { base } else { i }
            if normalKeys[normalBase]?.constants.contains("left: ") == true || normalKeys[normalBase]?.rules.contains("left:") == true,
               !(reducedKeys[reducedBase]?.constants.contains("left: ") ?? false), !(reducedKeys[reducedBase]?.rules.contains("left:") ?? false) {
                constants = "left: 0px; top: 0px; " + constants
            }
            out += "  " + placement(i, reducedDrawings[i], duration: track?.duration ?? reduced.duration, suffix: "-r", constants: constants) + "\n"
            out += own.rules
        }
        return out + "}\n"
    }

    /// Each element's keyframes in one loop, for those that run their own.
    func allKeys(_ loop: SampledLoop, _ all: [Element], _ drawings: [Drawing], suffix: String) -> [Int: Keys] {
        var result: [Int: Keys] = [:]
        for (i, e) in all.enumerated() {
            guard case .own = drawings[i] else { continue }
            let track = loop.tracks.first { $0.element.id == e.id }
            result[i] = keyframes("\(prefix)-\(i)\(suffix)", e, track, duration: track?.duration ?? loop.duration, loop: loop)
        }
        return result
    }

    /// An element's keyframes (`rules`), and the declarations that are the
    /// same at every keyframe (`constants`, for the rule that runs them).
    struct Keys {
        var constants: String
        var rules: String
    }

    /// Within these of the keyframes' straight lines, a keyframe is left
    /// out: CSS draws the line between its neighbours instead. Lengths in
    /// CSS pixels, opacity; a scale or a turn moves an element's edge by
    /// at most `length` (its size taken into account). Below what
    /// Tests/system/css_test.py allows (0.1 px, 0.01 opacity) with the
    /// loop's own sampling error (0.02 pt, 0.002) added.
    static let lengthTolerance = 0.05
    static let opacityTolerance = 0.003
    /// Where a ring's arc ends: no box shows it, the eye hardly (0.08 px).
    static let arcTolerance = 0.08
    /// A keyframe is left out only when its neighbours are at most this
    /// many keyframes apart: the work stays linear in the keyframes.
    static let maxSpan = 96
    /// The same for a placed element, each check being a decomposition.
    static let maxPlacedSpan = 32
    /// Keyframes added per placed element where decomposition strays.
    static let maxPlacedKeys = 2000
    /// The same for a whole export: the refining (three frames and a
    /// decomposition per key) is bounded by the export, not by how many
    /// elements a definition has (about 0.7 s in release for 2,000 keys).
    static let maxExportPlacedKeys = 4000

    /// The element's keyframes; one that the loop never shows stays hidden.
    /// A declaration the same at every keyframe is left to `constants`; a
    /// keyframe that the line between its neighbours draws within the
    /// tolerances is left out.
    func keyframes(_ name: String, _ e: Element, _ track: SampledLoop.Track?, duration: Double, loop: SampledLoop? = nil) -> Keys {
        guard var track, !track.keys.isEmpty else { return Keys(constants: "", rules: "@keyframes \(name) { 0%, 100% { opacity: 0; } }\n") }
        let form = Self.form(e, track)
        if let form, let loop { track = Self.refined(e, track, form, loop, budget: placedKeysLeft) }
        // Each keyframe's declarations, by property, in order.
        let frames: [[(property: Substring, value: Substring)]] = track.keys.map { key in
            declarations(e, key.v, form: form).split(separator: ";").compactMap { part in
                let text = part.drop { $0 == " " }
                guard let colon = text.firstIndex(of: ":") else { return nil }
                return (text[..<colon], text[text.index(after: colon)...].drop { $0 == " " })
            }
        }
        let properties = frames[0].map(\.property)
        var changing: [Int] = [], constants = ""
        for (p, property) in properties.enumerated() {
            if frames.allSatisfy({ $0.count == properties.count && $0[p].value == frames[0][p].value }) {
                constants += "\(property): \(frames[0][p].value); "
            } else {
                changing.append(p)
            }
        }
        guard !changing.isEmpty else {
            return Keys(constants: constants, rules: "")
        }
        // Each changing declaration's numbers, and how far each may stray.
        let size = max(e.diameter + e.lineWidth, e.width, e.height, 1) * max(track.keys.map(\.v.scale).max() ?? 1, 1)
        let numbers: [[Double]] = frames.map { frame in changing.flatMap { Self.numbers(frame[$0].value) } }
        let tolerances: [Double] = changing.flatMap { p in
            Self.units(frames[0][p].value).map { unit in
                switch unit {
                // A placement's numbers: the corners below judge them.
                case _ where form != nil && properties[p] == "transform": return .infinity
                case "px": return Self.lengthTolerance
                // A rect's turn moves its corners, which the box shows; a
                // ring's trim moves the ends of its arc, at its radius.
                case "deg" where e.shape == .ring: return Self.arcTolerance / max(e.diameter / 2, 1) * 180 / .pi
                case "deg": return Self.lengthTolerance / (size / 2) * 180 / .pi
                default: return properties[p] == "opacity" ? Self.opacityTolerance : Self.lengthTolerance / size
                }
            }
        }
        let times = track.keys.map(\.s)
        let corners = form.map { _ in placedCorners(e, track, frames) }
        func fits(_ a: Int, _ c: Int) -> Bool {
            guard numbers[a].count == tolerances.count, numbers[c].count == tolerances.count else { return false }
            for k in (a + 1)..<c {
                guard numbers[k].count == tolerances.count else { return false }
                let u = (times[k] - times[a]) / (times[c] - times[a])
                for n in 0..<tolerances.count where abs(numbers[a][n] + (numbers[c][n] - numbers[a][n]) * u - numbers[k][n]) > tolerances[n] {
                    return false
                }
            }
            if let corners { return corners.fit(a, c, times) }
            return true
        }
        var kept = [0], a = 0
        let span = form == nil ? Self.maxSpan : Self.maxPlacedSpan
        while a < frames.count - 1 {
            var c = a + 1
            while c + 1 < frames.count, c + 1 - a <= span, times[c + 1] > times[a], fits(a, c + 1) { c += 1 }
            kept.append(c)
            a = c
        }
        // Written without spaces: a long loop has thousands.
        var out = "@keyframes \(name) {"
        for k in kept {
            out += SVG.fixed(times[k] / duration * 100, decimals: 5) + "%{"
            out += changing.map { "\(frames[k][$0].property):\(frames[k][$0].value)" }.joined(separator: ";")
            out += "}"
        }
        return Keys(constants: constants, rules: out + "}\n")
    }

    /// The numbers of a declaration's value, in order (`translate(4px, -2.5px) scale(1)`: 4, −2.5, 1).
    static func numbers(_ value: Substring) -> [Double] {
        tokens(value).map(\.number)
    }

    /// Their units (`px`, `deg`, or empty).
    static func units(_ value: Substring) -> [Substring] {
        tokens(value).map(\.unit)
    }

    /// A keyframe's value is numbers with units in function names
    /// (`translate`, `rotate`, `scale`), commas and brackets: no other digits.
    static func tokens(_ value: Substring) -> [(number: Double, unit: Substring)] {
        var result: [(Double, Substring)] = []
        var i = value.startIndex
        while i < value.endIndex {
            let next = value.index(after: i)
            // A digit in a name (`matrix3d`) is not a number.
            if value[i].isNumber, i > value.startIndex, value[value.index(before: i)].isLetter {
                i = next
                continue
            }
            guard value[i].isNumber || (value[i] == "-" || value[i] == ".") && next < value.endIndex && value[next].isNumber else {
                i = next
                continue
            }
            var end = next
            while end < value.endIndex, value[end].isNumber || value[end] == "." { end = value.index(after: end) }
            var unitEnd = end
            while unitEnd < value.endIndex, value[unitEnd].isLetter { unitEnd = value.index(after: unitEnd) }
            result.append((Double(value[i..<end]) ?? 0, value[end..<unitEnd]))
            i = unitEnd
        }
        return result
    }

    /// The CSS of one element at one keyframe: its box placed so that its
    /// centre is the element's x, y.
    func declarations(_ e: Element, _ s: SampledLoop.Sample, form: PlacedForm? = nil) -> String {
        // Lengths to a thousandth of a pixel, turns to a hundredth of a
        // degree, scales to 4 decimals (a 100 px element's edge: 0.005 px).
        let f = { (v: Double) in SVG.fixed(v, decimals: 3) }
        let d = { (v: Double) in SVG.fixed(v, decimals: 2) }
        let k4 = { (v: Double) in SVG.fixed(v, decimals: 4) }
        let opacity = "opacity: \(f(s.present ? s.opacity : 0)); "
        if let form { return Self.placedDeclarations(e, s, form) + opacity }
        switch e.shape {
        case .circle:
            let k = e.diameter > 0 ? 2 * s.r / e.diameter : 0
            return "transform: translate(\(f(s.x - e.diameter / 2))px, \(f(s.y - e.diameter / 2))px) scale(\(k4(k))); " + opacity
        case .segment:
            return "transform: translate(\(f(s.x - e.diameter / 2))px, \(f(s.y - e.diameter / 2))px) rotate(\(d(s.rotation * 180 / .pi))deg) scale(\(k4(s.scale))); " + opacity
        case .rect:
            return "width: \(f(s.width))px; height: \(f(s.height))px; border-radius: \(f(s.cornerRadius))px; "
                + "transform: translate(\(f(s.x - s.width / 2))px, \(f(s.y - s.height / 2))px) rotate(\(d(s.rotation * 180 / .pi))deg) scale(\(k4(s.scale))); " + opacity
        case .triangle:
            return "width: \(f(s.width))px; height: \(f(s.height))px; "
                + "transform: translate(\(f(s.x - s.width / 2))px, \(f(s.y - s.height / 2))px) rotate(\(d(s.rotation * 180 / .pi))deg) scale(\(k4(s.scale))); " + opacity
        case .ring:
            let size = e.diameter + s.lineWidth
            let degrees = s.rotation * 180 / .pi
            return "width: \(f(size))px; height: \(f(size))px; --ld-lw: \(f(s.lineWidth))px; "
                + "--ld-a0: \(d(degrees + s.strokeStart * 360))deg; --ld-a1: \(d(degrees + max(s.strokeEnd, s.strokeStart) * 360))deg; "
                + "transform: translate(\(f(s.x - size / 2))px, \(f(s.y - size / 2))px) scale(\(k4(s.scale))); " + opacity
        }
    }

    /// How a placed element's transform is written: `matrix()` while every
    /// keyframe is affine and keeps its orientation; `matrix3d()` under
    /// perspective, or when the element turns over (its determinant
    /// changes sign: see `matrix3d`).
    enum PlacedForm {
        case matrix, matrix3d
    }

    /// nil while no keyframe of the track has a placement (the element is
    /// written as before, byte for byte).
    static func form(_ e: Element, _ track: SampledLoop.Track) -> PlacedForm? {
        guard track.keys.contains(where: { $0.v.placement != nil }) else { return nil }
        let planes = track.keys.map { plane(e, $0.v) }
        if planes.contains(where: { !$0.isAffine }) { return .matrix3d }
        let signs = Set(planes.map { $0.a * $0.d - $0.b * $0.c < 0 })
        return signs.count > 1 ? .matrix3d : .matrix
    }

    /// A keyframe's map from the element's own plane to the canvas: its
    /// placement, or the similarity of x, y, rotation and scale (a
    /// circle's scale is its drawn radius over its own).
    static func plane(_ e: Element, _ s: SampledLoop.Sample) -> PlaneTransform {
        if let placement = s.placement { return placement.normalized }
        let k = e.shape == .circle ? (e.diameter > 0 ? 2 * s.r / e.diameter : 0) : s.scale
        let c = k * cos(s.rotation), n = k * sin(s.rotation)
        return PlaneTransform(a: c, b: n, c: -n, d: c, tx: s.x, ty: s.y)
    }

    /// Half the element's own box at a keyframe (unscaled).
    static func extent(_ e: Element, _ s: SampledLoop.Sample) -> (Double, Double) {
        switch e.shape {
        case .circle, .segment: return (e.diameter / 2, e.diameter / 2)
        case .ring: return ((e.diameter + s.lineWidth) / 2, (e.diameter + s.lineWidth) / 2)
        case .rect, .triangle: return (s.width / 2, s.height / 2)
        }
    }

    /// `matrix()`'s or `matrix3d()`'s arguments for a placement. The
    /// element lies at z = 0 and nothing of z shows, so `matrix3d()` may
    /// give z any part: it gives the map's linear part back the depth that
    /// flattening took away, as the turn of a scaled square it is a view
    /// of (rows a, b, e0 and c, d, e1 of equal length σ, the larger
    /// singular value, and at right angles; the third row their cross
    /// product). A browser's decomposition then finds a turn and one
    /// scale, never the huge skew and perspective of a nearly flat map,
    /// and blends keyframes as turns, through edge-on and over, as the
    /// loader moves.
    static func arguments(_ p: PlaneTransform, _ form: PlacedForm) -> [String] {
        // Near edge-on 6 decimals could round the map to a flat one: 10 there.
        let near = abs(p.a * p.d - p.b * p.c) < 1e-3
        let k = { (v: Double) in SVG.fixed(v, decimals: near ? 10 : 6) }
        let f = { (v: Double) in SVG.fixed(v, decimals: 4) }
        // W = px·x + py·y + 1 over some 50 px: 9 decimals keep it to 1e-8.
        let w = { (v: Double) in SVG.fixed(v, decimals: 9) }
        switch form {
        case .matrix: return [k(p.a), k(p.b), k(p.c), k(p.d), f(p.tx), f(p.ty)]
        case .matrix3d:
            let (r0, r1, r2) = lifted(p)
            return [k(r0.0), k(r0.1), k(r0.2), w(p.px), k(r1.0), k(r1.1), k(r1.2), w(p.py),
                    k(r2.0), k(r2.1), k(r2.2), "0", f(p.tx), f(p.ty), "0", "1"]
        }
    }

    /// The rows of σ·R (R a turn in space) whose x and y parts are the
    /// map's linear part (a, b) and (c, d).
    static func lifted(_ p: PlaneTransform) -> ((Double, Double, Double), (Double, Double, Double), (Double, Double, Double)) {
        let n0 = p.a * p.a + p.b * p.b, n1 = p.c * p.c + p.d * p.d, dot = p.a * p.c + p.b * p.d
        let det = p.a * p.d - p.b * p.c
        let sum = n0 + n1, root = (max(sum * sum - 4 * det * det, 0)).squareRoot()
        let s2 = (sum + root) / 2
        guard s2 > 0 else { return ((p.a, p.b, 0), (p.c, p.d, 0), (0, 0, 1)) }
        let s = s2.squareRoot()
        // e0² = σ² − |r0|², e1² = σ² − |r1|², e0·e1 = −r0·r1: the larger
        // square root first, the other from the product.
        let m0 = max(s2 - n0, 0), m1 = max(s2 - n1, 0)
        var e0 = 0.0, e1 = 0.0
        if m0 >= m1, m0 > 0 {
            e0 = m0.squareRoot(); e1 = -dot / e0
        } else if m1 > 0 {
            e1 = m1.squareRoot(); e0 = -dot / e1
        }
        let r0 = (p.a, p.b, e0), r1 = (p.c, p.d, e1)
        let r2 = ((r0.1 * r1.2 - r0.2 * r1.1) / s, (r0.2 * r1.0 - r0.0 * r1.2) / s, (r0.0 * r1.1 - r0.1 * r1.0) / s)
        return (r0, r1, r2)
    }

    /// A placed element's box and transform (without opacity): the box's
    /// centre at the canvas origin, turned about it (`transform-origin`'s
    /// default), so the transform is the placement itself.
    static func placedDeclarations(_ e: Element, _ s: SampledLoop.Sample, _ form: PlacedForm) -> String {
        let f = { (v: Double) in SVG.fixed(v, decimals: 3) }
        let d = { (v: Double) in SVG.fixed(v, decimals: 2) }
        let (hw, hh) = Self.extent(e, s)
        let transform = "transform: \(form == .matrix ? "matrix" : "matrix3d")(\(Self.arguments(Self.plane(e, s), form).joined(separator: ","))); "
        let box = "left: \(f(-hw))px; top: \(f(-hh))px; "
        switch e.shape {
        case .circle, .segment:
            return box + transform
        case .rect:
            return "width: \(f(s.width))px; height: \(f(s.height))px; border-radius: \(f(s.cornerRadius))px; " + box + transform
        case .triangle:
            return "width: \(f(s.width))px; height: \(f(s.height))px; " + box + transform
        case .ring:
            let size = e.diameter + s.lineWidth
            return "width: \(f(size))px; height: \(f(size))px; --ld-lw: \(f(s.lineWidth))px; "
                + "--ld-a0: \(d(s.strokeStart * 360))deg; --ld-a1: \(d(max(s.strokeEnd, s.strokeStart) * 360))deg; " + box + transform
        }
    }

    /// A placed element's keyframes with more where a browser's
    /// interpolation between neighbours (by decomposition) strays from the
    /// engine by more than `lengthTolerance` at a quarter, the middle or
    /// three quarters: near edge-on a decomposition changes fast. Halved
    /// down to 1 µs, at most `maxPlacedKeys` more per element.
    static func refined(_ e: Element, _ track: SampledLoop.Track, _ form: PlacedForm, _ loop: SampledLoop,
                        budget: Budget = Budget(maxExportPlacedKeys)) -> SampledLoop.Track {
        let id = track.element.id
        func truth(_ s: Double) -> SampledLoop.Sample? {
            SampledLoop.sample(loop.loader.frame(at: loop.start + s).elements.first { $0.id == id })
        }
        func matrix(_ v: SampledLoop.Sample) -> CSSMatrix? {
            CSSMatrix(arguments: arguments(plane(e, v), form).map { Double($0) ?? 0 })
        }
        var keys: [(s: Double, v: SampledLoop.Sample)] = [track.keys[0]]
        var added = 0
        func split(_ a: (s: Double, v: SampledLoop.Sample), _ b: (s: Double, v: SampledLoop.Sample)) {
            // Near edge-on a decomposition's skew and perspective grow as
            // one over the element's height: keyframes close in time still
            // blend far apart unless their heights are close in ratio, so
            // gaps there shrink to 1 µs, where the element turns over (no
            // blend of the two sides is right) to 1 µs wide.
            guard b.s - a.s > 0.000001, added < maxPlacedKeys, budget.left > 0, a.v.present, b.v.present,
                  let ma = matrix(a.v), let mb = matrix(b.v) else { return }
            var middle: SampledLoop.Sample?
            var off = false
            for u in [0.5, 0.25, 0.75] {
                guard let v = truth(a.s + (b.s - a.s) * u), v.present else { continue }
                if u == 0.5 { middle = v }
                let m = CSSMatrix.interpolate(ma, mb, u), p = plane(e, v), (hw, hh) = extent(e, v)
                for (sx, sy) in PlacedCorners.units {
                    let q = Point(x: sx * hw, y: sy * hh)
                    let (x, y) = (m.apply(q), p.apply(q))
                    if !(abs(x.x - y.x) <= lengthTolerance && abs(x.y - y.y) <= lengthTolerance) { off = true }
                }
                if off { break }
            }
            guard off else { return }
            let mid = (s: (a.s + b.s) / 2, v: middle ?? truth((a.s + b.s) / 2) ?? a.v)
            added += 1
            budget.left -= 1
            split(a, mid)
            keys.append(mid)
            split(mid, b)
        }
        for k in 1..<track.keys.count {
            split(track.keys[k - 1], track.keys[k])
            keys.append(track.keys[k])
        }
        return SampledLoop.Track(element: track.element, keys: keys, duration: track.duration)
    }

    /// What a browser draws of a placed element between two keyframes, as
    /// the corners of its box: each keyframe's matrix as written, and the
    /// corners the engine puts at each keyframe and half way to the next.
    struct PlacedCorners {
        var matrices: [CSSMatrix?]
        var decomposed: [CSSMatrix.Decomposed?]
        var boxes: [(Double, Double)]
        var at: [[Point]]
        var half: [[Point]]

        static let units = [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)]

        /// Whether the browser's interpolation from keyframe `a` to `c`
        /// stays within `lengthTolerance` of the keyframes between them
        /// and of the straight lines between neighbours (the engine there,
        /// to the loop's sampling).
        func fit(_ a: Int, _ c: Int, _ times: [Double]) -> Bool {
            guard let ma = matrices[a], let mc = matrices[c] else { return false }
            let da = decomposed[a], dc = decomposed[c]
            func off(_ t: Double, _ box: (Double, Double), _ truth: [Point]) -> Bool {
                let u = (t - times[a]) / (times[c] - times[a])
                let m = if let da, let dc { CSSMatrix(CSSMatrix.blend(da, dc, u)) } else { u < 0.5 ? ma : mc }
                for (n, (sx, sy)) in Self.units.enumerated() {
                    let p = m.apply(Point(x: sx * box.0, y: sy * box.1))
                    if !(abs(p.x - truth[n].x) <= CSSWriter.lengthTolerance && abs(p.y - truth[n].y) <= CSSWriter.lengthTolerance) { return true }
                }
                return false
            }
            for k in a..<c {
                if k > a, off(times[k], boxes[k], at[k]) { return false }
                if off((times[k] + times[k + 1]) / 2, boxes[k], half[k]) { return false }
            }
            return true
        }
    }

    func placedCorners(_ e: Element, _ track: SampledLoop.Track, _ frames: [[(property: Substring, value: Substring)]]) -> PlacedCorners {
        let matrices = frames.map { frame in
            frame.first { $0.property == "transform" }.flatMap { CSSMatrix(arguments: Self.numbers($0.value)) }
        }
        let boxes = track.keys.map { Self.extent(e, $0.v) }
        let planes = track.keys.map { Self.plane(e, $0.v) }
        let corners = { (p: PlaneTransform, box: (Double, Double)) in PlacedCorners.units.map { p.apply(Point(x: $0.0 * box.0, y: $0.1 * box.1)) } }
        let at = zip(planes, boxes).map { corners($0, $1) }
        let half: [[Point]] = planes.indices.map { k in
            guard k + 1 < planes.count else { return at[k] }
            let p = planes[k], q = planes[k + 1]
            let l = { (u: Double, v: Double) in (u + v) / 2 }
            let mid = PlaneTransform(a: l(p.a, q.a), b: l(p.b, q.b), c: l(p.c, q.c), d: l(p.d, q.d), tx: l(p.tx, q.tx), ty: l(p.ty, q.ty),
                                     px: l(p.px, q.px), py: l(p.py, q.py), pw: l(p.pw, q.pw))
            return corners(mid, boxes[k])
        }
        return PlacedCorners(matrices: matrices, decomposed: matrices.map { $0?.decomposed() }, boxes: boxes, at: at, half: half)
    }

    /// A snippet to paste into a page: the style and the markup, one
    /// container named for assistive technology: a progressbar with a
    /// label and no value (a live region that never changes says nothing).
    package func html(label: String) -> String {
        var out = "<style>\n" + css() + "</style>\n"
        out += "<div class=\"\(prefix)\" role=\"progressbar\" aria-label=\"\(escaped(label))\">"
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
