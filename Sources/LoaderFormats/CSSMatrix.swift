#if canImport(Glibc)
import Glibc
#endif
import LoaderEngine

/// A CSS 4×4 transform matrix as `matrix3d()` takes its sixteen numbers:
/// `m[i][j]` is argument 4·i + j (row-vector form: a point (x, y, z, 1)
/// times the matrix; translation in row 3, perspective in column 3). The
/// writer uses it to know what a browser draws between two keyframes of
/// `matrix()` or `matrix3d()`: CSS Transforms Level 2 interpolates them by
/// decomposition, not number by number.
struct CSSMatrix: Equatable {
    var m: [[Double]]

    init(_ m: [[Double]]) { self.m = m }

    /// From `matrix3d()`'s sixteen arguments, or `matrix()`'s six.
    init?(arguments v: [Double]) {
        switch v.count {
        case 16: m = (0..<4).map { i in Array(v[(4 * i)..<(4 * i + 4)]) }
        case 6: m = [[v[0], v[1], 0, 0], [v[2], v[3], 0, 0], [0, 0, 1, 0], [v[4], v[5], 0, 1]]
        default: return nil
        }
    }

    static let identity = CSSMatrix([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])

    /// `self` then `other` (row vectors: p · self · other).
    func then(_ other: CSSMatrix) -> CSSMatrix {
        CSSMatrix((0..<4).map { i in (0..<4).map { j in (0..<4).reduce(0) { $0 + m[i][$1] * other.m[$1][j] } } })
    }

    /// Where the plane point `p` (z = 0) lands on the screen, once flattened.
    func apply(_ p: Point) -> Point {
        let x = p.x * m[0][0] + p.y * m[1][0] + m[3][0]
        let y = p.x * m[0][1] + p.y * m[1][1] + m[3][1]
        let w = p.x * m[0][3] + p.y * m[1][3] + m[3][3]
        return Point(x: x / w, y: y / w)
    }

    /// The spec's decomposition ("Decomposing a 3D matrix"), or nil when
    /// the matrix has none (a browser then steps at half way).
    struct Decomposed {
        var perspective: [Double], translation: [Double], scale: [Double], skew: [Double], quaternion: [Double]
    }

    func decomposed() -> Decomposed? {
        guard m[3][3] != 0 else { return nil }
        let n = m.map { $0.map { $0 / m[3][3] } }
        var pm = n
        for i in 0..<3 { pm[i][3] = 0 }
        pm[3][3] = 1
        guard let inverse = Self.inverse(pm) else { return nil }
        var perspective = [0.0, 0, 0, 1]
        if n[0][3] != 0 || n[1][3] != 0 || n[2][3] != 0 {
            // rhs · transpose(inverse): perspective[i] = Σj rhs[j] · inverse[i][j].
            let rhs = [n[0][3], n[1][3], n[2][3], n[3][3]]
            perspective = (0..<4).map { i in (0..<4).reduce(0) { $0 + rhs[$1] * inverse[i][$1] } }
        }
        let translation = [n[3][0], n[3][1], n[3][2]]
        var row = (0..<3).map { i in [n[i][0], n[i][1], n[i][2]] }
        var scale = [0.0, 0, 0], skew = [0.0, 0, 0]
        scale[0] = Self.length(row[0]); row[0] = Self.scaled(row[0], 1 / scale[0])
        skew[0] = Self.dot(row[0], row[1]); row[1] = Self.combine(row[1], row[0], 1, -skew[0])
        scale[1] = Self.length(row[1]); row[1] = Self.scaled(row[1], 1 / scale[1]); skew[0] /= scale[1]
        skew[1] = Self.dot(row[0], row[2]); row[2] = Self.combine(row[2], row[0], 1, -skew[1])
        skew[2] = Self.dot(row[1], row[2]); row[2] = Self.combine(row[2], row[1], 1, -skew[2])
        scale[2] = Self.length(row[2]); row[2] = Self.scaled(row[2], 1 / scale[2]); skew[1] /= scale[2]; skew[2] /= scale[2]
        let pdum3 = Self.cross(row[1], row[2])
        if Self.dot(row[0], pdum3) < 0 {
            for i in 0..<3 { scale[i] *= -1; row[i] = Self.scaled(row[i], -1) }
        }
        // The quaternion of the rotation rows. The spec's formula takes
        // each component's size from the diagonal and its sign from an
        // off-diagonal difference, which is 0 for a half turn (the back of
        // a turned plane): signs by chance, a wrong axis. This is the same
        // quaternion wherever the spec's is sound (w > 0, same signs), and
        // sound for half turns too (Shepperd's method; browsers do so).
        let r = row, trace = r[0][0] + r[1][1] + r[2][2]
        var q: [Double]
        if trace > 0 {
            let w = 0.5 * sqrt(1 + trace)
            q = [(r[1][2] - r[2][1]) / (4 * w), (r[2][0] - r[0][2]) / (4 * w), (r[0][1] - r[1][0]) / (4 * w), w]
        } else if r[0][0] >= r[1][1] && r[0][0] >= r[2][2] {
            let x = 0.5 * sqrt(max(1 + r[0][0] - r[1][1] - r[2][2], 0))
            q = [x, (r[0][1] + r[1][0]) / (4 * x), (r[0][2] + r[2][0]) / (4 * x), (r[1][2] - r[2][1]) / (4 * x)]
        } else if r[1][1] >= r[2][2] {
            let y = 0.5 * sqrt(max(1 - r[0][0] + r[1][1] - r[2][2], 0))
            q = [(r[0][1] + r[1][0]) / (4 * y), y, (r[1][2] + r[2][1]) / (4 * y), (r[2][0] - r[0][2]) / (4 * y)]
        } else {
            let z = 0.5 * sqrt(max(1 - r[0][0] - r[1][1] + r[2][2], 0))
            q = [(r[0][2] + r[2][0]) / (4 * z), (r[1][2] + r[2][1]) / (4 * z), z, (r[0][1] - r[1][0]) / (4 * z)]
        }
        // w ≥ 0, as the spec's.
        if q[3] < 0 { q = q.map { -$0 } }
        return Decomposed(perspective: perspective, translation: translation, scale: scale, skew: skew, quaternion: q)
    }

