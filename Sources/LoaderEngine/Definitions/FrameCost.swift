/// What one frame of a definition costs, counted from its tree without
/// walking a single copy, so that nested replicators cannot make the count
/// itself slow. A unit is a layer visited (each replicated copy apart) or an
/// animation evaluated there; `DefinitionLimits.maxFrameCost` bounds it.
public enum FrameCost {
    /// Counts stop here: past every limit, and far from overflow.
    static let ceiling = 1 << 40

    /// The elements one frame draws.
    static func elements(_ layers: [LayerSpec]) -> Int {
        var n = 0
        for layer in layers where layer.draws {
            if case let .replicator(r) = layer.kind {
                n = add(n, multiply(r.instanceCount, elements(r.sublayers)))
            } else {
                n = add(n, 1)
            }
        }
        return n
    }

    /// The units one frame costs. A layer that draws nothing is never
    /// visited (`LayerSpec.draws`) and costs nothing.
    static func units(_ layers: [LayerSpec]) -> Int {
        var n = 0
        for layer in layers where layer.draws {
            var own = layer.usesSpace ? 1 + spaceUnits : 1
            for animation in layer.animations { own = add(own, units(animation)) }
            if case let .replicator(r) = layer.kind { own = add(own, multiply(r.instanceCount, units(r.sublayers))) }
            n = add(n, own)
        }
        return n
    }

    static func units(_ animation: AnimationSpec) -> Int {
        switch animation {
        case .basic: return 1
        case let .keyframe(_, _, path, _, _, mode, _, _):
            // Along a paced path the segment is found by a walk from the
            // first (a step costs about an eighth of an eased animation);
            // every other keyframe lookup is a binary search.
            if let path, mode == .paced { return 1 + path.segments.count / 8 }
            return 1
        case .matrix:
            // A binary search, then two decomposed parts mixed, a
            // recomposition and 4×4 products: as much as several scalars.
            return matrixUnits
        case let .group(children, _, _):
            var n = 1
            for child in children { n = add(n, units(child)) }
            return n
        }
    }

    /// A whole-matrix animation's units: a slerp and a recomposed 4×4,
    /// timed with the outline of a ring at about 16 eased animations (`loaderd-bench definitions`).
    public static let matrixUnits = 16
    /// A layer with a format-1.1 transform part or a container placing its
    /// sublayers in 3D, per visit: its 4×4 products and plane map, and the
    /// element's projected outline written into the frame, timed at about
    /// 64 eased animations (`loaderd-bench definitions`: planes in
    /// perspective at the limit compute and encode in no more time than
    /// 1,000 dots of 23 eased animations).
    public static let spaceUnits = 64

    static func add(_ a: Int, _ b: Int) -> Int { min(a + b, ceiling) }
    static func multiply(_ a: Int, _ b: Int) -> Int { a == 0 || b <= ceiling / a ? min(a * b, ceiling) : ceiling }
}
