#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One loop of a loader sampled from the engine, for the exports: each
/// element's adaptive keyframes (loop time, values), with straight lines
/// between them within a tolerance, and the box every element stays in.
/// Nothing here knows a format; each export writes these keyframes its own
/// way.
public struct SampledLoop: Sendable {
    /// What the loop shows: `[start, start + duration)` of loader time.
    public let loader: ConfiguredLoader
    public let start: Double
    public let duration: Double
    /// Largest difference between the keyframes' straight lines and the engine,
    /// checked on a 1 ms grid (away from the 0.1 ms around each jump) when
    /// built with `verify` (tests and the bench; the service skips it).
    public private(set) var maxPositionError = 0.0
    public private(set) var maxOpacityError = 0.0
    public private(set) var maxRadiusError = 0.0
    public private(set) var keyframeCount = 0
    /// Every element that shows during the loop, in first-seen order: how
    /// it is first drawn, and its keyframes (loop time, values).
    public private(set) var tracks: [Track] = []
    /// The canvas and every place an element reaches during the loop.
    public private(set) var bounds: Bounds

    /// An element's keyframes over `duration`, which repeats: the loop's,
    /// or the element's own period where the loop is not a common period of
    /// all the elements (each then loops on its own, exact for ever).
    public struct Track: Sendable {
        public let element: Element
        public let keys: [(s: Double, v: Sample)]
        public let duration: Double
    }

    /// The canvas and the drawn extent of elements, in points.
    public struct Bounds: Sendable {
        public var minX: Double, minY: Double, maxX: Double, maxY: Double
        public init(width: Double, height: Double) { minX = 0; minY = 0; maxX = width; maxY = height }
        public mutating func include(_ e: Element) {
            let (hw, hh) = e.halfExtent
            minX = min(minX, e.x - hw); maxX = max(maxX, e.x + hw)
            minY = min(minY, e.y - hh); maxY = max(maxY, e.y + hh)
        }
        /// With a 1 pt margin, whole points.
        public var padded: (x: Double, y: Double, width: Double, height: Double) {
            let x = (minX - 1).rounded(.down), y = (minY - 1).rounded(.down)
            return (x, y, (maxX + 1).rounded(.up) - x, (maxY + 1).rounded(.up) - y)
        }
    }

    public static let positionTolerance = 0.02   // points
    public static let valueTolerance = 0.002     // opacity, scale, turn (radians), trim
    static let minimumStep = 0.0001              // seconds: a jump is placed this exactly
    /// Keyframes for the whole animation; past it, intervals stay on the
    /// 30/s grid unrefined (extreme parameters: many dots wrapping fast).
    static let keyframeBudget = 6_000
    /// Keyframes on the grid, for all elements together.
    static let gridBudget = 6_000.0
    /// The most frames one loop computes: its grids (30 a second over at most
    /// `maxDuration` in all, one more frame each, at most 64 of them), looks
    /// at the quarters of each grid interval for every element at once, and
    /// two looks per refining keyframe.
    public static let maxFrames = 4 * (Int(30 * maxDuration) + 64) + 2 * keyframeBudget

    /// The loop for a loader: one period once every element has started
    /// (typing, switch), or a sample with a few progress events and a finish
    /// (web, or anything without a period).
    /// Whether the loop is one period from when every element has started:
    /// each element's keyframes then repeat seamlessly, so a copy can run
    /// its first copy's keyframes later (CSS's animation-delay).
    public var periodic: Bool {
        guard let period = loader.period else { return false }
        return start >= loader.definition.settleTime(loader.parameters) && duration == period
    }

    /// `from`, when given, is where the loop starts instead.
    public static func loop(for definition: LoaderDefinition, parameters: [(name: String, value: String)], from: Double? = nil,
                            verify: Bool = false) throws(ParameterError) -> SampledLoop {
        let steady = try SteadyLoop(definition, parameters: parameters)
        return SampledLoop(loader: steady.loader, start: from ?? steady.start, duration: steady.duration, verify: verify)
    }

