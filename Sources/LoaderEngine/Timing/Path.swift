/// A path of lines, circular and elliptical arcs and Bézier curves (what
/// `UIBezierPath` and SVG path data draw), measured by arc length so that a
/// keyframe animation can move along it at constant speed
/// (`calculationMode = .paced`). Lines and circular arcs are measured
/// exactly; curves and elliptical arcs by Gauss–Legendre quadrature over a
/// table of 64 pieces, refined by Newton steps when inverted.
public struct Path: Sendable, Equatable {
    public enum Segment: Sendable, Equatable {
        case line(from: Point, to: Point)
        /// Centre, radius and angles in radians (y down: 3π/2 is the top).
        case arc(center: Point, radius: Double, startAngle: Double, endAngle: Double)
        case quadCurve(from: Point, control: Point, to: Point)
        case curve(from: Point, control1: Point, control2: Point, to: Point)
        /// An ellipse's arc: radii, the x axis turned by `axisRotation`, from
        /// `startAngle` through `sweep` (radians, parametric angles).
        case ellipticalArc(center: Point, rx: Double, ry: Double, axisRotation: Double, startAngle: Double, sweep: Double)

        /// Measured exactly (uniform speed in the parameter).
        @inlinable var isUniform: Bool {
            switch self {
            case .line, .arc: return true
            default: return false
            }
        }

        @inlinable public var length: Double {
            switch self {
            case let .line(a, b):
                let dx = b.x - a.x, dy = b.y - a.y
                return (dx * dx + dy * dy).squareRoot()
            case let .arc(_, r, a0, a1):
                return r * abs(a1 - a0)
            default:
                return Path.table(self).last!
            }
        }

        /// The point at `fraction` (0...1) of a line's or circular arc's
        /// length; the point at parameter `fraction` of another segment.
        @inlinable public func point(at fraction: Double) -> Point {
            switch self {
            case let .line(a, b):
                return Point(x: a.x + (b.x - a.x) * fraction, y: a.y + (b.y - a.y) * fraction)
            case let .arc(c, r, a0, a1):
                let angle = a0 + (a1 - a0) * fraction
                return Point(x: c.x + r * cosine(angle), y: c.y + r * sine(angle))
            case let .quadCurve(p0, c, p1):
                let u = fraction, v = 1 - fraction
                return Point(x: v * v * p0.x + 2 * u * v * c.x + u * u * p1.x, y: v * v * p0.y + 2 * u * v * c.y + u * u * p1.y)
            case let .curve(p0, c1, c2, p1):
                let u = fraction, v = 1 - fraction
                let a = v * v * v, b = 3 * u * v * v, c = 3 * u * u * v, d = u * u * u
                return Point(x: a * p0.x + b * c1.x + c * c2.x + d * p1.x, y: a * p0.y + b * c1.y + c * c2.y + d * p1.y)
            case let .ellipticalArc(center, rx, ry, phi, start, sweep):
                let angle = start + sweep * fraction
                let ex = rx * cosine(angle), ey = ry * sine(angle)
                return Point(x: center.x + ex * cosine(phi) - ey * sine(phi), y: center.y + ex * sine(phi) + ey * cosine(phi))
            }
        }

        /// The speed |dP/du| at parameter `u`.
        @usableFromInline func speed(at u: Double) -> Double {
            let d: Point
            switch self {
            case let .line(a, b): d = Point(x: b.x - a.x, y: b.y - a.y)
            case let .arc(_, r, a0, a1): return r * abs(a1 - a0)
            case let .quadCurve(p0, c, p1):
                d = Point(x: 2 * (1 - u) * (c.x - p0.x) + 2 * u * (p1.x - c.x), y: 2 * (1 - u) * (c.y - p0.y) + 2 * u * (p1.y - c.y))
            case let .curve(p0, c1, c2, p1):
                let v = 1 - u
                d = Point(x: 3 * v * v * (c1.x - p0.x) + 6 * u * v * (c2.x - c1.x) + 3 * u * u * (p1.x - c2.x),
                          y: 3 * v * v * (c1.y - p0.y) + 6 * u * v * (c2.y - c1.y) + 3 * u * u * (p1.y - c2.y))
            case let .ellipticalArc(_, rx, ry, phi, start, sweep):
                let angle = start + sweep * u
                let ex = -rx * sine(angle) * sweep, ey = ry * cosine(angle) * sweep
                d = Point(x: ex * cosine(phi) - ey * sine(phi), y: ex * sine(phi) + ey * cosine(phi))
            }
            return (d.x * d.x + d.y * d.y).squareRoot()
        }
    }

