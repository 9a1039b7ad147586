/// A similarity transform of the plane (uniform scale, clockwise turn,
/// translation): how a layer's space maps to the canvas.
struct Similarity: Sendable {
    var a = 1.0, b = 0.0, tx = 0.0, ty = 0.0
    /// The scale and turn it applies, as elements report them.
    var scale = 1.0, rotation = 0.0

    static let identity = Similarity()

    /// q ↦ position + s·R(r)·(q − center): a layer's space placed in its parent.
    init(center: Point, scale s: Double, rotation r: Double, position: Point) {
        a = r == 0 ? s : s * cosine(r)
        b = r == 0 ? 0 : s * sine(r)
        tx = position.x - (a * center.x - b * center.y)
        ty = position.y - (b * center.x + a * center.y)
        scale = s
        rotation = r
    }

    init() {}

    func apply(_ p: Point) -> Point { Point(x: a * p.x - b * p.y + tx, y: b * p.x + a * p.y + ty) }

    /// `self` after `inner`: q ↦ self(inner(q)).
    func after(_ inner: Similarity) -> Similarity {
        var m = Similarity()
        m.a = a * inner.a - b * inner.b
        m.b = b * inner.a + a * inner.b
        let t = apply(Point(x: inner.tx, y: inner.ty))
        m.tx = t.x
        m.ty = t.y
        m.scale = scale * inner.scale
        m.rotation = rotation + inner.rotation
        return m
    }
}

extension PlaneTransform {
    /// A similarity as a plane map.
    init(_ s: Similarity) {
        self.init(a: s.a, b: s.b, c: -s.b, d: s.a, tx: s.tx, ty: s.ty)
    }
}

/// How a layer's parent space reaches the canvas. A tree of format-1 layers
/// only ever uses `similarity`, with the exact arithmetic it always had; a
/// layer that uses a format-1.1 part (`LayerSpec.usesSpace`) is placed by
/// plane maps from there down, held out of line (`PlanePlacing`) so that
/// the format-1 walk passes no more than it did.
struct Placing: Sendable {
    var similarity: Similarity
    var space: PlanePlacing? = nil

    init(similarity: Similarity) { self.similarity = similarity }

    init(similarity: Similarity, plane: PlaneTransform, pre: Transform3D) {
        self.similarity = similarity
        space = PlanePlacing(plane: plane, pre: pre)
    }

    static let identity = Placing(similarity: .identity)

    var usesPlane: Bool { space != nil }
    var plane: PlaneTransform? { space?.plane }
    var pre: Transform3D? { space?.pre }
}

final class PlanePlacing: Sendable {
    /// The parent's space (its bounds, y down) to the canvas.
    let plane: PlaneTransform
    /// What the parent applies to a sublayer before flattening it into its
    /// own plane: a replicator's copy transform, then the
    /// `sublayerTransform` about the parent's anchor point.
    let pre: Transform3D

    init(plane: PlaneTransform, pre: Transform3D) {
        self.plane = plane
        self.pre = pre
    }
}

/// A layer ready to draw: model values and built animations.
final class SceneNode: Sendable {
    enum Kind: Sendable {
        /// A shape; a ring's cap, a segment's arc.
        case shape(Shape, LineCap, arc: Double)
        /// Copies in index order: each places the sublayers (about the
        /// replicator's centre), delays their animations, fades them.
        case replicator(center: Point, copies: [Copy], sublayers: [SceneNode])
    }
    struct Copy: Sendable {
        let transform: Similarity
        let delay: Double
        let alpha: Double
    }

