#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import LoaderEngine

/// Each classic loader against its original, stated in the original's own
/// terms as its source writes them (repository, path and release in
/// docs/LOADERS.md) and evaluated by OriginalTiming.swift: every element of
/// the engine's frames over two loops, to 1e-6. What the original leaves to
/// its host (NVActivityIndicatorView's size and padding, a SpinKit box's
/// size and the gaps between inline blocks) is the catalogue's choice,
/// written first in each test; the rest comes from the source.
struct OriginalsTests {
    func degrees(_ d: Double) -> Double { d * .pi / 180 }

    // MARK: NVActivityIndicatorView (Sources/Base/Animations/*.swift, 5.2.0)

    /// `lineSpinFadeLoader`: eight lines round the centre, the first at
    /// 3 o'clock, each fading 1 → 0.3 → 1 from its begin time.
    @Test func lineSpinFadeLoader() throws {
        let size = 40.0                                          // host: size 40, no padding
        let lineSpacing = 2.0
        let line = (width: (size - 4 * lineSpacing) / 5, height: (size - 2 * lineSpacing) / 3)
        let beginTimes = [0.12, 0.24, 0.36, 0.48, 0.6, 0.72, 0.84, 0.96]
        let container = max(line.width, line.height)
        let radius = size / 2 - container / 2
        try expectMatchesOriginal("activity-indicator", seconds: 2 * 1.2 + 0.96) { t in
            (0..<8).map { i in
                let angle = Double.pi / 4 * Double(i)
                let fade = CAKeyframes(keyTimes: [0, 0.5, 1], values: [1, 0.3, 1], curves: [.easeInOut, .easeInOut], duration: 1.2, beginTime: beginTimes[i])
                // lineAt(angle:): a container at radius·(cos, sin) + radius, the line centred in it,
                // turned by π/2 + angle (sublayerTransform).
                return Expected(x: radius * (cos(angle) + 1) + container / 2, y: radius * (sin(angle) + 1) + container / 2,
                                opacity: fade.value(at: t) ?? 1, rotation: .pi / 2 + angle,
                                width: line.width, height: line.height, cornerRadius: line.width / 2)
            }
        }
    }

    /// `ballClipRotate`: `ringThirdFour` (an arc from −3π/4 to −π/4 drawn
    /// counterclockwise: its gap centred on 12 o'clock), turning and scaling
    /// in a linear group of 0.75 s (its two animations, with no duration of
    /// their own, run for the group's).
    @Test func ballClipRotate() throws {
        let size = 38.0                                          // host: size 38, padding 1 (the stroke stays in the 40-pt canvas)
        let scale = CAKeyframes(keyTimes: [0, 0.5, 1], values: [1, 0.6, 1], curves: [.linear], duration: 0.75)
        let turn = CAKeyframes(keyTimes: [0, 0.5, 1], values: [0, .pi, 2 * .pi], curves: [.linear], duration: 0.75)
        // UIKit's angles run clockwise from 3 o'clock; counterclockwise from −3π/4 to −π/4
        // covers −π/4 … 5π/4 clockwise: from 12 o'clock, π/4 on, 3π/2 long.
        let start = -Double.pi / 4 + .pi / 2
        try expectMatchesOriginal("spinning-arc", seconds: 1.5) { t in
            [Expected(x: 20, y: 20, scale: scale.value(at: t)!, diameter: size,
                      arc: (start + turn.value(at: t)!, 3 * .pi / 2), lineWidth: 2, lineCap: .butt)]
        }
    }

    /// `ballPulse`: three circles scaling 1 → 0.3 → 1.
    @Test func ballPulse() throws {
        let size = 40.0                                          // host: size 40, no padding
        let spacing = 2.0, circle = (size - 2 * spacing) / 3
        let beginTimes = [0.12, 0.24, 0.36]
        let curve = Curve(0.2, 0.68, 0.18, 1.08)
        try expectMatchesOriginal("pulse-dots", seconds: 2 * 0.75 + 0.36) { t in
            (0..<3).map { i in
                let pulse = CAKeyframes(keyTimes: [0, 0.3, 1], values: [1, 0.3, 1], curves: [curve, curve], duration: 0.75, beginTime: beginTimes[i])
                return Expected(x: (circle + spacing) * Double(i) + circle / 2, y: size / 2, scale: pulse.value(at: t) ?? 1, diameter: circle)
            }
        }
    }

    /// `ballScaleRippleMultiple`: three rings growing and fading in a group
    /// of 1.25 s. The scale animation's one `timingFunction` paces its whole
    /// time; its key times end at 0.7, after which its last value holds.
    @Test func ballScaleRippleMultiple() throws {
        let size = 38.0                                          // host: size 38, padding 1
        let curve = Curve(0.21, 0.53, 0.56, 0.8)
        try expectMatchesOriginal("ripple", seconds: 2 * 1.25 + 0.4) { t in
            [0, 0.2, 0.4].map { begin in
                guard t >= begin else { return Expected(x: 20, y: 20, diameter: size, lineWidth: 2) }
                let p = wrapped(t - begin, 1.25) / 1.25
                let scale = CAKeyframes.interpolate(curve(p), [0, 0.7], [0, 1], [.linear])
                let opacity = CAKeyframes.interpolate(p, [0, 0.7, 1], [1, 0.7, 0], [curve, curve])
                return Expected(x: 20, y: 20, scale: scale, opacity: opacity, diameter: size, lineWidth: 2)
            }
        }
    }

    /// `lineScale`: five `line` shapes (size/9 wide, the size tall, round
    /// ends), each `transform.scale.y` 1 → 0.4 → 1 about its centre: the
    /// whole bar squashed, its ends too.
    @Test func lineScale() throws {
        let size = 45.0                                          // host: size 45, no padding
        let line = size / 9
        let curve = Curve(0.2, 0.68, 0.18, 1.08)
        try expectMatchesOriginalPlanes("line-scale", seconds: 2 * 1 + 0.5) { t in
            (0..<5).map { i in
                let scaleY = CAKeyframes(keyTimes: [0, 0.5, 1], values: [1, 0.4, 1], curves: [curve, curve], duration: 1, beginTime: 0.1 * Double(i + 1)).value(at: t) ?? 1
                return Self.bar(x: line * 2 * Double(i) + line / 2, y: size / 2, width: line, height: size, scaleY: scaleY)
            }
        }
    }

    /// A `line` bar squashed by `transform.scale.y` about its centre.
    static func bar(x: Double, y: Double, width: Double, height: Double, scaleY: Double) -> ExpectedPlane {
        ExpectedPlane(shape: "rect", width: width, height: height, cornerRadius: width / 2) { u, v in (x + u, y + scaleY * v) }
    }

    /// `pacman`: a mouth (an arc of radius size/4 stroked size/2 wide, from
    /// 3 o'clock clockwise) trimmed 0.125…0.875 → 0…1 → back in 0.5 s, and a
    /// circle moving half the size left while fading to 0.7 in 1 s.
    @Test func pacman() throws {
        let size = 60.0                                          // host: size 60, no padding
        let mouth = 2 * size / 3
        let start = CAKeyframes(keyTimes: [0, 0.5, 1], values: [0.125, 0, 0.125], curves: [.caDefault, .caDefault], duration: 0.5)
        let end = CAKeyframes(keyTimes: [0, 0.5, 1], values: [0.875, 1, 0.875], curves: [.caDefault, .caDefault], duration: 0.5)
        let circle = size / 5
        try expectMatchesOriginal("pacman", seconds: 2) { t in
            let s = start.value(at: t)!, e = end.value(at: t)!
            let move = wrapped(t, 1)
            return [
                Expected(x: size - circle / 2 - size / 2 * move, y: size / 2, opacity: 1 - 0.3 * move, diameter: circle),
                Expected(x: mouth / 2, y: size / 2, diameter: mouth / 2,
                         arc: (.pi / 2 + 2 * .pi * s, 2 * .pi * (e - s)), lineWidth: mouth / 2, lineCap: .butt),
            ]
        }
    }