    /// The spec's recomposition ("Recomposing to a 3D matrix").
    init(_ d: Decomposed) {
        var r = CSSMatrix.identity.m
        for i in 0..<4 { r[i][3] = d.perspective[i] }
        for i in 0..<4 { for j in 0..<3 { r[3][i] += d.translation[j] * r[j][i] } }
        var matrix = CSSMatrix(r)
        let (x, y, z, w) = (d.quaternion[0], d.quaternion[1], d.quaternion[2], d.quaternion[3])
        // The spec's rotation matrix is written for column vectors: its
        // transpose here, whose rows are the rows the decomposition found
        // (the spec's own round trip; browsers agree).
        let rotation = CSSMatrix([[1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w), 0],
                                  [2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w), 0],
                                  [2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y), 0],
                                  [0, 0, 0, 1]])
        // The spec's multiply(A, B) is B applied first: B · A in row-vector terms.
        matrix = rotation.then(matrix)
        var temp = CSSMatrix.identity
        if d.skew[2] != 0 { temp.m[2][1] = d.skew[2]; matrix = temp.then(matrix) }
        if d.skew[1] != 0 { temp.m[2][1] = 0; temp.m[2][0] = d.skew[1]; matrix = temp.then(matrix) }
        if d.skew[0] != 0 { temp.m[2][0] = 0; temp.m[1][0] = d.skew[0]; matrix = temp.then(matrix) }
        for i in 0..<3 { for j in 0..<4 { matrix.m[i][j] *= d.scale[i] } }
        self = matrix
    }

    /// What a browser draws at `u` (0…1) of the way from `a` to `b`:
    /// translation, scale, skew and perspective by straight lines, the
    /// rotation by the spec's slerp (no shortest path), or a step at half
    /// way when either has no decomposition.
    static func interpolate(_ a: CSSMatrix, _ b: CSSMatrix, _ u: Double) -> CSSMatrix {
        guard let da = a.decomposed(), let db = b.decomposed() else { return u < 0.5 ? a : b }
        return CSSMatrix(blend(da, db, u))
    }

    /// The decompositions' mix at `u`.
    static func blend(_ da: Decomposed, _ db: Decomposed, _ u: Double) -> Decomposed {
        let l = { (x: [Double], y: [Double]) in zip(x, y).map { $0 + ($1 - $0) * u } }
        var d = Decomposed(perspective: l(da.perspective, db.perspective), translation: l(da.translation, db.translation),
                           scale: l(da.scale, db.scale), skew: l(da.skew, db.skew), quaternion: da.quaternion)
        let product = min(max(dot4(da.quaternion, db.quaternion), -1), 1)
        if abs(product) < 1 {
            let theta = acos(product), w = sin(u * theta) / sqrt(1 - product * product)
            let k = cos(u * theta) - product * w
            d.quaternion = (0..<4).map { da.quaternion[$0] * k + db.quaternion[$0] * w }
        }
        return d
    }

    static func dot4(_ a: [Double], _ b: [Double]) -> Double { zip(a, b).reduce(0) { $0 + $1.0 * $1.1 } }
    static func dot(_ a: [Double], _ b: [Double]) -> Double { a[0] * b[0] + a[1] * b[1] + a[2] * b[2] }
    static func length(_ a: [Double]) -> Double { sqrt(dot(a, a)) }
    static func scaled(_ a: [Double], _ k: Double) -> [Double] { a.map { $0 * k } }
    static func combine(_ a: [Double], _ b: [Double], _ ka: Double, _ kb: Double) -> [Double] { (0..<3).map { a[$0] * ka + b[$0] * kb } }
    static func cross(_ a: [Double], _ b: [Double]) -> [Double] {
        [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    }

    /// Gauss–Jordan with partial pivoting; nil when singular.
    static func inverse(_ a: [[Double]]) -> [[Double]]? {
        var m = a, r = CSSMatrix.identity.m
        for col in 0..<4 {
            guard let p = (col..<4).max(by: { abs(m[$0][col]) < abs(m[$1][col]) }), m[p][col] != 0 else { return nil }
            m.swapAt(col, p); r.swapAt(col, p)
            let k = 1 / m[col][col]
            m[col] = m[col].map { $0 * k }; r[col] = r[col].map { $0 * k }
            for i in 0..<4 where i != col {
                let f = m[i][col]
                if f == 0 { continue }
                m[i] = (0..<4).map { m[i][$0] - f * m[col][$0] }
                r[i] = (0..<4).map { r[i][$0] - f * r[col][$0] }
            }
        }
        return r
    }
}
