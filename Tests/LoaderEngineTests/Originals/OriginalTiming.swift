#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import LoaderEngine

// Small evaluators of the originals' own timing, written here from the
// CSS Animations and Core Animation rules and sharing nothing with the
// engine: the classic loaders' tests state each original in these terms,
// transcribed from its source, and compare the engine's frames with them.

/// A cubic Bézier timing curve from (0, 0) to (1, 1), as CSS's
/// `cubic-bezier()` and `CAMediaTimingFunction(controlPoints:)` define it.
struct Curve {
    let x1, y1, x2, y2: Double
    init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) { (self.x1, self.y1, self.x2, self.y2) = (x1, y1, x2, y2) }

    static let linear = Curve(0, 0, 1, 1)
    /// CSS `ease-in-out`, and Core Animation's `easeInEaseOut`.
    static let easeInOut = Curve(0.42, 0, 0.58, 1)
    /// Core Animation's `default` (`kCAMediaTimingFunctionDefault`).
    static let caDefault = Curve(0.25, 0.1, 0.25, 1)

    /// The curve's y where its x is `x`: the parameter by bisection (x is
    /// monotonic in it for control x in 0…1), to far below 1e-9.
    func callAsFunction(_ x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        func bezier(_ a: Double, _ b: Double, _ s: Double) -> Double {
            3 * a * s * (1 - s) * (1 - s) + 3 * b * s * s * (1 - s) + s * s * s
        }
        var lo = 0.0, hi = 1.0
        for _ in 0..<100 {
            let mid = (lo + hi) / 2
            if bezier(x1, x2, mid) < x { lo = mid } else { hi = mid }
        }
        return bezier(y1, y2, (lo + hi) / 2)
    }
}

/// `x mod m` in `0..<m`.
func wrapped(_ x: Double, _ m: Double) -> Double {
    let r = x.truncatingRemainder(dividingBy: m)
    return r < 0 ? r + m : r
}

/// A `CAKeyframeAnimation` in linear mode (or a `CABasicAnimation`, as two
/// key values) that repeats for ever from `beginTime`: `keyTimes`,
/// `values`, one timing function per leg.
struct CAKeyframes {
    var keyTimes: [Double]
    var values: [Double]
    var curves: [Curve]
    var duration: Double
    var beginTime = 0.0

    /// The presented value at time t, or nil before the animation begins
    /// (the layer then shows its model value).
    func value(at t: Double) -> Double? {
        let local = t - beginTime
        guard local >= 0 else { return nil }
        return Self.interpolate(wrapped(local, duration) / duration, keyTimes, values, curves)
    }

    /// Linear interpolation between key values, each leg through its curve;
    /// past the last key time, the last value.
    static func interpolate(_ p: Double, _ keyTimes: [Double], _ values: [Double], _ curves: [Curve]) -> Double {
        guard p < keyTimes.last! else { return values.last! }
        var i = 0
        while p >= keyTimes[i + 1] { i += 1 }
        let u = (p - keyTimes[i]) / (keyTimes[i + 1] - keyTimes[i])
        let curve = curves.count == 1 ? curves[0] : curves[i]
        return values[i] + (values[i + 1] - values[i]) * curve(u)
    }
}

/// A CSS animation with `infinite` iterations: `@keyframes` as
/// (offset 0…1, value) stops, `animation-duration`, `-delay`,
/// `-timing-function` (which applies to each interval between keyframes),
/// and whether its fill mode covers the delay (`backwards` or `both`).
struct CSSKeyframes {
    var stops: [(Double, Double)]
    var duration: Double
    var delay = 0.0
    var curve = Curve.easeInOut
    var fillBackwards = false

    /// The value at time t; `base` is the property's value with no
    /// animation, which a missing 0 % or 100 % keyframe takes.
    func value(at t: Double, base: Double) -> Double {
        var stops = self.stops.sorted { $0.0 < $1.0 }
        if stops.first!.0 > 0 { stops.insert((0, base), at: 0) }
        if stops.last!.0 < 1 { stops.append((1, base)) }
        let local = t - delay
        if local < 0 { return fillBackwards ? stops[0].1 : base }
        return CAKeyframes.interpolate(wrapped(local, duration) / duration, stops.map(\.0), stops.map(\.1), [curve])
    }
}

