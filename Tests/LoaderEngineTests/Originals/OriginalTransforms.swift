#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import LoaderEngine

// The originals' 3D transforms, evaluated as their platforms document them
// and independently of the engine: Core Animation's `CATransform3D` (row
// vectors, a point p maps to p · M) and CSS's transform functions (column
// vectors, M · p), each with its own matrices.

/// Core Animation's `CATransform3D`: m[i][j] is m(i+1)(j+1); a point (x, y, z, 1) maps to
/// (x, y, z, 1) · m, so `concat(a, b)` applies a first.
struct CAMatrix {
    var m: [[Double]]

    static let identity = Self(m: (0..<4).map { i in (0..<4).map { j in i == j ? 1 : 0 } })

    /// `CATransform3DMakeRotation(angle, x, y, z)` about a unit axis: the
    /// rotation that turns y towards z about x (and so on cyclically), for
    /// row vectors.
    static func rotation(_ angle: Double, _ x: Double, _ y: Double, _ z: Double) -> Self {
        let c = cos(angle), s = sin(angle), t = 1 - c
        return Self(m: [[t * x * x + c, t * x * y + s * z, t * x * z - s * y, 0],
                        [t * x * y - s * z, t * y * y + c, t * y * z + s * x, 0],
                        [t * x * z + s * y, t * y * z - s * x, t * z * z + c, 0],
                        [0, 0, 0, 1]])
    }

    /// `CATransform3DConcat(a, b)`: a, then b.
    static func concat(_ a: Self, _ b: Self) -> Self {
        Self(m: (0..<4).map { i in (0..<4).map { j in (0..<4).reduce(0) { $0 + a.m[i][$1] * b.m[$1][j] } } })
    }

    /// A point of the layer's plane (relative to its anchor, z = 0),
    /// projected: divided by w, z dropped.
    func project(_ x: Double, _ y: Double) -> (Double, Double) {
        let v = (0..<4).map { j in x * m[0][j] + y * m[1][j] + m[3][j] }
        return (v[0] / v[3], v[1] / v[3])
    }

    var flat: [Double] { m.flatMap { $0 } }
}

/// A 4×4 matrix decomposed as CSS Transforms level 2's "unmatrix" reads it
/// (matrix[i][j] = m(i+1)(j+1)): m = scale · skew · rotation · translation
/// · perspective, for row vectors.
struct UnmatrixParts {
    var translation: [Double], scale: [Double], skew: [Double]   // skew: xy, xz, yz
    var perspective: [Double], quaternion: [Double]

    init?(_ t: CAMatrix) {
        guard t.m[3][3] != 0 else { return nil }
        let m = t.m.map { $0.map { $0 / t.m[3][3] } }
        var p = m
        for i in 0..<3 { p[i][3] = 0 }
        p[3][3] = 1
        guard let inverse = Self.inverse(p) else { return nil }
        let rhs = [m[0][3], m[1][3], m[2][3], m[3][3]]
        // rhs · transpose(inverse(p))
        perspective = (0..<4).map { j in (0..<4).reduce(0) { $0 + rhs[$1] * inverse[j][$1] } }
        translation = Array(m[3][0..<3])
        var row = (0..<3).map { Array(m[$0][0..<3]) }
        func dot(_ a: [Double], _ b: [Double]) -> Double { zip(a, b).reduce(0) { $0 + $1.0 * $1.1 } }
        func combine(_ a: [Double], _ b: [Double], _ k: Double) -> [Double] { zip(a, b).map { $0 + k * $1 } }
        var scale = [0.0, 0, 0], skew = [0.0, 0, 0]
        scale[0] = dot(row[0], row[0]).squareRoot(); row[0] = row[0].map { $0 / scale[0] }
        skew[0] = dot(row[0], row[1]); row[1] = combine(row[1], row[0], -skew[0])
        scale[1] = dot(row[1], row[1]).squareRoot(); row[1] = row[1].map { $0 / scale[1] }; skew[0] /= scale[1]
        skew[1] = dot(row[0], row[2]); row[2] = combine(row[2], row[0], -skew[1])
        skew[2] = dot(row[1], row[2]); row[2] = combine(row[2], row[1], -skew[2])
        scale[2] = dot(row[2], row[2]).squareRoot(); row[2] = row[2].map { $0 / scale[2] }; skew[1] /= scale[2]; skew[2] /= scale[2]
        let cross = [row[1][1] * row[2][2] - row[1][2] * row[2][1], row[1][2] * row[2][0] - row[1][0] * row[2][2],
                     row[1][0] * row[2][1] - row[1][1] * row[2][0]]
        if dot(row[0], cross) < 0 { scale = scale.map { -$0 }; row = row.map { $0.map { -$0 } } }
        var q = [0.5 * max(1 + row[0][0] - row[1][1] - row[2][2], 0).squareRoot(),
                 0.5 * max(1 - row[0][0] + row[1][1] - row[2][2], 0).squareRoot(),
                 0.5 * max(1 - row[0][0] - row[1][1] + row[2][2], 0).squareRoot(),
                 0.5 * max(1 + row[0][0] + row[1][1] + row[2][2], 0).squareRoot()]
        if row[2][1] > row[1][2] { q[0] = -q[0] }
        if row[0][2] > row[2][0] { q[1] = -q[1] }
        if row[1][0] > row[0][1] { q[2] = -q[2] }
        (self.scale, self.skew, quaternion) = (scale, skew, q)
    }

