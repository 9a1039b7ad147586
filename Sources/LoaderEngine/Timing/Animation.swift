/// The animatable properties of a loader layer (`keyPath`).
public enum AnimatableProperty: Sendable, Equatable {
    case opacity
    /// `position`: a point.
    case position
    case positionX
    case positionY
    /// A uniform `transform.scale`.
    case scale
    /// `transform.rotation.z`, radians clockwise on screen.
    case rotation
    /// `backgroundColor` or `strokeColor`: sRGB channels.
    case color
    case strokeStart
    case strokeEnd
    case lineWidth
    case cornerRadius
    /// `bounds.size.width`, `bounds.size.height` (a rect's size).
    case width
    case height
    /// Format 1.1's component key paths (`transform.rotation.x`…), each a
    /// number; `translation` is `transform.translation`, a point.
    case rotationX
    case rotationY
    case scaleX
    case scaleY
    case scaleZ
    case translationX
    case translationY
    case translationZ
    case translation
}

/// The parts of a layer's transform beyond a uniform scale and a turn
/// about z, and its `sublayerTransform`: format 1.1 only. Composed as
/// W · T(translation) · Rx · Ry · Rz · S (column vectors), W = `matrix`.
public struct Space: Sendable, Equatable {
    public var rotationX = 0.0, rotationY = 0.0
    public var scaleX = 1.0, scaleY = 1.0, scaleZ = 1.0
    public var translationX = 0.0, translationY = 0.0, translationZ = 0.0
    /// The whole matrix W; nil is the identity.
    public var matrix: Transform3D? = nil
    public var sublayerTransform: Transform3D? = nil

    public init() {}
}

/// An animated value: a number (in `x`), a point (`x`, `y`) or a colour's
/// channels 0…255 (`x`, `y`, `z`), mixed component by component.
public struct AnimatedValue: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var z: Double

    @inlinable public init(_ x: Double, _ y: Double = 0, _ z: Double = 0) { self.x = x; self.y = y; self.z = z }
    @inlinable public init(_ p: Point) { self.init(p.x, p.y) }
    @inlinable public init(_ c: RGBColor) { self.init(Double(c.red), Double(c.green), Double(c.blue)) }

    @inlinable static func + (a: Self, b: Self) -> Self { Self(a.x + b.x, a.y + b.y, a.z + b.z) }
    @inlinable static func - (a: Self, b: Self) -> Self { Self(a.x - b.x, a.y - b.y, a.z - b.z) }
    @inlinable static func * (a: Self, f: Double) -> Self { Self(a.x * f, a.y * f, a.z * f) }
    /// Euclidean distance, as paced animations measure it.
    @inlinable func distance(to b: Self) -> Double {
        let d = b - self
        return (d.x * d.x + d.y * d.y + d.z * d.z).squareRoot()
    }
    /// The nearest opaque colour to these channels.
    @inlinable public var color: RGBColor {
        let channel = { (v: Double) in UInt32(min(max(v.rounded(), 0), 255)) }
        return RGBColor(rgb: channel(x) << 16 | channel(y) << 8 | channel(z))
    }
}

/// A layer's values with its format-1.1 parts: what a layer that uses them
/// is computed in. A format-1 layer's `LayerState` stays as it was (plain
/// numbers, copied as bytes); the parts live here beside it.
public struct SpatialState: Sendable, Equatable {
    public var layer: LayerState
    public var space: Space

    @inlinable public init(layer: LayerState, space: Space) {
        self.layer = layer
        self.space = space
    }

    subscript(property: AnimatableProperty) -> AnimatedValue {
        get {
            switch property {
            case .rotationX: return AnimatedValue(space.rotationX)
            case .rotationY: return AnimatedValue(space.rotationY)
            case .scaleX: return AnimatedValue(space.scaleX)
            case .scaleY: return AnimatedValue(space.scaleY)
            case .scaleZ: return AnimatedValue(space.scaleZ)
            case .translationX: return AnimatedValue(space.translationX)
            case .translationY: return AnimatedValue(space.translationY)
            case .translationZ: return AnimatedValue(space.translationZ)
            case .translation: return AnimatedValue(space.translationX, space.translationY)
            case .opacity, .position, .positionX, .positionY, .scale, .rotation, .color, .strokeStart, .strokeEnd,
                 .lineWidth, .cornerRadius, .width, .height: return layer[property]
            }
        }
        set {
            switch property {
            case .rotationX: space.rotationX = newValue.x
            case .rotationY: space.rotationY = newValue.x
            case .scaleX: space.scaleX = newValue.x
            case .scaleY: space.scaleY = newValue.x
            case .scaleZ: space.scaleZ = newValue.x
            case .translationX: space.translationX = newValue.x
            case .translationY: space.translationY = newValue.x
            case .translationZ: space.translationZ = newValue.x
            case .translation:
                space.translationX = newValue.x
                space.translationY = newValue.y
            case .opacity, .position, .positionX, .positionY, .scale, .rotation, .color, .strokeStart, .strokeEnd,
                 .lineWidth, .cornerRadius, .width, .height: layer[property] = newValue
            }
        }
    }
}

