// An element's outline on the canvas, exact whatever its placement: lines
// stay lines under a homography, and a circle's arc becomes an arc of an
// ellipse (a circle's image is a conic, an ellipse wherever W stays
// positive, which the engine's culling ensures). So a client that only
// fills 2D paths draws a squashed or tilted shape exactly.

#if canImport(Glibc)
import Glibc
#endif

/// One step of an outline, in canvas coordinates: SVG path data's `M`, `L`,
/// `A` and `Z`.
public enum OutlineSegment: Sendable, Equatable {
    case move(Point)
    case line(Point)
    /// An elliptical arc from the current point to `to`, as SVG's `A`:
    /// radii, the x axis's angle (radians, clockwise on screen), and the
    /// flags that pick one of four arcs (`sweep`: clockwise on screen).
    case arc(rx: Double, ry: Double, angle: Double, largeArc: Bool, sweep: Bool, to: Point)
    case close
}

extension Element {
    /// The map from the element's own plane to the canvas: its placement,
    /// or the similarity `x`, `y`, `rotation` and `scale` say.
    public var canvasMap: PlaneTransform {
        if let placement { return placement }
        let c = cos(rotation) * scale, s = sin(rotation) * scale
        return PlaneTransform(a: c, b: s, c: -s, d: c, tx: x, ty: y)
    }

    /// The most segments `outline()` gives any element: a rect with round
    /// corners (move, four lines, four arcs, close).
    public static let outlineMaxSegments = 10

    /// The element's filled region as a closed path on the canvas (fill rule
    /// nonzero): a circle is two half arcs; a rect four lines and its
    /// corners' quarter arcs; a ring its stroke's band (outer arc, cap,
    /// inner arc back, cap; a whole ring two opposite sub-paths); a segment
    /// its arc and chord; a triangle three lines. Empty when nothing is drawn.
    public func outline() -> [OutlineSegment] {
        var o = OutlineBuilder(map: canvasMap, similar: placement == nil)
        switch shape {
        case .circle:
            let r = diameter / 2
            guard r > 0 else { return [] }
            o.move(clock: 0, r, about: .zero)
            o.arc(about: .zero, r, from: 0, to: 2 * .pi)
            o.close()
        case .rect:
            let w = width / 2, h = height / 2
            guard w > 0, h > 0 else { return [] }
            let cr = min(max(cornerRadius, 0), w, h)
            // Clockwise from the top edge's right end: each corner's arc
            // about its centre, then the next edge.
            let corners = [Point(x: w - cr, y: -h + cr), Point(x: w - cr, y: h - cr), Point(x: -w + cr, y: h - cr), Point(x: -w + cr, y: -h + cr)]
            o.move(Point(x: -w + cr, y: -h))
            for (i, c) in corners.enumerated() {
                let a = Double(i) * .pi / 2
                if cr > 0 {
                    o.line(clock: a, cr, about: c)
                    o.arc(about: c, cr, from: a, to: a + .pi / 2)
                } else {
                    o.line(c)
                }
            }
            o.close()
        case .ring:
            let r = diameter / 2, half = lineWidth / 2
            let s0 = min(max(strokeStart, 0), 1), s1 = min(max(strokeEnd, 0), 1)
            guard half > 0, s1 > s0 else { return [] }
            let outer = r + half, inner = max(r - half, 0)
            if s1 - s0 >= 1 {
                o.move(clock: 0, outer, about: .zero)
                o.arc(about: .zero, outer, from: 0, to: 2 * .pi)
                o.close()
                guard inner > 0 else { break }
                // The other way round: nonzero leaves the hole empty.
                o.move(clock: 0, inner, about: .zero)
                o.arc(about: .zero, inner, from: 2 * .pi, to: 0)
                o.close()
                break
            }
            let a0 = 2 * .pi * s0, a1 = 2 * .pi * s1
            o.move(clock: a0, outer, about: .zero)
            o.arc(about: .zero, outer, from: a0, to: a1)
            // The end's cap, outer edge to inner: a round one is the half
            // circle about the stroke's middle line, clockwise on from the band.
            let m1 = OutlineBuilder.point(clock: a1, r, about: .zero)
            switch lineCap {
            case .butt: o.line(clock: a1, inner, about: .zero)
            case .round: o.arc(about: m1, half, from: a1, to: a1 + .pi)
            }
            if inner > 0 { o.arc(about: .zero, inner, from: a1, to: a0) } else { o.line(.zero) }
            // The start's cap, inner edge to outer; a butt one is the closing edge.
            let m0 = OutlineBuilder.point(clock: a0, r, about: .zero)
            switch lineCap {
            case .butt: break
            case .round:
                // A band wider than its circle: its cap's inner end is past the centre.
                if inner == 0 { o.line(clock: a0 + .pi, half, about: m0) }
                o.arc(about: m0, half, from: a0 + .pi, to: a0 + 2 * .pi)
            }
            o.close()
        case .segment:
            let r = diameter / 2, half = min(max(arc, 0), 2 * .pi) / 2
            guard r > 0, half > 0 else { return [] }
            o.move(clock: -half, r, about: .zero)
            o.arc(about: .zero, r, from: -half, to: half)
            o.close()
        case .triangle:
            let w = width / 2, h = height / 2
            guard w > 0, h > 0 else { return [] }
            o.move(Point(x: 0, y: -h))
            o.line(Point(x: w, y: h))
            o.line(Point(x: -w, y: h))
            o.close()
        }
        // The frame encoder sizes its buffer by this count: a breach would
        // write past it, so it is checked in release too.
        precondition(o.segments.count <= Element.outlineMaxSegments, "an outline of \(o.segments.count) segments")
        return o.segments
    }

