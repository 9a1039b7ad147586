#if canImport(Glibc)
import Glibc
#endif
import LoaderEngine

/// Elements with a placement (a squash, a skew, a perspective) in Lottie.
/// rlottie reads no skew (`sk`, `sa`) and draws no 3D layers, so:
/// - a fill under a flat map (circle, rect, segment) keeps its shape item,
///   and the map's 2×2 is split exactly into rotation · scale x/y ·
///   rotation (its singular value decomposition): the layer turns and
///   scales, the shape's group turns;
/// - anything under perspective, and rings and triangles, become their
///   outline as a path animated at the frame rate: lines and the
///   projected curves as cubic pieces.
extension Lottie {
    /// For each element shown with a placement: the element at every frame
    /// of the loop (frame f at `start + f / frameRate`), nil where it is
    /// absent. Placed elements are those whose sampled keyframes carry a
    /// squash, a skew or an outline; with none (every format 1 loader) no
    /// frame is computed here and the document is as before.
    static func placedFrames(_ loop: SampledLoop) -> [ElementID: [Element?]] {
        let ids = Set(loop.tracks.filter { track in
            track.keys.contains { $0.v.outline != nil || $0.v.skew != 0 || $0.v.scaleX != 1 || $0.v.scaleY != 1 }
        }.map(\.element.id))
        guard !ids.isEmpty else { return [:] }
        let count = Int((loop.duration * frameRate + 1e-9).rounded(.down)) + 1
        func frame(_ f: Int) -> Frame { loop.loader.frame(at: loop.start + Double(f) / frameRate) }
        var result: [ElementID: [Element?]] = [:]
        for id in ids { result[id] = [Element?](repeating: nil, count: count) }
        for f in 0..<count { for e in frame(f).elements where ids.contains(e.id) { result[e.id]![f] = e } }
        return result
    }

    /// A 2×2 (columns (a, b) and (c, d)) as R(α) · diag(sx, sy) · R(β),
    /// R turning clockwise on screen: the closed-form singular value
    /// decomposition, exact to rounding.
    static func decomposed(a: Double, b: Double, c: Double, d: Double) -> (alpha: Double, sx: Double, sy: Double, beta: Double) {
        let e = (a + d) / 2, f = (a - d) / 2, g = (b + c) / 2, h = (b - c) / 2
        let q = (e * e + h * h).squareRoot(), r = (f * f + g * g).squareRoot()
        let a1 = atan2(g, f), a2 = atan2(h, e)
        return ((a2 + a1) / 2, q + r, q - r, (a2 - a1) / 2)
    }

    /// The decomposition among its equivalents (a quarter turn moved from
    /// one rotation to the other swaps the scales; a half turn negates
    /// both; whole turns) nearest `previous`, so that keyframes in between
    /// turn the short way. With no previous: the one turning least.
    static func continued(_ m: (alpha: Double, sx: Double, sy: Double, beta: Double),
                          from previous: (alpha: Double, sx: Double, sy: Double, beta: Double)?) -> (alpha: Double, sx: Double, sy: Double, beta: Double) {
        let p = previous ?? (0, m.sx, m.sy, 0)
        func near(_ x: Double, _ target: Double) -> Double { x - 2 * .pi * ((x - target) / (2 * .pi)).rounded() }
        var best = m, bestCost = Double.infinity
        for k in 0..<4 {
            for flip in [1.0, -1.0] {
                let (sx, sy) = k % 2 == 0 ? (m.sx, m.sy) : (m.sy, m.sx)
                let alpha = near(m.alpha + Double(k) * .pi / 2 + (flip < 0 ? .pi : 0), p.alpha)
                let beta = near(m.beta - Double(k) * .pi / 2, p.beta)
                let candidate = (alpha: alpha, sx: flip * sx, sy: flip * sy, beta: beta)
                let cost = abs(alpha - p.alpha) + abs(beta - p.beta) + abs(candidate.sx - p.sx) + abs(candidate.sy - p.sy)
                if cost < bestCost - 1e-12 { best = candidate; bestCost = cost }
            }
        }
        return best
    }