/// The presentation values of a layer: what is drawn.
public struct LayerState: Sendable, Equatable {
    public var position: Point
    public var opacity: Double
    public var scale: Double
    public var rotation: Double = 0
    public var color = AnimatedValue(0)
    public var strokeStart = 0.0
    public var strokeEnd = 1.0
    public var lineWidth = 0.0
    public var cornerRadius = 0.0
    public var width = 0.0
    public var height = 0.0

    @inlinable
    public init(position: Point, opacity: Double = 1, scale: Double = 1) {
        self.position = position
        self.opacity = opacity
        self.scale = scale
    }

    @inlinable
    subscript(property: AnimatableProperty) -> AnimatedValue {
        get {
            switch property {
            case .opacity: return AnimatedValue(opacity)
            case .position: return AnimatedValue(position)
            case .positionX: return AnimatedValue(position.x)
            case .positionY: return AnimatedValue(position.y)
            case .scale: return AnimatedValue(scale)
            case .rotation: return AnimatedValue(rotation)
            case .color: return color
            case .strokeStart: return AnimatedValue(strokeStart)
            case .strokeEnd: return AnimatedValue(strokeEnd)
            case .lineWidth: return AnimatedValue(lineWidth)
            case .cornerRadius: return AnimatedValue(cornerRadius)
            case .width: return AnimatedValue(width)
            case .height: return AnimatedValue(height)
            // The format-1.1 parts are a SpatialState's; a LayerState alone
            // has them at their defaults.
            case .rotationX, .rotationY, .translationX, .translationY, .translationZ: return AnimatedValue(0)
            case .scaleX, .scaleY, .scaleZ: return AnimatedValue(1)
            case .translation: return AnimatedValue(0, 0)
            }
        }
        set {
            switch property {
            case .opacity: opacity = newValue.x
            case .position: position = Point(x: newValue.x, y: newValue.y)
            case .positionX: position.x = newValue.x
            case .positionY: position.y = newValue.x
            case .scale: scale = newValue.x
            case .rotation: rotation = newValue.x
            case .color: color = newValue
            case .strokeStart: strokeStart = newValue.x
            case .strokeEnd: strokeEnd = newValue.x
            case .lineWidth: lineWidth = newValue.x
            case .cornerRadius: cornerRadius = newValue.x
            case .width: width = newValue.x
            case .height: height = newValue.x
            case .rotationX, .rotationY, .scaleX, .scaleY, .scaleZ, .translationX, .translationY, .translationZ, .translation: break
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
    /// The same over a layer's format-1.1 parts too.
    func apply(to state: inout SpatialState, at parentTime: Double)
}

extension Animation {
    public func apply(to state: inout SpatialState, at parentTime: Double) { apply(to: &state.layer, at: parentTime) }
}

/// `CABasicAnimation`: `value = fromValue + byValue * timingFunction(progress)`.
public final class BasicAnimation: Animation {
    public let keyPath: AnimatableProperty
    public let fromValue: AnimatedValue
    public let byValue: AnimatedValue
    public let timing: MediaTiming
    public let timingFunction: TimingFunction

    public init(_ keyPath: AnimatableProperty, from: AnimatedValue, by: AnimatedValue,
                timing: MediaTiming, timingFunction: TimingFunction = .linear) {
        self.keyPath = keyPath
        self.fromValue = from
        self.byValue = by
        self.timing = timing
        self.timingFunction = timingFunction
    }

    public convenience init(_ keyPath: AnimatableProperty, from: Double, by: Double,
                            timing: MediaTiming, timingFunction: TimingFunction = .linear) {
        self.init(keyPath, from: AnimatedValue(from), by: AnimatedValue(by), timing: timing, timingFunction: timingFunction)
    }

    public convenience init(_ keyPath: AnimatableProperty, from: Double, to: Double,
                            timing: MediaTiming, timingFunction: TimingFunction = .linear) {
        self.init(keyPath, from: from, by: to - from, timing: timing, timingFunction: timingFunction)
    }

    public func apply(to state: inout LayerState, at parentTime: Double) {
        guard let p = timing.progress(atParentTime: parentTime) else { return }
        state[keyPath] = fromValue + byValue * timingFunction(p)
    }

    public func apply(to state: inout SpatialState, at parentTime: Double) {
        guard let p = timing.progress(atParentTime: parentTime) else { return }
        state[keyPath] = fromValue + byValue * timingFunction(p)
    }
}

/// `CAAnimationGroup`: children run on the group's local time, clipped to the
/// group's duration; a child's own fill mode is honoured inside the group.
/// The group's own timing function paces that time, as it paces a basic
/// animation's progress.
public final class AnimationGroup: Animation {
    public let animations: [any Animation]
    public let timing: MediaTiming
    public let timingFunction: TimingFunction

    public init(_ animations: [any Animation], timing: MediaTiming, timingFunction: TimingFunction = .linear) {
        self.animations = animations
        self.timing = timing
        self.timingFunction = timingFunction
    }

    public func apply(to state: inout LayerState, at parentTime: Double) {
        guard let p = timing.progress(atParentTime: parentTime) else { return }
        let local = timingFunction(p) * timing.duration
        for child in animations { child.apply(to: &state, at: local) }
    }

    public func apply(to state: inout SpatialState, at parentTime: Double) {
        guard let p = timing.progress(atParentTime: parentTime) else { return }
        let local = timingFunction(p) * timing.duration
        for child in animations { child.apply(to: &state, at: local) }
    }
}
