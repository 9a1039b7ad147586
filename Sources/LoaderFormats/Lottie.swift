#if canImport(Glibc)
import Glibc
#endif
import LoaderEngine

/// A loader's loop as a Lottie document (Lottie specification 1.0,
/// `"ver": 10000`): each element is a shape layer whose transform, opacity
/// and own values follow the same adaptive keyframes as `animation.svg`, with
/// linear tangents; frame `f` shows the engine's frame at
/// `start + f / frameRate`. Integers are written as integers (rlottie draws
/// nothing for `"w": 80.0`).
package enum Lottie {
    static let frameRate = 60.0

    package static func document(_ loop: SampledLoop) -> [UInt8] {
        let width = loop.loader.width.rounded(.up), height = loop.loader.height.rounded(.up)
        var w = JSONWriter(capacity: 4096 + loop.keyframeCount * 64)
        let frames = loop.duration * frameRate
        let placed = placedFrames(loop)
        w.beginObject()
        w.field("v", "5.12.0")
        w.field("ver", 10000)
        w.field("nm", loop.loader.name)
        w.field("fr", frameRate)
        w.field("ip", 0)
        w.field("op", frames)
        // The loader's canvas in whole points (rounded up).
        w.field("w", Int(width))
        w.field("h", Int(height))
        w.field("ddd", 0)
        w.key("assets")
        w.beginArray()
        for (index, track) in loop.tracks.enumerated() where ownPeriod(track, loop) {
            w.beginObject()
            w.field("id", "cycle\(index + 1)")
            w.key("layers")
            w.beginArray()
            layer(track, index: 1, frames: track.duration * frameRate, placed: placed[track.element.id], &w)
            w.endArray()
            w.endObject()
        }
        w.endArray()
        w.key("layers")
        w.beginArray()
        // Lottie draws its first layer on top: the last drawn element first.
        for (index, track) in loop.tracks.enumerated().reversed() {
            if ownPeriod(track, loop) {
                cycleLayer(track, index: index + 1, width: width, height: height, frames: frames, &w)
            } else {
                layer(track, index: index + 1, frames: frames, placed: placed[track.element.id], &w)
            }
        }
        if let background = loop.loader.background {
            backgroundLayer(background, index: loop.tracks.count + 1, width: width, height: height, frames: frames, &w)
        }
        w.endArray()
        w.endObject()
        return w.bytes
    }

    /// A property: its value, or keyframes when it changes. The element's
    /// keyframes are shared by all its properties; each property keeps only
    /// those its own straight lines need, within `tolerance` (in its units).
    static func property(_ w: inout JSONWriter, _ key: String, _ keys: [(s: Double, v: SampledLoop.Sample)],
                         _ value: (SampledLoop.Sample) -> [Double], scalar: Bool = false, tolerance: Double,
                         exactZero: Bool = false) {
        property(&w, key, keys.map(\.s), keys.map { value($0.v) }, scalar: scalar, tolerance: tolerance, exactZero: exactZero)
    }

    /// A property from its values at loop times `times` (seconds).
    static func property(_ w: inout JSONWriter, _ key: String, _ times: [Double], _ values: [[Double]], scalar: Bool = false,
                         tolerance: Double, exactZero: Bool = false) {
        w.key(key)
        w.beginObject()
        let first = values[0]
        let changes = values.contains { $0 != first }
        w.field("a", changes ? 1 : 0)
        w.key("k")
        if !changes {
            numbers(&w, first, scalar: scalar)
        } else {
            let kept = simplified(times, values, tolerance: tolerance, exactZero: exactZero)
            w.beginArray()
            for (n, i) in kept.enumerated() {
                w.beginObject()
                w.field("t", rounded(times[i] * frameRate))
                w.key("s")
                numbers(&w, values[i], scalar: false)
                if n + 1 < kept.count {
                    // Linear: straight tangents.
                    w.key("o")
                    w.rawValue(Array(#"{"x":[0],"y":[0]}"#.utf8))
                    w.key("i")
                    w.rawValue(Array(#"{"x":[1],"y":[1]}"#.utf8))
                }
                w.endObject()
            }
            w.endArray()
        }
        w.endObject()
    }

    /// The indices of the keyframes to keep: from each kept one, the next is
    /// the farthest (at most `window` on) whose straight line passes every
    /// keyframe between within `tolerance` (a jump, two keyframes 0.1 ms
    /// apart, stays). The window bounds the work at `window` × keyframes.
    /// With `exactZero`, a 0 stays exactly 0: a hidden element stays hidden
    /// (rlottie dims the whole canvas a little for every layer whose
    /// opacity is neither 0 nor 100).
    static let window = 48

    static func simplified(_ times: [Double], _ values: [[Double]], tolerance: Double, exactZero: Bool = false) -> [Int] {
        var kept = [0]
        var anchor = 0
        while anchor < times.count - 1 {
            var end = anchor + 1
            while end + 1 < times.count && end + 1 - anchor <= window
                    && fits(times, values, from: anchor, to: end + 1, tolerance: tolerance, exactZero: exactZero) { end += 1 }
            kept.append(end)
            anchor = end
        }
        return kept
    }

    static func fits(_ times: [Double], _ values: [[Double]], from a: Int, to b: Int, tolerance: Double, exactZero: Bool) -> Bool {
        let span = times[b] - times[a]
        guard span > 0 else { return false }
        for i in (a + 1)..<b {
            let f = (times[i] - times[a]) / span
            for c in values[i].indices {
                let line = values[a][c] + (values[b][c] - values[a][c]) * f
                if abs(line - values[i][c]) > tolerance || (exactZero && values[i][c] == 0 && line != 0) { return false }
            }
        }
        return true
    }

    /// Values to 1e-4 (of a point, a percent, a degree): far below what a
    /// player can show, and a third of the bytes of the shortest exact text.
    static func numbers(_ w: inout JSONWriter, _ values: [Double], scalar: Bool) {
        if scalar && values.count == 1 { w.value(rounded(values[0])); return }
        w.beginArray()
        for v in values { w.value(rounded(v)) }
        w.endArray()
    }

    static func rounded(_ v: Double) -> Double { (v * 1e4).rounded() / 1e4 }

    /// Whether a track loops on a period of its own, shorter than the loop.
    static func ownPeriod(_ track: SampledLoop.Track, _ loop: SampledLoop) -> Bool { track.duration < loop.duration - 1e-9 }

    /// An element on a period of its own: its one cycle drawn in an asset,
    /// and a precomposition layer whose time remapping (in seconds) runs 0
    /// to the period, over and over, to the loop's end: two keyframes a
    /// cycle, where repeating the element's keyframes would take dozens.
    static func cycleLayer(_ track: SampledLoop.Track, index: Int, width: Double, height: Double, frames: Double,
                           _ w: inout JSONWriter) {
        beginLayer(&w, name: track.element.id.description, index: index, frames: frames,
                   precomposition: (id: "cycle\(index)", width: Int(width), height: Int(height)))
        w.rawValue(identityTransform)
        w.key("tm")
        w.beginObject()
        w.field("a", 1)
        w.key("k")
        w.beginArray()
        // Each cycle: 0 at its start, rising to the period at its end (less
        // a thousandth of a frame, where the next cycle starts again at 0).
        let d = track.duration, epsilon = 0.001
        var start = 0.0
        while start < frames / frameRate - 1e-9 {
            let end = min(start + d, frames / frameRate)
            for (t, value, last) in [(start * frameRate, 0.0, false), (end * frameRate - epsilon, end - start - epsilon / frameRate, end >= frames / frameRate - 1e-9)] {
                w.beginObject()
                w.field("t", rounded(t))
                w.key("s")
                numbers(&w, [value], scalar: false)
                if !last {
                    w.key("o")
                    w.rawValue(Array(#"{"x":[0],"y":[0]}"#.utf8))
                    w.key("i")
                    w.rawValue(Array(#"{"x":[1],"y":[1]}"#.utf8))
                }
                w.endObject()
            }
            start += d
        }
        w.endArray()
        w.endObject()
        w.endObject()
    }

    /// A shape layer's opening, up to its transform.
    /// A shape layer, or with `precomposition` a layer showing that asset.
    static func beginLayer(_ w: inout JSONWriter, name: String, index: Int, frames: Double,
                           precomposition: (id: String, width: Int, height: Int)? = nil) {
        w.beginObject()
        w.field("ty", precomposition == nil ? 4 : 0)
        w.field("nm", name)
        if let precomposition { w.field("refId", precomposition.id) }
        w.field("ind", index)
        if let precomposition {
            w.field("w", precomposition.width)
            w.field("h", precomposition.height)
        }
        w.field("ip", 0)
        w.field("op", frames)
        w.field("st", 0)
        w.field("sr", 1)
        w.field("ao", 0)
        w.field("bm", 0)
        w.field("ddd", 0)
        w.key("ks")
    }

    static func layer(_ track: SampledLoop.Track, index: Int, frames: Double, placed: [Element?]? = nil, _ w: inout JSONWriter) {
        if let placed { return placedLayer(track, index: index, frames: frames, placed, &w) }
        let e = track.element, keys = track.keys
        // Each property may stray from the sampled keyframes by half the
        // sampling's own tolerance.
        let position = SampledLoop.positionTolerance / 2, value = SampledLoop.valueTolerance / 2
        beginLayer(&w, name: e.id.description, index: index, frames: frames)
        w.beginObject()
        w.key("a")
        w.rawValue(Array(#"{"a":0,"k":[0,0]}"#.utf8))
        property(&w, "p", keys, { [$0.x, $0.y] }, tolerance: position)
        // A circle is sampled by its drawn radius; the others by scale.
        let diameter = e.diameter
        let byRadius = switch e.shape {
        case .circle: true
        case .rect, .ring, .segment, .triangle: false
        }
        property(&w, "s", keys, { s in
            let k = byRadius ? (diameter > 0 ? 2 * s.r / diameter : 0) : s.scale
            return [k * 100, k * 100]
        }, tolerance: byRadius && diameter > 0 ? 200 * position / diameter : 100 * value)
        property(&w, "r", keys, { [$0.rotation * 180 / .pi] }, scalar: true, tolerance: value * 180 / .pi)
        property(&w, "o", keys, { [$0.present ? $0.opacity * 100 : 0] }, scalar: true, tolerance: 100 * value, exactZero: true)
        w.endObject()
        w.key("shapes")
        w.beginArray()
        w.beginObject()
        w.field("ty", "gr")
        w.field("nm", e.shape.rawValue)
        w.key("it")
        w.beginArray()
        let color = [Double(e.color.red) / 255, Double(e.color.green) / 255, Double(e.color.blue) / 255, 1]
        switch e.shape {
        case .circle:
            ellipse(&w, diameter: diameter)
            fill(&w, color)
        case .rect:
            w.beginObject()
            w.field("ty", "rc")
            w.key("p")
            w.rawValue(Array(#"{"a":0,"k":[0,0]}"#.utf8))
            property(&w, "s", keys, { [$0.width, $0.height] }, tolerance: position)
            property(&w, "r", keys, { [min($0.cornerRadius, $0.width / 2, $0.height / 2)] }, scalar: true, tolerance: position)
            w.endObject()
            fill(&w, color)
        case .ring:
            ellipse(&w, diameter: diameter)
            w.beginObject()
            w.field("ty", "tm")
            // A short arc's length matters: trims keep a tenth of the tolerance.
            property(&w, "s", keys, { [$0.strokeStart * 100] }, scalar: true, tolerance: 10 * value)
            // An empty trim draws the whole path in rlottie; a round cap's
            // dot needs a length, so an empty stroke keeps 1e-3 of one.
            property(&w, "e", keys, { [max($0.strokeEnd, $0.strokeStart + 1e-3) * 100] }, scalar: true, tolerance: 10 * value)
            w.key("o")
            w.rawValue(Array(#"{"a":0,"k":0}"#.utf8))
            w.field("m", 1)
            w.endObject()
            w.beginObject()
            w.field("ty", "st")
            paint(&w, color)
            property(&w, "w", keys, { [$0.lineWidth] }, scalar: true, tolerance: position)
            w.field("lc", e.lineCap == .round ? 2 : 1)
            w.field("lj", 1)
            w.endObject()
        case .segment:
            segment(&w, diameter: diameter, arc: e.arc)
            fill(&w, color)
        case .triangle:
            // A unit triangle, sized by its group's scale: one path for
            // every moment, whatever its width and height do.
            w.beginObject()
            w.field("ty", "sh")
            w.key("ks")
            w.rawValue(Array(#"{"a":0,"k":{"c":true,"v":[[0,-0.5],[0.5,0.5],[-0.5,0.5]],"i":[[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0]]}}"#.utf8))
            w.endObject()
            fill(&w, color)
            w.beginObject()
            w.field("ty", "tr")
            w.key("a")
            w.rawValue(Array(#"{"a":0,"k":[0,0]}"#.utf8))
            w.key("p")
            w.rawValue(Array(#"{"a":0,"k":[0,0]}"#.utf8))
            property(&w, "s", keys, { [$0.width * 100, $0.height * 100] }, tolerance: 100 * position)
            w.key("r")
            w.rawValue(Array(#"{"a":0,"k":0}"#.utf8))
            w.key("o")
            w.rawValue(Array(#"{"a":0,"k":100}"#.utf8))
            w.endObject()
        }
        if e.shape != .triangle {
            w.rawValue(Array(#"{"ty":"tr","a":{"a":0,"k":[0,0]},"p":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}}"#.utf8))
        }
        w.endArray()
        w.endObject()
        w.endArray()
        w.endObject()
    }

    /// An ellipse path starts at 12 o'clock and runs clockwise, as a ring's
    /// stroke does.
    static func ellipse(_ w: inout JSONWriter, diameter: Double) {
        w.beginObject()
        w.field("ty", "el")
        w.key("p")
        w.rawValue(Array(#"{"a":0,"k":[0,0]}"#.utf8))
        w.key("s")
        w.rawValue(constant([diameter, diameter]))
        w.endObject()
    }

    /// A segment as a closed path: its arc in cubic pieces of at most a
    /// quarter turn (control points 4/3 × tan(θ/4) of the radius along the
    /// tangents, within 2.7e-4 of the radius), then the chord.
    static func segment(_ w: inout JSONWriter, diameter: Double, arc: Double) {
        let r = diameter / 2, sweep = min(max(arc, 0), 2 * .pi)
        let pieces = max(1, Int((sweep / (.pi / 2)).rounded(.up)))
        let step = sweep / Double(pieces), k = 4.0 / 3.0 * tan(step / 4) * r
        var v: [[Double]] = [], i: [[Double]] = [], o: [[Double]] = []
        for n in 0...pieces {
            // Clock angle a: the point (r sin a, −r cos a), its tangent (cos a, sin a).
            let a = -sweep / 2 + Double(n) * step
            v.append([rounded(r * sin(a)), rounded(-r * cos(a))])
            i.append(n == 0 ? [0, 0] : [rounded(-k * cos(a)), rounded(-k * sin(a))])
            o.append(n == pieces ? [0, 0] : [rounded(k * cos(a)), rounded(k * sin(a))])
        }
        func points(_ list: [[Double]]) -> String {
            "[" + list.map { "[\($0[0]),\($0[1])]" }.joined(separator: ",") + "]"
        }
        w.beginObject()
        w.field("ty", "sh")
        w.key("ks")
        w.rawValue(Array(#"{"a":0,"k":{"c":true,"v":\#(points(v)),"i":\#(points(i)),"o":\#(points(o))}}"#.utf8))
        w.endObject()
    }

    /// A layer's transform that leaves it where it is.
    static let identityTransform = Array(#"{"a":{"a":0,"k":[0,0]},"p":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}}"#.utf8)

    static func fill(_ w: inout JSONWriter, _ color: [Double]) {
        w.beginObject()
        w.field("ty", "fl")
        paint(&w, color)
        w.field("r", 1)
        w.endObject()
    }

    /// A fill's or stroke's colour, fully opaque (the element's opacity is its layer's).
    static func paint(_ w: inout JSONWriter, _ color: [Double]) {
        w.key("c")
        w.rawValue(constant(color))
        w.key("o")
        w.rawValue(Array(#"{"a":0,"k":100}"#.utf8))
    }

    static func constant(_ values: [Double]) -> [UInt8] {
        var w = JSONWriter(capacity: 64)
        w.beginObject()
        w.field("a", 0)
        w.key("k")
        numbers(&w, values, scalar: false)
        w.endObject()
        return w.bytes
    }

    static func backgroundLayer(_ color: RGBColor, index: Int, width: Double, height: Double, frames: Double, _ w: inout JSONWriter) {
        let c = [Double(color.red) / 255, Double(color.green) / 255, Double(color.blue) / 255, 1]
        beginLayer(&w, name: "background", index: index, frames: frames)
        w.rawValue(identityTransform)
        w.key("shapes")
        w.beginArray()
        w.beginObject()
        w.field("ty", "gr")
        w.key("it")
        w.beginArray()
        w.beginObject()
        w.field("ty", "rc")
        w.key("p")
        w.rawValue(constant([width / 2, height / 2]))
        w.key("s")
        w.rawValue(constant([width, height]))
        w.key("r")
        w.rawValue(Array(#"{"a":0,"k":0}"#.utf8))
        w.endObject()
        fill(&w, c)
        w.rawValue(Array(#"{"ty":"tr","a":{"a":0,"k":[0,0]},"p":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}}"#.utf8))
        w.endArray()
        w.endObject()
        w.endArray()
        w.endObject()
    }
}
