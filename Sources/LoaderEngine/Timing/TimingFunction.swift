/// A cubic Bézier timing function from (0,0) to (1,1)
/// (`CAMediaTimingFunction`), evaluated as WebKit's UnitBezier does: solve
/// x(s) = progress for s by Newton steps with a bisection fallback, to 1e-9,
/// then return y(s).
public struct TimingFunction: Sendable, Equatable {
    public let c1: Point
    public let c2: Point
    // Polynomial coefficients of x(s) and y(s) = ((a s + b) s + c) s.
    @usableFromInline let ax, bx, cx, ay, by, cy: Double
    @usableFromInline let isLinear: Bool

    public init(controlPoints x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        c1 = Point(x: x1, y: y1)
        c2 = Point(x: x2, y: y2)
        cx = 3 * x1
        bx = 3 * (x2 - x1) - cx
        ax = 1 - cx - bx
        cy = 3 * y1
        by = 3 * (y2 - y1) - cy
        ay = 1 - cy - by
        isLinear = x1 == y1 && x2 == y2
    }

    public static let linear = TimingFunction(controlPoints: 0, 0, 1, 1)
    public static let easeIn = TimingFunction(controlPoints: 0.42, 0, 1, 1)
    public static let easeOut = TimingFunction(controlPoints: 0, 0, 0.58, 1)
    public static let easeInEaseOut = TimingFunction(controlPoints: 0.42, 0, 0.58, 1)
    /// `kCAMediaTimingFunctionDefault`.
    public static let `default` = TimingFunction(controlPoints: 0.25, 0.1, 0.25, 1)

    @inlinable func sampleX(_ s: Double) -> Double { ((ax * s + bx) * s + cx) * s }
    @inlinable func sampleY(_ s: Double) -> Double { ((ay * s + by) * s + cy) * s }
    @inlinable func sampleDerivativeX(_ s: Double) -> Double { (3 * ax * s + 2 * bx) * s + cx }

    /// The eased value for `progress` in 0...1.
    @inlinable
    public func callAsFunction(_ progress: Double) -> Double {
        if isLinear { return progress }
        return sampleY(solveX(progress))
    }

    @usableFromInline static let epsilon = 1e-9

    @inlinable
    func solveX(_ x: Double) -> Double {
        // Newton's method from s = x: quadratic convergence in the usual case.
        var s = x
        for _ in 0..<8 {
            let error = sampleX(s) - x
            if abs(error) < Self.epsilon { return s }
            let d = sampleDerivativeX(s)
            if abs(d) < 1e-12 { break }
            s -= error / d
        }
        // Bisection: always converges, since x(s) is monotonic on [0, 1].
        var lo = 0.0, hi = 1.0
        s = x
        if s <= lo { return lo }
        if s >= hi { return hi }
        while lo < hi {
            let value = sampleX(s)
            if abs(value - x) < Self.epsilon { return s }
            if x > value { lo = s } else { hi = s }
            let mid = (hi - lo) * 0.5 + lo
            if mid == s { return s }
            s = mid
        }
        return s
    }
}