    static func inverse(_ a: [[Double]]) -> [[Double]]? {
        var m = a.enumerated().map { i, r in r + (0..<4).map { $0 == i ? 1.0 : 0 } }
        for c in 0..<4 {
            let p = (c..<4).max { abs(m[$0][c]) < abs(m[$1][c]) }!
            guard m[p][c] != 0 else { return nil }
            m.swapAt(c, p)
            let pivot = m[c][c]
            m[c] = m[c].map { $0 / pivot }
            for r in 0..<4 where r != c {
                let f = m[r][c]
                m[r] = zip(m[r], m[c]).map { $0 - f * $1 }
            }
        }
        return m.map { Array($0[4...]) }
    }

    /// The spec's interpolation: linear but for the quaternion, which
    /// slerps (no shortest-path flip).
    static func interpolated(_ a: Self, _ b: Self, _ t: Double) -> Self {
        func mix(_ x: [Double], _ y: [Double]) -> [Double] { zip(x, y).map { $0 + ($1 - $0) * t } }
        var r = a
        r.translation = mix(a.translation, b.translation); r.scale = mix(a.scale, b.scale)
        r.skew = mix(a.skew, b.skew); r.perspective = mix(a.perspective, b.perspective)
        let product = min(max(zip(a.quaternion, b.quaternion).reduce(0) { $0 + $1.0 * $1.1 }, -1), 1)
        if abs(product) != 1 {
            let theta = acos(product), w = sin(t * theta) / (1 - product * product).squareRoot()
            r.quaternion = zip(a.quaternion, b.quaternion).map { $0 * (cos(t * theta) - product * w) + $1 * w }
        }
        return r
    }

    /// Recomposed in the order decomposition took it apart; the rotation
    /// for row vectors is the transpose of the quaternion's column-vector
    /// matrix (decomposition read it so).
    var matrix: CAMatrix {
        let (x, y, z, w) = (quaternion[0], quaternion[1], quaternion[2], quaternion[3])
        let rotation = [[1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w), 0],
                        [2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w), 0],
                        [2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y), 0],
                        [0, 0, 0, 1]]
        let scaleSkew = [[scale[0], 0, 0, 0], [skew[0] * scale[1], scale[1], 0, 0],
                         [skew[1] * scale[2], skew[2] * scale[2], scale[2], 0], [0, 0, 0, 1]]
        let move = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], translation + [1]]
        let project = [[1, 0, 0, perspective[0]], [0, 1, 0, perspective[1]], [0, 0, 1, perspective[2]], [0, 0, 0, perspective[3]]]
        return [rotation, move, project].reduce(CAMatrix(m: scaleSkew)) { .concat($0, CAMatrix(m: $1)) }
    }
}

/// A `CAKeyframeAnimation` of `transform` (whole matrices), linear mode,
/// one curve per leg, repeating for ever; its keyframes decomposed once.
struct CATransformKeyframes {
    var keyTimes: [Double]
    var values: [UnmatrixParts]
    var curves: [Curve]
    var duration: Double

    func value(at t: Double) -> CAMatrix {
        let p = wrapped(t, duration) / duration
        var i = 0
        while i + 2 < keyTimes.count && p >= keyTimes[i + 1] { i += 1 }
        let u = curves[i]((p - keyTimes[i]) / (keyTimes[i + 1] - keyTimes[i]))
        return UnmatrixParts.interpolated(values[i], values[i + 1], u).matrix
    }
}