    /// Whether a placed element goes as its outline path: under
    /// perspective at some frame, or a shape whose item a layer's scale
    /// cannot squash exactly (a stroke's width; a triangle sized by its
    /// own group).
    static func asOutline(_ elements: [Element]) -> Bool {
        elements.contains { e in
            if let p = e.placement, !p.isAffine { return true }
            switch e.shape {
            case .ring, .triangle: return true
            case .circle, .rect, .segment: return false
            }
        }
    }

    /// A placed element's layer: opacity from its keyframes as every
    /// layer's; its map as a turn, a squash and a turn, or its outline.
    static func placedLayer(_ track: SampledLoop.Track, index: Int, frames: Double, _ placed: [Element?], _ w: inout JSONWriter) {
        let first = track.element
        // Frames of this track's own length; an absent frame holds the
        // nearest shown one (its opacity is 0 there).
        let count = min(placed.count, Int((track.duration * frameRate + 1e-9).rounded(.down)) + 1)
        var elements: [Element] = []
        var last: Element? = placed[0..<count].first { $0 != nil } ?? first
        for f in 0..<count {
            if let e = placed[f] { last = e }
            elements.append(last ?? first)
        }
        let times = (0..<count).map { Double($0) / frameRate }
        let position = SampledLoop.positionTolerance / 2, value = SampledLoop.valueTolerance / 2
        beginLayer(&w, name: first.id.description, index: index, frames: frames)
        w.beginObject()
        w.key("a")
        w.rawValue(Array(#"{"a":0,"k":[0,0]}"#.utf8))
        let outline = asOutline(elements)
        var turns: [Double] = []
        if outline {
            w.key("p")
            w.rawValue(Array(#"{"a":0,"k":[0,0]}"#.utf8))
            w.key("s")
            w.rawValue(Array(#"{"a":0,"k":[100,100]}"#.utf8))
            w.key("r")
            w.rawValue(Array(#"{"a":0,"k":0}"#.utf8))
        } else {
            // A circle's own diameter may change: folded into the scale.
            let diameter = first.diameter
            var previous: (alpha: Double, sx: Double, sy: Double, beta: Double)? = nil
            var parts: [(alpha: Double, sx: Double, sy: Double, beta: Double)] = []
            for e in elements {
                let m = e.canvasMap
                let k: Double = switch e.shape {
                case .circle: diameter > 0 ? e.diameter / diameter : 0
                case .rect, .segment, .ring, .triangle: 1
                }
                let part = continued(decomposed(a: m.a * k, b: m.b * k, c: m.c * k, d: m.d * k), from: previous)
                parts.append(part)
                previous = part
            }
            property(&w, "p", times, elements.map { [$0.canvasMap.tx, $0.canvasMap.ty] }, tolerance: position)
            property(&w, "s", times, parts.map { [$0.sx * 100, $0.sy * 100] }, tolerance: 100 * value)
            property(&w, "r", times, parts.map { [$0.alpha * 180 / .pi] }, scalar: true, tolerance: value * 180 / .pi)
            turns = parts.map { $0.beta * 180 / .pi }
        }
        property(&w, "o", track.keys, { [$0.present ? $0.opacity * 100 : 0] }, scalar: true, tolerance: 100 * value, exactZero: true)
        w.endObject()
        w.key("shapes")
        w.beginArray()
        w.beginObject()
        w.field("ty", "gr")
        w.field("nm", first.shape.rawValue)
        w.key("it")
        w.beginArray()
        let color = [Double(first.color.red) / 255, Double(first.color.green) / 255, Double(first.color.blue) / 255, 1]
        if outline {
            outlinePath(&w, times, elements.map { e in pieces(e).map { mapped($0, e.canvasMap) } })
            fill(&w, color)
            w.rawValue(Array(#"{"ty":"tr","a":{"a":0,"k":[0,0]},"p":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}}"#.utf8))
        } else {
            switch first.shape {
            case .circle:
                ellipse(&w, diameter: first.diameter)
            case .rect:
                w.beginObject()
                w.field("ty", "rc")
                w.key("p")
                w.rawValue(Array(#"{"a":0,"k":[0,0]}"#.utf8))
                property(&w, "s", times, elements.map { [$0.width, $0.height] }, tolerance: position)
                property(&w, "r", times, elements.map { [min($0.cornerRadius, $0.width / 2, $0.height / 2)] }, scalar: true, tolerance: position)
                w.endObject()
            case .segment:
                segment(&w, diameter: first.diameter, arc: first.arc)
            case .ring, .triangle:
                break   // drawn as outlines (asOutline)
            }
            fill(&w, color)
            w.beginObject()
            w.field("ty", "tr")
            w.key("a")
            w.rawValue(Array(#"{"a":0,"k":[0,0]}"#.utf8))
            w.key("p")
            w.rawValue(Array(#"{"a":0,"k":[0,0]}"#.utf8))
            w.key("s")
            w.rawValue(Array(#"{"a":0,"k":[100,100]}"#.utf8))
            property(&w, "r", times, turns.map { [$0] }, scalar: true, tolerance: value * 180 / .pi)
            w.key("o")
            w.rawValue(Array(#"{"a":0,"k":100}"#.utf8))
            w.endObject()
        }
        w.endArray()
        w.endObject()
        w.endArray()
        w.endObject()
    }

    /// One cubic piece of an outline: from p0 to p1, control points c0, c1.
    struct Piece: Equatable {
        var p0: Point, c0: Point, c1: Point, p1: Point

        static func line(_ a: Point, _ b: Point) -> Piece { Piece(p0: a, c0: a, c1: b, p1: b) }
    }

    /// An arc about `centre` of radius r from clock angle a0 to a1 (radians
    /// clockwise from 12 o'clock) in `n` cubic pieces, each with control
    /// points 4/3 · tan(θ/4) of the radius along the tangents (within
    /// 1e-7 of the radius for the sixteenth turns of a circle).
    static func arc(_ centre: Point, _ r: Double, from a0: Double, to a1: Double, pieces n: Int) -> [Piece] {
        let step = (a1 - a0) / Double(n), k = 4.0 / 3.0 * tan(step / 4) * r
        func at(_ a: Double) -> Point { Point(x: centre.x + r * sin(a), y: centre.y - r * cos(a)) }
        return (0..<n).map { i in
            let a = a0 + step * Double(i), b = a + step
            let p0 = at(a), p1 = at(b)
            return Piece(p0: p0, c0: Point(x: p0.x + k * cos(a), y: p0.y + k * sin(a)),
                         c1: Point(x: p1.x - k * cos(b), y: p1.y - k * sin(b)), p1: p1)
        }
    }

    /// The element's outline in its own plane (centre at the origin,
    /// unscaled, unturned) as one closed run of cubic pieces, the same
    /// number for every moment of a shape so that keyframes match.
    static func pieces(_ e: Element) -> [Piece] {
        let o = Point(x: 0, y: 0)
        switch e.shape {
        case .circle:
            return arc(o, e.diameter / 2, from: 0, to: 2 * .pi, pieces: 16)
        case .segment:
            let half = min(max(e.arc, 0), 2 * .pi) / 2
            let curve = arc(o, e.diameter / 2, from: -half, to: half, pieces: 16)
            return curve + [.line(curve[15].p1, curve[0].p0)]
        case .triangle:
            let (w, h) = (e.width / 2, e.height / 2)
            let apex = Point(x: 0, y: -h), right = Point(x: w, y: h), left = Point(x: -w, y: h)
            return [.line(apex, right), .line(right, left), .line(left, apex)]
        case .rect:
            let (w, h) = (max(e.width, 0) / 2, max(e.height, 0) / 2)
            let cr = min(max(e.cornerRadius, 0), w, h)
            // Corners clockwise from the top right, each a quarter turn in
            // two pieces, the sides between.
            var run: [Piece] = []
            for (i, (x, y)) in [(w - cr, -h + cr), (w - cr, h - cr), (-w + cr, h - cr), (-w + cr, -h + cr)].enumerated() {
                let a = .pi / 2 * Double(i)
                let corner = arc(Point(x: x, y: y), cr, from: a, to: a + .pi / 2, pieces: 2)
                if let end = run.last?.p1 { run.append(.line(end, corner[0].p0)) }
                run += corner
            }
            return run + [.line(run[run.count - 1].p1, run[0].p0)]
        case .ring:
            let r = e.diameter / 2, half = e.lineWidth / 2, inner = max(r - half, 0)
            let start = max(e.strokeStart, 0), end = min(max(e.strokeEnd, e.strokeStart + 1e-3), 1)
            let full = end - start >= 1
            let a0 = 2 * .pi * start, a1 = full ? a0 + 2 * .pi : 2 * .pi * end
            let round = e.lineCap == .round && !full
            // Outer edge forward, the end's cap, inner edge back, the start's cap.
            func cap(at a: Double, from: Point, to: Point, end: Bool) -> [Piece] {
                guard round else {
                    let mid = (0..<5).map { Point(x: from.x + (to.x - from.x) * Double($0) / 4, y: from.y + (to.y - from.y) * Double($0) / 4) }
                    return (0..<4).map { .line(mid[$0], mid[$0 + 1]) }
                }
                let c = Point(x: r * sin(a), y: -r * cos(a)), b = end ? a : a + .pi
                return arc(c, half, from: b, to: b + .pi, pieces: 4)
            }
            let outer = arc(o, r + half, from: a0, to: a1, pieces: 24)
            let back = arc(o, inner, from: a1, to: a0, pieces: 24)
            return outer + cap(at: a1, from: outer[23].p1, to: back[0].p0, end: true)
                + back + cap(at: a0, from: back[23].p1, to: outer[0].p0, end: false)
        }
    }

    /// A piece through a projective map: its ends mapped exactly, its
    /// control points along the map's derivative at each end (a line
    /// stays a line; a curve keeps its ends' tangents and speeds).
    static func mapped(_ piece: Piece, _ m: PlaneTransform) -> Piece {
        func through(_ p: Point, _ handle: Point) -> Point {
            let w = m.px * p.x + m.py * p.y + m.pw
            let x = (m.a * p.x + m.c * p.y + m.tx) / w, y = (m.b * p.x + m.d * p.y + m.ty) / w
            let (dx, dy) = (handle.x - p.x, handle.y - p.y)
            return Point(x: x + ((m.a - x * m.px) * dx + (m.c - x * m.py) * dy) / w,
                         y: y + ((m.b - y * m.px) * dx + (m.d - y * m.py) * dy) / w)
        }
        return Piece(p0: m.apply(piece.p0), c0: through(piece.p0, piece.c0), c1: through(piece.p1, piece.c1), p1: m.apply(piece.p1))
    }

    /// The outlines as one closed path animated at the frame rate: each
    /// piece's start a vertex, its control points the vertex's out tangent
    /// and the next vertex's in tangent (relative, as Lottie has them).
    static func outlinePath(_ w: inout JSONWriter, _ times: [Double], _ outlines: [[Piece]]) {
        func numbers(_ run: [Piece]) -> [Double] {
            var v: [Double] = []
            v.reserveCapacity(6 * run.count)
            for (j, piece) in run.enumerated() {
                let before = run[(j + run.count - 1) % run.count]
                v += [piece.p0.x, piece.p0.y, before.c1.x - before.p1.x, before.c1.y - before.p1.y,
                      piece.c0.x - piece.p0.x, piece.c0.y - piece.p0.y]
            }
            return v
        }
        func bezier(_ v: [Double]) -> [UInt8] {
            func list(_ offset: Int) -> String {
                "[" + stride(from: offset, to: v.count, by: 6).map { "[\(rounded(v[$0])),\(rounded(v[$0 + 1]))]" }.joined(separator: ",") + "]"
            }
            return Array(#"{"c":true,"v":\#(list(0)),"i":\#(list(2)),"o":\#(list(4))}"#.utf8)
        }
        let values = outlines.map(numbers)
        w.beginObject()
        w.field("ty", "sh")
        w.key("ks")
        w.beginObject()
        let changes = values.contains { $0 != values[0] }
        w.field("a", changes ? 1 : 0)
        w.key("k")
        if !changes {
            w.rawValue(bezier(values[0]))
        } else {
            let kept = simplified(times, values, tolerance: SampledLoop.positionTolerance / 2)
            w.beginArray()
            for (n, i) in kept.enumerated() {
                w.beginObject()
                w.field("t", rounded(times[i] * frameRate))
                w.key("s")
                w.rawValue([UInt8(ascii: "[")] + bezier(values[i]) + [UInt8(ascii: "]")])
                if n + 1 < kept.count {
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
        w.endObject()
    }
}
