#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import Testing
@testable import LoaderEngine

/// Element.outline() against geometry worked out by hand, and projected
/// circles against points mapped one by one with PlaneTransform.apply.
@Suite struct OutlineTests {
    static func element(_ shape: Shape, diameter: Double = 0, placement: PlaneTransform? = nil) -> Element {
        var e = Element(id: ElementID("e"), shape: shape, x: 10, y: 20, diameter: diameter, scale: 1, opacity: 1, color: RGBColor(rgb: 0))
        e.placement = placement
        return e
    }

    /// An arc's ellipse centre from its endpoints and flags, by the SVG
    /// spec's endpoint-to-centre conversion (SVG 1.1, F.6.5).
    static func centre(from p0: Point, _ rx: Double, _ ry: Double, _ phi: Double, _ fa: Bool, _ fs: Bool, to p1: Point) -> Point {
        let cs = cos(phi), sn = sin(phi)
        let dx = (p0.x - p1.x) / 2, dy = (p0.y - p1.y) / 2
        let x1 = cs * dx + sn * dy, y1 = -sn * dx + cs * dy
        let num = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
        var k = (max(num, 0) / (rx * rx * y1 * y1 + ry * ry * x1 * x1)).squareRoot()
        if fa == fs { k = -k }
        let cx1 = k * rx * y1 / ry, cy1 = -k * ry * x1 / rx
        return Point(x: cs * cx1 - sn * cy1 + (p0.x + p1.x) / 2, y: sn * cx1 + cs * cy1 + (p0.y + p1.y) / 2)
    }

    /// (u/rx)² + (v/ry)² − 1 for `p` in the ellipse's own axes.
    static func onEllipse(_ p: Point, centre c: Point, _ rx: Double, _ ry: Double, _ phi: Double) -> Double {
        let dx = p.x - c.x, dy = p.y - c.y
        let u = cos(phi) * dx + sin(phi) * dy, v = -sin(phi) * dx + cos(phi) * dy
        return (u / rx) * (u / rx) + (v / ry) * (v / ry) - 1
    }

    @Test func aCircleWithoutPlacementIsTwoHalfArcs() {
        let e = Self.element(.circle, diameter: 4)
        #expect(Element.pathData(e.outline()) == "M10 18A2 2 0 0 1 10 22A2 2 0 0 1 10 18Z")
    }

    @Test func aTriangleIsThreeLines() {
        var e = Self.element(.triangle)
        e.width = 4; e.height = 6
        #expect(Element.pathData(e.outline()) == "M10 17L12 23L8 23Z")
    }

    /// Squashed to twice as wide and half as high: an axis ellipse of radii
    /// 10 and 2.5 about (10, 20).
    @Test func aCircleUnderASquashIsItsAxisEllipse() throws {
        let e = Self.element(.circle, diameter: 10, placement: PlaneTransform(a: 2, b: 0, c: 0, d: 0.5, tx: 10, ty: 20))
        let segments = e.outline()
        #expect(segments.first == .move(Point(x: 10, y: 17.5)))
        var arcs = 0
        for case let .arc(rx, ry, angle, _, sweep, to) in segments {
            arcs += 1
            #expect(sweep)
            // Either axis may come first.
            let (wide, high) = abs(sin(angle)) < 1e-12 ? (rx, ry) : (ry, rx)
            #expect(abs(wide - 10) < 1e-9 && abs(high - 2.5) < 1e-9, "\(rx) \(ry) \(angle)")
            #expect(abs(Self.onEllipse(to, centre: Point(x: 10, y: 20), 10, 2.5, 0)) < 1e-12)
        }
        #expect(arcs == 2)
        // Its area: π · 10 · 2.5, by the shoelace formula over a fine flattening.
        let polygons = e.flattened(segments, tolerance: 1e-6)
        #expect(polygons.count == 1)
        let p = polygons[0]
        var area = 0.0
        for i in p.indices { let q = p[(i + 1) % p.count]; area += p[i].x * q.y - q.x * p[i].y }
        #expect(abs(area / 2 - .pi * 25) < 1e-3)
    }