    /// `ballScale`: a circle the size of the view, scale 0 → 1 and opacity
    /// 1 → 0 in a group of 1 s whose timing function is easeInEaseOut.
    @Test func ballScale() throws {
        let size = 40.0                                          // host: size 40
        try expectMatchesOriginal("ball-scale", seconds: 2) { t in
            let p = Curve.easeInOut(wrapped(t, 1))                // the group's curve paces both
            return [Expected(x: size / 2, y: size / 2, scale: p, opacity: 1 - p, diameter: size)]
        }
    }

    /// `ballScaleMultiple`: three such circles (model opacity 0) in linear
    /// groups of 1 s beginning 0, 0.2, 0.4 s: scale 0 → 1, opacity 0 → 1 → 0
    /// at key times 0, 0.05, 1.
    @Test func ballScaleMultiple() throws {
        let size = 40.0                                          // host: size 40
        try expectMatchesOriginal("ball-scale-multiple", seconds: 2.4) { t in
            [0, 0.2, 0.4].map { begin in
                guard t >= begin else { return Expected(x: size / 2, y: size / 2, opacity: 0, diameter: size) }
                let p = wrapped(t - begin, 1)
                return Expected(x: size / 2, y: size / 2, scale: p, opacity: CAKeyframes.interpolate(p, [0, 0.05, 1], [0, 1, 0], [.linear]), diameter: size)
            }
        }
    }

    /// `ballPulseSync`: three circles of (size − 4)/3 moved by
    /// `transform.translation.y` 0, Δ, −Δ, 0 (Δ = (size/2 − circle/2)/2) at
    /// key times 0, 0.33, 0.66, 1, easeInEaseOut, 0.6 s, from 0.07, 0.14, 0.21 s.
    @Test func ballPulseSync() throws {
        let size = 40.0                                          // host: size 40
        let spacing = 2.0, circle = (size - 2 * spacing) / 3
        let delta = (size / 2 - circle / 2) / 2
        try expectMatchesOriginal("ball-pulse-sync", seconds: 1.2 + 0.21) { t in
            [0.07, 0.14, 0.21].enumerated().map { i, begin in
                let move = CAKeyframes(keyTimes: [0, 0.33, 0.66, 1], values: [0, delta, -delta, 0], curves: [.easeInOut, .easeInOut, .easeInOut], duration: 0.6, beginTime: begin)
                return Expected(x: (circle + spacing) * Double(i) + circle / 2, y: size / 2 + (move.value(at: t) ?? 0), diameter: circle)
            }
        }
    }

    /// `ballBeat`: three circles in linear groups of 0.7 s beginning 0.35,
    /// 0, 0.35 s; in each, scale 1 → 0.75 → 1 and opacity 1 → 0.2 → 1 with
    /// no duration of their own: Core Animation runs a grouped animation
    /// without one for the group's duration (as `ballClipRotate`'s).
    @Test func ballBeat() throws {
        let size = 40.0                                          // host: size 40
        let spacing = 2.0, circle = (size - 2 * spacing) / 3
        try expectMatchesOriginal("ball-beat", seconds: 1.4 + 0.35) { t in
            [0.35, 0, 0.35].enumerated().map { i, begin in
                let x = (circle + spacing) * Double(i) + circle / 2
                guard t >= begin else { return Expected(x: x, y: size / 2, diameter: circle) }
                let p = wrapped(t - begin, 0.7) / 0.7
                return Expected(x: x, y: size / 2, scale: CAKeyframes.interpolate(p, [0, 0.5, 1], [1, 0.75, 1], [.linear]),
                                opacity: CAKeyframes.interpolate(p, [0, 0.5, 1], [1, 0.2, 1], [.linear]), diameter: circle)
            }
        }
    }

    /// `ballSpinFadeLoader`: eight circles of (size − 4 × spacing)/5 with
    /// spacing −2, placed as `lineSpinFadeLoader`'s lines, in linear groups
    /// of 1 s from 0, 0.12 … 0.84 s: scale 1 → 0.4 → 1, opacity 1 → 0.3 → 1.
    @Test func ballSpinFadeLoader() throws {
        let size = 40.0                                          // host: size 40
        let spacing = -2.0, circle = (size - 4 * spacing) / 5
        let radius = size / 2 - circle / 2
        try expectMatchesOriginal("ball-spin-fade-loader", seconds: 2 + 0.84) { t in
            (0..<8).map { i in
                let angle = Double.pi / 4 * Double(i), begin = 0.12 * Double(i)
                let x = radius * (cos(angle) + 1) + circle / 2, y = radius * (sin(angle) + 1) + circle / 2
                guard t >= begin else { return Expected(x: x, y: y, diameter: circle) }
                let p = wrapped(t - begin, 1)
                return Expected(x: x, y: y, scale: CAKeyframes.interpolate(p, [0, 0.5, 1], [1, 0.4, 1], [.linear]),
                                opacity: CAKeyframes.interpolate(p, [0, 0.5, 1], [1, 0.3, 1], [.linear]), diameter: circle)
            }
        }
    }

    /// `lineScalePulseOut`: five `line` bars size/9 wide, `transform.scale.y`
    /// 1 → 0.4 → 1 in 1 s with (0.85, 0.25, 0.37, 0.85), beginning 0.4, 0.2,
    /// 0, 0.2, 0.4 s.
    @Test func lineScalePulseOut() throws {
        let size = 45.0, line = size / 9                         // host: size 45
        let curve = Curve(0.85, 0.25, 0.37, 0.85)
        try expectMatchesOriginalPlanes("line-scale-pulse-out", seconds: 2.4) { t in
            [0.4, 0.2, 0, 0.2, 0.4].enumerated().map { i, begin in
                let scaleY = CAKeyframes(keyTimes: [0, 0.5, 1], values: [1, 0.4, 1], curves: [curve, curve], duration: 1, beginTime: begin).value(at: t) ?? 1
                return Self.bar(x: line * 2 * Double(i) + line / 2, y: size / 2, width: line, height: size, scaleY: scaleY)
            }
        }
    }

    /// `lineScalePulseOutRapid`: the same bars, `transform.scale.y`
    /// 1 → 0.3 → 1 at key times 0, 0.8, 0.9 (the last value held after it)
    /// in 0.9 s with (0.11, 0.49, 0.38, 0.78), beginning 0.5, 0.25, 0, 0.25, 0.5 s.
    @Test func lineScalePulseOutRapid() throws {
        let size = 45.0, line = size / 9                         // host: size 45
        let curve = Curve(0.11, 0.49, 0.38, 0.78)
        try expectMatchesOriginalPlanes("line-scale-pulse-out-rapid", seconds: 2.3) { t in
            [0.5, 0.25, 0, 0.25, 0.5].enumerated().map { i, begin in
                var scaleY = 1.0
                if t >= begin { scaleY = CAKeyframes.interpolate(wrapped(t - begin, 0.9) / 0.9, [0, 0.8, 0.9], [1, 0.3, 1], [curve, curve]) }
                return Self.bar(x: line * 2 * Double(i) + line / 2, y: size / 2, width: line, height: size, scaleY: scaleY)
            }
        }
    }