/// What the original shows of one element, to compare with a frame's.
struct Expected {
    var x, y: Double
    var scale = 1.0
    var opacity = 1.0
    var rotation: Double? = nil              // radians, compared modulo a turn
    var diameter: Double? = nil
    var width: Double? = nil, height: Double? = nil, cornerRadius: Double? = nil
    /// A ring's drawn arc: where it starts (radians clockwise from 12
    /// o'clock, modulo a turn) and how long it is (radians).
    var arc: (start: Double, length: Double)? = nil
    var lineWidth: Double? = nil
    var lineCap: LineCap? = nil
    /// A filled circular segment: the angle its arc spans, radians (its
    /// middle is where `rotation` turns 12 o'clock to).
    var segmentArc: Double? = nil
}

/// Compares every element of the engine's frames with the original's over
/// `seconds`, at `samples` moments (and each moment's element ids in order).
func expectMatchesOriginal(_ name: String, seconds: Double, samples: Int = 400, tolerance: Double = 1e-6,
                           query: [(name: String, value: String)] = [], sourceLocation: SourceLocation = #_sourceLocation,
                           _ original: (Double) -> [Expected]) throws {
    let loader = try #require(LoaderCatalog.standard[name], sourceLocation: sourceLocation).configure(query)
    var worst = 0.0, worstAt = ""
    var mismatches: [String] = []   // what is not a number: counts, caps (the first few)
    func mismatch(_ what: String) { if mismatches.count < 5 { mismatches.append(what) } }
    func compare(_ a: Double, _ b: Double, _ what: @autoclosure () -> String) {
        let off = abs(a - b)
        if !(off <= worst) { worst = off; worstAt = what() }
    }
    func turn(_ a: Double, _ b: Double, _ what: @autoclosure () -> String) {
        let off = abs(wrapped(a - b + .pi, 2 * .pi) - .pi)
        if !(off <= worst) { worst = off; worstAt = what() }
    }
    for k in 0...samples {
        let t = seconds * Double(k) / Double(samples)
        let frame = loader.frame(at: t)
        let expected = original(t)
        if frame.elements.count != expected.count { mismatch("\(name) at \(t): \(frame.elements.count) elements, the original has \(expected.count)") }
        for (i, (e, o)) in zip(frame.elements, expected).enumerated() {
            let at = "\(name) element \(i) (\(e.id)) at t = \(t)"
            compare(e.x, o.x, "\(at): x \(e.x), original \(o.x)")
            compare(e.y, o.y, "\(at): y \(e.y), original \(o.y)")
            compare(e.scale, o.scale, "\(at): scale \(e.scale), original \(o.scale)")
            compare(e.opacity, o.opacity, "\(at): opacity \(e.opacity), original \(o.opacity)")
            if let r = o.rotation { turn(e.rotation, r, "\(at): rotation \(e.rotation), original \(r)") }
            if let d = o.diameter { compare(e.diameter, d, "\(at): diameter \(e.diameter), original \(d)") }
            if let w = o.width { compare(e.width, w, "\(at): width \(e.width), original \(w)") }
            if let h = o.height { compare(e.height, h, "\(at): height \(e.height), original \(h)") }
            if let c = o.cornerRadius { compare(e.cornerRadius, c, "\(at): corner radius \(e.cornerRadius), original \(c)") }
            if let w = o.lineWidth { compare(e.lineWidth, w, "\(at): line width \(e.lineWidth), original \(w)") }
            if let arc = o.segmentArc {
                if e.shape != .segment { mismatch("\(at): a \(e.shape), the original fills a segment") }
                compare(e.arc, arc, "\(at): segment arc \(e.arc), original \(arc)")
            }
            if let cap = o.lineCap, e.lineCap != cap { mismatch("\(at): line cap \(e.lineCap), original \(cap)") }
            if let arc = o.arc {
                // The engine's ring: from 12 o'clock turned by its rotation, strokeStart to strokeEnd.
                let length = 2 * .pi * max(e.strokeEnd - e.strokeStart, 0)
                compare(length, arc.length, "\(at): arc length \(length), original \(arc.length)")
                if arc.length > 1e-9 && arc.length < 2 * .pi - 1e-9 {
                    let start = e.rotation + 2 * .pi * e.strokeStart
                    turn(start, arc.start, "\(at): arc start \(start), original \(arc.start)")
                }
            }
        }
    }
    #expect(worst <= tolerance, "\(name): off by \(worst) at worst, \(worstAt)", sourceLocation: sourceLocation)
    #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "; "))", sourceLocation: sourceLocation)
}

