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
        /// The element passes under perspective during the track: every
        /// key carries its outline (`Sample.outline`).
        public var outlined: Bool { keys.first?.v.outline != nil }
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
        /// An affine placement's linear part, decomposed as SVG's and CSS's
        /// `rotate(rotation) scale(scale) skewX(skew) scale(scaleX, scaleY)`
        /// (`place`): exports interpolate those lists component by
        /// component, so the samples are checked against the engine in the
        /// same terms (a matrix interpolated entry by entry would shrink a
        /// turning squash).
        public var skew = 0.0, scaleX = 1.0, scaleY = 1.0
        /// Under perspective somewhere in its track: the element's outline
        /// in canvas coordinates at every sample (whatever its placement at
        /// that moment), which an export animates number by number, as SMIL
        /// and CSS interpolate path data. `nil` on other tracks.
        public var outline: [OutlineSegment]?

        init(x: Double, y: Double, r: Double, opacity: Double, present: Bool) {
            self.x = x; self.y = y; self.r = r; self.opacity = opacity; self.present = present
        }

        /// The largest difference that matters, in tolerance units
        /// (over 1: the SVG's straight line strays too far).
        func stray(from o: Sample) -> Double {
            // An outline says all of the shape; the nearest similarity's
            // turn would only add keys where it wraps.
            if let a = outline, let b = o.outline {
                return max(abs(opacity - o.opacity) / SampledLoop.valueTolerance, (Self.outlineStray(a, b) ?? .infinity) / SampledLoop.positionTolerance)
            }
            let position = max(abs(x - o.x), abs(y - o.y), abs(r - o.r), abs(lineWidth - o.lineWidth), abs(cornerRadius - o.cornerRadius),
                               abs(width - o.width), abs(height - o.height)) / SampledLoop.positionTolerance
            let value = max(abs(opacity - o.opacity), abs(rotation - o.rotation), abs(scale - o.scale), abs(strokeStart - o.strokeStart), abs(strokeEnd - o.strokeEnd),
                            abs(skew - o.skew), abs(scaleX - o.scaleX), abs(scaleY - o.scaleY)) / SampledLoop.valueTolerance
            return max(position, value, outlineStray(from: o) / SampledLoop.positionTolerance)
        }

        /// How far apart two samples' outlines are, in points; infinite
        /// when only one has one, or their paths differ in structure (a jump).
        func outlineStray(from o: Sample) -> Double {
            switch (outline, o.outline) {
            case (nil, nil): return 0
            case let (a?, b?): return Self.outlineStray(a, b) ?? .infinity
            case (nil, _?), (_?, nil): return .infinity
            }
        }

        /// The largest move of an outline's points and radii, and of an
        /// arc's turn as far as it shows (the angle times the difference of
        /// the radii); `nil` when the commands or flags differ.
        static func outlineStray(_ a: [OutlineSegment], _ b: [OutlineSegment]) -> Double? {
            guard a.count == b.count else { return nil }
            var most = 0.0
            for (p, q) in zip(a, b) {
                switch (p, q) {
                case let (.move(u), .move(v)), let (.line(u), .line(v)):
                    most = max(most, abs(u.x - v.x), abs(u.y - v.y))
                case let (.arc(rx1, ry1, t1, l1, s1, u), .arc(rx2, ry2, t2, l2, s2, v)):
                    guard l1 == l2, s1 == s2 else { return nil }
                    let turn = abs(halfTurnWrapped(t2 - t1)) * max(abs(rx1 - ry1), abs(rx2 - ry2))
                    most = max(most, abs(u.x - v.x), abs(u.y - v.y), abs(rx1 - rx2), abs(ry1 - ry2), turn)
                case (.close, .close): break
                case (.move, _), (.line, _), (.arc, _), (.close, _): return nil
                }
            }
            return most
        }

        /// An ellipse's axis angle is the same half a turn on: a difference
        /// wrapped into [-π/2, π/2].
        public static func halfTurnWrapped(_ d: Double) -> Double {
            d - (d / .pi).rounded() * .pi
        }

        public static func mix(_ a: Sample, _ b: Sample, _ f: Double) -> Sample {
            var m = a
            m.x += (b.x - a.x) * f; m.y += (b.y - a.y) * f; m.r += (b.r - a.r) * f; m.opacity += (b.opacity - a.opacity) * f
            m.rotation += (b.rotation - a.rotation) * f; m.scale += (b.scale - a.scale) * f
            m.strokeStart += (b.strokeStart - a.strokeStart) * f; m.strokeEnd += (b.strokeEnd - a.strokeEnd) * f
            m.lineWidth += (b.lineWidth - a.lineWidth) * f; m.cornerRadius += (b.cornerRadius - a.cornerRadius) * f
            m.width += (b.width - a.width) * f; m.height += (b.height - a.height) * f
            m.skew += (b.skew - a.skew) * f; m.scaleX += (b.scaleX - a.scaleX) * f; m.scaleY += (b.scaleY - a.scaleY) * f
            if let p = a.outline, let q = b.outline, outlineStray(p, q) != nil {
                m.outline = zip(p, q).map { mixSegment($0, $1, f) }
            }
            return m
        }

        /// Number by number, as SMIL and CSS interpolate path data; an arc's
        /// angle the short way round its half turn.
        static func mixSegment(_ p: OutlineSegment, _ q: OutlineSegment, _ f: Double) -> OutlineSegment {
            func mix(_ u: Point, _ v: Point) -> Point { Point(x: u.x + (v.x - u.x) * f, y: u.y + (v.y - u.y) * f) }
            switch (p, q) {
            case let (.move(u), .move(v)): return .move(mix(u, v))
            case let (.line(u), .line(v)): return .line(mix(u, v))
            case let (.arc(rx1, ry1, t1, l, s, u), .arc(rx2, ry2, t2, _, _, v)):
                return .arc(rx: rx1 + (rx2 - rx1) * f, ry: ry1 + (ry2 - ry1) * f, angle: t1 + halfTurnWrapped(t2 - t1) * f,
                            largeArc: l, sweep: s, to: mix(u, v))
            case (.move, _), (.line, _), (.arc, _), (.close, _): return p
            }
        }
    }

    /// The engine's elements at loop time `s`, by id.
    private func elements(at s: Double) -> [ElementID: Element] {
        var frame: [ElementID: Element] = [:]
        for e in loader.frame(at: start + s).elements { frame[e.id] = e }
        return frame
    }

    /// `outlined`: the element's track passes under perspective, and each
    /// sample carries its outline.
    public static func sample(_ e: Element?, outlined: Bool = false) -> Sample? {
        guard let e else { return nil }
        if outlined {
            var s = sample(e)!
            s.outline = e.outline()
            return s
        }
        switch e.shape {
        // A circle is sampled by its drawn radius alone.
        case .circle where e.placement == nil: return Sample(x: e.x, y: e.y, r: e.diameter * e.scale / 2, opacity: e.opacity, present: true)
        case .circle, .rect, .ring, .segment, .triangle: break
        }
        var s = Sample(x: e.x, y: e.y, r: 0, opacity: e.opacity, present: true)
        s.rotation = e.rotation; s.scale = e.scale
        s.strokeStart = e.strokeStart; s.strokeEnd = e.strokeEnd; s.lineWidth = e.lineWidth; s.cornerRadius = e.cornerRadius
        s.width = e.width; s.height = e.height
        if let p = e.placement { place(&s, e, p) }
        return s
    }

    /// An affine placement's decomposition M = s·R(θ)·K(φ)·S(sx, sy): s is
    /// its uniform scale √|det| (the element's `scale`; in a circle's drawn
    /// radius), K a skew along x, and the rest follows from a = s·sx·cos θ,
    /// b = s·sx·sin θ, sy = det/(s²·sx), tan φ = (a·c + b·d)/(s²·sx·sy).
    /// A similarity is then sx = sy = 1, φ = 0: the same values as an
    /// element with no placement, so a squash that passes through none
    /// (a scale of 1) animates on without a jump. A projective placement
    /// leaves these as they are: its track carries outlines.
    static func place(_ s: inout Sample, _ e: Element, _ p: PlaneTransform) {
        guard p.isAffine else { return }
        let det = p.a * p.d - p.b * p.c, k = abs(det).squareRoot()
        s.rotation = atan2(p.b, p.a)
        // A circle's uniform scale is in its radius (scale 1), as without a placement.
        if e.shape == .circle { s.r = e.diameter * k / 2 } else { s.scale = k }
        // A flat map draws nothing; its parts stay those of no squash.
        guard k > 0 else { return }
        let sx = (p.a * p.a + p.b * p.b).squareRoot() / k
        guard sx > 0 else { return }
        s.scaleX = sx
        s.scaleY = det / (k * k * sx)
        s.skew = atan((p.a * p.c + p.b * p.d) / (k * k * sx * s.scaleY))
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
        let projective = { (frame: [ElementID: Element]) in frame[id]?.placement.map { !$0.isAffine } ?? false }
        let outlined = grid.points.contains(where: projective) || grid.quarters.contains(where: projective)
        // Between grid points: the engine's frame for this one element.
        func value(_ s: Double, near: Sample?) -> Sample {
            Self.sample(loader.frame(at: start + s).elements.first { $0.id == id }, outlined: outlined) ?? absent(near: near)
        }
        var keys: [(s: Double, v: Sample)] = []
        var previous = Self.sample(grid.points[0][id], outlined: outlined) ?? absent(near: nil)
        keys.append((0, previous))
        for i in 1...count {
            let b = length * Double(i) / Double(count)
            let vb = Self.sample(grid.points[i][id], outlined: outlined) ?? absent(near: previous)
            let look = { (q: Int) in Self.sample(grid.quarters[3 * (i - 1) + q][id], outlined: outlined) ?? absent(near: previous) }
            refine(keys.last!.s, keys.last!.v, b, vb, into: &keys, value: { value($0, near: $1) },
                   known: (look(1), (look(0), look(2))))
            keys.append((b, vb))
            previous = vb
        }
        // Absent stretches keep the neighbouring position (no flying dots).
        for i in keys.indices where !keys[i].v.present {
            if let j = keys[i...].firstIndex(where: { $0.v.present }) ?? keys[..<i].lastIndex(where: { $0.v.present }) {
                keys[i].v.x = keys[j].v.x; keys[i].v.y = keys[j].v.y; keys[i].v.r = keys[j].v.r
                keys[i].v.outline = keys[j].v.outline
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
                if b.s - a.s > Self.minimumStep * 1.01, a.v.present, b.v.present, let truth = Self.sample(frame[id], outlined: track.outlined) {
                    let m = Sample.mix(a.v, b.v, (s - a.s) / (b.s - a.s))
                    if track.outlined {
                        // The outline and opacity are all an export draws of it.
                        maxOpacityError = max(maxOpacityError, abs(m.opacity - truth.opacity))
                        maxPositionError = max(maxPositionError, m.outlineStray(from: truth))
                        continue
                    }
                    maxPositionError = max(maxPositionError, abs(m.x - truth.x), abs(m.y - truth.y))
                    maxOpacityError = max(maxOpacityError, abs(m.opacity - truth.opacity), abs(m.scale - truth.scale),
                                          abs(m.rotation - truth.rotation), abs(m.strokeStart - truth.strokeStart), abs(m.strokeEnd - truth.strokeEnd),
                                          abs(m.skew - truth.skew), abs(m.scaleX - truth.scaleX), abs(m.scaleY - truth.scaleY))
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