    /// `ballScaleRipple`: one ring; in a group of 1 s, scale 0.1 → 1 at key
    /// times 0, 0.7 paced as a whole by (0.21, 0.53, 0.56, 0.8), the last
    /// value held after, and opacity 1 → 0.7 → 0 with that curve per leg.
    @Test func ballScaleRipple() throws {
        let size = 38.0                                          // host: size 38, padding 1
        let curve = Curve(0.21, 0.53, 0.56, 0.8)
        try expectMatchesOriginal("ball-scale-ripple", seconds: 2) { t in
            let p = wrapped(t, 1)
            return [Expected(x: 20, y: 20, scale: CAKeyframes.interpolate(curve(p), [0, 0.7], [0.1, 1], [.linear]),
                             opacity: CAKeyframes.interpolate(p, [0, 0.7, 1], [1, 0.7, 0], [curve, curve]), diameter: size, lineWidth: 2)]
        }
    }

    /// `ballDoubleBounce`: two circles the size of the view at opacity 0.6,
    /// scale −1 → 0 → −1 (key times 0, 0.5, 1) paced as a whole by
    /// easeInEaseOut over 2 s, beginning at 0 and 1 s. A circle at scale −1
    /// is the circle at 1, turned: the same picture, compared by magnitude.
    @Test func ballDoubleBounce() throws {
        let size = 40.0                                          // host: size 40
        try expectMatchesOriginal("ball-double-bounce", seconds: 5) { t in
            [0.0, 1.0].map { begin in
                guard t >= begin else { return Expected(x: size / 2, y: size / 2, opacity: 0.6, diameter: size) }
                let scale = CAKeyframes.interpolate(Curve.easeInOut(wrapped(t - begin, 2) / 2), [0, 0.5, 1], [-1, 0, -1], [.linear])
                return Expected(x: size / 2, y: size / 2, scale: abs(scale), opacity: 0.6, diameter: size)
            }
        }
    }

    /// The arcs of `ringTwoHalfVertical` (UIKit's angles, clockwise from 3
    /// o'clock: −3π/4 → −π/4 clockwise, then −5π/4 → −7π/4 counterclockwise)
    /// and `ringTwoHalfHorizontal` (3π/4 → 5π/4, then −π/4 → π/4, both
    /// clockwise), as (start clockwise from 12 o'clock, length).
    static let twoHalfVertical = [(-3 * Double.pi / 4 + .pi / 2, Double.pi / 2), (-7 * Double.pi / 4 + .pi / 2, Double.pi / 2)]
    static let twoHalfHorizontal = [(3 * Double.pi / 4 + .pi / 2, Double.pi / 2), (-Double.pi / 4 + .pi / 2, Double.pi / 2)]

    /// `ballClipRotatePulse`: a circle half the size scaling 1 → 0.3 → 1
    /// (key times 0, 0.3, 1), and `ringTwoHalfVertical` the size's width
    /// scaling 1 → 0.6 → 1 and turning 0 → π → 2π, all in 1 s with
    /// (0.09, 0.57, 0.49, 0.9) per leg.
    @Test func ballClipRotatePulse() throws {
        let size = 38.0                                          // host: size 38, padding 1
        let curve = Curve(0.09, 0.57, 0.49, 0.9)
        let small = CAKeyframes(keyTimes: [0, 0.3, 1], values: [1, 0.3, 1], curves: [curve, curve], duration: 1)
        let scale = CAKeyframes(keyTimes: [0, 0.5, 1], values: [1, 0.6, 1], curves: [curve, curve], duration: 1)
        let turn = CAKeyframes(keyTimes: [0, 0.5, 1], values: [0, .pi, 2 * .pi], curves: [curve, curve], duration: 1)
        try expectMatchesOriginal("ball-clip-rotate-pulse", seconds: 2) { t in
            [Expected(x: 20, y: 20, scale: small.value(at: t)!, diameter: size / 2)]
                + Self.twoHalfVertical.map { arc in
                    Expected(x: 20, y: 20, scale: scale.value(at: t)!, diameter: size, arc: (arc.0 + turn.value(at: t)!, arc.1), lineWidth: 2)
                }
        }
    }

    /// `ballClipRotateMultiple`: `ringTwoHalfHorizontal` the size's width
    /// turning 0 → π → 2π, then `ringTwoHalfVertical` half as wide turning
    /// 0 → −π → −2π, both scaling 1 → 0.6 → 1, in 1 s, easeInEaseOut per leg.
    @Test func ballClipRotateMultiple() throws {
        let size = 38.0                                          // host: size 38, padding 1
        let scale = CAKeyframes(keyTimes: [0, 0.5, 1], values: [1, 0.6, 1], curves: [.easeInOut, .easeInOut], duration: 1)
        let turn = CAKeyframes(keyTimes: [0, 0.5, 1], values: [0, .pi, 2 * .pi], curves: [.easeInOut, .easeInOut], duration: 1)
        try expectMatchesOriginal("ball-clip-rotate-multiple", seconds: 2) { t in
            let s = scale.value(at: t)!, r = turn.value(at: t)!
            return Self.twoHalfHorizontal.map { Expected(x: 20, y: 20, scale: s, diameter: size, arc: ($0.0 + r, $0.1), lineWidth: 2) }
                + Self.twoHalfVertical.map { Expected(x: 20, y: 20, scale: s, diameter: size / 2, arc: ($0.0 - r, $0.1), lineWidth: 2) }
        }
    }

    /// `circleStrokeSpin`: the `stroke` shape (a circle from 12 o'clock,
    /// clockwise), in a group of 0.5 + 1.2 s: `transform.rotation` by 2π
    /// (no duration: the group's), `strokeEnd` 0 → 1 in 0.7 s and
    /// `strokeStart` 0 → 1 from 0.5 s in 1.2 s, both (0.4, 0, 0.2, 1).
    @Test func circleStrokeSpin() throws {
        let size = 38.0                                          // host: size 38, padding 1
        let curve = Curve(0.4, 0, 0.2, 1)
        try expectMatchesOriginal("circle-stroke-spin", seconds: 3.4, samples: 800) { t in
            let g = wrapped(t, 1.7)
            let turn = 2 * Double.pi * g / 1.7
            let end = g < 0.7 ? curve(g / 0.7) : 1                  // then the layer's own strokeEnd, 1
            let start = g < 0.5 ? 0 : curve((g - 0.5) / 1.2)
            return [Expected(x: 20, y: 20, diameter: size, arc: (turn + 2 * .pi * start, 2 * .pi * max(end - start, 0)), lineWidth: 2)]
        }
    }