    /// SVG path data for `segments`: `M`, `L`, `A` (angle in degrees) and
    /// `Z`, each number its shortest round-trip text.
    public static func pathData(_ segments: [OutlineSegment]) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: pathDataBound(segments.count)) { buffer in
            var cursor = ByteCursor(buffer.baseAddress!)
            writePathData(segments, to: &cursor)
            return String(decoding: UnsafeBufferPointer(start: buffer.baseAddress, count: cursor.p - buffer.baseAddress!), as: UTF8.self)
        }
    }

    /// The most bytes path data of `count` segments takes: an arc's seven
    /// numbers, a letter and separators each.
    static func pathDataBound(_ count: Int) -> Int { count * (1 + 7 * (ShortestDouble.maxLength + 1)) }

    static func writePathData(_ segments: [OutlineSegment], to cursor: inout ByteCursor) {
        for segment in segments {
            switch segment {
            case let .move(p):
                cursor.write(UInt8(ascii: "M"))
                writePair(p, to: &cursor)
            case let .line(p):
                cursor.write(UInt8(ascii: "L"))
                writePair(p, to: &cursor)
            case let .arc(rx, ry, angle, largeArc, sweep, to):
                cursor.write(UInt8(ascii: "A"))
                ShortestDouble.write(rx, to: &cursor)
                cursor.write(UInt8(ascii: " "))
                ShortestDouble.write(ry, to: &cursor)
                cursor.write(UInt8(ascii: " "))
                ShortestDouble.write(angle * 180 / .pi, to: &cursor)
                cursor.write(largeArc ? " 1" : " 0")
                cursor.write(sweep ? " 1 " : " 0 ")
                writePair(to, to: &cursor)
            case .close:
                cursor.write(UInt8(ascii: "Z"))
            }
        }
    }

    private static func writePair(_ p: Point, to cursor: inout ByteCursor) {
        ShortestDouble.write(p.x, to: &cursor)
        cursor.write(UInt8(ascii: " "))
        ShortestDouble.write(p.y, to: &cursor)
    }

    /// `segments` as closed polygons, each arc cut into chords that stray
    /// from it by at most `tolerance` (for a rasteriser; fill rule nonzero).
    /// The vertices lie on the exact curves.
    public func flattened(_ segments: [OutlineSegment], tolerance: Double) -> [[Point]] {
        var polygons: [[Point]] = []
        var current: [Point] = []
        func finish() {
            if current.count > 2 { polygons.append(current) }
            current = []
        }
        for segment in segments {
            switch segment {
            case let .move(p):
                finish()
                current = [p]
            case let .line(p):
                current.append(p)
            case let .arc(rx, ry, angle, largeArc, sweep, to):
                guard let from = current.last else { current = [to]; continue }
                Self.flattenArc(from: from, rx: rx, ry: ry, angle: angle, largeArc: largeArc, sweep: sweep, to: to,
                                tolerance: tolerance, into: &current)
            case .close:
                finish()
            }
        }
        finish()
        return polygons
    }

    /// SVG's endpoint-to-centre conversion (SVG 1.1 appendix F.6.5, radii
    /// scaled up when too small, F.6.6), then points at equal steps of the
    /// ellipse's parameter, few enough that each chord's sagitta (at most
    /// max(rx, ry)·(1 − cos(step/2))) stays within `tolerance`.
    static func flattenArc(from p0: Point, rx: Double, ry: Double, angle: Double, largeArc: Bool, sweep: Bool, to p1: Point,
                           tolerance: Double, into points: inout [Point]) {
        var rx = abs(rx), ry = abs(ry)
        guard rx > 0, ry > 0, p0 != p1 else { points.append(p1); return }
        let cs = cos(angle), sn = sin(angle)
        let dx = (p0.x - p1.x) / 2, dy = (p0.y - p1.y) / 2
        let x1 = cs * dx + sn * dy, y1 = -sn * dx + cs * dy
        let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
        if lambda > 1 { rx *= lambda.squareRoot(); ry *= lambda.squareRoot() }
        let num = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
        let den = rx * rx * y1 * y1 + ry * ry * x1 * x1
        var k = den > 0 ? (max(num, 0) / den).squareRoot() : 0
        if largeArc == sweep { k = -k }
        let cx1 = k * rx * y1 / ry, cy1 = -k * ry * x1 / rx
        let cx = cs * cx1 - sn * cy1 + (p0.x + p1.x) / 2, cy = sn * cx1 + cs * cy1 + (p0.y + p1.y) / 2
        let t0 = atan2((y1 - cy1) / ry, (x1 - cx1) / rx)
        let t1 = atan2((-y1 - cy1) / ry, (-x1 - cx1) / rx)
        var dt = t1 - t0
        if sweep, dt < 0 { dt += 2 * .pi }
        if !sweep, dt > 0 { dt -= 2 * .pi }
        let r = max(rx, ry)
        let maxStep = tolerance > 0 && tolerance < r ? 2 * acos(1 - tolerance / r) : .pi / 2
        let n = max(1, min(Int((abs(dt) / maxStep).rounded(.up)), 100_000))
        for i in 1..<n {
            let t = t0 + dt * Double(i) / Double(n)
            let ex = rx * cos(t), ey = ry * sin(t)
            points.append(Point(x: cx + cs * ex - sn * ey, y: cy + sn * ex + cs * ey))
        }
        points.append(p1)
    }
}

