/// `CAKeyframeAnimation`: through `values` at `keyTimes`, or along a path.
public final class KeyframeAnimation: Animation {
    /// `calculationMode`.
    public enum CalculationMode: Sendable, Equatable {
        /// Straight between values, each leg in its key-time interval.
        case linear
        /// Value i held from key time i (one more key time than values).
        case discrete
        /// Constant speed: key times from distances (arc length on a path).
        case paced
    }

    public enum Keys: Sendable {
        case values([AnimatedValue])
        /// `position` along a path, one leg per segment.
        case path(Path)
    }

    public let keyPath: AnimatableProperty
    public let keys: Keys
    /// Where each leg starts and ends, 0…1 (for `discrete`, where each value
    /// starts, then 1); empty on a paced path.
    public let keyTimes: [Double]
    /// One per leg, or empty for linear legs.
    public let timingFunctions: [TimingFunction]
    public let calculationMode: CalculationMode
    public let timing: MediaTiming
    /// For the whole animation, before the key times.
    public let timingFunction: TimingFunction

    /// A position animation along `path` at constant speed.
    public convenience init(path: Path, calculationMode: CalculationMode = .paced,
                            timing: MediaTiming, timingFunction: TimingFunction = .linear) {
        self.init(.position, keys: .path(path), calculationMode: calculationMode, timing: timing, timingFunction: timingFunction)
    }

    /// Key times default to even spacing; a paced animation computes its own.
    public init(_ keyPath: AnimatableProperty, keys: Keys, keyTimes: [Double]? = nil, timingFunctions: [TimingFunction] = [],
                calculationMode: CalculationMode, timing: MediaTiming, timingFunction: TimingFunction = .linear) {
        self.keyPath = keyPath
        self.keys = keys
        self.calculationMode = calculationMode
        self.timing = timing
        self.timingFunction = timingFunction
        switch (keys, calculationMode) {
        case (.path, .paced):
            self.keyTimes = []
            self.timingFunctions = []
        case let (.values(values), .paced):
            var lengths = [0.0]
            for i in values.indices.dropFirst() { lengths.append(lengths[i - 1] + values[i - 1].distance(to: values[i])) }
            let total = lengths.last!
            self.keyTimes = values.count < 2 ? [0] : lengths.enumerated().map { i, l in
                total > 0 ? l / total : Double(i) / Double(values.count - 1)
            }
            self.timingFunctions = []
        default:
            let legs: Int
            switch keys {
            case let .values(values): legs = calculationMode == .discrete ? values.count : values.count - 1
            case let .path(path): legs = path.segments.count
            }
            self.keyTimes = keyTimes ?? (0...max(legs, 0)).map { legs == 0 ? 0 : Double($0) / Double(legs) }
            self.timingFunctions = timingFunctions
        }
    }

    public func apply(to state: inout LayerState, at parentTime: Double) {
        guard let p = timing.progress(atParentTime: parentTime) else { return }
        state[keyPath] = value(at: timingFunction(p))
    }

    public func apply(to state: inout SpatialState, at parentTime: Double) {
        guard let p = timing.progress(atParentTime: parentTime) else { return }
        state[keyPath] = value(at: timingFunction(p))
    }

    /// The value at `f` (0…1) of the animation.
    func value(at f: Double) -> AnimatedValue {
        switch keys {
        case let .path(path):
            if calculationMode == .paced { return AnimatedValue(path.point(atPacedFraction: f)) }
            let (leg, u) = leg(at: f, legs: path.segments.count)
            return AnimatedValue(path.segments[leg].point(at: u))
        case let .values(values):
            if values.count == 1 { return values[0] }
            if calculationMode == .discrete { return values[Self.step(at: f, count: values.count, keyTimes: keyTimes)] }
            let (leg, u) = leg(at: f, legs: values.count - 1)
            return values[leg] + (values[leg + 1] - values[leg]) * u
        }
    }