    /// `ballZigZag`: two circles size/5 wide at the centre, `transform`
    /// translations 0 → (−Δx, −Δy) → (Δx, −Δy) → 0 and the mirror image
    /// (Δ = size/2 − circle/2) at key times 0, 0.33, 0.66, 1, in 0.7 s,
    /// linear; `ballZigZagDeflect` the same in 0.75 s, autoreversing.
    @Test(arguments: [("ball-zig-zag", 0.7, false), ("ball-zig-zag-deflect", 0.75, true)])
    func ballZigZag(name: String, duration: Double, autoreverses: Bool) throws {
        let size = 40.0, circle = size / 5                       // host: size 40
        let d = size / 2 - circle / 2
        let paths: [[(Double, Double)]] = [[(0, 0), (-d, -d), (d, -d), (0, 0)], [(0, 0), (d, d), (-d, d), (0, 0)]]
        try expectMatchesOriginal(name, seconds: 4 * duration) { t in
            var p = wrapped(t, autoreverses ? 2 * duration : duration) / duration
            if p > 1 { p = 2 - p }                               // going back
            return paths.map { path in
                Expected(x: size / 2 + CAKeyframes.interpolate(p, [0, 0.33, 0.66, 1], path.map(\.0), [.linear]),
                         y: size / 2 + CAKeyframes.interpolate(p, [0, 0.33, 0.66, 1], path.map(\.1), [.linear]), diameter: circle)
            }
        }
    }

    /// `ballPulseRise`: five circles of (size − 8)/5; in groups of 1 s, the
    /// even ones scale 1.1 → 0.4 → 1 and move 0 → −size/2 → size/2 → 0 (key
    /// times 0, 0.25, 0.75, 1), the odd ones 0.4 → 1.1 → 0.75 and the other
    /// way, with (0.15, 0.46, 0.9, 0.6) per leg.
    @Test func ballPulseRise() throws {
        let size = 40.0                                          // host: size 40
        let spacing = 2.0, circle = (size - 4 * spacing) / 5
        let curve = Curve(0.15, 0.46, 0.9, 0.6)
        try expectMatchesOriginal("ball-pulse-rise", seconds: 2) { t in
            (0..<5).map { i in
                let even = i % 2 == 0
                let scale = CAKeyframes(keyTimes: [0, 0.5, 1], values: even ? [1.1, 0.4, 1] : [0.4, 1.1, 0.75], curves: [curve, curve], duration: 1)
                let move = CAKeyframes(keyTimes: [0, 0.25, 0.75, 1], values: even ? [0, -size / 2, size / 2, 0] : [0, size / 2, -size / 2, 0],
                                       curves: [curve, curve, curve], duration: 1)
                return Expected(x: (circle + spacing) * Double(i) + circle / 2, y: size / 2 + move.value(at: t)!, scale: scale.value(at: t)!, diameter: circle)
            }
        }
    }

    /// `ballRotate`: one layer holding circles size/5 wide at its left
    /// (opacity 0.8), right (0.8) and centre, in a group of 1 s scaling
    /// 1 → 0.6 → 1 and turning 0 → π → 2π with (0.7, −0.13, 0.22, 0.86).
    @Test func ballRotate() throws {
        let size = 40.0, circle = size / 5                       // host: size 40
        let curve = Curve(0.7, -0.13, 0.22, 0.86)
        let scale = CAKeyframes(keyTimes: [0, 0.5, 1], values: [1, 0.6, 1], curves: [curve, curve], duration: 1)
        let turn = CAKeyframes(keyTimes: [0, 0.5, 1], values: [0, .pi, 2 * .pi], curves: [curve, curve], duration: 1)
        try expectMatchesOriginal("ball-rotate", seconds: 2) { t in
            let s = scale.value(at: t)!, r = turn.value(at: t)!
            return [(circle / 2 - size / 2, 0.8), (size / 2 - circle / 2, 0.8), (0.0, 1.0)].map { dx, opacity in
                // The layer's transform about its centre: scaled, then turned.
                Expected(x: size / 2 + s * dx * cos(r), y: size / 2 + s * dx * sin(r), scale: s, opacity: opacity, diameter: circle)
            }
        }
    }

    /// `ballTrianglePath`: three rings size/5 wide at the top centre, the
    /// bottom left and the bottom right, each `transform`-translated round
    /// the triangle ({0,0}, {hx,fy}, {-hx,fy}, {0,0} and the source's two
    /// other strings, h half and f full of Δ = size/2 − circle/2) at key
    /// times 0, 0.33, 0.66, 1 of 2 s, easeInEaseOut per leg.
    @Test func ballTrianglePath() throws {
        let size = 38.0, pad = 1.0                               // host: size 38, padding 1
        let circle = size / 5, h = size / 2 - circle / 2, f = 2 * h
        let rings: [((Double, Double), [(Double, Double)])] = [
            ((size / 2, circle / 2), [(0, 0), (h, f), (-h, f), (0, 0)]),
            ((circle / 2, size - circle / 2), [(0, 0), (h, -f), (f, 0), (0, 0)]),
            ((size - circle / 2, size - circle / 2), [(0, 0), (-f, 0), (-h, -f), (0, 0)]),
        ]
        try expectMatchesOriginal("ball-triangle-path", seconds: 4) { t in
            rings.map { start, moves in
                let curves = [Curve.easeInOut, .easeInOut, .easeInOut]
                let dx = CAKeyframes(keyTimes: [0, 0.33, 0.66, 1], values: moves.map(\.0), curves: curves, duration: 2).value(at: t)!
                let dy = CAKeyframes(keyTimes: [0, 0.33, 0.66, 1], values: moves.map(\.1), curves: curves, duration: 2).value(at: t)!
                return Expected(x: pad + start.0 + dx, y: pad + start.1 + dy, diameter: circle, lineWidth: 2)
            }
        }
    }

    /// `cubeTransition`: two squares size/5 wide at the top left, in groups
    /// of 1.6 s beginning 0 and −0.8 s: scale 1, 0.5, 1, 0.5, 1, translation
    /// to each corner in turn and rotation 0 → −2π in quarters, at key times
    /// 0, 0.25, 0.5, 0.75, 1, easeInEaseOut per leg. A transform's
    /// translation is outside its rotation and scale: it moves the centre.
    @Test func cubeTransition() throws {
        let size = 40.0, square = size / 5                       // host: size 40
        let d = size - square
        let keyTimes = [0, 0.25, 0.5, 0.75, 1.0]
        let curves = [Curve.easeInOut, .easeInOut, .easeInOut, .easeInOut]
        try expectMatchesOriginal("cube-transition", seconds: 3.2) { t in
            [0, -0.8].map { begin in
                let at = { (values: [Double]) in CAKeyframes(keyTimes: keyTimes, values: values, curves: curves, duration: 1.6, beginTime: begin).value(at: t)! }
                return Expected(x: square / 2 + at([0, d, d, 0, 0]), y: square / 2 + at([0, 0, d, d, 0]), scale: at([1, 0.5, 1, 0.5, 1]),
                                rotation: at([0, -.pi / 2, -.pi, -1.5 * .pi, -2 * .pi]), width: square, height: square, cornerRadius: 0)
            }
        }
    }