    let kind: Kind
    let model: LayerState
    /// The format-1.1 parts' model values (defaults unless `usesSpace`).
    let modelSpace: Space
    let diameter: Double
    let bounds: Point
    let anchor: Point
    /// Placed by plane maps (`LayerSpec.usesSpace`).
    let usesSpace: Bool
    /// It, or a layer in it, uses a format-1.1 part: its copies are not
    /// each other moved (`loopCopies`).
    let spaceInside: Bool
    let beginTime: Double
    let animations: [any Animation]
    /// The animations as written, and whether they move what a replicator
    /// holds (its reduced pose holds all of it at one moment).
    let specs: [AnimationSpec]
    let moves: Bool

    init(_ spec: LayerSpec, color: RGBColor) {
        var model = spec.model
        model.color = AnimatedValue(spec.color.resolved(color))
        self.model = model
        modelSpace = spec.space ?? Space()
        diameter = spec.diameter
        bounds = spec.bounds
        anchor = spec.anchor
        usesSpace = spec.usesSpace
        beginTime = spec.beginTime
        let spatial = SpatialState(layer: model, space: spec.space ?? Space())
        animations = spec.animations.map { SceneNode.animation($0, model: spatial, color: color) }
        specs = spec.animations
        if case .replicator = spec.kind { moves = spec.animations.contains(where: ReducedPose.moves) } else { moves = false }
        switch spec.kind {
        case .circle: kind = .shape(.circle, .butt, arc: 0)
        case .rect: kind = .shape(.rect, .butt, arc: 0)
        case let .ring(cap): kind = .shape(.ring, cap, arc: 0)
        case let .segment(arc): kind = .shape(.segment, .butt, arc: arc)
        case .triangle: kind = .shape(.triangle, .butt, arc: 0)
        case let .replicator(r):
            let center = Point(x: spec.bounds.x / 2, y: spec.bounds.y / 2)
            // Tᵏ about the centre: q ↦ c + Tᵏ(q − c), composed once per copy.
            let step = Similarity(center: Point(x: 0, y: 0), scale: r.scale, rotation: r.rotation, position: r.translation)
            var power = Similarity.identity
            var copies: [Copy] = []
            for k in 0..<r.instanceCount {
                let toCenter = Similarity(center: Point(x: 0, y: 0), scale: 1, rotation: 0, position: center)
                let fromCenter = Similarity(center: center, scale: 1, rotation: 0, position: Point(x: 0, y: 0))
                let aboutCenter = toCenter.after(power).after(fromCenter)
                copies.append(Copy(transform: aboutCenter, delay: Double(k) * r.instanceDelay,
                                   alpha: min(max(1 + Double(k) * r.instanceAlphaOffset, 0), 1)))
                power = step.after(power)
            }
            kind = .replicator(center: center, copies: copies,
                               sublayers: r.sublayers.filter(\.draws).map { SceneNode($0, color: color) })
        }
        if case let .replicator(_, _, sublayers) = kind {
            spaceInside = usesSpace || sublayers.contains(where: \.spaceInside)
        } else {
            spaceInside = usesSpace
        }
    }

    /// C = T · Rx · Ry · Rz · S, then W (column vectors; row vectors apply
    /// it as S · Rz · Ry · Rx · T · W).
    static func transform(scale s: Double, rotation: Double, _ space: Space) -> Transform3D {
        var m = Transform3D.scale(s * space.scaleX, s * space.scaleY, s * space.scaleZ)
        if rotation != 0 { m = m.then(.rotation(rotation, 0, 0, 1)) }
        if space.rotationY != 0 { m = m.then(.rotation(space.rotationY, 0, 1, 0)) }
        if space.rotationX != 0 { m = m.then(.rotation(space.rotationX, 1, 0, 0)) }
        if space.translationX != 0 || space.translationY != 0 || space.translationZ != 0 {
            m = m.then(.translation(space.translationX, space.translationY, space.translationZ))
        }
        if let w = space.matrix { m = m.then(w) }
        return m
    }