/// A CSS 4×4 matrix for column vectors, m[row][column], as CSS Transforms
/// writes its functions.
struct CSSMatrix3D {
    var m: [[Double]]

    static let identity = Self(m: (0..<4).map { i in (0..<4).map { j in i == j ? 1 : 0 } })
    static func * (a: Self, b: Self) -> Self {
        Self(m: (0..<4).map { i in (0..<4).map { j in (0..<4).reduce(0) { $0 + a.m[i][$1] * b.m[$1][j] } } })
    }
    static func translate(_ x: Double, _ y: Double) -> Self {
        var r = identity; r.m[0][3] = x; r.m[1][3] = y; return r
    }
    static func perspective(_ d: Double) -> Self {
        var r = identity; r.m[3][2] = -1 / d; return r
    }
    static func scale(_ s: Double) -> Self {
        var r = identity; r.m[0][0] = s; r.m[1][1] = s; r.m[2][2] = s; return r
    }
    /// `rotate3d(x, y, z, a)` (a in degrees) for a unit axis, the spec's matrix.
    static func rotate3d(_ x: Double, _ y: Double, _ z: Double, degrees: Double) -> Self {
        let half = degrees * .pi / 360, sc = sin(half) * cos(half), sq = sin(half) * sin(half)
        return Self(m: [[1 - 2 * (y * y + z * z) * sq, 2 * (x * y * sq - z * sc), 2 * (x * z * sq + y * sc), 0],
                        [2 * (x * y * sq + z * sc), 1 - 2 * (x * x + z * z) * sq, 2 * (y * z * sq - x * sc), 0],
                        [2 * (x * z * sq - y * sc), 2 * (y * z * sq + x * sc), 1 - 2 * (x * x + y * y) * sq, 0],
                        [0, 0, 0, 1]])
    }

    /// A point of the element's plane (relative to its transform origin),
    /// projected: divided by w, z dropped.
    func project(_ x: Double, _ y: Double) -> (Double, Double) {
        let w = m[3][0] * x + m[3][1] * y + m[3][3]
        return ((m[0][0] * x + m[0][1] * y + m[0][3]) / w, (m[1][0] * x + m[1][1] * y + m[1][3]) / w)
    }
}

/// The 3D transform functions the SpinKit spinners use.
enum CSSFunction3D {
    case perspective(Double), rotateX(Double), rotateY(Double), rotateZ(Double), scale(Double)

    var matrix: CSSMatrix3D {
        switch self {
        case let .perspective(d): .perspective(d)
        case let .rotateX(a): .rotate3d(1, 0, 0, degrees: a)
        case let .rotateY(a): .rotate3d(0, 1, 0, degrees: a)
        case let .rotateZ(a): .rotate3d(0, 0, 1, degrees: a)
        case let .scale(s): .scale(s)
        }
    }

    /// A rotation as `rotate3d()`'s axis and angle (their common primitive).
    var rotate3d: (axis: [Double], angle: Double)? {
        switch self {
        case let .rotateX(a): ([1, 0, 0], a)
        case let .rotateY(a): ([0, 1, 0], a)
        case let .rotateZ(a): ([0, 0, 1], a)
        case .perspective, .scale: nil
        }
    }

    /// CSS Transforms 2: functions of one name interpolate their arguments;
    /// rotations about different axes share `rotate3d()`, and when one
    /// angle is zero the other's axis is the common one.
    static func interpolated(_ a: Self, _ b: Self, _ p: Double) -> CSSMatrix3D {
        func mix(_ x: Double, _ y: Double) -> Double { x + (y - x) * p }
        switch (a, b) {
        case let (.perspective(x), .perspective(y)): return .perspective(mix(x, y))
        case let (.scale(x), .scale(y)): return .scale(mix(x, y))
        default:
            let (ra, rb) = (a.rotate3d!, b.rotate3d!)
            let axis = ra.angle == 0 ? rb.axis : ra.axis
            precondition(ra.axis == rb.axis || ra.angle == 0 || rb.angle == 0, "the spinners need no slerp here")
            return .rotate3d(axis[0], axis[1], axis[2], degrees: mix(ra.angle, rb.angle))
        }
    }
}