    /// `ballRotateChase`: five circles size/5 wide, circle i with rate
    /// Float(i)/5, each in a group of 1.5 s repeating for ever with
    /// `CAMediaTimingFunction(controlPoints: 0.5, 0.15 + rate, 0.25, 1)`
    /// (Floats, as the source computes them): scale 1 − rate → 0.2 + rate,
    /// and position along the arc about the centre of radius
    /// (size − circle)/2 from 3π/2 to 3π/2 + 2π, clockwise.
    @Test func ballRotateChase() throws {
        let size = 40.0, circle = size / 5                       // host: size 40
        let arc = CGArcPath(center: (size / 2, size / 2), radius: (size - circle) / 2,
                            startAngle: 3 * .pi * 0.5, endAngle: 3 * .pi * 0.5 + 2 * .pi, clockwise: true)
        try expectMatchesOriginal("ball-rotate-chase", seconds: 3) { t in
            (0..<5).map { i in
                let rate = Float(i) * 1 / 5
                let curve = Curve(0.5, Double(Float(0.15) + rate), 0.25, 1)
                let p = curve(wrapped(t, 1.5) / 1.5)            // the group's time, paced by its curve
                let from = Double(1 - rate), to = Double(Float(0.2) + rate)
                let (x, y) = arc.position(at: p)
                return Expected(x: x, y: y, scale: from + (to - from) * p, diameter: circle)
            }
        }
    }

    /// `semiCircleSpin`: the `circleSemi` shape in a size-square frame at
    /// the centre, `transform.rotation.z` 0, π, 2π at key times 0, 0.5, 1
    /// of 0.6 s, linear. `circleSemi`: the arc about the frame's centre of
    /// radius size/2 from −π/6 to −5π/6, anticlockwise (UIKit's angles,
    /// from 3 o'clock, y down), closed and filled.
    @Test func semiCircleSpin() throws {
        let size = 40.0                                          // host: size 40
        let start = -Double.pi / 6, end = -5 * Double.pi / 6
        let span = start - end                                   // anticlockwise: start down to end
        let middle = (start + end) / 2 + .pi / 2                 // from UIKit's 3 o'clock to the format's 12
        let turn = CAKeyframes(keyTimes: [0, 0.5, 1], values: [0, .pi, 2 * .pi], curves: [.linear], duration: 0.6)
        try expectMatchesOriginal("semi-circle-spin", seconds: 1.2) { t in
            [Expected(x: size / 2, y: size / 2, rotation: turn.value(at: t)! + middle, diameter: size, segmentArc: span)]
        }
    }

    /// `ballGridPulse`: nine circles of (size − 2 × 2)/3 in a 3 × 3 grid
    /// with 2 between them, circle 3i + j with a group of its own duration
    /// and begin time (from the source's lists), scale 1, 0.5, 1 and opacity
    /// 1, 0.7, 1 at key times 0, 0.5, 1, `default` per leg; the group's
    /// animations have no duration of their own and run for the group's.
    /// Before its begin time a circle shows its model values.
    @Test func ballGridPulse() throws {
        let size = 40.0, spacing = 2.0, circle = (size - spacing * 2) / 3  // host: size 40
        let durations = [0.72, 1.02, 1.28, 1.42, 1.45, 1.18, 0.87, 1.45, 1.06]
        let beginTimes = [-0.06, 0.25, -0.17, 0.48, 0.31, 0.03, 0.46, 0.78, 0.45]
        try expectMatchesOriginal("ball-grid-pulse", seconds: 6, samples: 1200) { t in
            (0..<9).map { k in
                let (i, j) = (Double(k / 3), Double(k % 3))
                let at = { (values: [Double]) in
                    CAKeyframes(keyTimes: [0, 0.5, 1], values: values, curves: [.caDefault, .caDefault],
                                duration: durations[k], beginTime: beginTimes[k]).value(at: t)
                }
                return Expected(x: circle * j + spacing * j + circle / 2, y: circle * i + spacing * i + circle / 2,
                                scale: at([1, 0.5, 1]) ?? 1, opacity: at([1, 0.7, 1]) ?? 1, diameter: circle)
            }
        }
    }

    /// `ballGridBeat`: the same grid; opacity 1, 0.7, 1 at key times 0,
    /// 0.5, 1, `default` per leg, each circle on its own duration from its
    /// own begin time.
    @Test func ballGridBeat() throws {
        let size = 40.0, spacing = 2.0, circle = (size - spacing * 2) / 3  // host: size 40
        let durations = [0.96, 0.93, 1.19, 1.13, 1.34, 0.94, 1.2, 0.82, 1.19]
        let beginTimes = [0.36, 0.4, 0.68, 0.41, 0.71, -0.15, -0.12, 0.01, 0.32]
        try expectMatchesOriginal("ball-grid-beat", seconds: 6, samples: 1200) { t in
            (0..<9).map { k in
                let (i, j) = (Double(k / 3), Double(k % 3))
                let opacity = CAKeyframes(keyTimes: [0, 0.5, 1], values: [1, 0.7, 1], curves: [.caDefault, .caDefault],
                                          duration: durations[k], beginTime: beginTimes[k]).value(at: t)
                return Expected(x: circle * j + spacing * j + circle / 2, y: circle * i + spacing * i + circle / 2,
                                opacity: opacity ?? 1, diameter: circle)
            }
        }
    }

    /// `lineScaleParty`: four `line` shapes (rounded rects size/7 wide, the
    /// full height, corner radius half the width), 2 × size/7 apart, each
    /// `transform.scale` 1, 0.5, 1 at key times 0, 0.5, 1, `default` per
    /// leg, on its own duration from its own begin time.
    @Test func lineScaleParty() throws {
        let size = 40.0, line = size / 7                         // host: size 40
        let durations = [1.26, 0.43, 1.01, 0.73]
        let beginTimes = [0.77, 0.29, 0.28, 0.74]
        try expectMatchesOriginal("line-scale-party", seconds: 6, samples: 1200) { t in
            (0..<4).map { i in
                let scale = CAKeyframes(keyTimes: [0, 0.5, 1], values: [1, 0.5, 1], curves: [.caDefault, .caDefault],
                                        duration: durations[i], beginTime: beginTimes[i]).value(at: t)
                return Expected(x: line * 2 * Double(i) + line / 2, y: size / 2, scale: scale ?? 1,
                                width: line, height: size, cornerRadius: line / 2)
            }
        }
    }

