/// Core Animation's `CATransform3D`: a 4×4 matrix m11…m44 acting on row
/// vectors, p' = p · M, so that the translation is m41, m42, m43 and the
/// perspective term is m34. Its sixteen numbers in order are also CSS
/// `matrix3d()`'s arguments. `concat(a, b)` applies `a` first.
public struct Transform3D: Sendable, Equatable {
    /// storage[4·(i−1) + (j−1)] = mij, inline: a product allocates nothing.
    public var storage: InlineArray<16, Double>

    @inlinable public init(_ m: [Double]) {
        precondition(m.count == 16, "a 4×4 matrix has 16 numbers")
        storage = InlineArray { m[$0] }
    }

    @inlinable init(storage: InlineArray<16, Double>) { self.storage = storage }

    /// The sixteen numbers, m11…m44.
    public var m: [Double] { (0..<16).map { storage[$0] } }

    public static func == (a: Transform3D, b: Transform3D) -> Bool {
        for k in 0..<16 where a.storage[k] != b.storage[k] { return false }
        return true
    }

    public static let identity = Transform3D([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])

    @inlinable public subscript(i: Int, j: Int) -> Double {
        get { storage[4 * i + j] }
        set { storage[4 * i + j] = newValue }
    }

    public var isIdentity: Bool { self == .identity }

    /// `CATransform3DConcat(a, b)`: a, then b.
    public static func concat(_ a: Transform3D, _ b: Transform3D) -> Transform3D {
        Transform3D(storage: InlineArray { k in
            let i = k >> 2, j = k & 3
            return a[i, 0] * b[0, j] + a[i, 1] * b[1, j] + a[i, 2] * b[2, j] + a[i, 3] * b[3, j]
        })
    }

    /// `self`, then `next`.
    @inlinable public func then(_ next: Transform3D) -> Transform3D { .concat(self, next) }

    public static func translation(_ x: Double, _ y: Double, _ z: Double = 0) -> Transform3D {
        Transform3D([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1])
    }

    public static func scale(_ x: Double, _ y: Double, _ z: Double = 1) -> Transform3D {
        Transform3D([x, 0, 0, 0, 0, y, 0, 0, 0, 0, z, 0, 0, 0, 0, 1])
    }

    /// `CATransform3DMakeRotation(angle, x, y, z)`: the axis is normalised;
    /// about z it turns clockwise on a y-down screen, about x it is CSS
    /// `rotateX(angle)`. A zero axis gives the identity, as there.
    public static func rotation(_ angle: Double, _ x: Double, _ y: Double, _ z: Double) -> Transform3D {
        let length = (x * x + y * y + z * z).squareRoot()
        guard length > 0 else { return .identity }
        let (x, y, z) = (x / length, y / length, z / length)
        let c = cosine(angle), s = sine(angle), t = 1 - c
        return Transform3D([
            t * x * x + c, t * x * y + z * s, t * x * z - y * s, 0,
            t * x * y - z * s, t * y * y + c, t * y * z + x * s, 0,
            t * x * z + y * s, t * y * z - x * s, t * z * z + c, 0,
            0, 0, 0, 1])
    }

    /// CSS `perspective(d)`: m34 = −1/d.
    public static func perspective(_ d: Double) -> Transform3D {
        var p = Transform3D.identity
        p[2, 3] = -1 / d
        return p
    }

    /// The map of the plane z = 0 into the plane of the result (divide by
    /// w, drop z): rows and columns 1, 2 and 4.
    public var plane: PlaneTransform {
        PlaneTransform(a: storage[0], b: storage[1], c: storage[4], d: storage[5], tx: storage[12], ty: storage[13],
                       px: storage[3], py: storage[7], pw: storage[15])
    }

    /// A plane map lifted to 4×4 (z passes through).
    public init(_ p: PlaneTransform) {
        self.init(p.matrix3d)
    }

    /// The 2×2 minors of rows 1–2 and 3–4, shared by the determinant and
    /// the inverse.
    private var minors: (b: [Double], det: Double) {
        let a = storage
        let b = [a[0] * a[5] - a[1] * a[4], a[0] * a[6] - a[2] * a[4], a[0] * a[7] - a[3] * a[4],
                 a[1] * a[6] - a[2] * a[5], a[1] * a[7] - a[3] * a[5], a[2] * a[7] - a[3] * a[6],
                 a[8] * a[13] - a[9] * a[12], a[8] * a[14] - a[10] * a[12], a[8] * a[15] - a[11] * a[12],
                 a[9] * a[14] - a[10] * a[13], a[9] * a[15] - a[11] * a[13], a[10] * a[15] - a[11] * a[14]]
        return (b, b[0] * b[11] - b[1] * b[10] + b[2] * b[9] + b[3] * b[8] - b[4] * b[7] + b[5] * b[6])
    }

