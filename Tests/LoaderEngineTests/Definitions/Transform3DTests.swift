import Testing
import Glibc
@testable import LoaderEngine

/// Core Animation's 4×4 transform and CSS Transforms Level 2's
/// decomposition and interpolation; every expected value is worked by hand
/// from Core Animation's documented matrices or from the spec's pseudocode.
struct Transform3DTests {
    func near(_ a: [Double], _ b: [Double], _ tolerance: Double = 1e-12) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
    }

    /// p · M for a row vector (x, y, z, 1), divided by w.
    func project(_ m: Transform3D, _ x: Double, _ y: Double, _ z: Double) -> [Double] {
        let v = [x, y, z, 1]
        let r = (0..<4).map { j in (0..<4).reduce(0.0) { $0 + v[$1] * m[$1, j] } }
        return [r[0] / r[3], r[1] / r[3], r[2] / r[3]]
    }

    @Test func rotationAboutZTurnsClockwiseOnScreen() {
        // CATransform3DMakeRotation(π/2, 0, 0, 1): (1, 0) goes to (0, 1), down the y-down screen.
        let r = Transform3D.rotation(.pi / 2, 0, 0, 1)
        #expect(near(project(r, 1, 0, 0), [0, 1, 0], 1e-15))
        #expect(near(project(r, 0, 1, 0), [-1, 0, 0], 1e-15))
    }

    @Test func rotationAboutXIsCSSRotateX() {
        // CSS rotateX(θ) = matrix3d(1,0,0,0, 0,cos θ,sin θ,0, 0,−sin θ,cos θ,0, 0,0,0,1).
        let θ = 0.7, c = cos(θ), s = sin(θ)
        #expect(near(Transform3D.rotation(θ, 1, 0, 0).m, [1, 0, 0, 0, 0, c, s, 0, 0, -s, c, 0, 0, 0, 0, 1]))
        // rotateY(θ) = matrix3d(cos θ,0,−sin θ,0, 0,1,0,0, sin θ,0,cos θ,0, 0,0,0,1).
        #expect(near(Transform3D.rotation(θ, 0, 1, 0).m, [c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, 0, 0, 0, 1]))
        // An unnormalised axis is normalised; a zero one is the identity.
        #expect(near(Transform3D.rotation(θ, 0, 0, 5).m, Transform3D.rotation(θ, 0, 0, 1).m))
        #expect(Transform3D.rotation(θ, 0, 0, 0) == .identity)
    }

    @Test func concatAppliesTheFirstFirst() {
        // Move by 3, then scale by 2: (1, 0) → (4, 0) → (8, 0).
        let m = Transform3D.concat(.translation(3, 0), .scale(2, 2))
        #expect(project(m, 1, 0, 0) == [8, 0, 0])
        #expect(project(Transform3D.concat(.scale(2, 2), .translation(3, 0)), 1, 0, 0) == [5, 0, 0])
    }

    @Test func perspectiveDividesByOneLessZOverD() {
        // perspective(100): w = 1 − z/100; (10, 20, 50) → (20, 40, 100).
        #expect(near(project(.perspective(100), 10, 20, 50), [20, 40, 100]))
    }

    @Test func planeKeepsRowsAndColumnsOneTwoFour() {
        let m = Transform3D((1...16).map(Double.init))
        let p = m.plane
        #expect([p.a, p.b, p.c, p.d, p.tx, p.ty, p.px, p.py, p.pw] == [1, 2, 5, 6, 13, 14, 4, 8, 16])
        // A plane map lifted and brought back is itself.
        #expect(Transform3D(p).plane == p)
    }

    @Test func inverseUndoes() throws {
        let m = Transform3D.rotation(0.3, 1, 2, 3).then(.perspective(80)).then(.translation(4, -5, 6)).then(.scale(2, 3, 4))
        let inverse = try #require(m.inverse)
        #expect(near(Transform3D.concat(m, inverse).m, Transform3D.identity.m, 1e-12))
        #expect(Transform3D.scale(0, 1).inverse == nil)
        // det(scale(2, 3, 4)) = 24.
        #expect(Transform3D.scale(2, 3, 4).determinant == 24)
    }

    @Test func decomposesRotateXUnderPerspective() throws {
        // Row vectors: rotateX(π/3), then perspective(100) (CSS
        // "perspective(100px) rotateX(60deg)"). Worked from the spec: the
        // perspective column is (0, −s/100, −c/100, 1); solving with the
        // inverse of the rotation (its transpose) gives (0, 0, −1/100, 1);
        // the rotation's quaternion is (sin(π/6), 0, 0, cos(π/6)).
        let m = Transform3D.rotation(.pi / 3, 1, 0, 0).then(.perspective(100))
        let d = try #require(DecomposedTransform(m))
        #expect(near(d.perspective, [0, 0, -0.01, 1], 1e-15))
        #expect(near(d.translation, [0, 0, 0]))
        #expect(near(d.scale, [1, 1, 1], 1e-15))
        #expect(near(d.skew, [0, 0, 0], 1e-15))
        #expect(near(d.quaternion, [0.5, 0, 0, 3.0.squareRoot() / 2], 1e-15))
        #expect(near(d.matrix.m, m.m, 1e-15))
    }

    @Test func decomposesTranslationScaleAndSkew() throws {
        // scale(2, 3, 4), then a move by (5, 6, 7): no rotation, no skew.
        let m = Transform3D.scale(2, 3, 4).then(.translation(5, 6, 7))
        let d = try #require(DecomposedTransform(m))
        #expect(d.translation == [5, 6, 7] && d.scale == [2, 3, 4] && d.skew == [0, 0, 0] && d.quaternion == [0, 0, 0, 1])
        // A skew: row 2 = (0.5, 1, 0): skew xy = 0.5.
        var skewed = Transform3D.identity
        skewed[1, 0] = 0.5
        let s = try #require(DecomposedTransform(skewed))
        #expect(s.skew == [0.5, 0, 0] && s.scale == [1, 1, 1])
        #expect(near(s.matrix.m, skewed.m))
        // A mirror, scale(−1, 1, 1): the rows' determinant is −1, so the spec
        // negates the scales and the rows: (−1, −1, −1) and a half turn about x.
        let flip = try #require(DecomposedTransform(.scale(-1, 1)))
        #expect(flip.scale == [-1, -1, -1] && flip.quaternion == [1, 0, 0, 0])
        #expect(near(flip.matrix.m, Transform3D.scale(-1, 1).m, 1e-15))
    }

    @Test func singularMatricesDoNotDecompose() {
        #expect(DecomposedTransform(.scale(1, 0)) == nil)
        var noW = Transform3D.identity
        noW[3, 3] = 0
        #expect(DecomposedTransform(noW) == nil)
    }

    @Test func slerpHalfWayBetweenTwoHalfTurns() {
        // rotX(π) = (1, 0, 0, 0), rotZ(π) = (0, 0, 1, 0): dot 0, θ = π/2,
        // both weights sin(π/4): π about (1, 0, 1)/√2.
        let q = DecomposedTransform.slerp([1, 0, 0, 0], [0, 0, 1, 0], 0.5)
        let h = 0.5.squareRoot()
        #expect(near(q, [h, 0, h, 0], 1e-15))
        // Equal quaternions: the first, unchanged.
        #expect(DecomposedTransform.slerp([0, 0, 0, 1], [0, 0, 0, 1], 0.3) == [0, 0, 0, 1])
    }

    @Test func interpolatesTurnsAlongTheGreatCircle() throws {
        // Half-way from none to a quarter turn about z is an eighth turn.
        let a = try #require(DecomposedTransform(.identity)), b = try #require(DecomposedTransform(.rotation(.pi / 2, 0, 0, 1)))
        #expect(near(a.interpolated(to: b, 0.5).matrix.m, Transform3D.rotation(.pi / 4, 0, 0, 1).m, 1e-15))
        // Scales and moves mix linearly.
        let c = try #require(DecomposedTransform(Transform3D.scale(3, 1).then(.translation(10, 0))))
        #expect(near(a.interpolated(to: c, 0.25).matrix.m, Transform3D.scale(1.5, 1).then(.translation(2.5, 0)).m))
    }

    @Test func matrixAnimationStepsWhereItCannotDecompose() {
        let timing = MediaTiming(duration: 1)
        let singular = Transform3D.scale(0, 1)
        let animation = MatrixAnimation(.transform, values: [.identity, singular], calculationMode: .linear, timing: timing)
        #expect(animation.value(at: 0.49) == .identity)
        #expect(animation.value(at: 0.5) == singular)
        // Discrete: each value from its key time.
        let steps = MatrixAnimation(.transform, values: [.identity, .scale(2, 2)], calculationMode: .discrete, timing: timing)
        #expect(steps.value(at: 0.49) == .identity && steps.value(at: 0.5) == .scale(2, 2))
        // At a keyframe, the keyframe itself.
        let turn = MatrixAnimation(.transform, values: [.identity, .rotation(1, 0, 0, 1)], calculationMode: .linear, timing: timing)
        #expect(turn.value(at: 1) == .rotation(1, 0, 0, 1))
    }
}