    public let segments: [Segment]
    @usableFromInline let lengths: [Double]
    /// Per segment: cumulative arc length at 64 even parameter steps (empty
    /// for lines and circular arcs).
    @usableFromInline let tables: [[Double]]
    public let length: Double

    public init(_ segments: [Segment]) {
        precondition(!segments.isEmpty, "a path needs at least one segment")
        self.segments = segments
        self.tables = segments.map { $0.isUniform ? [] : Path.table($0) }
        self.lengths = zip(segments, tables).map { $0.isUniform ? $0.length : $1.last! }
        self.length = lengths.reduce(0, +)
    }

    static let pieces = 64
    // 5-point Gauss–Legendre nodes and weights on [-1, 1].
    static let nodes = [0.0, -0.5384693101056831, 0.5384693101056831, -0.9061798459386640, 0.9061798459386640]
    static let weights = [0.5688888888888889, 0.4786286704993665, 0.4786286704993665, 0.2369268850561891, 0.2369268850561891]

    /// Arc length of `segment` between parameters `a` and `b`.
    @usableFromInline static func arcLength(_ segment: Segment, from a: Double, to b: Double) -> Double {
        let half = (b - a) / 2, mid = (a + b) / 2
        var sum = 0.0
        for i in 0..<5 { sum += weights[i] * segment.speed(at: mid + half * nodes[i]) }
        return sum * half
    }

    @usableFromInline static func table(_ segment: Segment) -> [Double] {
        var table = [0.0]
        table.reserveCapacity(pieces + 1)
        for j in 0..<pieces {
            table.append(table[j] + arcLength(segment, from: Double(j) / Double(pieces), to: Double(j + 1) / Double(pieces)))
        }
        return table
    }

    /// The parameter at which `segment` has run `distance` along its table.
    @usableFromInline static func parameter(_ segment: Segment, table: [Double], distance: Double) -> Double {
        var lo = 0, hi = pieces - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if table[mid] <= distance { lo = mid } else { hi = mid - 1 }
        }
        let a = Double(lo) / Double(pieces), b = Double(lo + 1) / Double(pieces)
        let span = table[lo + 1] - table[lo]
        var u = span > 0 ? a + (b - a) * (distance - table[lo]) / span : a
        for _ in 0..<4 {
            let speed = segment.speed(at: u)
            guard speed > 1e-12 else { break }
            let error = table[lo] + arcLength(segment, from: a, to: u) - distance
            u = min(max(u - error / speed, a), b)
            if abs(error) < 1e-12 * max(1, distance) { break }
        }
        return u
    }

    /// The point at `fraction` (0...1) of the whole path's arc length.
    @inlinable
    public func point(atPacedFraction fraction: Double) -> Point {
        var remaining = fraction * length
        let last = segments.count - 1
        for i in 0..<last {
            let l = lengths[i]
            if remaining < l { return point(in: i, distance: remaining) }
            remaining -= l
        }
        return point(in: last, distance: min(remaining, lengths[last]))
    }

    @inlinable func point(in i: Int, distance: Double) -> Point {
        let l = lengths[i]
        let segment = segments[i]
        if segment.isUniform { return segment.point(at: l > 0 ? distance / l : (i == segments.count - 1 ? 1 : 0)) }
        return segment.point(at: Path.parameter(segment, table: tables[i], distance: distance))
    }
}