    public var determinant: Double { minors.det }

    /// The inverse, or nil when the determinant is 0.
    public var inverse: Transform3D? {
        let a = storage, (b, det) = minors
        guard det != 0, det.isFinite else { return nil }
        let k = 1 / det
        // The adjugate (cofactors from the minors) over the determinant.
        return Transform3D([
            (a[5] * b[11] - a[6] * b[10] + a[7] * b[9]) * k,
            (a[2] * b[10] - a[1] * b[11] - a[3] * b[9]) * k,
            (a[13] * b[5] - a[14] * b[4] + a[15] * b[3]) * k,
            (a[10] * b[4] - a[9] * b[5] - a[11] * b[3]) * k,
            (a[6] * b[8] - a[4] * b[11] - a[7] * b[7]) * k,
            (a[0] * b[11] - a[2] * b[8] + a[3] * b[7]) * k,
            (a[14] * b[2] - a[12] * b[5] - a[15] * b[1]) * k,
            (a[8] * b[5] - a[10] * b[2] + a[11] * b[1]) * k,
            (a[4] * b[10] - a[5] * b[8] + a[7] * b[6]) * k,
            (a[1] * b[8] - a[0] * b[10] - a[3] * b[6]) * k,
            (a[12] * b[4] - a[13] * b[2] + a[15] * b[0]) * k,
            (a[9] * b[2] - a[8] * b[4] - a[11] * b[0]) * k,
            (a[5] * b[7] - a[4] * b[9] - a[6] * b[6]) * k,
            (a[0] * b[9] - a[1] * b[7] + a[2] * b[6]) * k,
            (a[13] * b[1] - a[12] * b[3] - a[14] * b[0]) * k,
            (a[8] * b[3] - a[9] * b[1] + a[10] * b[0]) * k])
    }
}

/// A matrix taken apart as CSS Transforms Level 2 does it ("unmatrix"), to
/// interpolate: each part moves linearly, the rotation along the great
/// circle between its quaternions.
public struct DecomposedTransform: Sendable, Equatable {
    public var translation: [Double]
    public var scale: [Double]
    /// xy, xz, yz.
    public var skew: [Double]
    public var perspective: [Double]
    /// x, y, z, w.
    public var quaternion: [Double]

    /// The spec's decomposition, reading its matrix[i][j] as m(i+1)(j+1);
    /// nil when it cannot be decomposed (m44 = 0, or the upper 3×3 with
    /// the perspective column cleared is singular).
    public init?(_ t: Transform3D) {
        guard t[3, 3] != 0 else { return nil }
        var matrix = t
        let w = t[3, 3]
        for k in 0..<16 { matrix.storage[k] /= w }
        var perspectiveMatrix = matrix
        for i in 0..<3 { perspectiveMatrix[i, 3] = 0 }
        perspectiveMatrix[3, 3] = 1
        guard perspectiveMatrix.determinant != 0 else { return nil }
        if matrix[0, 3] != 0 || matrix[1, 3] != 0 || matrix[2, 3] != 0 {
            let rhs = [matrix[0, 3], matrix[1, 3], matrix[2, 3], matrix[3, 3]]
            guard let inverse = perspectiveMatrix.inverse else { return nil }
            // rhs · transpose(inverse) = inverse · rhs.
            perspective = (0..<4).map { i in (0..<4).reduce(0) { $0 + inverse[i, $1] * rhs[$1] } }
        } else {
            perspective = [0, 0, 0, 1]
        }
        translation = [matrix[3, 0], matrix[3, 1], matrix[3, 2]]
        var row = (0..<3).map { i in [matrix[i, 0], matrix[i, 1], matrix[i, 2]] }
        scale = [0, 0, 0]
        skew = [0, 0, 0]
        scale[0] = Self.length(row[0])
        row[0] = Self.normalize(row[0])
        skew[0] = Self.dot(row[0], row[1])
        row[1] = Self.combine(row[1], row[0], 1, -skew[0])
        scale[1] = Self.length(row[1])
        row[1] = Self.normalize(row[1])
        skew[0] /= scale[1]
        skew[1] = Self.dot(row[0], row[2])
        row[2] = Self.combine(row[2], row[0], 1, -skew[1])
        skew[2] = Self.dot(row[1], row[2])
        row[2] = Self.combine(row[2], row[1], 1, -skew[2])
        scale[2] = Self.length(row[2])
        row[2] = Self.normalize(row[2])
        skew[1] /= scale[2]
        skew[2] /= scale[2]
        // A flipped coordinate system: negate the matrix and the scales.
        if Self.dot(row[0], Self.cross(row[1], row[2])) < 0 {
            for i in 0..<3 {
                scale[i] = -scale[i]
                row[i] = row[i].map { -$0 }
            }
        }
        var q = [0.5 * max(1 + row[0][0] - row[1][1] - row[2][2], 0).squareRoot(),
                 0.5 * max(1 - row[0][0] + row[1][1] - row[2][2], 0).squareRoot(),
                 0.5 * max(1 - row[0][0] - row[1][1] + row[2][2], 0).squareRoot(),
                 0.5 * max(1 + row[0][0] + row[1][1] + row[2][2], 0).squareRoot()]
        if row[2][1] > row[1][2] { q[0] = -q[0] }
        if row[0][2] > row[2][0] { q[1] = -q[1] }
        if row[1][0] > row[0][1] { q[2] = -q[2] }
        quaternion = q
    }