    /// `orbit`: core size/(1 + 0.25 + 1.5), satellite a quarter of it, all
    /// at the centre; duration 1.9 s. ring1 and ring2: circles of the core's
    /// size, each in a group of 1.9 s: scale 0, 0, 1.3, 2 (ring2: 2.1) at key
    /// times 0, 0.45, 0.45, 1 (0.55) and opacity 0.8, 0.8, 0 at 0, 0.45, 1
    /// (ring2: 0.7, 0.7, 0, 0 at 0, 0.55, 0.65, 1). The core: scale 1, 1.3,
    /// 1.3, 1 at 0, 0.45, 0.55, 1 with (0.7, 0, 1, 0.5), linear, (0, 0.7,
    /// 0.5, 1). The satellite: position along the arc of radius
    /// (size − satellite)/2 from 1.5π to 1.5π + 4π, clockwise, over 3.8 s.
    /// Two readings (docs/LOADERS.md): the 4π arc is built as written (eight
    /// cubic quarters), and the rings' scale, given two curves for three
    /// legs, runs linear where a leg has none (its first two legs, a hold
    /// and a jump, look the same under any curve).
    @Test func orbit() throws {
        let size = 40.0, core = size / (1 + 0.25 + 1.5), satellite = core * 0.25  // host: size 40
        let arc = CGArcPath(center: (size / 2, size / 2), radius: (size - satellite) / 2,
                            startAngle: .pi * 1.5, endAngle: .pi * 1.5 + 4 * .pi, clockwise: true)
        let linear3 = [Curve.linear, .linear, .linear]
        let rings = [
            (CAKeyframes(keyTimes: [0, 0.45, 0.45, 1], values: [0, 0, 1.3, 2], curves: linear3, duration: 1.9),
             CAKeyframes(keyTimes: [0, 0.45, 1], values: [0.8, 0.8, 0], curves: [.linear, .linear], duration: 1.9)),
            (CAKeyframes(keyTimes: [0, 0.55, 0.55, 1], values: [0, 0, 1.3, 2.1], curves: linear3, duration: 1.9),
             CAKeyframes(keyTimes: [0, 0.55, 0.65, 1], values: [0.7, 0.7, 0, 0], curves: linear3, duration: 1.9)),
        ]
        let pulse = CAKeyframes(keyTimes: [0, 0.45, 0.55, 1], values: [1, 1.3, 1.3, 1],
                                curves: [Curve(0.7, 0, 1, 0.5), .linear, Curve(0, 0.7, 0.5, 1)], duration: 1.9)
        try expectMatchesOriginal("orbit", seconds: 7.6, samples: 1520) { t in
            let (x, y) = arc.position(at: wrapped(t, 3.8) / 3.8)
            return rings.map { scale, opacity in
                Expected(x: size / 2, y: size / 2, scale: scale.value(at: t)!, opacity: opacity.value(at: t)!, diameter: core)
            } + [Expected(x: size / 2, y: size / 2, scale: pulse.value(at: t)!, diameter: core),
                 Expected(x: x, y: y, diameter: satellite)]
        }
    }

    /// `audioEqualizer`: four `line` layers size/9 wide and size tall at
    /// x + 2 × lineSize × i (x centring seven bar widths), each with a
    /// keyframe animation of `path` through the rectangles at (0, size − h)
    /// of lineSize × h for h = size × 0, 0.7, 0.4, 0.05, 0.95, 0.3, 0.9, 0.4,
    /// 0.15, 0.18, 0.75, 0.01 (no key times: evenly spaced; linear), lasting
    /// 4.3, 2.5, 1.7, 3.1 s, for ever. The reading (docs/LOADERS.md): the
    /// bar shows the animation's rectangle. (The moments sampled miss the
    /// instants of the cycles' ends, where 0.01 jumps to 0 and either side
    /// is right.)
    @Test func audioEqualizer() throws {
        let size = 40.0, lineSize = size / 9, x = (size - lineSize * 7) / 2   // host: size 40
        let durations = [4.3, 2.5, 1.7, 3.1]
        let factors = [0, 0.7, 0.4, 0.05, 0.95, 0.3, 0.9, 0.4, 0.15, 0.18, 0.75, 0.01]
        let keyTimes = factors.indices.map { Double($0) / Double(factors.count - 1) }
        try expectMatchesOriginal("audio-equalizer", seconds: 9, samples: 1799) { t in
            (0..<4).map { i in
                let h = size * CAKeyframes(keyTimes: keyTimes, values: factors, curves: [.linear], duration: durations[i]).value(at: t)!
                return Expected(x: x + lineSize * 2 * Double(i) + lineSize / 2, y: size - h / 2,
                                width: lineSize, height: h, cornerRadius: 0)
            }
        }
    }

