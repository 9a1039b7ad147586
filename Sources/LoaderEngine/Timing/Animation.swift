/// The animatable properties of a loader layer (`keyPath`).
public enum AnimatableProperty: Sendable, Equatable {
    case opacity
    case positionX
    case positionY
    /// A uniform `transform.scale`.
    case scale
}

/// The presentation values of a layer: what is drawn.
public struct LayerState: Sendable, Equatable {
    public var position: Point
    public var opacity: Double
    public var scale: Double

    @inlinable
    public init(position: Point, opacity: Double = 1, scale: Double = 1) {
        self.position = position
        self.opacity = opacity
        self.scale = scale
    }

    @inlinable
    subscript(property: AnimatableProperty) -> Double {
        get {
            switch property {
            case .opacity: return opacity
            case .positionX: return position.x
            case .positionY: return position.y
            case .scale: return scale
            }
        }
        set {
            switch property {
            case .opacity: opacity = newValue
            case .positionX: position.x = newValue
            case .positionY: position.y = newValue
            case .scale: scale = newValue
            }
        }
    }
}

/// An animation added to a layer. Like Core Animation's, animations are
/// reference types; these are immutable once built, so one instance is
/// shared by every frame and thread.
public protocol Animation: AnyObject, Sendable {
    /// Applies this animation's value at `parentTime` over `state`; an
    /// inactive animation leaves the state (the model value) untouched.
    func apply(to state: inout LayerState, at parentTime: Double)
}

/// `CABasicAnimation`: `value = fromValue + byValue * timingFunction(progress)`.
public final class BasicAnimation: Animation {
    public let keyPath: AnimatableProperty
    public let fromValue: Double
    public let byValue: Double
    public let timing: MediaTiming
    public let timingFunction: TimingFunction

    public init(_ keyPath: AnimatableProperty, from: Double, by: Double,
                timing: MediaTiming, timingFunction: TimingFunction = .linear) {
        self.keyPath = keyPath
        self.fromValue = from
        self.byValue = by
        self.timing = timing
        self.timingFunction = timingFunction
    }

    public convenience init(_ keyPath: AnimatableProperty, from: Double, to: Double,
                            timing: MediaTiming, timingFunction: TimingFunction = .linear) {
        self.init(keyPath, from: from, by: to - from, timing: timing, timingFunction: timingFunction)
    }

    public func apply(to state: inout LayerState, at parentTime: Double) {
        guard let p = timing.progress(atParentTime: parentTime) else { return }
        state[keyPath] = fromValue + byValue * timingFunction(p)
    }
}

/// `CAKeyframeAnimation` on `position` along a path.
public final class KeyframeAnimation: Animation {
    public enum CalculationMode: Sendable, Equatable {
        /// Constant speed along the path's arc length.
        case paced
    }

    public let path: Path
    public let calculationMode: CalculationMode
    public let timing: MediaTiming
    public let timingFunction: TimingFunction

    public init(path: Path, calculationMode: CalculationMode = .paced,
                timing: MediaTiming, timingFunction: TimingFunction = .linear) {
        self.path = path
        self.calculationMode = calculationMode
        self.timing = timing
        self.timingFunction = timingFunction
    }

    public func apply(to state: inout LayerState, at parentTime: Double) {
        guard let p = timing.progress(atParentTime: parentTime) else { return }
        state.position = path.point(atPacedFraction: timingFunction(p))
    }
}

/// `CAAnimationGroup`: children run on the group's local time, clipped to the
/// group's duration; a child's own fill mode is honoured inside the group.
public final class AnimationGroup: Animation {
    public let animations: [any Animation]
    public let timing: MediaTiming

    public init(_ animations: [any Animation], timing: MediaTiming) {
        self.animations = animations
        self.timing = timing
    }

    public func apply(to state: inout LayerState, at parentTime: Double) {
        guard let p = timing.progress(atParentTime: parentTime) else { return }
        let local = p * timing.duration
        for child in animations { child.apply(to: &state, at: local) }
    }
}
