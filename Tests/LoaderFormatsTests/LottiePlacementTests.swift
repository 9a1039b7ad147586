#if canImport(Glibc)
import Glibc
#endif
import Testing
import LoaderEngine
@testable import LoaderFormats

/// The Lottie export's pieces for placed elements, against plane geometry
/// worked out here: matrix products for the decomposition, and the inverse
/// map for outlines (a point of a projected circle maps back onto the circle).
struct LottiePlacementTests {
    /// R(t) turning clockwise on screen (y down), as Lottie's rotation does.
    func turn(_ t: Double) -> [[Double]] { [[cos(t), -sin(t)], [sin(t), cos(t)]] }
    func product(_ x: [[Double]], _ y: [[Double]]) -> [[Double]] {
        (0..<2).map { i in (0..<2).map { j in x[i][0] * y[0][j] + x[i][1] * y[1][j] } }
    }

    @Test func theDecompositionRecomposesEveryMatrix() {
        var seed: UInt64 = 7
        func next() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53) * 4 - 2
        }
        var previous: (alpha: Double, sx: Double, sy: Double, beta: Double)? = nil
        for _ in 0..<200 {
            let (a, b, c, d) = (next(), next(), next(), next())
            for m in [Lottie.decomposed(a: a, b: b, c: c, d: d), Lottie.continued(Lottie.decomposed(a: a, b: b, c: c, d: d), from: previous)] {
                let got = product(product(turn(m.alpha), [[m.sx, 0], [0, m.sy]]), turn(m.beta))
                #expect(abs(got[0][0] - a) < 1e-12 && abs(got[1][0] - b) < 1e-12 && abs(got[0][1] - c) < 1e-12 && abs(got[1][1] - d) < 1e-12,
                        "\([a, b, c, d]) recomposed as \(got)")
                previous = m
            }
        }
    }

    @Test func aSquashAlongYNeedsNoTurn() {
        // A line loader's bar: scale.y alone, above and below 1.
        for sy in [0.4, 1.0, 1.7] {
            let m = Lottie.continued(Lottie.decomposed(a: 1, b: 0, c: 0, d: sy), from: nil)
            #expect(m.alpha == 0 && m.beta == 0 && abs(m.sx - 1) < 1e-15 && abs(m.sy - sy) < 1e-15, "\(m)")
        }
        // From one frame to the next the turns stay near the last ones.
        let before = Lottie.continued(Lottie.decomposed(a: 1, b: 0, c: 0, d: 0.9), from: nil)
        let after = Lottie.continued(Lottie.decomposed(a: 1, b: 0, c: 0, d: 1.1), from: before)
        #expect(abs(after.alpha) < 1e-12 && abs(after.beta) < 1e-12 && abs(after.sy - 1.1) < 1e-15)
    }

    /// The inverse of a plane map, by cofactors.
    func inverse(_ m: PlaneTransform) -> (Double, Double) -> (Double, Double) {
        let h = [[m.a, m.c, m.tx], [m.b, m.d, m.ty], [m.px, m.py, m.pw]]
        func cof(_ i: Int, _ j: Int) -> Double {
            let r = [0, 1, 2].filter { $0 != i }, c = [0, 1, 2].filter { $0 != j }
            let v = h[r[0]][c[0]] * h[r[1]][c[1]] - h[r[0]][c[1]] * h[r[1]][c[0]]
            return (i + j) % 2 == 0 ? v : -v
        }
        let inv = (0..<3).map { i in (0..<3).map { j in cof(j, i) } }
        return { x, y in
            let w = inv[2][0] * x + inv[2][1] * y + inv[2][2]
            return ((inv[0][0] * x + inv[0][1] * y + inv[0][2]) / w, (inv[1][0] * x + inv[1][1] * y + inv[1][2]) / w)
        }
    }

    func point(_ p: Lottie.Piece, _ t: Double) -> (Double, Double) {
        let u = 1 - t
        let (a, b, c, d) = (u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t)
        return (a * p.p0.x + b * p.c0.x + c * p.c1.x + d * p.p1.x, a * p.p0.y + b * p.c0.y + c * p.c1.y + d * p.p1.y)
    }

    @Test func aCircleUnderPerspectiveIsOutlinedWithinAThousandthOfAPoint() {
        let m = PlaneTransform(a: 0.8, b: -0.15, c: 0.25, d: 0.95, tx: 20, ty: 21, px: -0.02, py: 0.012, pw: 1)
        var e = Element(id: ElementID("c"), shape: .circle, x: 20, y: 21, diameter: 16, scale: 1, opacity: 1, color: RGBColor(rgb: 0))
        e.placement = m
        let back = inverse(m)
        let run = Lottie.pieces(e).map { Lottie.mapped($0, m) }
        #expect(run.count == 16)
        var worst = 0.0
        for (j, piece) in run.enumerated() {
            #expect(hypot(piece.p1.x - run[(j + 1) % run.count].p0.x, piece.p1.y - run[(j + 1) % run.count].p0.y) < 1e-12)
            for k in 0...20 {
                let (x, y) = point(piece, Double(k) / 20)
                let (u, v) = back(x, y)
                // Off the circle by this much in its plane; the map stretches at most ~1.3 here.
                worst = max(worst, abs((u * u + v * v).squareRoot() - 8))
            }
        }
        #expect(worst < 0.001, "worst \(worst)"); print("circle outline worst", worst)
    }

    @Test func aRectAndATriangleUnderPerspectiveHaveStraightSides() {
        let m = PlaneTransform(a: 1.1, b: 0.2, c: -0.3, d: 0.7, tx: 30, ty: 33, px: -0.01, py: 0.015, pw: 1)
        var rect = Element(id: ElementID("r"), shape: .rect, x: 30, y: 33, diameter: 0, scale: 1, opacity: 1, color: RGBColor(rgb: 0))
        rect.width = 20; rect.height = 14; rect.placement = m
        var triangle = rect
        triangle.shape = .triangle
        let back = inverse(m)
        let cases: [(Element, [(Double, Double)])] = [(rect, [(10, -7), (10, 7), (-10, 7), (-10, -7)]), (triangle, [(0, -7), (10, 7), (-10, 7)])]
        for (e, corners) in cases {
            let run = Lottie.pieces(e).map { Lottie.mapped($0, m) }
            // Every point maps back onto the shape's own boundary.
            for piece in run {
                for k in 0...10 {
                    let (x, y) = point(piece, Double(k) / 10)
                    let (u, v) = back(x, y)
                    let off = (0..<corners.count).map { i -> Double in
                        let (ax, ay) = corners[i], (bx, by) = corners[(i + 1) % corners.count]
                        let (dx, dy) = (bx - ax, by - ay), len = (dx * dx + dy * dy).squareRoot()
                        let t = min(max(((u - ax) * dx + (v - ay) * dy) / (len * len), 0), 1)
                        return hypot(u - ax - t * dx, v - ay - t * dy)
                    }.min()!
                    #expect(off < 1e-9, "\(e.shape) point \(u), \(v) off its boundary by \(off)")
                }
            }
        }
    }

    @Test func aRingsPiecesAreTheSameCountWhateverItsTrim() {
        var ring = Element(id: ElementID("g"), shape: .ring, x: 0, y: 0, diameter: 20, scale: 1, opacity: 1, color: RGBColor(rgb: 0))
        ring.lineWidth = 4
        var counts = Set<Int>()
        for (start, end, cap) in [(0.0, 1.0, LineCap.butt), (0.1, 0.6, .round), (0.3, 0.3, .round), (0.0, 0.99, .butt)] {
            ring.strokeStart = start; ring.strokeEnd = end; ring.lineCap = cap
            let run = Lottie.pieces(ring)
            counts.insert(run.count)
            for j in run.indices { #expect(hypot(run[j].p1.x - run[(j + 1) % run.count].p0.x, run[j].p1.y - run[(j + 1) % run.count].p0.y) < 1e-12) }
        }
        #expect(counts == [56])
    }
}
