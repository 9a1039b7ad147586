import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import LoaderEngine
@testable import LoaderFormats

/// The CSS writer's model of what a browser draws for `matrix()` and
/// `matrix3d()` keyframes, against CSS Transforms Level 2's own statements
/// (a decomposition recomposes to its matrix; rotations interpolate as
/// rotations, scales and perspective by straight lines).
@Suite struct CSSMatrixTests {
    static func close(_ a: CSSMatrix, _ b: CSSMatrix, _ tolerance: Double = 1e-12) -> Bool {
        zip(a.m.joined(), b.m.joined()).allSatisfy { abs($0 - $1) <= tolerance }
    }

    static func rotation(_ degrees: Double) -> CSSMatrix {
        let r = degrees * .pi / 180
        return CSSMatrix(arguments: [cos(r), sin(r), -sin(r), cos(r), 0, 0])!
    }

    @Test func decompositionRecomposesEveryKind() throws {
        let cases: [[Double]] = [
            [2, 0.5, -0.3, 0.7, 11, -4],                                   // affine with skew
            [0.8, 0, 0, 1.4, 3, 9],                                        // squash
            [1, 0.2, 0, 0.001, 0.1, 0.9, 0, -0.002, 0, 0, 1, 0, 20, 30, 0, 1],   // projective plane
            [-0.3, 0.1, 0, 0.003, 0.2, 0.9, 0, 0.001, 0, 0, -1, 0, 5, 6, 0, 1],  // mirrored, z negated
            [-1.005, -0.0053, 0, -0.00018, 0, 1, 0, 0, 0, 0, -1, 0, 30, 30, 0, 1],  // the back of a plane: a half turn
        ]
        for v in cases {
            let m = try #require(CSSMatrix(arguments: v))
            let d = try #require(m.decomposed())
            #expect(Self.close(CSSMatrix(d), m, 1e-12), "\(v)")
        }
    }

    @Test func rotationsInterpolateAsRotations() {
        let mid = CSSMatrix.interpolate(Self.rotation(10), Self.rotation(130), 0.25)
        #expect(Self.close(mid, Self.rotation(40)))
    }

    @Test func scalesTranslationsAndPerspectiveByStraightLines() throws {
        let from = try #require(CSSMatrix(arguments: [1, 0, 0, 1, 10, 20]))
        let to = try #require(CSSMatrix(arguments: [3, 0, 0, 2, 30, -20]))
        #expect(Self.close(CSSMatrix.interpolate(from, to, 0.25), CSSMatrix(arguments: [1.5, 0, 0, 1.25, 15, 10])!))
        // perspective(100px) against none: the spec interpolates the perspective row itself.
        let flat = CSSMatrix.identity
        var deep = CSSMatrix.identity
        deep.m[2][3] = -0.01
        var half = CSSMatrix.identity
        half.m[2][3] = -0.005
        #expect(Self.close(CSSMatrix.interpolate(flat, deep, 0.5), half))
    }

    /// A nearly edge-on map (rotateX 89.9° under perspective, flattened)
    /// is written as a turned square: the spec's decomposition of the
    /// written matrix finds equal scales and no skew.
    @Test func aNearlyFlatMapIsWrittenAsATurn() throws {
        let t = 89.9 * Double.pi / 180
        let p = PlaneTransform(a: 2, b: 0, c: 0, d: 2 * cos(t), tx: 20, ty: 20, px: 0, py: 2 * sin(t) / 140, pw: 1)
        let m = try #require(CSSMatrix(arguments: CSSWriter.arguments(p, .matrix3d).map { Double($0)! }))
        let d = try #require(m.decomposed())
        #expect(d.scale.allSatisfy { abs($0 - 2) < 1e-6 }, "\(d.scale)")
        #expect(d.skew.allSatisfy { abs($0) < 1e-6 }, "\(d.skew)")
        // What it draws is the map's, to the written decimals.
        for q in [Point(x: -5, y: -5), Point(x: 5, y: 3)] {
            let (u, v) = (m.apply(q), p.apply(q))
            #expect(abs(u.x - v.x) < 1e-4 && abs(u.y - v.y) < 1e-4, "\(u) \(v)")
        }
    }

    @Test func aPlacedRectIsItsBoxUnderThePlacement() throws {
        var e = Element(id: ElementID("bar"), shape: .rect, x: 0, y: 0, diameter: 0, scale: 1, opacity: 1, color: .black)
        e.width = 8; e.height = 30; e.cornerRadius = 4
        let p = PlaneTransform(a: 0.9, b: 0.1, c: -0.05, d: 0.6, tx: 25, ty: 31, px: 0.0015, py: -0.002, pw: 1)
        e.placement = p
        e.x = p.apply(Point(x: 0, y: 0)).x; e.y = p.apply(Point(x: 0, y: 0)).y
        let s = try #require(SampledLoop.sample(e))
        for form in [CSSWriter.PlacedForm.matrix3d] {
            let text = CSSWriter.placedDeclarations(e, s, form)
            func value(_ name: String) -> Substring {
                let part = text.split(separator: ";").first { $0.drop { $0 == " " }.hasPrefix(name + ":") }!
                return part.drop { $0 == " " }.dropFirst(name.count + 1)
            }
            let left = CSSWriter.numbers(value("left"))[0], top = CSSWriter.numbers(value("top"))[0]
            let m = CSSWriter.numbers(value("transform"))
            #expect(m.count == 16)
            // CSS: a box point q is drawn at o + M(q − o), o the box's centre
            // (transform-origin 50% 50%), M applied to the row (x, y, 0, 1).
            let o = (x: left + 4, y: top + 15)
            for (qx, qy) in [(0.0, 0.0), (8, 0), (8, 30), (0, 30)] {
                let (x, y) = (left + qx - o.x, top + qy - o.y)
                let w = x * m[3] + y * m[7] + m[15]
                let drawn = (o.x + (x * m[0] + y * m[4] + m[12]) / w, o.y + (x * m[1] + y * m[5] + m[13]) / w)
                let frame = p.apply(Point(x: qx - 4, y: qy - 15))
                #expect(abs(drawn.0 - frame.x) < 1e-3 && abs(drawn.1 - frame.y) < 1e-3, "corner \(qx), \(qy): \(drawn) against \(frame)")
            }
        }
    }
}
