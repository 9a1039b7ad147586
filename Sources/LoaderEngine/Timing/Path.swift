/// A path of straight lines and circular arcs (the subset of `UIBezierPath`
/// the loaders use), measured by arc length so that a keyframe animation can
/// move along it at constant speed (`calculationMode = .paced`).
public struct Path: Sendable, Equatable {
    public enum Segment: Sendable, Equatable {
        case line(from: Point, to: Point)
        /// Centre, radius and angles in radians (y down: 3π/2 is the top).
        case arc(center: Point, radius: Double, startAngle: Double, endAngle: Double)

        @inlinable public var length: Double {
            switch self {
            case let .line(a, b):
                let dx = b.x - a.x, dy = b.y - a.y
                return (dx * dx + dy * dy).squareRoot()
            case let .arc(_, r, a0, a1):
                return r * abs(a1 - a0)
            }
        }

        /// The point at `fraction` (0...1) of this segment's length.
        @inlinable public func point(at fraction: Double) -> Point {
            switch self {
            case let .line(a, b):
                return Point(x: a.x + (b.x - a.x) * fraction, y: a.y + (b.y - a.y) * fraction)
            case let .arc(c, r, a0, a1):
                let angle = a0 + (a1 - a0) * fraction
                return Point(x: c.x + r * cosine(angle), y: c.y + r * sine(angle))
            }
        }
    }

    public let segments: [Segment]
    @usableFromInline let lengths: [Double]
    public let length: Double

    public init(_ segments: [Segment]) {
        precondition(!segments.isEmpty, "a path needs at least one segment")
        self.segments = segments
        self.lengths = segments.map(\.length)
        self.length = lengths.reduce(0, +)
    }

    /// The point at `fraction` (0...1) of the whole path's arc length.
    @inlinable
    public func point(atPacedFraction fraction: Double) -> Point {
        var remaining = fraction * length
        let last = segments.count - 1
        for i in 0..<last {
            let l = lengths[i]
            if remaining < l { return segments[i].point(at: l > 0 ? remaining / l : 0) }
            remaining -= l
        }
        let l = lengths[last]
        return segments[last].point(at: l > 0 ? min(remaining / l, 1) : 1)
    }
}