    /// A 2 × 2 square under W = 1 + x/4: its corners (±1, ±1) land at
    /// (±1, ±1) / W, so (0.8, ∓0.8) on the right and (−4/3, ∓4/3) on the left.
    @Test func aSquareUnderPerspectiveIsItsProjectedCorners() {
        var e = Self.element(.rect, placement: PlaneTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0, px: 0.25))
        e.width = 2; e.height = 2
        let third = 4.0 / 3
        let corners: [Point] = [Point(x: -third, y: -third), Point(x: 0.8, y: -0.8), Point(x: 0.8, y: 0.8),
                                Point(x: -third, y: third), Point(x: -third, y: -third)]
        let segments = e.outline()
        #expect(segments.count == 6)
        for (segment, corner) in zip(segments, corners) {
            switch segment {
            case let .move(p), let .line(p): #expect(abs(p.x - corner.x) < 1e-12 && abs(p.y - corner.y) < 1e-12, "\(p) \(corner)")
            case .arc, .close: Issue.record("\(segment)")
            }
        }
        #expect(segments.last == .close)
    }

    /// A circle, a ring's band and a segment under a strong perspective and a
    /// mirror: every point of each circle's arc, mapped on its own by
    /// `apply`, lies on the arc the outline names (its ellipse, and between
    /// its ends the way the flags go).
    @Test(arguments: [
        PlaneTransform(a: 1.3, b: 0.4, c: -0.2, d: 0.7, tx: 30, ty: 25, px: 0.02, py: -0.015, pw: 1),
        PlaneTransform(a: -0.9, b: 0.1, c: 0.3, d: 1.1, tx: 40, ty: 30, px: -0.03, py: 0.01, pw: 1.2),
    ])
    func projectedArcsHoldTheirCirclesPoints(_ map: PlaneTransform) throws {
        var ring = Self.element(.ring, diameter: 16, placement: map)
        ring.lineWidth = 4; ring.strokeStart = 0.1; ring.strokeEnd = 0.8; ring.lineCap = .round
        var segment = Self.element(.segment, diameter: 20, placement: map)
        segment.arc = 4.5
        // Each element with its circles (centre, radius, clock angles from, to) in outline order.
        let m1 = Point(x: 8 * sin(1.6 * .pi), y: -8 * cos(1.6 * .pi)), m0 = Point(x: 8 * sin(0.2 * .pi), y: -8 * cos(0.2 * .pi))
        let cases: [(Element, [(Point, Double, Double, Double)])] = [
            (Self.element(.circle, diameter: 12, placement: map), [(.zero, 6, 0, .pi), (.zero, 6, .pi, 2 * .pi)]),
            (ring, [(.zero, 10, 0.2 * .pi, 0.2 * .pi + 0.7 * .pi), (.zero, 10, 0.9 * .pi, 1.6 * .pi),
                    (m1, 2, 1.6 * .pi, 2.6 * .pi),
                    (.zero, 6, 1.6 * .pi, 0.9 * .pi), (.zero, 6, 0.9 * .pi, 0.2 * .pi),
                    (m0, 2, 1.2 * .pi, 2.2 * .pi)]),
            (segment, [(.zero, 10, -2.25, 0), (.zero, 10, 0, 2.25)]),
        ]
        for (e, circles) in cases {
            var arcs: [(from: Point, rx: Double, ry: Double, phi: Double, fa: Bool, fs: Bool, to: Point)] = []
            var current = Point.zero
            for s in e.outline() {
                switch s {
                case let .move(p), let .line(p): current = p
                case let .arc(rx, ry, angle, fa, fs, to): arcs.append((current, rx, ry, angle, fa, fs, to)); current = to
                case .close: break
                }
            }
            try #require(arcs.count == circles.count, "\(e.shape): \(arcs.count) arcs")
            for (arc, circle) in zip(arcs, circles) {
                let (c, r, a0, a1) = circle
                let centre = Self.centre(from: arc.from, arc.rx, arc.ry, arc.phi, arc.fa, arc.fs, to: arc.to)
                // The arc's own parameter at a point, and how far along the flags' way it is.
                func along(_ p: Point) -> Double {
                    func t(_ q: Point) -> Double {
                        let dx = q.x - centre.x, dy = q.y - centre.y
                        return atan2((-sin(arc.phi) * dx + cos(arc.phi) * dy) / arc.ry, (cos(arc.phi) * dx + sin(arc.phi) * dy) / arc.rx)
                    }
                    var d = (t(p) - t(arc.from)) * (arc.fs ? 1 : -1)
                    d = d.truncatingRemainder(dividingBy: 2 * .pi)
                    return d < 0 ? d + 2 * .pi : d
                }
                let end = along(arc.to)
                for k in 0...64 {
                    let a = a0 + (a1 - a0) * Double(k) / 64
                    let p = map.apply(Point(x: c.x + r * sin(a), y: c.y - r * cos(a)))
                    #expect(abs(Self.onEllipse(p, centre: centre, arc.rx, arc.ry, arc.phi)) < 1e-9, "\(e.shape) \(a)")
                    if k > 0, k < 64 { #expect(along(p) < end, "\(e.shape) at \(a): off the arc") }
                }
            }
        }
    }

    /// A whole ring is its outer circle one way and its inner the other, so
    /// that nonzero filling leaves the hole: the polygons' signed areas are
    /// π·10² and −π·6².
    @Test func aWholeRingIsTwoOppositeCircles() {
        var ring = Self.element(.ring, diameter: 16)
        ring.lineWidth = 4
        let polygons = ring.flattened(ring.outline(), tolerance: 1e-6)
        #expect(polygons.count == 2)
        let areas = polygons.map { p in
            p.indices.reduce(0.0) { s, i in let q = p[(i + 1) % p.count]; return s + (p[i].x * q.y - q.x * p[i].y) / 2 }
        }
        #expect(abs(areas[0] - .pi * 100) < 1e-3 && abs(areas[1] + .pi * 36) < 1e-3, "\(areas)")
    }

    /// No shape takes more segments than the encoder's bound allows for.
    @Test func outlinesStayWithinTheBound() {
        var rect = Self.element(.rect, placement: PlaneTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0, px: 0.01))
        rect.width = 10; rect.height = 6; rect.cornerRadius = 2
        var ring = Self.element(.ring, diameter: 4, placement: PlaneTransform(a: 1, b: 0.2, c: 0, d: 1, tx: 0, ty: 0, px: 0.01))
        ring.lineWidth = 6; ring.strokeStart = 0.01; ring.strokeEnd = 0.99; ring.lineCap = .round
        var whole = ring
        whole.strokeStart = 0; whole.strokeEnd = 1; whole.lineWidth = 2
        var segment = Self.element(.segment, diameter: 10)
        segment.arc = 2 * .pi
        for e in [rect, ring, whole, segment] { #expect(e.outline().count <= Element.outlineMaxSegments, "\(e.shape)") }
        #expect(rect.outline().count == 10)
    }
}