/// A CSS animation of `transform` (lists of equal length, paired function
/// by function), `infinite`, one timing function per interval, with a
/// delay and whether it fills backwards.
struct CSSTransform3DKeyframes {
    var stops: [(Double, [CSSFunction3D])]
    var duration: Double
    var delay = 0.0
    var curve = Curve.easeInOut
    var fillBackwards = false

    func matrix(at t: Double) -> CSSMatrix3D {
        let local = t - delay
        if local < 0 { return fillBackwards ? stops[0].1.reduce(.identity) { $0 * $1.matrix } : .identity }
        let offset = wrapped(local, duration) / duration
        var i = 0
        while i + 2 < stops.count && offset >= stops[i + 1].0 { i += 1 }
        let p = curve((offset - stops[i].0) / (stops[i + 1].0 - stops[i].0))
        return zip(stops[i].1, stops[i + 1].1).reduce(.identity) { $0 * CSSFunction3D.interpolated($1.0, $1.1, p) }
    }
}

/// What the original shows of one element: its shape, the size of its own
/// plane and where the original puts that plane's points on the canvas.
struct ExpectedPlane {
    var shape: String
    var width: Double, height: Double
    var cornerRadius = 0.0
    var opacity = 1.0
    /// A point of the element's plane (its centre at the origin) on the canvas.
    var place: (Double, Double) -> (Double, Double)
}

/// Where the engine's frame puts a point of the element's own plane.
func canvasPoint(_ e: Element, _ x: Double, _ y: Double) -> (Double, Double) {
    if let p = e.placement {
        let q = p.apply(Point(x: x, y: y))
        return (q.x, q.y)
    }
    let c = cos(e.rotation), s = sin(e.rotation)
    return (e.x + e.scale * (x * c - y * s), e.y + e.scale * (x * s + y * c))
}

/// Compares every element's corners and centre, opacity, shape and sizes
/// with the original's over `seconds`, to `tolerance`.
func expectMatchesOriginalPlanes(_ name: String, seconds: Double, samples: Int = 600, tolerance: Double = 1e-6,
                                 sourceLocation: SourceLocation = #_sourceLocation,
                                 _ original: (Double) -> [ExpectedPlane]) throws {
    let loader = try #require(LoaderCatalog.standard[name], sourceLocation: sourceLocation).configure([])
    var worst = 0.0, worstAt = "", mismatches: [String] = []
    func compare(_ a: Double, _ b: Double, _ what: @autoclosure () -> String) {
        let off = abs(a - b)
        if !(off <= worst) { worst = off; worstAt = what() }
    }
    for k in 0...samples {
        let t = seconds * Double(k) / Double(samples)
        let frame = loader.frame(at: t), expected = original(t)
        if frame.elements.count != expected.count, mismatches.count < 5 {
            mismatches.append("\(name) at \(t): \(frame.elements.count) elements, the original has \(expected.count)")
        }
        for (i, (e, o)) in zip(frame.elements, expected).enumerated() {
            let at = "\(name) element \(i) (\(e.id)) at t = \(t)"
            if e.shape.rawValue != o.shape, mismatches.count < 5 { mismatches.append("\(at): a \(e.shape), the original a \(o.shape)") }
            compare(e.width, o.width, "\(at): width \(e.width), original \(o.width)")
            compare(e.height, o.height, "\(at): height \(e.height), original \(o.height)")
            compare(e.cornerRadius, o.cornerRadius, "\(at): corner radius \(e.cornerRadius), original \(o.cornerRadius)")
            compare(e.opacity, o.opacity, "\(at): opacity \(e.opacity), original \(o.opacity)")
            for (x, y) in [(0.0, 0.0), (-1, -1), (1, -1), (1, 1), (-1, 1)].map({ ($0.0 * o.width / 2, $0.1 * o.height / 2) }) {
                let (ex, ey) = canvasPoint(e, x, y), (ox, oy) = o.place(x, y)
                compare(ex, ox, "\(at): point (\(x), \(y)) at x \(ex), original \(ox)")
                compare(ey, oy, "\(at): point (\(x), \(y)) at y \(ey), original \(oy)")
            }
        }
    }
    #expect(worst <= tolerance, "\(name): off by \(worst) at worst, \(worstAt)", sourceLocation: sourceLocation)
    #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "; "))", sourceLocation: sourceLocation)
}