    /// This layer's level, 4×4: a point of its bounds less `origin`
    /// (where its own plane's origin is), through its transform about the
    /// anchor, to its parent's space before the parent flattens it.
    func level(_ state: LayerState, _ space: Space?, origin: Point, size: Point, pre: Transform3D?) -> Transform3D {
        let space = space ?? Space()
        var m = Transform3D.translation(origin.x - anchor.x * size.x, origin.y - anchor.y * size.y)
        m = m.then(Self.transform(scale: state.scale, rotation: state.rotation, space))
        m = m.then(.translation(state.position.x, state.position.y))
        if let pre { m = m.then(pre) }
        return m
    }

    /// What this container applies to its sublayers in copy `copy` before
    /// flattening (nil: nothing).
    func inner(_ space: Space?, copy: Similarity?) -> Transform3D? {
        var m: Transform3D? = copy.map { Transform3D(PlaneTransform($0)) }
        if let sub = space?.sublayerTransform {
            let ax = anchor.x * bounds.x, ay = anchor.y * bounds.y
            let about = Transform3D.translation(-ax, -ay).then(sub).then(.translation(ax, ay))
            m = m.map { $0.then(about) } ?? about
        }
        return m
    }

    /// How a sublayer of this container, in copy `copy`, is placed; `own`
    /// is `placement(state, placing.similarity)`, made once for all copies.
    func placing(_ state: LayerState, _ space: Space?, _ placing: Placing, own: Similarity, copy: Copy) -> Placing {
        guard usesSpace || placing.usesPlane else { return Placing(similarity: own.after(copy.transform)) }
        let outer = placing.plane ?? PlaneTransform(placing.similarity)
        let plane = outer.after(level(state, space, origin: Point(x: 0, y: 0), size: bounds, pre: placing.pre).plane)
        let isIdentity = copy.transform.a == 1 && copy.transform.b == 0 && copy.transform.tx == 0 && copy.transform.ty == 0
        return Placing(similarity: placing.similarity, plane: plane, pre: inner(space, copy: isIdentity ? nil : copy.transform) ?? .identity)
    }

    /// The values at `local` (time since `beginTime`).
    func state(at local: Double) -> LayerState {
        var state = model
        for animation in animations { animation.apply(to: &state, at: local) }
        return state
    }

    /// The values at `local` as the reduced pose weighs them: a squash
    /// (`scale.x` × `scale.y`) counted into `scale`, so that a bar squashed
    /// to 0.4 of its height draws 0.4 of its area there too.
    func measured(at local: Double) -> LayerState {
        guard usesSpace else { return state(at: local) }
        let spatial = spatial(at: local)
        var state = spatial.layer
        state.scale *= abs(spatial.space.scaleX * spatial.space.scaleY).squareRoot()
        return state
    }

    /// The values and the format-1.1 parts at `local`.
    func spatial(at local: Double) -> SpatialState {
        var state = SpatialState(layer: model, space: modelSpace)
        for animation in animations { animation.apply(to: &state, at: local) }
        return state
    }

