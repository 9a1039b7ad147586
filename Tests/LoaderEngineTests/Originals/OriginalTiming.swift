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
