#if canImport(Glibc)
import Glibc
#endif
import Testing
import LoaderEngine
@testable import Raster

/// Elements with a placement (a squash, a skew, a perspective) against the
/// pixels' true areas, worked out here from plane geometry: the image of a
/// polygon under a homography is the polygon of the images of its corners,
/// and the image of a circle is the conic H⁻ᵀ·C·H⁻¹.
struct PlacedShapesTests {
    func coverage(_ r: Rasteriser) -> [Double] {
        (0..<(r.width * r.height)).map { Double(r.color[4 * $0 + 3]) }
    }

    /// Each pixel's area inside a region whose rows are one span each,
    /// integrated over 400 heights a pixel.
    func trueCoverage(size: Int, _ span: (Double) -> (Double, Double)?) -> [Double] {
        var area = [Double](repeating: 0, count: size * size)
        for j in 0..<size {
            for k in 0..<400 {
                guard let (lo, hi) = span(Double(j) + (Double(k) + 0.5) / 400) else { continue }
                for i in 0..<size { area[j * size + i] += max(0, min(Double(i + 1), hi) - max(Double(i), lo)) / 400 }
            }
        }
        return area
    }

    func worst(_ got: [Double], _ want: [Double]) -> Double { zip(got, want).map { abs($0 - $1) }.max()! }

    /// The span at height y of a convex polygon.
    func convexSpan(_ corners: [(Double, Double)]) -> (Double) -> (Double, Double)? {
        { y in
            var xs: [Double] = []
            for i in corners.indices {
                let (x0, y0) = corners[i], (x1, y1) = corners[(i + 1) % corners.count]
                guard (y0 <= y && y < y1) || (y1 <= y && y < y0) else { continue }
                xs.append(x0 + (x1 - x0) * (y - y0) / (y1 - y0))
            }
            guard let lo = xs.min(), let hi = xs.max(), hi > lo else { return nil }
            return (lo, hi)
        }
    }

    /// The span at height Y of the image under `h` of the disc of radius r
    /// about the origin: the conic Q = H⁻ᵀ·diag(1, 1, −r²)·H⁻¹, solved for X.
    func projectedDiscSpan(_ h: PlaneTransform, _ r: Double) -> (Double) -> (Double, Double)? {
        // H as a 3×3, rows (a c tx), (b d ty), (px py pw); its inverse by cofactors.
        let m = [[h.a, h.c, h.tx], [h.b, h.d, h.ty], [h.px, h.py, h.pw]]
        func cof(_ i: Int, _ j: Int) -> Double {
            let rows = [0, 1, 2].filter { $0 != i }, cols = [0, 1, 2].filter { $0 != j }
            let v = m[rows[0]][cols[0]] * m[rows[1]][cols[1]] - m[rows[0]][cols[1]] * m[rows[1]][cols[0]]
            return (i + j) % 2 == 0 ? v : -v
        }
        let det = (0..<3).map { m[0][$0] * cof(0, $0) }.reduce(0, +)
        let inv = (0..<3).map { i in (0..<3).map { j in cof(j, i) / det } }
        let c = [1.0, 1.0, -r * r]
        // Q[i][j] = Σ_k inv[k][i] · c[k] · inv[k][j]
        let q = (0..<3).map { i in (0..<3).map { j in (0..<3).map { inv[$0][i] * c[$0] * inv[$0][j] }.reduce(0, +) } }
        return { y in
            // q00 X² + 2(q01 y + q02) X + (q11 y² + 2 q12 y + q22) = 0; inside where negative (q00 > 0 here).
            let A = q[0][0], B = 2 * (q[0][1] * y + q[0][2]), C = q[1][1] * y * y + 2 * q[1][2] * y + q[2][2]
            let disc = B * B - 4 * A * C
            guard disc > 0 else { return nil }
            let root = disc.squareRoot()
            let (x0, x1) = ((-B - root) / (2 * A), (-B + root) / (2 * A))
            return (min(x0, x1), max(x0, x1))
        }
    }

    func element(_ shape: Shape, _ placement: PlaneTransform) -> Element {
        var e = Element(id: ElementID("e"), shape: shape, x: placement.tx, y: placement.ty, diameter: 0, scale: 1, opacity: 1,
                        color: RGBColor(rgb: 0))
        e.placement = placement
        return e
    }

    @Test func aStretchBeyondAnyPictureStillCoversIt() {
        // A ring stretched 10¹² times about the picture: its band holds the
        // whole 64 × 64 picture, which is every pixel covered. The arcs are
        // capped in segments (Rasteriser.placedSteps), so drawing it costs
        // what a small ring does rather than millions of segments.
        let k = 1e12
        let p = PlaneTransform(a: k, b: 0, c: 0, d: k * 0.5, tx: 32 + 10 * k, ty: 32)
        var e = element(.ring, p)
        e.diameter = 20
        e.lineWidth = 4
        var r = Rasteriser(width: 64, height: 64, scale: 1, background: nil)
        r.draw(e)
        let got = coverage(r)
        #expect(got.allSatisfy { abs($0 - 1) < 1e-3 }, "least \(got.min() ?? 0)")
    }

    @Test func aSquashedCircleIsItsEllipse() {
        // Half as tall, twice as wide, sheared a little: still an ellipse,
        // the conic of the affine map.
        let p = PlaneTransform(a: 2, b: 0.3, c: -0.4, d: 0.5, tx: 32.3, ty: 31.6)
        var e = element(.circle, p)
        e.diameter = 24
        var r = Rasteriser(width: 64, height: 64, scale: 1, background: nil)
        r.draw(e)
        let got = coverage(r)
        #expect(abs(got.reduce(0, +) - .pi * 144 * abs(p.a * p.d - p.b * p.c)) < 0.05)
        let off = worst(got, trueCoverage(size: 64, projectedDiscSpan(p, 12)))
        #expect(off < 0.003, "worst pixel \(off)")
    }