/// A 2D CSS transform function, as a `transform` list writes it (lengths
/// in px, angles in degrees, positive clockwise on screen).
enum CSSTransformFunction {
    case translateX(Double), translateY(Double), rotate(Double), scale(Double)

    /// The functions that interpolate with each other share a primitive.
    var primitive: Int {
        switch self {
        case .translateX, .translateY: 0
        case .rotate: 1
        case .scale: 2
        }
    }
    /// The primitive's identity, which a shorter list is padded with.
    var identity: Self {
        switch self {
        case .translateX, .translateY: .translateX(0)
        case .rotate: .rotate(0)
        case .scale: .scale(1)
        }
    }
    /// The function as its primitive's numbers: translate(x, y), rotate(a), scale(s).
    var numbers: [Double] {
        switch self {
        case let .translateX(x): [x, 0]
        case let .translateY(y): [0, y]
        case let .rotate(a): [a]
        case let .scale(s): [s]
        }
    }
}

/// A 2D affine matrix as CSS's `matrix(a, b, c, d, e, f)`: a point (x, y)
/// goes to (a x + c y + e, b x + d y + f).
struct CSSMatrix {
    var a = 1.0, b = 0.0, c = 0.0, d = 1.0, e = 0.0, f = 0.0

    static func * (m: Self, n: Self) -> Self {
        Self(a: m.a * n.a + m.c * n.b, b: m.b * n.a + m.d * n.b, c: m.a * n.c + m.c * n.d, d: m.b * n.c + m.d * n.d,
             e: m.a * n.e + m.c * n.f + m.e, f: m.b * n.e + m.d * n.f + m.f)
    }
    static func translate(_ x: Double, _ y: Double) -> Self { Self(e: x, f: y) }
    static func rotate(degrees: Double) -> Self {
        let r = degrees * .pi / 180
        return Self(a: cos(r), b: sin(r), c: -sin(r), d: cos(r))
    }
    static func scale(_ x: Double, _ y: Double) -> Self { Self(a: x, d: y) }

    /// A list's matrix: the functions multiplied left to right.
    init(a: Double = 1, b: Double = 0, c: Double = 0, d: Double = 1, e: Double = 0, f: Double = 0) {
        (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
    }
    init(_ list: ArraySlice<CSSTransformFunction>) {
        self.init()
        for function in list { self = self * Self.primitiveMatrix(function.primitive, function.numbers) }
    }
    static func primitiveMatrix(_ primitive: Int, _ n: [Double]) -> Self {
        switch primitive {
        case 0: .translate(n[0], n[1])
        case 1: .rotate(degrees: n[0])
        default: .scale(n[0], n[0])
        }
    }

    /// CSS Transforms' "decomposing a 2D matrix": translation, scale,
    /// angle (degrees) and skew.
    func decomposed() -> (translate: (Double, Double), scale: (Double, Double), angle: Double, skew: Double) {
        var row0 = (a, b), row1 = (c, d)
        var scale = ((row0.0 * row0.0 + row0.1 * row0.1).squareRoot(), (row1.0 * row1.0 + row1.1 * row1.1).squareRoot())
        if row0.0 * row1.1 < row0.1 * row1.0 {
            if row0.0 < row1.1 { scale.0 = -scale.0 } else { scale.1 = -scale.1 }
        }
        if scale.0 != 0 { row0 = (row0.0 / scale.0, row0.1 / scale.0) }
        if scale.1 != 0 { row1 = (row1.0 / scale.1, row1.1 / scale.1) }
        var skew = row0.0 * row1.0 + row0.1 * row1.1
        row1 = (row1.0 - row0.0 * skew, row1.1 - row0.1 * skew)
        let length = (row1.0 * row1.0 + row1.1 * row1.1).squareRoot()
        scale.1 *= length
        if length != 0 { row1 = (row1.0 / length, row1.1 / length); skew /= length }
        return ((e, f), scale, atan2(row0.1, row0.0) * 180 / .pi, skew)
    }

    /// CSS Transforms' interpolation of two decomposed 2D matrices.
    static func interpolated(_ m: Self, _ n: Self, _ p: Double) -> Self {
        var (ta, sa, angleA, skewA) = m.decomposed()
        let (tb, sb, angleB0, skewB) = n.decomposed()
        var angleB = angleB0
        if (sa.0 < 0 && sb.1 < 0) || (sa.1 < 0 && sb.0 < 0) { sa = (-sa.0, -sa.1); angleA += angleA < 0 ? 180 : -180 }
        if angleA == 0 { angleA = 360 }                          // don't rotate the long way round
        if angleB == 0 { angleB = 360 }
        if abs(angleA - angleB) > 180 { if angleA > angleB { angleA -= 360 } else { angleB -= 360 } }
        let mix = { (x: Double, y: Double) in x + (y - x) * p }
        let skew = mix(skewA, skewB)
        return .translate(mix(ta.0, tb.0), mix(ta.1, tb.1)) * .rotate(degrees: mix(angleA, angleB))
            * Self(c: skew) * .scale(mix(sa.0, sb.0), mix(sa.1, sb.1))
    }
}

/// A CSS animation of `transform` with `infinite` iterations, one timing
/// function for every interval between keyframes. Each keyframe pair is
/// interpolated as CSS Transforms level 2 says: functions sharing a
/// primitive pairwise for the longest common prefix (a shorter list that
/// matches all the way padded with identities), the rest as decomposed
/// matrices.
struct CSSTransformKeyframes {
    var stops: [(Double, [CSSTransformFunction])]
    var duration: Double
    var delay = 0.0
    var curve = Curve.easeInOut