    /// Core Animation's rules for a basic animation's missing values: a
    /// missing one comes from the model value.
    static func animation(_ spec: AnimationSpec, model: SpatialState, color: RGBColor) -> any Animation {
        switch spec {
        case let .basic(keyPath, from, to, by, timing, function):
            let modelValue = model[keyPath]
            let f = from?.resolved(color), t = to?.resolved(color), b = by?.resolved(color)
            let start: AnimatedValue, delta: AnimatedValue
            switch (f, t, b) {
            case let (f?, _, b?): (start, delta) = (f, b)
            case let (f?, t?, nil): (start, delta) = (f, t - f)
            case let (nil, t?, b?): (start, delta) = (t - b, b)
            case let (f?, nil, nil): (start, delta) = (f, modelValue - f)
            case let (nil, t?, nil): (start, delta) = (modelValue, t - modelValue)
            case let (nil, nil, b?): (start, delta) = (modelValue, b)
            case (nil, nil, nil): (start, delta) = (modelValue, AnimatedValue(0))
            }
            return BasicAnimation(keyPath, from: start, by: delta, timing: timing, timingFunction: function)
        case let .keyframe(keyPath, values, path, keyTimes, functions, mode, timing, function):
            let keys: KeyframeAnimation.Keys = path.map { .path($0) } ?? .values(values!.map { $0.resolved(color) })
            return KeyframeAnimation(keyPath, keys: keys, keyTimes: keyTimes, timingFunctions: functions,
                                     calculationMode: mode, timing: timing, timingFunction: function)
        case let .group(children, timing, timingFunction):
            return AnimationGroup(children.map { animation($0, model: model, color: color) }, timing: timing,
                                  timingFunction: timingFunction)
        case let .matrix(target, values, keyTimes, functions, mode, timing, function):
            // A missing basic value is the model's matrix.
            let own: Transform3D
            switch target {
            case .transform: own = model.space.matrix ?? .identity
            case .sublayerTransform: own = model.space.sublayerTransform ?? .identity
            }
            return MatrixAnimation(target, values: values.map { $0 ?? own }, keyTimes: keyTimes, timingFunctions: functions,
                                   calculationMode: mode, timing: timing, timingFunction: function)
        }
    }

    /// Appends this layer's elements at `time` (its parent's), placed by
    /// `transform` and faded by `opacity`; `index` counts elements for ids.
    func render(at time: Double, transform: Placing, opacity: Double, ids: [ElementID], index: inout Int,
                into elements: inout [Element]) {
        let local = time - beginTime
        let state: LayerState, space: Space?
        if usesSpace {
            let spatial = spatial(at: local)
            (state, space) = (spatial.layer, spatial.space)
        } else {
            (state, space) = (self.state(at: local), nil)
        }
        switch kind {
        case .shape:
            element(state, space, transform: transform, opacity: opacity, id: ids[index], into: &elements)
            index += 1
        case let .replicator(_, copies, sublayers):
            let faded = opacity * state.opacity
            let own = placement(state, transform.similarity)
            for copy in copies {
                let placed = placing(state, space, transform, own: own, copy: copy)
                for sublayer in sublayers {
                    sublayer.render(at: local - copy.delay, transform: placed, opacity: faded * copy.alpha,
                                    ids: ids, index: &index, into: &elements)
                }
            }
        }
    }

    /// Appends a shape layer's element in `state`, placed by `placing`,
    /// faded by `opacity`; none when part of it would pass behind the eye.
    @inline(__always)
    func element(_ state: LayerState, _ space: Space?, transform placing: Placing, opacity: Double, id: ElementID, into elements: inout [Element]) {
        if usesSpace || placing.usesPlane {
            if let e = placedElement(state, space, placing, opacity: opacity, id: id) { elements.append(e) }
        } else {
            elements.append(flatElement(state, placing.similarity, opacity: opacity, id: id))
        }
    }

    /// Format 1's element: placed by a similarity, exactly as always.
    func flatElement(_ state: LayerState, _ transform: Similarity, opacity: Double, id: ElementID) -> Element {
        guard case let .shape(shape, _, _) = kind else { preconditionFailure("a replicator draws no element") }
        var e: Element
        let p = transform.apply(state.position)
        e = Element(id: id, shape: shape, x: p.x, y: p.y, diameter: diameter, scale: transform.scale * state.scale,
                    opacity: min(max(opacity * state.opacity, 0), 1), color: state.color.color)
        e.rotation = transform.rotation + state.rotation
        fill(&e, state)
        return e
    }