    /// The loop of `steady`; `from`, when given, is where it starts instead.
    public static func loop(_ steady: SteadyLoop, from: Double? = nil) -> SampledLoop {
        SampledLoop(loader: steady.loader, start: from ?? steady.start, duration: steady.duration, verify: false)
    }

    /// The longest loop, in seconds: a longer period or page load loops its
    /// first minute (sampling is bounded by it).
    public static let maxDuration = SteadyLoop.maxDuration

    init(loader: ConfiguredLoader, start: Double, duration: Double, verify: Bool) {
        self.loader = loader
        self.start = start
        self.duration = min(duration, Self.maxDuration)
        bounds = Bounds(width: loader.width, height: loader.height)
        build(verify: verify)
    }

    /// Values of one element: centre, radius (circles), opacity, and a
    /// rect's or ring's turn, scale and own animatable values; absent as
    /// opacity 0.
    public struct Sample: Sendable {
        public var x, y, r, opacity: Double
        public var rotation = 0.0, scale = 1.0, strokeStart = 0.0, strokeEnd = 1.0, lineWidth = 0.0, cornerRadius = 0.0
        public var width = 0.0, height = 0.0
        public var present: Bool

        init(x: Double, y: Double, r: Double, opacity: Double, present: Bool) {
            self.x = x; self.y = y; self.r = r; self.opacity = opacity; self.present = present
        }

        /// The largest difference that matters, in tolerance units
        /// (over 1: the SVG's straight line strays too far).
        func stray(from o: Sample) -> Double {
            let position = max(abs(x - o.x), abs(y - o.y), abs(r - o.r), abs(lineWidth - o.lineWidth), abs(cornerRadius - o.cornerRadius),
                               abs(width - o.width), abs(height - o.height)) / SampledLoop.positionTolerance
            let value = max(abs(opacity - o.opacity), abs(rotation - o.rotation), abs(scale - o.scale), abs(strokeStart - o.strokeStart), abs(strokeEnd - o.strokeEnd)) / SampledLoop.valueTolerance
            return max(position, value)
        }

        public static func mix(_ a: Sample, _ b: Sample, _ f: Double) -> Sample {
            var m = a
            m.x += (b.x - a.x) * f; m.y += (b.y - a.y) * f; m.r += (b.r - a.r) * f; m.opacity += (b.opacity - a.opacity) * f
            m.rotation += (b.rotation - a.rotation) * f; m.scale += (b.scale - a.scale) * f
            m.strokeStart += (b.strokeStart - a.strokeStart) * f; m.strokeEnd += (b.strokeEnd - a.strokeEnd) * f
            m.lineWidth += (b.lineWidth - a.lineWidth) * f; m.cornerRadius += (b.cornerRadius - a.cornerRadius) * f
            m.width += (b.width - a.width) * f; m.height += (b.height - a.height) * f
            return m
        }
    }

    /// The engine's elements at loop time `s`, by id.
    private func elements(at s: Double) -> [ElementID: Element] {
        var frame: [ElementID: Element] = [:]
        for e in loader.frame(at: start + s).elements { frame[e.id] = e }
        return frame
    }

    public static func sample(_ e: Element?) -> Sample? {
        guard let e else { return nil }
        switch e.shape {
        // A circle is sampled by its drawn radius alone.
        case .circle: return Sample(x: e.x, y: e.y, r: e.diameter * e.scale / 2, opacity: e.opacity, present: true)
        case .rect, .ring, .segment, .triangle: break
        }
        var s = Sample(x: e.x, y: e.y, r: 0, opacity: e.opacity, present: true)
        s.rotation = e.rotation; s.scale = e.scale
        s.strokeStart = e.strokeStart; s.strokeEnd = e.strokeEnd; s.lineWidth = e.lineWidth; s.cornerRadius = e.cornerRadius
        s.width = e.width; s.height = e.height
        return s
    }

