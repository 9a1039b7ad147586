/// A loader definition (format 1 or 1.1 of the loader format): a document in Core
/// Animation's terms, checked and ready to build scenes from. Parsing is in
/// `LoaderDocument+Parse.swift`, building in `DefinedScene.swift`.
public struct LoaderDocument: Sendable {
    public let name: String
    public let summary: String
    /// The family of loaders it reproduces one of, and that one's name there.
    public let family: String?
    public let original: String?
    /// Other names it answers to (names it had before).
    public let aliases: [String]
    public let width: Double
    public let height: Double
    /// What pictures draw behind the loader.
    public let background: RGBColor?
    /// The loader's colour, what `"color"` means in its layers.
    public let color: RGBColor
    let layers: [LayerSpec]
    /// Shown instead of `layers` with `motion=reduced`, when given.
    let reducedMotion: [LayerSpec]?
    /// With `motion=reduced` and no `reducedMotion`: the time of the
    /// normal loop held still, when given.
    public let reducedPose: Double?
    /// The element ids of one frame, in drawing order (copies in index order).
    let elementIDs: [ElementID]
    let reducedElementIDs: [ElementID]?
    /// The work of its costliest frame (`FrameCost`), normal or reduced.
    public let frameCost: Int
    /// The reduced form's moments when no pose is named, chosen once.
    let poseCache = ReducedPoseCache()
}

/// One layer as written.
struct LayerSpec: Sendable {
    enum Kind: Sendable {
        case circle
        case rect
        case ring(LineCap)
        /// A `CAShapeLayer` filling a circular segment: its arc's angle.
        case segment(arc: Double)
        /// Format 1.1: apex at the top middle of its bounds, base along the bottom.
        case triangle
        case replicator(ReplicatorSpec)
    }

    let id: String
    let kind: Kind
    /// Model values: position, opacity, scale, rotation and the shape's own.
    let model: LayerState
    let diameter: Double
    let bounds: Point
    /// `anchorPoint` (format 1.1): where in its bounds, 0…1, `position`
    /// puts the layer and its transforms turn.
    var anchor = Point(x: 0.5, y: 0.5)
    /// The format-1.1 parts' model values, when any is written.
    var space: Space? = nil
    let color: ColorSpec
    let beginTime: Double
    let animations: [AnimationSpec]

    var shape: Shape? {
        switch kind {
        case .circle: return .circle
        case .rect: return .rect
        case .ring: return .ring
        case .segment: return .segment
        case .triangle: return .triangle
        case .replicator: return nil
        }
    }

    /// Whether it uses a format-1.1 transform part (an anchor point, a 3D
    /// or squashing component, a matrix, a sublayerTransform): such a layer
    /// is placed by 4×4 products, the others as in format 1.
    var usesSpace: Bool {
        anchor != Point(x: 0.5, y: 0.5) || space != nil || animations.contains(where: \.usesSpace)
    }

    /// Whether any copy of it draws an element. A frame never visits a
    /// layer that draws nothing, so such a layer costs nothing.
    var draws: Bool {
        if case let .replicator(r) = kind { return r.draws }
        return true
    }
}

/// `CAReplicatorLayer`'s own properties.
struct ReplicatorSpec: Sendable {
    let instanceCount: Int
    let instanceDelay: Double
    let translation: Point
    let rotation: Double
    let scale: Double
    let instanceAlphaOffset: Double
    let sublayers: [LayerSpec]
    /// Some copy draws an element (known once, when parsed).
    let draws: Bool
    /// A plain `layer` (format 1.1): one copy, no index in its ids.
    let plain: Bool

    init(instanceCount: Int, instanceDelay: Double, translation: Point, rotation: Double, scale: Double,
         instanceAlphaOffset: Double, sublayers: [LayerSpec], plain: Bool = false) {
        self.plain = plain
        self.instanceCount = instanceCount
        self.instanceDelay = instanceDelay
        self.translation = translation
        self.rotation = rotation
        self.scale = scale
        self.instanceAlphaOffset = instanceAlphaOffset
        self.sublayers = sublayers
        draws = instanceCount > 0 && sublayers.contains { $0.draws }
    }
}

/// An animation as written; colours that say `"color"` are resolved when a
/// scene is built for a `color` parameter.
indirect enum AnimationSpec: Sendable {
    case basic(keyPath: AnimatableProperty, from: ValueSpec?, to: ValueSpec?, by: ValueSpec?,
               timing: MediaTiming, timingFunction: TimingFunction)
    case keyframe(keyPath: AnimatableProperty, values: [ValueSpec]?, path: Path?, keyTimes: [Double]?,
                  timingFunctions: [TimingFunction], calculationMode: KeyframeAnimation.CalculationMode,
                  timing: MediaTiming, timingFunction: TimingFunction)
    case group([AnimationSpec], timing: MediaTiming, timingFunction: TimingFunction)
    /// A whole matrix (format 1.1); a nil value is the model's (a basic
    /// animation's missing from or to).
    case matrix(MatrixAnimation.Target, values: [Transform3D?], keyTimes: [Double]?, timingFunctions: [TimingFunction],
                calculationMode: KeyframeAnimation.CalculationMode, timing: MediaTiming, timingFunction: TimingFunction)

    /// Whether it animates a format-1.1 transform part.
    var usesSpace: Bool {
        switch self {
        case let .basic(key, _, _, _, _, _), let .keyframe(key, _, _, _, _, _, _, _):
            switch key {
            case .rotationX, .rotationY, .scaleX, .scaleY, .scaleZ, .translationX, .translationY, .translationZ, .translation: return true
            case .opacity, .position, .positionX, .positionY, .scale, .rotation, .color, .strokeStart, .strokeEnd, .lineWidth,
                 .cornerRadius, .width, .height: return false
            }
        case let .group(children, _, _): return children.contains(where: \.usesSpace)
        case .matrix: return true
        }
    }

    var timing: MediaTiming {
        switch self {
        case let .basic(_, _, _, _, timing, _), let .keyframe(_, _, _, _, _, _, timing, _), let .group(_, timing, _),
             let .matrix(_, _, _, _, _, timing, _): return timing
        }
    }
}

/// An animated value as written.
enum ValueSpec: Sendable {
    case value(AnimatedValue)
    case color(ColorSpec)

    func resolved(_ loaderColor: RGBColor) -> AnimatedValue {
        switch self {
        case let .value(v): return v
        case let .color(c): return AnimatedValue(c.resolved(loaderColor))
        }
    }
}