    @Test func aRectUnderPerspectiveIsItsQuadrilateral() {
        // A 20 × 14 rect turned about y and seen under perspective: its
        // corners' images bound it, and its edges stay straight.
        let p = PlaneTransform(a: 0.9, b: 0.1, c: 0.2, d: 1.1, tx: 31.4, ty: 30.8, px: 0.012, py: -0.008, pw: 1)
        var e = element(.rect, p)
        e.width = 20; e.height = 14
        var r = Rasteriser(width: 64, height: 64, scale: 1, background: nil)
        r.draw(e)
        let corners = [(-10.0, -7.0), (10, -7), (10, 7), (-10, 7)].map { q in
            let w = p.px * q.0 + p.py * q.1 + p.pw
            return ((p.a * q.0 + p.c * q.1 + p.tx) / w, (p.b * q.0 + p.d * q.1 + p.ty) / w)
        }
        let off = worst(coverage(r), trueCoverage(size: 64, convexSpan(corners)))
        #expect(off < 0.003, "worst pixel \(off)")
    }

    @Test func aCircleUnderPerspectiveIsItsConic() {
        // At 8 pixels a point, as the pictures are drawn.
        let p = PlaneTransform(a: 0.8, b: -0.15, c: 0.25, d: 0.95, tx: 4.1, ty: 3.9, px: -0.05, py: 0.035, pw: 1)
        var e = element(.circle, p)
        e.diameter = 5
        var r = Rasteriser(width: 64, height: 64, scale: 8, background: nil)
        r.draw(e)
        let pixels = PlaneTransform(a: 8, b: 0, c: 0, d: 8, tx: 0, ty: 0).after(p)
        let off = worst(coverage(r), trueCoverage(size: 64, projectedDiscSpan(pixels, 2.5)))
        #expect(off < 0.003, "worst pixel \(off)")
    }

    @Test func aPlacementThatIsASimilarityDrawsAsTheElementDoes() {
        // The same ring, rounded ends, once by x, y, scale and rotation and
        // once by the matrix they make: the same pixels but for rounding.
        var plain = Element(id: ElementID("g"), shape: .ring, x: 20.3, y: 19.6, diameter: 20, scale: 1.3, opacity: 0.8, color: RGBColor(rgb: 0x3366CC))
        plain.lineWidth = 4; plain.strokeStart = 0.1; plain.strokeEnd = 0.7; plain.lineCap = .round; plain.rotation = 0.4
        var placed = plain
        let (s, c) = (sin(0.4) * 1.3, cos(0.4) * 1.3)
        placed.placement = PlaneTransform(a: c, b: s, c: -s, d: c, tx: 20.3, ty: 19.6)
        var a = Rasteriser(width: 80, height: 80, scale: 2, background: nil)
        a.draw(plain)
        var b = Rasteriser(width: 80, height: 80, scale: 2, background: nil)
        b.draw(placed)
        #expect(worst(coverage(a), coverage(b)) < 1e-3)
        #expect(coverage(a).reduce(0, +) > 100)
    }

    @Test func aSegmentAndATurnedRoundedRectKeepTheirAreasUnderAnAffineMap() {
        // Area scales by |det| under an affine map.
        let p = PlaneTransform(a: 1.5, b: 0.2, c: 0.7, d: 0.6, tx: 32, ty: 32)
        let det = abs(p.a * p.d - p.b * p.c)
        func total(_ e: Element) -> Double {
            var r = Rasteriser(width: 64, height: 64, scale: 1, background: nil)
            r.draw(e)
            return coverage(r).reduce(0, +)
        }
        var segment = element(.segment, p)
        segment.diameter = 30; segment.arc = 2 * .pi / 3
        #expect(abs(total(segment) - det * 225 / 2 * (2 * .pi / 3 - sin(2 * .pi / 3))) < 0.05)
        var rect = element(.rect, p)
        rect.width = 20; rect.height = 16; rect.cornerRadius = 5
        #expect(abs(total(rect) - det * (320 - (4 - .pi) * 25)) < 0.05)
    }

    @Test func anElementReachingBehindTheEyeIsNotDrawn() {
        // W ≤ 0 over part of it: the engine culls such elements, and a
        // hand-made one draws nothing rather than something folded over.
        var e = element(.rect, PlaneTransform(a: 1, b: 0, c: 0, d: 1, tx: 8, ty: 8, px: 0.2, py: 0, pw: 1))
        e.width = 12; e.height = 4
        var r = Rasteriser(width: 16, height: 16, scale: 1, background: nil)
        r.draw(e)
        #expect(coverage(r).allSatisfy { $0 == 0 })
    }
}

extension PlacedShapesTests {
    @Test func aTriangleUnderPerspectiveIsTheTriangleOfItsCornersImages() {
        let p = PlaneTransform(a: 1.1, b: 0.2, c: -0.3, d: 0.7, tx: 30.6, ty: 33.2, px: -0.01, py: 0.015, pw: 1)
        var e = element(.triangle, p)
        e.width = 30; e.height = 24
        var r = Rasteriser(width: 64, height: 64, scale: 1, background: nil)
        r.draw(e)
        let corners = [(0.0, -12.0), (15, 12), (-15, 12)].map { q in
            let w = p.px * q.0 + p.py * q.1 + p.pw
            return ((p.a * q.0 + p.c * q.1 + p.tx) / w, (p.b * q.0 + p.d * q.1 + p.ty) / w)
        }
        let off = worst(coverage(r), trueCoverage(size: 64, convexSpan(corners)))
        #expect(off < 0.003, "worst pixel \(off)")
    }
}
