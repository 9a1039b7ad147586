/// A round layer of a loader: its model values, the animations added to it in
/// order (a later one overrides an earlier one on the same property), and the
/// interval in which it is in the layer tree (`addSublayer` to
/// `removeFromSuperlayer`).
public struct Layer: Sendable {
    public var id: ElementID
    public var diameter: Double
    public var color: RGBColor
    public var model: LayerState
    public var animations: [any Animation]
    public var addedAt: Double
    public var removedAt: Double

    public init(id: ElementID, diameter: Double, color: RGBColor, model: LayerState,
                animations: [any Animation] = [], addedAt: Double = -.infinity, removedAt: Double = .infinity) {
        self.id = id
        self.diameter = diameter
        self.color = color
        self.model = model
        self.animations = animations
        self.addedAt = addedAt
        self.removedAt = removedAt
    }

    @inlinable
    public func isInTree(at t: Double) -> Bool { t >= addedAt && t < removedAt }

    /// Presentation values with the animations evaluated at `animationTime`.
    @inlinable
    public func presentation(atAnimationTime animationTime: Double) -> LayerState {
        var state = model
        for animation in animations { animation.apply(to: &state, at: animationTime) }
        return state
    }

    @inlinable
    func element(_ state: LayerState, id: ElementID, offset: Point = Point(x: 0, y: 0)) -> Element {
        Element(id: id, x: state.position.x + offset.x, y: state.position.y + offset.y,
                diameter: diameter, scale: state.scale, opacity: state.opacity, color: color)
    }

    /// Appends this layer's element at `t` when it is in the tree.
    @inlinable
    public func render(at t: Double, into elements: inout [Element]) {
        guard isInTree(at: t) else { return }
        elements.append(element(presentation(atAnimationTime: t), id: id))
    }
}

/// `CAReplicatorLayer` with a translation `instanceTransform`: instance `i` is
/// the template moved by `i * instanceTranslation`, its animations running
/// `i * instanceDelay` behind (before that it shows the model values). Ids
/// are the template's name followed by the instance index (`dot0`, `dot1`…).
public struct ReplicatorLayer: Sendable {
    public var instance: Layer
    public var instanceCount: Int
    public var instanceTranslation: Point
    public var instanceDelay: Double

    public init(instance: Layer, instanceCount: Int, instanceTranslation: Point, instanceDelay: Double) {
        self.instance = instance
        self.instanceCount = instanceCount
        self.instanceTranslation = instanceTranslation
        self.instanceDelay = instanceDelay
    }

    @inlinable
    public func render(at t: Double, into elements: inout [Element]) {
        guard instance.isInTree(at: t) else { return }
        for i in 0..<instanceCount {
            let n = Double(i)
            let state = instance.presentation(atAnimationTime: t - n * instanceDelay)
            let offset = Point(x: n * instanceTranslation.x, y: n * instanceTranslation.y)
            elements.append(instance.element(state, id: instance.id.indexed(i), offset: offset))
        }
    }

    /// Copy i is copy 0, i × instanceDelay later, moved i × the translation.
    func copies() -> [CopyRelation?] {
        (0..<instanceCount).map { i in
            i == 0 ? nil : CopyRelation(base: 0, delay: Double(i) * instanceDelay,
                                        offset: Point(x: Double(i) * instanceTranslation.x, y: Double(i) * instanceTranslation.y))
        }
    }
}
