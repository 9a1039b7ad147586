import LoaderEngine

/// Pictures of frames: one frame as SVG, and a self-contained animated SVG
/// (SMIL) that loops in an `<img>` with no JavaScript.
public enum SVG {
    /// How an app draws each loader: white dots on black for typing and
    /// switch, blue on white for web (as in the articles).
    static func background(for loader: String) -> String { loader == "web" ? "#FFFFFF" : "#000000" }

    struct Box {
        var minX: Double, minY: Double, maxX: Double, maxY: Double
        init(width: Double, height: Double) { minX = 0; minY = 0; maxX = width; maxY = height }
        mutating func include(_ e: Element) {
            let r = e.diameter * e.scale / 2
            minX = min(minX, e.x - r); maxX = max(maxX, e.x + r)
            minY = min(minY, e.y - r); maxY = max(maxY, e.y + r)
        }
        /// With a 1 pt margin, whole points.
        var padded: (x: Double, y: Double, width: Double, height: Double) {
            let x = (minX - 1).rounded(.down), y = (minY - 1).rounded(.down)
            return (x, y, (maxX + 1).rounded(.up) - x, (maxY + 1).rounded(.up) - y)
        }
    }

    /// One frame; the viewBox holds the canvas and every element.
    static func frame(_ frame: Frame) -> [UInt8] {
        var box = Box(width: frame.width, height: frame.height)
        for e in frame.elements { box.include(e) }
        var out = header(box, background: background(for: frame.loader))
        for e in frame.elements {
            out += "<circle id=\"\(e.id)\" cx=\"\(n(e.x))\" cy=\"\(n(e.y))\" r=\"\(n(e.diameter * e.scale / 2))\" fill=\"\(e.color)\" opacity=\"\(n(e.opacity))\"/>"
        }
        out += "</svg>\n"
        return Array(out.utf8)
    }

    static func header(_ box: Box, background: String) -> String {
        let b = box.padded
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"\(n(b.x)) \(n(b.y)) \(n(b.width)) \(n(b.height))\" width=\"\(n(b.width))\" height=\"\(n(b.height))\">"
            + "<rect x=\"\(n(b.x))\" y=\"\(n(b.y))\" width=\"\(n(b.width))\" height=\"\(n(b.height))\" fill=\"\(background)\"/>"
    }

    /// Fixed-point text with at most `decimals` decimals and no exponent
    /// (SMIL's keyTimes and values take no exponent notation).
    public static func fixed(_ v: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int64((abs(v) * scale).rounded())
        if scaled == 0 { return "0" }
        var text = String(scaled)
        if text.count <= decimals { text = String(repeating: "0", count: decimals - text.count + 1) + text }
        var whole = String(text.dropLast(decimals))
        var fraction = String(text.suffix(decimals))
        while fraction.hasSuffix("0") { fraction.removeLast() }
        if whole.isEmpty { whole = "0" }
        return (v < 0 ? "-" : "") + whole + (fraction.isEmpty ? "" : "." + fraction)
    }

    /// Shortest round-trip text.
    public static func n(_ v: Double) -> String {
        var w = JSONWriter(capacity: 24)
        w.value(v)
        return String(decoding: w.bytes, as: UTF8.self)
    }
}

/// An animated SVG sampled from the engine over one loop.
public struct SVGAnimation: Sendable {
    /// What the animation shows: `[start, start + duration)` of loader time.
    public let loader: ConfiguredLoader
    public let start: Double
    public let duration: Double
    /// Largest difference between the SVG's interpolation and the engine,
    /// checked on a 1 ms grid (away from the 0.1 ms around each jump) when
    /// built with `verify` (tests and the bench; the service skips it).
    public private(set) var maxPositionError = 0.0
    public private(set) var maxOpacityError = 0.0
    public private(set) var maxRadiusError = 0.0
    public private(set) var keyframeCount = 0
    public private(set) var svg: [UInt8] = []

    static let positionTolerance = 0.05   // points
    static let valueTolerance = 0.005     // opacity, and radius in points ×0.1
    static let minimumStep = 0.0001       // seconds: a jump is placed this exactly
    /// Keyframes for the whole animation; past it, intervals stay on the
    /// 30/s grid unrefined (extreme parameters: many dots wrapping fast).
    static let keyframeBudget = 20_000