extension Point {
    static let zero = Point(x: 0, y: 0)
}

/// Builds an outline from the element's own plane: points and circle arcs
/// given there (clock angles: from 12 o'clock, clockwise, as every shape's
/// angles are), written as their images on the canvas.
struct OutlineBuilder {
    let map: PlaneTransform
    /// A similarity (no placement): a circle stays a circle.
    let similar: Bool
    var segments: [OutlineSegment] = []

    init(map: PlaneTransform, similar: Bool) {
        self.map = map
        self.similar = similar
        segments.reserveCapacity(Element.outlineMaxSegments)
    }

    static func point(clock a: Double, _ r: Double, about c: Point) -> Point {
        Point(x: c.x + r * sin(a), y: c.y - r * cos(a))
    }

    mutating func move(_ p: Point) { segments.append(.move(map.apply(p))) }
    mutating func line(_ p: Point) { segments.append(.line(map.apply(p))) }
    mutating func move(clock a: Double, _ r: Double, about c: Point) { move(Self.point(clock: a, r, about: c)) }
    mutating func line(clock a: Double, _ r: Double, about c: Point) { line(Self.point(clock: a, r, about: c)) }
    mutating func close() { segments.append(.close) }

    /// The arc of the circle of radius `r` about `c` from clock angle `a0`
    /// to `a1` (clockwise when a1 > a0), in pieces of at most half a turn
    /// (SVG's arc cannot close on itself), from the current point.
    mutating func arc(about c: Point, _ r: Double, from a0: Double, to a1: Double) {
        guard r > 0, a1 != a0 else { return }
        let pieces = max(1, Int((abs(a1 - a0) / .pi - 1e-12).rounded(.up)))
        let e = ProjectedCircle(map: map, centre: c, radius: r, similar: similar)
        guard similar || e.isSound(within: projectedSquare(about: c, r)) else {
            // Seen (nearly) edge-on the circle's image is (nearly) a segment
            // and its conic cannot be solved in doubles: each arc piece
            // becomes the line to its end, a sliver whose width (under 1e-7
            // of its length) no picture shows. One segment for one, so the
            // outline never outgrows `outlineMaxSegments`, which the frame
            // encoder's buffer is sized by. Never a radius that is not a
            // finite number.
            for i in 1...pieces { line(clock: i == pieces ? a1 : a0 + (a1 - a0) * Double(i) / Double(pieces), r, about: c) }
            return
        }
        // Clockwise in the own plane stays clockwise on the canvas unless
        // the map mirrors (a homography's Jacobian has the sign of its
        // determinant wherever W > 0).
        let sweep = (a1 > a0) != e.mirrors
        for i in 1...pieces {
            let from = a0 + (a1 - a0) * Double(i - 1) / Double(pieces)
            let to = i == pieces ? a1 : a0 + (a1 - a0) * Double(i) / Double(pieces)
            let p0 = map.apply(Self.point(clock: from, r, about: c))
            let p1 = map.apply(Self.point(clock: to, r, about: c))
            // The canvas arc's extent in the ellipse's own parameter, through its middle point.
            // A similarity keeps the circle's own extent (at most half a
            // turn); at exactly half a turn both flags name the same arc, and
            // the margin keeps the text from flipping on a rounding.
            let pm = map.apply(Self.point(clock: (from + to) / 2, r, about: c))
            let largeArc = similar ? false : e.turn(from: p0, to: pm, sweep: sweep) + e.turn(from: pm, to: p1, sweep: sweep) > .pi + 1e-9
            segments.append(.arc(rx: e.rx, ry: e.ry, angle: e.angle, largeArc: largeArc, sweep: sweep, to: p1))
        }
    }
}

