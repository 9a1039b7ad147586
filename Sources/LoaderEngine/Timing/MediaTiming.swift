/// How an animation's timing object fills outside its active interval
/// (`CAMediaTimingFillMode`).
public enum FillMode: Sendable {
    case removed, forwards, backwards, both

    @inlinable var fillsForwards: Bool { self == .forwards || self == .both }
    @inlinable var fillsBackwards: Bool { self == .backwards || self == .both }
}

/// The `CAMediaTiming` properties of an animation or group.
///
/// Local time is `(parentTime - beginTime) * speed + timeOffset`. The active
/// interval is `[0, duration * repeatCount * (autoreverses ? 2 : 1))`, with a
/// `repeatCount` of 0 meaning one iteration and `.infinity` meaning forever;
/// a `repeatDuration`, when given, takes the place of `duration * repeatCount`.
/// Outside it the object is inactive (its layer shows the model value) unless
/// `fillMode` holds the first or the last value.
public struct MediaTiming: Sendable, Equatable {
    public var beginTime: Double
    public var duration: Double
    public var repeatCount: Double
    public var autoreverses: Bool
    public var fillMode: FillMode
    public var speed: Double
    public var timeOffset: Double
    public var repeatDuration: Double?

    public init(
        beginTime: Double = 0, duration: Double, repeatCount: Double = 0, repeatDuration: Double? = nil,
        autoreverses: Bool = false, fillMode: FillMode = .removed,
        speed: Double = 1, timeOffset: Double = 0
    ) {
        self.repeatDuration = repeatDuration
        self.beginTime = beginTime
        self.duration = duration
        self.repeatCount = repeatCount
        self.autoreverses = autoreverses
        self.fillMode = fillMode
        self.speed = speed
        self.timeOffset = timeOffset
    }

    /// Number of one-way legs in the active interval (an autoreversing
    /// iteration has two).
    @inlinable var legs: Double {
        (repeatDuration.map { $0 / duration } ?? (repeatCount > 0 ? repeatCount : 1)) * (autoreverses ? 2 : 1)
    }

    /// The active duration in local time.
    @inlinable public var activeDuration: Double { duration * legs }

    /// Progress through the current iteration, in 0...1 and already mirrored
    /// on an autoreversing leg, at `parentTime`; `nil` while inactive.
    @inlinable
    public func progress(atParentTime parentTime: Double) -> Double? {
        let local = (parentTime - beginTime) * speed + timeOffset
        if local < 0 {
            return fillMode.fillsBackwards ? 0 : nil
        }
        let u = local / duration
        if u >= legs {
            return fillMode.fillsForwards ? endProgress : nil
        }
        if !autoreverses { return frac(u) }
        let leg = u.rounded(.down)
        let p = u - leg
        return leg.truncatingRemainder(dividingBy: 2) == 0 ? p : 1 - p
    }

    /// Progress held by a forward fill: where the last leg ends.
    @inlinable var endProgress: Double {
        let total = legs
        let lastLeg: Double
        var p = frac(total)
        if p == 0 { lastLeg = total - 1; p = 1 } else { lastLeg = total.rounded(.down) }
        if autoreverses && lastLeg.truncatingRemainder(dividingBy: 2) != 0 { p = 1 - p }
        return p
    }
}