    /// The leg that holds `f` and the eased fraction through it. Equal key
    /// times make a jump: the later leg wins.
    func leg(at f: Double, legs: Int) -> (Int, Double) {
        Self.leg(at: f, legs: legs, keyTimes: keyTimes, timingFunctions: timingFunctions)
    }

    /// The last of `count` values whose key time is <= f (key times never
    /// decrease): a discrete animation's value.
    static func step(at f: Double, count: Int, keyTimes: [Double]) -> Int {
        var lo = 0, hi = count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if keyTimes[mid] <= f { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    static func leg(at f: Double, legs: Int, keyTimes: [Double], timingFunctions: [TimingFunction]) -> (Int, Double) {
        // Binary search for the last leg whose start is <= f.
        var lo = 0, hi = legs - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if keyTimes[mid] <= f { lo = mid } else { hi = mid - 1 }
        }
        let a = keyTimes[lo], b = keyTimes[lo + 1]
        var u = b > a ? min(max((f - a) / (b - a), 0), 1) : 1
        if !timingFunctions.isEmpty { u = timingFunctions[lo](u) }
        return (lo, u)
    }
}

/// A whole-matrix animation (`transform` or `sublayerTransform`): basic
/// from/to or keyframe, linear or discrete, with a keyframe animation's key
/// times and timing functions. Each value is decomposed once, when built;
/// between two it interpolates the parts (`DecomposedTransform`), or steps
/// at the half when either cannot be decomposed, as CSS does.
public final class MatrixAnimation: Animation {
    public enum Target: Sendable, Equatable {
        case transform
        case sublayerTransform
    }

    public let target: Target
    public let values: [Transform3D]
    let parts: [DecomposedTransform?]
    public let keyTimes: [Double]
    public let timingFunctions: [TimingFunction]
    /// `.linear` or `.discrete`.
    public let calculationMode: KeyframeAnimation.CalculationMode
    public let timing: MediaTiming
    public let timingFunction: TimingFunction

    public init(_ target: Target, values: [Transform3D], keyTimes: [Double]? = nil, timingFunctions: [TimingFunction] = [],
                calculationMode: KeyframeAnimation.CalculationMode, timing: MediaTiming, timingFunction: TimingFunction = .linear) {
        precondition(!values.isEmpty && calculationMode != .paced, "whole matrices are linear or discrete")
        self.target = target
        self.values = values
        parts = values.map { DecomposedTransform($0) }
        let legs = calculationMode == .discrete ? values.count : values.count - 1
        self.keyTimes = keyTimes ?? (0...max(legs, 0)).map { legs == 0 ? 0 : Double($0) / Double(legs) }
        self.timingFunctions = timingFunctions
        self.calculationMode = calculationMode
        self.timing = timing
        self.timingFunction = timingFunction
    }

    /// A layer's whole matrices are in its `SpatialState`: nothing here.
    public func apply(to state: inout LayerState, at parentTime: Double) {}

    public func apply(to state: inout SpatialState, at parentTime: Double) {
        guard let p = timing.progress(atParentTime: parentTime) else { return }
        let m = value(at: timingFunction(p))
        switch target {
        case .transform: state.space.matrix = m
        case .sublayerTransform: state.space.sublayerTransform = m
        }
    }

    public func value(at f: Double) -> Transform3D {
        if values.count == 1 { return values[0] }
        if calculationMode == .discrete { return values[KeyframeAnimation.step(at: f, count: values.count, keyTimes: keyTimes)] }
        let (leg, u) = KeyframeAnimation.leg(at: f, legs: values.count - 1, keyTimes: keyTimes, timingFunctions: timingFunctions)
        guard let a = parts[leg], let b = parts[leg + 1] else { return u < 0.5 ? values[leg] : values[leg + 1] }
        // The keyframes themselves exactly, not recomposed.
        if u == 0 { return values[leg] }
        if u == 1 { return values[leg + 1] }
        return a.interpolated(to: b, u).matrix
    }
}