extension OutlineBuilder {
    /// The diagonal of the box holding the image of the square about `c`
    /// that holds the circle: the image ellipse fits inside it.
    func projectedSquare(about c: Point, _ r: Double) -> Double {
        var lo = Point(x: Double.infinity, y: Double.infinity), hi = Point(x: -Double.infinity, y: -Double.infinity)
        for (dx, dy) in [(-r, -r), (r, -r), (r, r), (-r, r)] as [(Double, Double)] {
            let p = map.apply(Point(x: c.x + dx, y: c.y + dy))
            lo = Point(x: min(lo.x, p.x), y: min(lo.y, p.y))
            hi = Point(x: max(hi.x, p.x), y: max(hi.y, p.y))
        }
        let w = hi.x - lo.x, h = hi.y - lo.y
        return (w * w + h * h).squareRoot()
    }
}

/// The image of a circle under a homography: an ellipse's centre, radii and
/// axis angle, from the image conic H⁻ᵀ·Q·H⁻¹.
struct ProjectedCircle {
    var centre: Point
    var rx: Double, ry: Double, angle: Double
    var mirrors: Bool

    init(map m: PlaneTransform, centre c: Point, radius r: Double, similar: Bool) {
        let det = m.a * (m.d * m.pw - m.ty * m.py) - m.c * (m.b * m.pw - m.ty * m.px) + m.tx * (m.b * m.py - m.d * m.px)
        mirrors = det < 0
        if similar {
            // A turned, scaled circle: a circle, with no axis to speak of.
            let k = (m.a * m.a + m.b * m.b).squareRoot()
            centre = m.apply(c)
            rx = r * k; ry = rx; angle = 0
            return
        }
        // N = adj(H), H's inverse up to a factor (which a conic ignores).
        let n00 = m.d * m.pw - m.ty * m.py, n01 = m.tx * m.py - m.c * m.pw, n02 = m.c * m.ty - m.tx * m.d
        let n10 = m.ty * m.px - m.b * m.pw, n11 = m.a * m.pw - m.tx * m.px, n12 = m.tx * m.b - m.a * m.ty
        let n20 = m.b * m.py - m.d * m.px, n21 = m.c * m.px - m.a * m.py, n22 = m.a * m.d - m.c * m.b
        // The circle's conic Q = Lᵀ·diag(1, 1, −r²)·L with L = (x − cx, y − cy, 1),
        // so Q' = Nᵀ·Q·N has entries uᵢuⱼ + vᵢvⱼ − r²wᵢwⱼ over N's columns.
        let u0 = n00 - c.x * n20, u1 = n01 - c.x * n21, u2 = n02 - c.x * n22
        let v0 = n10 - c.y * n20, v1 = n11 - c.y * n21, v2 = n12 - c.y * n22
        let r2 = r * r
        let k00 = u0 * u0 + v0 * v0 - r2 * n20 * n20, k01 = u0 * u1 + v0 * v1 - r2 * n20 * n21
        let k02 = u0 * u2 + v0 * v2 - r2 * n20 * n22, k11 = u1 * u1 + v1 * v1 - r2 * n21 * n21
        let k12 = u1 * u2 + v1 * v2 - r2 * n21 * n22, k22 = u2 * u2 + v2 * v2 - r2 * n22 * n22
        let scale = max(abs(k00), abs(k01), abs(k02), abs(k11), abs(k12), abs(k22))
        let A = k00 / scale, B = 2 * k01 / scale, C = k11 / scale
        let D = 2 * k02 / scale, E = 2 * k12 / scale, F = k22 / scale
        // Centre: the gradient vanishes.
        let den = 4 * A * C - B * B
        let x0 = (B * E - 2 * C * D) / den, y0 = (B * D - 2 * A * E) / den
        let f = F + (D * x0 + E * y0) / 2
        let phi = 0.5 * atan2(B, A - C)
        let la = A * cos(phi) * cos(phi) + B * cos(phi) * sin(phi) + C * sin(phi) * sin(phi)
        let lb = A + C - la
        centre = Point(x: x0, y: y0)
        rx = (-f / la).squareRoot(); ry = (-f / lb).squareRoot(); angle = phi
    }

    /// Whether the solved ellipse is one: finite radii, no larger than the
    /// box that must hold it (`diagonal`), and not so thin that its axis and
    /// parameter are lost to rounding.
    func isSound(within diagonal: Double) -> Bool {
        let big = max(rx, ry), small = min(rx, ry)
        return big.isFinite && small.isFinite && angle.isFinite && centre.x.isFinite && centre.y.isFinite
            && small > big * 1e-7 && big <= diagonal * (1 + 1e-6)
    }

    /// The ellipse's parameter of a point on it.
    func parameter(_ p: Point) -> Double {
        let dx = p.x - centre.x, dy = p.y - centre.y
        let u = cos(angle) * dx + sin(angle) * dy, v = -sin(angle) * dx + cos(angle) * dy
        return atan2(v / ry, u / rx)
    }

    /// How far the parameter turns from p0 to p1 going the `sweep` way (0…2π).
    func turn(from p0: Point, to p1: Point, sweep: Bool) -> Double {
        var d = parameter(p1) - parameter(p0)
        if !sweep { d = -d }
        d = d.truncatingRemainder(dividingBy: 2 * .pi)
        return d < 0 ? d + 2 * .pi : d
    }
}