    /// The loop for a loader: one period once every element has started
    /// (typing, switch), or a sample with a few progress events and a finish
    /// (web, or anything without a period).
    public static func loop(for definition: LoaderDefinition, parameters: [(name: String, value: String)], verify: Bool = false) throws -> SVGAnimation {
        let plain = try definition.configure(parameters)
        if definition.name != "web" {
            // typing: the last copy starts after (count-1) × instanceDelay; switch: at D/2.
            var settle = 0.0
            if definition.name == "typing" { settle = plain.parameters.number("scaleDuration") }
            if definition.name == "switch" { settle = plain.parameters.number("duration") / 2 }
            // One period (a minute without one; init caps longer loops).
            return SVGAnimation(loader: plain, start: settle, duration: plain.period ?? Self.maxDuration, verify: verify)
        }
        // A page load: resources at a steady pace, then finish; loop once it is done.
        let pulse = plain.parameters.number("pulseDuration")
        let progress = [0.3, 0.9, 1.4, 1.8].map { $0 * pulse / 0.8 }
        let finish = 2.2 * pulse / 0.8
        let events = parameters + [("progress", progress.map { SVG.n($0) }.joined(separator: ",")), ("finish", SVG.n(finish))]
        let loader = try definition.configure(events)
        var end = finish
        while !loader.frame(at: end).done && end < finish + 60 { end += 0.05 }
        return SVGAnimation(loader: loader, start: 0, duration: ((end + 0.4) * 1000).rounded() / 1000, verify: verify)
    }

    /// The longest loop, in seconds: a longer period or page load loops its
    /// first minute (sampling is bounded by it).
    static let maxDuration = 60.0

    init(loader: ConfiguredLoader, start: Double, duration: Double, verify: Bool) {
        self.loader = loader
        self.start = start
        self.duration = min(duration, Self.maxDuration)
        build(verify: verify)
    }

    /// Values of one element: centre, radius, opacity; absent as opacity 0.
    private struct Sample { var x, y, r, opacity: Double; var present: Bool }

    /// The engine's elements at loop time `s`, by id.
    private func elements(at s: Double) -> [ElementID: Element] {
        var frame: [ElementID: Element] = [:]
        for e in loader.frame(at: start + s).elements { frame[e.id] = e }
        return frame
    }

    private static func sample(_ e: Element?) -> Sample? {
        guard let e else { return nil }
        return Sample(x: e.x, y: e.y, r: e.diameter * e.scale / 2, opacity: e.opacity, present: true)
    }

    private mutating func build(verify: Bool) {
        // The 30/s grid, each frame computed once for every element; every
        // element that shows at some point of the loop, in first-seen order.
        var ids: [ElementID] = []
        var colors: [ElementID: RGBColor] = [:]
        var box = SVG.Box(width: loader.width, height: loader.height)
        let count = Int((duration * 30).rounded(.up))
        var grid: [[ElementID: Element]] = []
        grid.reserveCapacity(count + 1)
        for i in 0...count {
            var frame: [ElementID: Element] = [:]
            for e in loader.frame(at: start + duration * Double(i) / Double(count)).elements {
                if colors[e.id] == nil { ids.append(e.id); colors[e.id] = e.color }
                box.include(e)
                frame[e.id] = e
            }
            grid.append(frame)
        }
        var body = SVG.header(box, background: SVG.background(for: loader.name))
        var all: [[(s: Double, v: Sample)]] = []
        for id in ids {
            let keys = keyframes(id, grid: grid)
            keyframeCount += keys.count
            body += element(id, color: colors[id]!, keys)
            if verify { all.append(keys) }
        }
        if verify { self.verify(ids, all) }
        body += "</svg>\n"
        svg = Array(body.utf8)
    }

    /// Adaptive keyframes: a 30/s grid, each interval split while its middle
    /// strays from the straight line; a jump ends up bracketed 0.1 ms wide.
    private func keyframes(_ id: ElementID, grid: [[ElementID: Element]]) -> [(s: Double, v: Sample)] {
        let count = grid.count - 1
        func absent(near: Sample?) -> Sample {
            var absent = near ?? Sample(x: 0, y: 0, r: 0, opacity: 0, present: false)
            absent.opacity = 0
            absent.present = false
            return absent
        }
        // Between grid points: the engine's frame for this one element.
        func value(_ s: Double, near: Sample?) -> Sample {
            Self.sample(loader.frame(at: start + s).elements.first { $0.id == id }) ?? absent(near: near)
        }
        var keys: [(s: Double, v: Sample)] = []
        var previous = Self.sample(grid[0][id]) ?? absent(near: nil)
        keys.append((0, previous))
        for i in 1...count {
            let b = duration * Double(i) / Double(count)
            let vb = Self.sample(grid[i][id]) ?? absent(near: previous)
            refine(keys.last!.s, keys.last!.v, b, vb, into: &keys, value: { value($0, near: $1) })
            keys.append((b, vb))
            previous = vb
        }
        // Absent stretches keep the neighbouring position (no flying dots).
        for i in keys.indices where !keys[i].v.present {
            if let j = keys[i...].firstIndex(where: { $0.v.present }) ?? keys[..<i].lastIndex(where: { $0.v.present }) {
                keys[i].v.x = keys[j].v.x; keys[i].v.y = keys[j].v.y; keys[i].v.r = keys[j].v.r
            }
        }
        return keys
    }