    /// `squareSpin` and `triangleSkewSpin`: a `transform` keyframe
    /// animation through CATransform3DConcat(rotateX(a), rotateY(b)) for
    /// (a, b) = (0, 0), (π, 0), (π, π), (0, π), (0, 0), each factor
    /// `CATransform3DMakeRotation` with m34 = −1/100, at key times 0, 0.25,
    /// 0.5, 0.75, 1 of 3 s with (0.09, 0.57, 0.49, 0.9) per leg; the layer
    /// (size × size, anchor at its centre) at the centre. The `rectangle`
    /// fills the layer; the `triangle` runs from (0, 3h/4) up to (w/2, h/4)
    /// and down to (w, 3h/4): a w × h/2 box centred on the layer's centre.
    @Test(arguments: [("square-spin", "rect", 1.0), ("triangle-skew-spin", "triangle", 0.5)])
    func squareSpin(name: String, shape: String, heightShare: Double) throws {
        let size = 30.0, canvas = 40.0                           // host: size 30 in a 40-pt view
        func rotateX(_ a: Double) -> CAMatrix { var t = CAMatrix.rotation(a, 1, 0, 0); t.m[2][3] = -1.0 / 100; return t }
        func rotateY(_ a: Double) -> CAMatrix { var t = CAMatrix.rotation(a, 0, 1, 0); t.m[2][3] = -1.0 / 100; return t }
        let values = [(0, 0), (Double.pi, 0), (.pi, .pi), (0, .pi), (0, 0)].map { CAMatrix.concat(rotateX($0.0), rotateY($0.1)) }
        let decomposed = try values.map { try #require(UnmatrixParts($0)) }
        for (value, parts) in zip(values, decomposed) {                  // the decomposition gives each keyframe back
            #expect(zip(parts.matrix.flat, value.flat).allSatisfy { abs($0 - $1) < 1e-15 })
        }
        let curve = Curve(0.09, 0.57, 0.49, 0.9)
        let animation = CATransformKeyframes(keyTimes: [0, 0.25, 0.5, 0.75, 1], values: decomposed, curves: Array(repeating: curve, count: 4), duration: 3)
        try expectMatchesOriginalPlanes(name, seconds: 6) { t in
            let m = animation.value(at: t)
            return [ExpectedPlane(shape: shape, width: size, height: size * heightShare) { u, v in
                let (x, y) = m.project(u, v)
                return (canvas / 2 + x, canvas / 2 + y)
            }]
        }
    }

    // MARK: SpinKit 1.2.5 (css/spinners/*.css)

    /// `fading-circle`: twelve dots 15 % of the box wide at the top of
    /// children turned 30° apart; opacity 0 (0 %, 39 %, 100 %), 1 (40 %)
    /// over 1.2 s, ease-in-out, delays 0, −1.1 … −0.1 s.
    @Test func fadingCircle() throws {
        let box = 40.0                                           // host: the box is 40 px (SpinKit's own)
        let dot = 0.15 * box
        try expectMatchesOriginal("fading-circle", seconds: 2.4) { t in
            (0..<12).map { i in
                let delay = i == 0 ? 0 : -(1.2 - 0.1 * Double(i))
                let fade = CSSKeyframes(stops: [(0, 0), (0.39, 0), (0.4, 1), (1, 0)], duration: 1.2, delay: delay, fillBackwards: true)
                let angle = degrees(30 * Double(i)), r = box / 2 - dot / 2
                return Expected(x: box / 2 + r * sin(angle), y: box / 2 - r * cos(angle), opacity: fade.value(at: t, base: 1), diameter: dot)
            }
        }
    }

    /// `three-bounce`: three dots scale 0 (0 %, 80 %, 100 %), 1 (40 %) over
    /// 1.4 s, ease-in-out, delays −0.32, −0.16, 0 s, fill both.
    @Test func threeBounce() throws {
        let dot = 18.0, gap = 4.0, box = (width: 70.0, height: 20.0)   // host: 18-px dots, 4-px gaps, in 70 × 20
        let left = (box.width - 3 * dot - 2 * gap) / 2
        try expectMatchesOriginal("three-bounce", seconds: 2.8) { t in
            [-0.32, -0.16, 0].enumerated().map { i, delay in
                let bounce = CSSKeyframes(stops: [(0, 0), (0.4, 1), (0.8, 0), (1, 0)], duration: 1.4, delay: delay, fillBackwards: true)
                return Expected(x: left + dot / 2 + Double(i) * (dot + gap), y: box.height / 2, scale: bounce.value(at: t, base: 1), diameter: dot)
            }
        }
    }

    /// `wave`: five 6-px bars the box's height, `scaleY` 0.4 (0 %, 40 %,
    /// 100 %), 1 (20 %) over 1.2 s, ease-in-out, delays −1.2 … −0.8 s.
    @Test func wave() throws {
        let box = (width: 50.0, height: 40.0), bar = 6.0, gap = 3.0   // host: SpinKit's 50 × 40 box, 3-px gaps
        let left = (box.width - 5 * bar - 4 * gap) / 2
        try expectMatchesOriginal("wave", seconds: 2.4) { t in
            (0..<5).map { i in
                let stretch = CSSKeyframes(stops: [(0, 0.4), (0.2, 1), (0.4, 0.4), (1, 0.4)], duration: 1.2, delay: -1.2 + 0.1 * Double(i))
                return Expected(x: left + bar / 2 + Double(i) * (bar + gap), y: box.height / 2, width: bar,
                                height: box.height * stretch.value(at: t, base: 1), cornerRadius: 0)
            }
        }
    }

    /// `double-bounce`: two circles the box's size at opacity 0.6, scale 0
    /// (0 %, 100 %), 1 (50 %) over 2 s, ease-in-out, the second delayed −1 s.
    @Test func doubleBounce() throws {
        let box = 40.0                                           // host: SpinKit's 40-px box
        try expectMatchesOriginal("double-bounce", seconds: 4) { t in
            [0, -1.0].map { delay in
                let bounce = CSSKeyframes(stops: [(0, 0), (0.5, 1), (1, 0)], duration: 2, delay: delay)
                return Expected(x: box / 2, y: box / 2, scale: bounce.value(at: t, base: 1), opacity: 0.6, diameter: box)
            }
        }
    }

    /// `cube-grid`: nine cubes a third of the box, scale 1 (0 %, 70 %,
    /// 100 %), 0 (35 %) over 1.3 s, ease-in-out, delays by cube from the CSS.
    @Test func cubeGrid() throws {
        let box = 42.0                                           // host: a 42-px box, so each cube is a whole 14 px
        let cube = box / 3
        let delays = [0.2, 0.3, 0.4, 0.1, 0.2, 0.3, 0.0, 0.1, 0.2]   // .sk-cube1 … .sk-cube9
        try expectMatchesOriginal("cube-grid", seconds: 2 * 1.3 + 0.4) { t in
            (0..<9).map { i in
                let scale = CSSKeyframes(stops: [(0, 1), (0.35, 0), (0.7, 1), (1, 1)], duration: 1.3, delay: delays[i])
                return Expected(x: cube * (Double(i % 3) + 0.5), y: cube * (Double(i / 3) + 0.5), scale: scale.value(at: t, base: 1),
                                width: cube, height: cube, cornerRadius: 0)
            }
        }
    }

    /// `pulse`: a circle the box's size, scale 0 → 1 and opacity (1) → 0
    /// over 1 s, ease-in-out.
    @Test func pulse() throws {
        let box = 40.0                                           // host: SpinKit's 40-px box
        try expectMatchesOriginal("pulse", seconds: 2) { t in
            let scale = CSSKeyframes(stops: [(0, 0), (1, 1)], duration: 1), fade = CSSKeyframes(stops: [(1, 0)], duration: 1)
            return [Expected(x: box / 2, y: box / 2, scale: scale.value(at: t, base: 1), opacity: fade.value(at: t, base: 1), diameter: box)]
        }
    }

    /// `circle`: `fading-circle`'s twelve dots and delays, each scaling 0
    /// (0 %, 80 %, 100 %), 1 (40 %) over 1.2 s, ease-in-out, fill both.
    @Test func circle() throws {
        let box = 40.0, dot = 0.15 * box                         // host: SpinKit's 40-px box
        try expectMatchesOriginal("circle", seconds: 2.4) { t in
            (0..<12).map { i in
                let delay = i == 0 ? 0 : -(1.2 - 0.1 * Double(i))
                let bounce = CSSKeyframes(stops: [(0, 0), (0.4, 1), (0.8, 0), (1, 0)], duration: 1.2, delay: delay, fillBackwards: true)
                let angle = degrees(30 * Double(i)), r = box / 2 - dot / 2
                return Expected(x: box / 2 + r * sin(angle), y: box / 2 - r * cos(angle), scale: bounce.value(at: t, base: 1), diameter: dot)
            }
        }
    }

    /// `chasing-dots`: a box turning 360° in 2 s, linear; in it two dots
    /// 60 % of its width at its top and its bottom, centred across (the
    /// box's `text-align: center`), scale 0 (0 %, 100 %), 1 (50 %) over
    /// 2 s, ease-in-out, the second delayed −1 s.
    @Test func chasingDots() throws {
        let box = 40.0, dot = 0.6 * box                          // host: SpinKit's 40-px box
        try expectMatchesOriginal("chasing-dots", seconds: 4) { t in
            let turn = CSSKeyframes(stops: [(1, 2 * .pi)], duration: 2, curve: .linear).value(at: t, base: 0)
            return [(dot / 2, 0.0), (box - dot / 2, -1.0)].map { y, delay in
                // The dot's centre turned about the box's centre.
                let dx = 0.0, dy = y - box / 2
                let bounce = CSSKeyframes(stops: [(0, 0), (0.5, 1), (1, 0)], duration: 2, delay: delay)
                return Expected(x: box / 2 + dx * cos(turn) - dy * sin(turn), y: box / 2 + dx * sin(turn) + dy * cos(turn),
                                scale: bounce.value(at: t, base: 1), diameter: dot)
            }
        }
    }

    /// `wandering-cubes`: two 10-px squares at the top left of a 40-px
    /// box, `sk-wanderingCube` over 1.8 s, `ease-in-out`, delays −1.8 and
    /// −0.9 s, each transform about the square's centre; the keyframes'
    /// transform lists as the CSS writes them.
    @Test func wanderingCubes() throws {
        let cube = 10.0                                          // host: SpinKit's 40-px box
        let stops: [(Double, [CSSTransformFunction])] = [
            (0, [.rotate(0)]),
            (0.25, [.translateX(30), .rotate(-90), .scale(0.5)]),
            (0.5, [.translateX(30), .translateY(30), .rotate(-179)]),
            (0.501, [.translateX(30), .translateY(30), .rotate(-180)]),
            (0.75, [.translateX(0), .translateY(30), .rotate(-270), .scale(0.5)]),
            (1, [.rotate(-360)]),
        ]
        try expectMatchesOriginal("wandering-cubes", seconds: 3.6, samples: 1800) { t in
            [-1.8, -0.9].map { delay in
                let m = CSSTransformKeyframes(stops: stops, duration: 1.8, delay: delay).matrix(at: t)
                // transform-origin is the centre: the centre moves by the translation.
                return Expected(x: cube / 2 + m.e, y: cube / 2 + m.f, scale: (m.a * m.d - m.b * m.c).squareRoot(),
                                rotation: atan2(m.b, m.a), width: cube, height: cube, cornerRadius: 0)
            }
        }
    }

    /// `rotating-plane`: a 40-px square, `perspective(120px) rotateX(a)
    /// rotateY(b)` about its centre with (a, b) = (0, 0), (−180.1°, 0),
    /// (−180°, −179.9°) at 0, 50 %, 100 % of 1.2 s, `ease-in-out`.
    @Test func rotatingPlane() throws {
        let box = 40.0, canvas = 60.0                            // host: SpinKit's 40-px square in a 60-px canvas
        let animation = CSSTransform3DKeyframes(stops: [
            (0, [.perspective(120), .rotateX(0), .rotateY(0)]),
            (0.5, [.perspective(120), .rotateX(-180.1), .rotateY(0)]),
            (1, [.perspective(120), .rotateX(-180), .rotateY(-179.9)]),
        ], duration: 1.2)
        try expectMatchesOriginalPlanes("rotating-plane", seconds: 2.4) { t in
            let m = animation.matrix(at: t)
            return [ExpectedPlane(shape: "rect", width: box, height: box) { u, v in
                let (x, y) = m.project(u, v)
                return (canvas / 2 + x, canvas / 2 + y)
            }]
        }
    }

    /// `folding-cube`: a 40-px box turned `rotateZ(45deg)` about its
    /// centre; four cubes half its size floated left in document order
    /// (cube1, cube2, cube4, cube3), each `scale(1.1)` then `rotateZ(0, 90,
    /// 270, 180deg)` about its centre; each cube's `:before` covers it and
    /// runs `sk-foldCubeAngle` over 2.4 s, linear, fill both, delays 0, 0.3,
    /// 0.9, 0.6 s, about its bottom-right corner: `perspective(140px)
    /// rotateX(-180deg)` and opacity 0 at 0 % and 10 %, `perspective(140px)
    /// rotateX(0deg)` and 1 at 25 % and 75 %, `perspective(140px)
    /// rotateY(180deg)` and 0 at 90 % and 100 %.
    @Test func foldingCube() throws {
        let box = 40.0, cube = box / 2, offset = 12.0              // host: SpinKit's 40-px box centred in a 64-px canvas
        let stops: [(Double, [CSSFunction3D])] = [
            (0, [.perspective(140), .rotateX(-180)]), (0.1, [.perspective(140), .rotateX(-180)]),
            (0.25, [.perspective(140), .rotateX(0)]), (0.75, [.perspective(140), .rotateX(0)]),
            (0.9, [.perspective(140), .rotateY(180)]), (1, [.perspective(140), .rotateY(180)]),
        ]
        let cubes: [(left: Double, top: Double, turn: Double, delay: Double)] = [(0, 0, 0, 0), (cube, 0, 90, 0.3), (0, cube, 270, 0.9), (cube, cube, 180, 0.6)]
        let turned = CSSMatrix3D.translate(box / 2, box / 2) * CSSFunction3D.rotateZ(45).matrix * .translate(-box / 2, -box / 2)
        try expectMatchesOriginalPlanes("folding-cube", seconds: 2 * 2.4 + 0.9, samples: 1200) { t in
            cubes.map { c in
                let fold = CSSTransform3DKeyframes(stops: stops, duration: 2.4, delay: c.delay, curve: .linear, fillBackwards: true).matrix(at: t)
                let fade = CSSKeyframes(stops: [(0, 0), (0.1, 0), (0.25, 1), (0.75, 1), (0.9, 0), (1, 0)], duration: 2.4, delay: c.delay,
                                        curve: .linear, fillBackwards: true).value(at: t, base: 1)
                let cubeTransform = CSSMatrix3D.translate(c.left + cube / 2, c.top + cube / 2) * CSSFunction3D.scale(1.1).matrix
                    * CSSFunction3D.rotateZ(c.turn).matrix * .translate(-cube / 2, -cube / 2)
                let outer = turned * cubeTransform
                return ExpectedPlane(shape: "rect", width: cube, height: cube, opacity: fade) { u, v in
                    // The face's point relative to its origin, the cube's bottom-right corner.
                    let (x, y) = fold.project(u - cube / 2, v - cube / 2)
                    let (X, Y) = outer.project(x + cube, y + cube)
                    return (offset + X, offset + Y)
                }
            }
        }
    }

    // MARK: Material Components Web (packages/mdc-circular-progress, v14)

    /// MDC's indeterminate circular progress, large (a 48-px box, 4-px
    /// stroke, a circle of r = 18 in a 48 viewBox, butt caps). The
    /// container turns 360° per 360° × 1333 ms / (216° + 90°), linear; the
    /// spinner layer steps 135° at every 12.5 % of 4 × 1333 ms; in it two
    /// clippers, the left half and the right half of the box, each hold the
    /// circle graphic, whose dash (the circumference, offset by half of it)
    /// strokes the first half of the path, 3 o'clock through 6 to 9
    /// o'clock; the left one turns 265° → 130° → 265°, the right one
    /// −265° → −130° → −265°, in 1333 ms; all with cubic-bezier(0.4, 0, 0.2,
    /// 1). (The gap patch, a 5 % strip at 12 o'clock, covers the seam there,
    /// which the arc always spans.)
    @Test func materialCircularProgress() throws {
        let arcTime = 1.333
        let curve = Curve(0.4, 0, 0.2, 1)
        let containerPeriod = 360 * arcTime / (216 + (360 - 270))
        let layer = CSSKeyframes(stops: (1...8).map { (Double($0) * 0.125, Double($0) * 135) }, duration: 4 * arcTime, curve: curve, fillBackwards: true)
        let left = CSSKeyframes(stops: [(0, 265), (0.5, 130), (1, 265)], duration: arcTime, curve: curve, fillBackwards: true)
        let right = CSSKeyframes(stops: [(0, -265), (0.5, -130), (1, -265)], duration: arcTime, curve: curve, fillBackwards: true)
        try expectMatchesOriginal("material-spinner", seconds: 2 * 26.66, samples: 4000) { t in
            // Degrees clockwise from 3 o'clock, as SVG draws.
            let l = Self.visible(from: left.value(at: t, base: 0), length: 180, window: 90)
            let r = Self.visible(from: right.value(at: t, base: 0), length: 180, window: -90)
            // The two halves meet at 12 o'clock (270°): one arc from the left's start to the right's end.
            #expect(abs(wrapped(l.start + l.length - 270 + 180, 360) - 180) < 1e-9 && abs(wrapped(r.start - 270 + 180, 360) - 180) < 1e-9)
            let turned = 360 * t / containerPeriod + layer.value(at: t, base: 0)
            return [Expected(x: 24, y: 24, diameter: 36, arc: (degrees(l.start + turned + 90), degrees(l.length + r.length)),
                             lineWidth: 4, lineCap: .butt)]
        }
    }

    /// What a clipper half of the box shows of an arc from `from`, `length`
    /// long: the part within the half-turn window from `window` (degrees,
    /// clockwise from 3 o'clock); the arcs here always leave one part.
    static func visible(from: Double, length: Double, window: Double) -> (start: Double, length: Double) {
        let a = window + wrapped(from - window, 360)         // the arc's start, at or after the window's
        if a < window + 180 { return (a, min(a + length, window + 180) - a) }
        return (window, max(0, min(a + length - 360, window + 180) - window))   // only its wrapped tail shows
    }
}