    /// An element placed by plane maps; nil behind the eye.
    func placedElement(_ state: LayerState, _ space: Space?, _ placing: Placing, opacity: Double, id: ElementID) -> Element? {
        guard case let .shape(shape, _, _) = kind else { preconditionFailure("a replicator draws no element") }
        let transform = placing.similarity
        var e: Element
        // The box the shape fills, centred on its own plane's origin.
        let size: Point
        switch shape {
        case .circle, .segment: size = Point(x: diameter, y: diameter)
        case .ring: size = Point(x: diameter + max(state.lineWidth, 0), y: diameter + max(state.lineWidth, 0))
        case .rect, .triangle: size = Point(x: max(state.width, 0), y: max(state.height, 0))
        }
        let outer = placing.plane ?? PlaneTransform(transform)
        let half = Point(x: size.x / 2, y: size.y / 2)
        let raw = outer.after(level(state, space, origin: half, size: size, pre: placing.pre).plane)
        // Behind the eye (or at it) a point has no place on the canvas.
        for (sx, sy) in [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)] {
            guard raw.px * sx * half.x + raw.py * sy * half.y + raw.pw > 1e-9 else { return nil }
        }
        let plane = raw.normalized
        e = Element(id: id, shape: shape, x: plane.tx, y: plane.ty, diameter: diameter, scale: 1,
                    opacity: min(max(opacity * state.opacity, 0), 1), color: state.color.color)
        if plane.px == 0 && plane.py == 0 && plane.a == plane.d && plane.b == -plane.c {
            // A similarity says all with x, y, scale and rotation.
            e.scale = (plane.a * plane.a + plane.b * plane.b).squareRoot()
            e.rotation = arctangent2(plane.b, plane.a)
        } else {
            // The nearest similarity at the centre: the linear part there.
            let a = plane.a - plane.tx * plane.px, b = plane.b - plane.ty * plane.px
            let c = plane.c - plane.tx * plane.py, d = plane.d - plane.ty * plane.py
            e.scale = abs(a * d - b * c).squareRoot()
            e.rotation = arctangent2(b, a)
            e.placement = plane
        }
        fill(&e, state)
        return e
    }

    /// Each shape's own fields (Shape.ownFields); `diameter` is set by the maker.
    func fill(_ e: inout Element, _ state: LayerState) {
        guard case let .shape(shape, cap, arc) = kind else { return }
        switch shape {
        case .circle:
            break
        case .rect:
            e.width = max(state.width, 0)
            e.height = max(state.height, 0)
            e.cornerRadius = state.cornerRadius
        case .ring:
            e.lineWidth = state.lineWidth
            e.strokeStart = min(max(state.strokeStart, 0), 1)
            e.strokeEnd = min(max(state.strokeEnd, 0), 1)
            e.lineCap = cap
        case .segment:
            e.arc = arc
        case .triangle:
            e.width = max(state.width, 0)
            e.height = max(state.height, 0)
        }
    }

    /// A replicator's space in `state`, placed by `transform`.
    func placement(_ state: LayerState, _ transform: Similarity) -> Similarity {
        guard case let .replicator(center, _, _) = kind else { return transform }
        return transform.after(Similarity(center: center, scale: state.scale, rotation: state.rotation, position: state.position))
    }
}

/// A defined loader for one set of parameters: its layer tree, built once.
struct DefinedScene: LoaderScene {
    let layers: [SceneNode]
    let ids: [ElementID]
    /// `motion=reduced` without a `reducedMotion` tree: a still pose under
    /// an opacity pulse, 1 → 0.5 → 1, 1 s each way, ease in and out.
    let pulse: BasicAnimation?
    /// The definition's `reducedPose`: the normal loop's time shown.
    let poseTime: Double?

    /// The default reduced form's still elements, before the pulse.
    let pose: [Element]?

    init(_ document: LoaderDocument, _ p: ParameterValues) {
        let color = p.color("color")
        let reduced = p.reducedMotion
        poseTime = reduced && document.reducedMotion == nil ? document.reducedPose : nil
        pulse = reduced && document.reducedMotion == nil ? ReducedPose.pulse : nil
        if reduced, let tree = document.reducedMotion, let ids = document.reducedElementIDs {
            layers = tree.filter(\.draws).map { SceneNode($0, color: color) }
            self.ids = ids
        } else {
            layers = document.layers.filter(\.draws).map { SceneNode($0, color: color) }
            ids = document.elementIDs
        }
        // Moments chosen once per definition; the elements once per scene.
        pose = reduced && document.reducedMotion == nil && document.reducedPose == nil
            ? ReducedPose.pose(layers, moments: document.poseCache.moments(document.layers, canvas: Point(x: document.width, y: document.height)), ids: ids)
            : nil
    }