    /// Each element's own period, where the loop is not a period of every
    /// element but each has one (cycles with no common period: a grid of
    /// dots each on a cycle of its own) and sampling them all costs no more
    /// than the loop would: their distinct periods add up to at most
    /// `maxDuration`, 64 of them at most. An element that does not change
    /// takes the loop's duration.
    func ownPeriods() -> [ElementID: Double]? {
        if let period = loader.period, abs(period - duration) < 1e-9 { return nil }
        guard start >= loader.definition.settleTime(loader.parameters) - 1e-9, let periods = loader.elementPeriods else { return nil }
        let ids = loader.frame(at: start).elements.map(\.id)
        guard ids.count == periods.count else { return nil }
        var result: [ElementID: Double] = [:]
        for (id, period) in zip(ids, periods) {
            guard let period, period <= duration else { return nil }
            result[id] = period == 0 ? duration : period
        }
        let distinct = Set(result.values)
        guard distinct.count <= 64, distinct.reduce(0, +) <= Self.maxDuration else { return nil }
        return result
    }

    private mutating func build(verify: Bool) {
        // A 30/s grid per length sampled (the loop's, or each own period),
        // each frame computed once for every element; every element that
        // shows at some point of the loop, in first-seen order.
        var ids: [ElementID] = []
        var colors: [ElementID: RGBColor] = [:]
        var shapes: [ElementID: Element] = [:]
        var box = Bounds(width: loader.width, height: loader.height)
        let own = ownPeriods()
        let lengths = own.map { Array(Set($0.values)).sorted() } ?? [duration]
        // 30 per second, fewer when many elements over a long loop would pass
        // 6,000 grid keyframes (a loop is at most a minute; a definition has
        // up to 1,000 elements): the work and the answer stay bounded.
        let elementCount = max(1, loader.frame(at: start).elements.count)
        let rate = min(30, Self.gridBudget / (Double(elementCount) * lengths.reduce(0, +)))
        var grids: [Double: Grid] = [:]
        for length in lengths {
            let count = max(1, Int((length * rate).rounded(.up)))
            // The grid's points, then the quarters of its intervals (one
            // frame for every element, where looking per element would take
            // one each).
            var grid = Grid(points: [], quarters: [])
            grid.points.reserveCapacity(count + 1)
            grid.quarters.reserveCapacity(3 * count)
            for k in 0...(4 * count) {
                var frame: [ElementID: Element] = [:]
                for e in loader.frame(at: start + length * Double(k) / Double(4 * count)).elements {
                    if colors[e.id] == nil { ids.append(e.id); colors[e.id] = e.color; shapes[e.id] = e }
                    box.include(e)
                    frame[e.id] = e
                }
                if k % 4 == 0 { grid.points.append(frame) } else { grid.quarters.append(frame) }
            }
            grids[length] = grid
        }
        bounds = box
        for id in ids {
            let length = own?[id] ?? duration
            let keys = keyframes(id, grid: grids[length]!, length: length)
            keyframeCount += keys.count
            tracks.append(Track(element: shapes[id]!, keys: keys, duration: length))
        }
        if verify { self.verify() }
    }

    /// Frames on a grid: its points, and the quarter, middle and three
    /// quarters of each interval between them.
    struct Grid {
        var points: [[ElementID: Element]]
        var quarters: [[ElementID: Element]]
    }