    func matrix(at t: Double) -> CSSMatrix {
        let offset = wrapped(t - delay, duration) / duration
        var i = 0
        while i + 2 < stops.count && offset >= stops[i + 1].0 { i += 1 }
        let p = curve((offset - stops[i].0) / (stops[i + 1].0 - stops[i].0))
        var from = stops[i].1, to = stops[i + 1].1
        var prefix = 0
        while prefix < min(from.count, to.count) && from[prefix].primitive == to[prefix].primitive { prefix += 1 }
        if prefix == min(from.count, to.count) {
            while from.count < to.count { from.append(to[from.count].identity) }
            while to.count < from.count { to.append(from[to.count].identity) }
            prefix = from.count
        }
        var result = CSSMatrix()
        for k in 0..<prefix {
            let a = from[k].numbers, b = to[k].numbers
            result = result * CSSMatrix.primitiveMatrix(from[k].primitive, zip(a, b).map { $0 + ($1 - $0) * p })
        }
        return result * CSSMatrix.interpolated(CSSMatrix(from[prefix...]), CSSMatrix(to[prefix...]), p)
    }
}

/// `UIBezierPath(arcCenter:radius:startAngle:endAngle:clockwise:)` as Core
/// Graphics builds it: cubic Bézier segments of equal angle, none more than
/// a quarter turn, each with its control points 4/3 × tan(θ/4) of the
/// radius along the tangents at its ends (UIKit's angles: y down, so
/// `clockwise` turns clockwise on screen).
struct CGArcPath {
    var segments: [(p0: (Double, Double), p1: (Double, Double), p2: (Double, Double), p3: (Double, Double))] = []

    init(center: (Double, Double), radius r: Double, startAngle: Double, endAngle: Double, clockwise: Bool) {
        var sweep = endAngle - startAngle
        if clockwise && sweep < 0 { sweep += 2 * .pi }
        if !clockwise && sweep > 0 { sweep -= 2 * .pi }
        let count = max(1, Int((abs(sweep) / (.pi / 2)).rounded(.up)))
        let step = sweep / Double(count), k = 4.0 / 3.0 * tan(step / 4)
        func point(_ a: Double) -> (Double, Double) { (center.0 + r * cos(a), center.1 + r * sin(a)) }
        for i in 0..<count {
            let a0 = startAngle + Double(i) * step, a1 = a0 + step
            let p0 = point(a0), p3 = point(a1)
            segments.append((p0, (p0.0 - k * r * sin(a0), p0.1 + k * r * cos(a0)),
                             (p3.0 + k * r * sin(a1), p3.1 - k * r * cos(a1)), p3))
        }
    }

    /// A keyframe animation's position on this path in linear mode with no
    /// key times, at progress p: each segment an equal share of the time,
    /// followed by its own parameter.
    func position(at p: Double) -> (Double, Double) {
        let scaled = min(max(p, 0), 1) * Double(segments.count)
        let i = min(Int(scaled), segments.count - 1), u = scaled - Double(i)
        let s = segments[i], v = 1 - u
        let b0 = v * v * v, b1 = 3 * u * v * v, b2 = 3 * u * u * v, b3 = u * u * u
        return (b0 * s.p0.0 + b1 * s.p1.0 + b2 * s.p2.0 + b3 * s.p3.0, b0 * s.p0.1 + b1 * s.p1.1 + b2 * s.p2.1 + b3 * s.p3.1)
    }
}