    /// A copy made by a replicator whose instance transform is a translation
    /// (no turn or scale, no alpha offset) and whose own transform does not
    /// animate is its first copy, later and moved; copies made by any other
    /// replicator are elements of their own.
    func copies() -> [CopyRelation?] {
        // The normal frame at one time: copies show different moments.
        if poseTime != nil { return [] }
        let relations = loopCopies()
        guard let pose else { return relations }
        // A pose: a copy holding the moment its first copy holds is that
        // one moved (no delay); one holding a moment of its own is not.
        return relations.enumerated().map { i, relation in
            guard let relation else { return nil }
            var moved = pose[relation.base]
            let dx = pose[i].x - moved.x - relation.offset.x, dy = pose[i].y - moved.y - relation.offset.y
            guard abs(dx) < 1e-9, abs(dy) < 1e-9 else { return nil }
            moved.id = pose[i].id
            moved.x = pose[i].x
            moved.y = pose[i].y
            return moved == pose[i] ? CopyRelation(base: relation.base, delay: 0, offset: relation.offset) : nil
        }
    }

    /// The relations of the normal loop's copies.
    func loopCopies() -> [CopyRelation?] {
        var relations: [CopyRelation?] = []
        var firsts: [String: Int] = [:]
        func walk(_ node: SceneNode, _ identity: String, delay: Double, offset: Point, linear: Similarity) {
            switch node.kind {
            case .shape:
                if let base = firsts[identity] {
                    relations.append(CopyRelation(base: base, delay: delay, offset: offset))
                } else {
                    firsts[identity] = relations.count
                    relations.append(nil)
                }
            case let .replicator(center, copies, sublayers):
                let own = Similarity(center: center, scale: node.model.scale, rotation: node.model.rotation, position: node.model.position)
                var turn = linear.after(own)
                turn.tx = 0
                turn.ty = 0
                for (k, copy) in copies.enumerated() {
                    let moves = !node.spaceInside && node.animations.isEmpty && copy.alpha == 1 && copy.transform.scale == 1 && copy.transform.rotation == 0
                    let shift = turn.apply(Point(x: copy.transform.tx, y: copy.transform.ty))
                    for (i, sublayer) in sublayers.enumerated() {
                        if moves {
                            walk(sublayer, identity + "/\(i)", delay: delay + copy.delay,
                                 offset: Point(x: offset.x + shift.x, y: offset.y + shift.y), linear: turn)
                        } else {
                            walk(sublayer, identity + "/\(k).\(i)", delay: delay, offset: offset, linear: turn.after(copy.transform))
                        }
                    }
                }
            }
        }
        for (i, layer) in layers.enumerated() {
            walk(layer, "\(i)", delay: 0, offset: Point(x: 0, y: 0), linear: .identity)
        }
        return relations
    }

    func render(at t: Double, into elements: inout [Element]) -> Bool {
        var opacity = 1.0
        if let pulse {
            var state = LayerState(position: Point(x: 0, y: 0))
            pulse.apply(to: &state, at: t)
            opacity = state.opacity
        }
        if let pose {
            for var e in pose {
                e.opacity = min(max(e.opacity * opacity, 0), 1)
                elements.append(e)
            }
            return false
        }
        let time = poseTime ?? t
        var index = 0
        for layer in layers {
            layer.render(at: time, transform: Placing.identity, opacity: opacity, ids: ids, index: &index, into: &elements)
        }
        return false
    }
}