    public init(translation: [Double], scale: [Double], skew: [Double], perspective: [Double], quaternion: [Double]) {
        self.translation = translation
        self.scale = scale
        self.skew = skew
        self.perspective = perspective
        self.quaternion = quaternion
    }

    /// The spec's recomposition. Its rotation matrix is written here for
    /// row vectors (the transpose of the spec's printed one), the reading
    /// under which decomposing and recomposing give the matrix back.
    public var matrix: Transform3D {
        var matrix = Transform3D.identity
        for i in 0..<4 { matrix[i, 3] = perspective[i] }
        for i in 0..<3 {
            for j in 0..<3 { matrix[3, i] += translation[j] * matrix[j, i] }
        }
        let x = quaternion[0], y = quaternion[1], z = quaternion[2], w = quaternion[3]
        var rotation = Transform3D.identity
        rotation[0, 0] = 1 - 2 * (y * y + z * z)
        rotation[0, 1] = 2 * (x * y + z * w)
        rotation[0, 2] = 2 * (x * z - y * w)
        rotation[1, 0] = 2 * (x * y - z * w)
        rotation[1, 1] = 1 - 2 * (x * x + z * z)
        rotation[1, 2] = 2 * (y * z + x * w)
        rotation[2, 0] = 2 * (x * z + y * w)
        rotation[2, 1] = 2 * (y * z - x * w)
        rotation[2, 2] = 1 - 2 * (x * x + y * y)
        // Row vectors: the later factor in the spec's product acts first.
        matrix = Transform3D.concat(rotation, matrix)
        var temp = Transform3D.identity
        if skew[2] != 0 {
            temp[2, 1] = skew[2]
            matrix = Transform3D.concat(temp, matrix)
        }
        if skew[1] != 0 {
            temp[2, 1] = 0
            temp[2, 0] = skew[1]
            matrix = Transform3D.concat(temp, matrix)
        }
        if skew[0] != 0 {
            temp[2, 0] = 0
            temp[1, 0] = skew[0]
            matrix = Transform3D.concat(temp, matrix)
        }
        for i in 0..<3 {
            for j in 0..<4 { matrix[i, j] *= scale[i] }
        }
        return matrix
    }

    /// The value `f` of the way from `self` to `other`.
    public func interpolated(to other: DecomposedTransform, _ f: Double) -> DecomposedTransform {
        func mix(_ a: [Double], _ b: [Double]) -> [Double] { zip(a, b).map { $0 + ($1 - $0) * f } }
        return DecomposedTransform(translation: mix(translation, other.translation), scale: mix(scale, other.scale),
                                   skew: mix(skew, other.skew), perspective: mix(perspective, other.perspective),
                                   quaternion: Self.slerp(quaternion, other.quaternion, f))
    }

    /// The spec's spherical interpolation (no turn to the shorter way).
    public static func slerp(_ a: [Double], _ b: [Double], _ alpha: Double) -> [Double] {
        let product = min(max(dot4(a, b), -1), 1)
        if abs(product) == 1 { return a }
        let theta = acosine(product)
        let w = sine(alpha * theta) / (1 - product * product).squareRoot()
        let k = cosine(alpha * theta) - product * w
        return (0..<4).map { a[$0] * k + b[$0] * w }
    }

    static func dot4(_ a: [Double], _ b: [Double]) -> Double { a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] }
    static func dot(_ a: [Double], _ b: [Double]) -> Double { a[0] * b[0] + a[1] * b[1] + a[2] * b[2] }
    static func length(_ a: [Double]) -> Double { dot(a, a).squareRoot() }
    static func normalize(_ a: [Double]) -> [Double] {
        let l = length(a)
        return l == 0 ? a : a.map { $0 / l }
    }
    static func combine(_ a: [Double], _ b: [Double], _ ascl: Double, _ bscl: Double) -> [Double] {
        (0..<3).map { a[$0] * ascl + b[$0] * bscl }
    }
    static func cross(_ a: [Double], _ b: [Double]) -> [Double] {
        [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    }
}