    /// Adaptive keyframes: a 30/s grid, each interval split while its middle
    /// (or at the grid, a quarter) strays from the straight line; a jump ends
    /// up bracketed 0.1 ms wide.
    private func keyframes(_ id: ElementID, grid: Grid, length: Double) -> [(s: Double, v: Sample)] {
        let count = grid.points.count - 1
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
        var previous = Self.sample(grid.points[0][id]) ?? absent(near: nil)
        keys.append((0, previous))
        for i in 1...count {
            let b = length * Double(i) / Double(count)
            let vb = Self.sample(grid.points[i][id]) ?? absent(near: previous)
            let look = { (q: Int) in Self.sample(grid.quarters[3 * (i - 1) + q][id]) ?? absent(near: previous) }
            refine(keys.last!.s, keys.last!.v, b, vb, into: &keys, value: { value($0, near: $1) },
                   known: (look(1), (look(0), look(2))))
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

    /// Splits [a, b] while its middle strays from the straight line. A grid
    /// interval comes with its middle and quarters already known, and a
    /// quarter that strays splits it too: a middle can fall on the line by
    /// chance beside a corner (a curve arriving steeply, then still).
    private func refine(_ a: Double, _ va: Sample, _ b: Double, _ vb: Sample, into keys: inout [(s: Double, v: Sample)],
                        value: (Double, Sample?) -> Sample, known: (mid: Sample, quarters: (Sample, Sample)?)? = nil) {
        guard b - a > Self.minimumStep, keyframeCount + keys.count < Self.keyframeBudget else { return }
        let m = (a + b) / 2
        let vm = known?.mid ?? value(m, va)
        var off = vm.stray(from: Sample.mix(va, vb, 0.5)) > 0.75 || va.present != vb.present
        if !off, let (q1, q3) = known?.quarters ?? nil {
            off = q1.stray(from: Sample.mix(va, vb, 0.25)) > 0.75 || q3.stray(from: Sample.mix(va, vb, 0.75)) > 0.75
        }
        guard off else { return }
        refine(a, va, m, vm, into: &keys, value: value, known: known?.quarters.map { ($0.0, nil) })
        keys.append((m, vm))
        refine(m, vm, b, vb, into: &keys, value: value, known: known?.quarters.map { ($0.1, nil) })
    }

    /// Compares the SVG's linear interpolation with the engine every 1 ms,
    /// one engine frame per millisecond for all elements (each over its
    /// track's length).
    private mutating func verify() {
        var cursors = [Int](repeating: 0, count: tracks.count)
        var s = 0.0
        while s < duration {
            let frame = elements(at: s)
            for (n, track) in tracks.enumerated() where s < track.duration {
                let id = track.element.id, keys = track.keys
                while cursors[n] + 1 < keys.count && keys[cursors[n] + 1].s <= s { cursors[n] += 1 }
                let j = cursors[n]
                guard j + 1 < keys.count else { continue }
                let (a, b) = (keys[j], keys[j + 1])
                if b.s - a.s > Self.minimumStep * 1.01, a.v.present, b.v.present, let truth = Self.sample(frame[id]) {
                    let m = Sample.mix(a.v, b.v, (s - a.s) / (b.s - a.s))
                    maxPositionError = max(maxPositionError, abs(m.x - truth.x), abs(m.y - truth.y))
                    maxOpacityError = max(maxOpacityError, abs(m.opacity - truth.opacity), abs(m.scale - truth.scale),
                                          abs(m.rotation - truth.rotation), abs(m.strokeStart - truth.strokeStart), abs(m.strokeEnd - truth.strokeEnd))
                    maxRadiusError = max(maxRadiusError, abs(m.r - truth.r), abs(m.lineWidth - truth.lineWidth), abs(m.cornerRadius - truth.cornerRadius),
                                         abs(m.width - truth.width), abs(m.height - truth.height))
                }
            }
            s += 0.001
        }
    }
}

extension Element {
    /// Half the axis-aligned extent of the element as drawn: a turned rect's
    /// box; a ring's stroke reaches lineWidth/2 past its diameter.
    public var halfExtent: (Double, Double) {
        switch shape {
        case .circle, .segment: return (diameter * scale / 2, diameter * scale / 2)
        case .ring: let r = (diameter + lineWidth) * scale / 2; return (r, r)
        case .rect:
            let c = abs(cos(rotation)), s = abs(sin(rotation))
            return ((width * c + height * s) * scale / 2, (width * s + height * c) * scale / 2)
        case .triangle:
            // The farthest corner from the centre along each axis, turned.
            let c = cos(rotation), s = sin(rotation)
            var hx = 0.0, hy = 0.0
            for (px, py) in [(0, -height / 2), (width / 2, height / 2), (-width / 2, height / 2)] {
                hx = max(hx, abs(px * c - py * s)); hy = max(hy, abs(px * s + py * c))
            }
            return (hx * scale, hy * scale)
        }
    }
}