    private func refine(_ a: Double, _ va: Sample, _ b: Double, _ vb: Sample, into keys: inout [(s: Double, v: Sample)],
                        value: (Double, Sample?) -> Sample) {
        guard b - a > Self.minimumStep, keyframeCount + keys.count < Self.keyframeBudget else { return }
        let m = (a + b) / 2
        let vm = value(m, va)
        let f = 0.5
        let off = max(abs(vm.x - (va.x + (vb.x - va.x) * f)), abs(vm.y - (va.y + (vb.y - va.y) * f))) > Self.positionTolerance
            || abs(vm.opacity - (va.opacity + (vb.opacity - va.opacity) * f)) > Self.valueTolerance
            || abs(vm.r - (va.r + (vb.r - va.r) * f)) > Self.positionTolerance
            || va.present != vb.present
        guard off else { return }
        refine(a, va, m, vm, into: &keys, value: value)
        keys.append((m, vm))
        refine(m, vm, b, vb, into: &keys, value: value)
    }

    /// Compares the SVG's linear interpolation with the engine every 1 ms,
    /// one engine frame per millisecond for all elements.
    private mutating func verify(_ ids: [ElementID], _ all: [[(s: Double, v: Sample)]]) {
        var cursors = [Int](repeating: 0, count: ids.count)
        var s = 0.0
        while s < duration {
            let frame = elements(at: s)
            for (n, id) in ids.enumerated() {
                let keys = all[n]
                while cursors[n] + 1 < keys.count && keys[cursors[n] + 1].s <= s { cursors[n] += 1 }
                let j = cursors[n]
                guard j + 1 < keys.count else { continue }
                let (a, b) = (keys[j], keys[j + 1])
                if b.s - a.s > Self.minimumStep * 1.01, a.v.present, b.v.present, let truth = Self.sample(frame[id]) {
                    let f = (s - a.s) / (b.s - a.s)
                    maxPositionError = max(maxPositionError, abs(a.v.x + (b.v.x - a.v.x) * f - truth.x), abs(a.v.y + (b.v.y - a.v.y) * f - truth.y))
                    maxOpacityError = max(maxOpacityError, abs(a.v.opacity + (b.v.opacity - a.v.opacity) * f - truth.opacity))
                    maxRadiusError = max(maxRadiusError, abs(a.v.r + (b.v.r - a.v.r) * f - truth.r))
                }
            }
            s += 0.001
        }
    }

    /// A circle with an `<animate>` per attribute that changes.
    private func element(_ id: ElementID, color: RGBColor, _ keys: [(s: Double, v: Sample)]) -> String {
        let times = keys.map { SVG.fixed($0.s / duration, decimals: 7) }.joined(separator: ";")
        let first = keys[0].v
        var out = "<circle id=\"\(id)\" cx=\"\(SVG.fixed(first.x, decimals: 4))\" cy=\"\(SVG.fixed(first.y, decimals: 4))\" r=\"\(SVG.fixed(first.r, decimals: 4))\" fill=\"\(color)\" opacity=\"\(SVG.fixed(first.opacity, decimals: 4))\">"
        let dur = SVG.n(duration)
        for (attribute, path) in [("cx", \Sample.x), ("cy", \Sample.y), ("r", \Sample.r), ("opacity", \Sample.opacity)] as [(String, KeyPath<Sample, Double>)] {
            let values = keys.map { $0.v[keyPath: path] }
            guard values.contains(where: { $0 != values[0] }) else { continue }
            out += "<animate attributeName=\"\(attribute)\" dur=\"\(dur)s\" repeatCount=\"indefinite\" calcMode=\"linear\" keyTimes=\"\(times)\" values=\""
            out += values.map { SVG.fixed($0, decimals: 4) }.joined(separator: ";")
            out += "\"/>"
        }
        return out + "</circle>"
    }
}
