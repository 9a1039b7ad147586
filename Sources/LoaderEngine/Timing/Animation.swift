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

/// `CABasicAnimation`: `value = fromValue + byValue * timingFunction(progress)`.
public struct BasicAnimation: Sendable, Equatable {
    public var keyPath: AnimatableProperty
    public var fromValue: Double
    public var byValue: Double
    public var timing: MediaTiming
    public var timingFunction: TimingFunction

    public init(_ keyPath: AnimatableProperty, from: Double, by: Double,
                timing: MediaTiming, timingFunction: TimingFunction = .linear) {
        self.keyPath = keyPath
        self.fromValue = from
        self.byValue = by
        self.timing = timing
        self.timingFunction = timingFunction
    }

    public init(_ keyPath: AnimatableProperty, from: Double, to: Double,
                timing: MediaTiming, timingFunction: TimingFunction = .linear) {
        self.init(keyPath, from: from, by: to - from, timing: timing, timingFunction: timingFunction)
    }
}

/// `CAKeyframeAnimation` on `position` along a path.
public struct KeyframeAnimation: Sendable, Equatable {
    public enum CalculationMode: Sendable, Equatable {
        /// Constant speed along the path's arc length.
        case paced
    }

    public var path: Path
    public var calculationMode: CalculationMode
    public var timing: MediaTiming
    public var timingFunction: TimingFunction

    public init(path: Path, calculationMode: CalculationMode = .paced,
                timing: MediaTiming, timingFunction: TimingFunction = .linear) {
        self.path = path
        self.calculationMode = calculationMode
        self.timing = timing
        self.timingFunction = timingFunction
    }
}

/// `CAAnimationGroup`: children run on the group's local time, clipped to the
/// group's duration; a child's own fill mode is honoured inside the group.
public struct AnimationGroup: Sendable, Equatable {
    public var animations: [Animation]
    public var timing: MediaTiming

    public init(_ animations: [Animation], timing: MediaTiming) {
        self.animations = animations
        self.timing = timing
    }
}

public indirect enum Animation: Sendable, Equatable {
    case basic(BasicAnimation)
    case keyframe(KeyframeAnimation)
    case group(AnimationGroup)

    /// Applies this animation's value at `parentTime` over `state`; an
    /// inactive animation leaves the state (the model value) untouched.
    @inlinable
    public func apply(to state: inout LayerState, at parentTime: Double) {
        switch self {
        case let .basic(a):
            guard let p = a.timing.progress(atParentTime: parentTime) else { return }
            state[a.keyPath] = a.fromValue + a.byValue * a.timingFunction(p)
        case let .keyframe(a):
            guard let p = a.timing.progress(atParentTime: parentTime) else { return }
            state.position = a.path.point(atPacedFraction: a.timingFunction(p))
        case let .group(g):
            guard let p = g.timing.progress(atParentTime: parentTime) else { return }
            let local = p * g.timing.duration
            for child in g.animations { child.apply(to: &state, at: local) }
        }
    }
}
