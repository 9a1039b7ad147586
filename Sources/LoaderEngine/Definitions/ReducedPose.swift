import Synchronization

/// `motion=reduced` without a `reducedMotion` tree or a `reducedPose`: a
/// still pose of the normal loop in which every element shows.
///
/// Each shape layer is held at a moment of its own animations (its local
/// time, sampled over their common cycle) at which it draws the most:
/// drawn area × opacity. Where it can draw at least half that clear of the
/// places its earlier siblings are held, it is held at the fullest such
/// moment instead, so that dots chasing round one path show apart. When it
/// draws that much for a while (a dot that only moves), it takes the moment
/// farthest from its earlier siblings, or with none, the middle of the
/// longest such while. A replicator's own animations (a turn of the whole
/// group) hold where opacity × scale² is largest, by the same rule. Its
/// copies differ only by delay: each holds the moment it has in the normal
/// frame where copy 0 holds its own, when it draws as much there (two cubes
/// half a cycle apart show at opposite corners), else copy 0's moment.
enum ReducedPose {
    /// Samples per cycle; more (up to `maxSamples`) when a layer's
    /// animations have a common period longer than their longest cycle.
    static let samples = 240
    static let maxSamples = 960
    /// Samples of all the layers of a definition at most, so that a large
    /// one costs no more than a few hundred frames; and earlier siblings a
    /// layer keeps clear of (and apart from) at most: the latest ones.
    static let sampleBudget = 20_000
    static let maxDiscs = 16

    /// The opacity pulse over a still pose: 1 → 0.5 → 1, 1 s each way.
    static let pulse = BasicAnimation(
        .opacity, from: 1, to: 0.5,
        timing: MediaTiming(duration: 1, repeatCount: .infinity, autoreverses: true), timingFunction: .easeInEaseOut)

    /// The pulse's factor at `t`: 1 at 0, 0.5 at 1 s, 1 at 2 s.
    static func pulseFactor(at t: Double) -> Double {
        var state = LayerState(position: Point(x: 0, y: 0))
        pulse.apply(to: &state, at: t)
        return state.opacity
    }

    /// The chosen local moment of every drawing layer of `layers`, in
    /// pre-order (a replicator before its sublayers), as `SceneNode` walks them.
    static func moments(_ layers: [LayerSpec]) -> [Double] {
        var moments: [Double] = []
        func count(_ specs: [LayerSpec]) -> Int {
            specs.reduce(0) { n, spec in
                guard spec.draws else { return n }
                if case let .replicator(r) = spec.kind { return n + 1 + count(r.sublayers) }
                return n + 1
            }
        }
        let most = max(24, sampleBudget / max(1, count(layers)))
        // Siblings in order; each one's place in its parent's space.
        func walk(_ specs: [LayerSpec], _ nodes: [SceneNode]) {
            var placed: [Point] = []
            var discs: [Disc] = []
            for (spec, node) in zip(specs, nodes) {
                let chosen = moment(spec.animations, node, apartFrom: placed.suffix(maxDiscs), clearOf: discs.suffix(maxDiscs), samples: most)
                moments.append(chosen)
                let state = node.state(at: chosen)
                placed.append(state.position)
                if let r = radius(node, state) { discs.append(Disc(center: state.position, radius: r)) }
                if case let .replicator(r) = spec.kind, case let .replicator(_, _, sublayers) = node.kind {
                    walk(r.sublayers.filter(\.draws), sublayers)
                }
            }
        }
        // Colour does not count: any will do.
        let specs = layers.filter(\.draws)
        walk(specs, specs.map { SceneNode($0, color: .white) })
        return moments
    }

    /// The still elements of `layers` (built from the definition whose
    /// `moments` these are), before the pulse. Each layer holds its moment;
    /// a copy a replicator delays holds the moment it has in the normal
    /// frame where copy 0 holds that one, when it draws as much there
    /// (two cubes half a cycle apart show at opposite corners), else the
    /// layer's moment too.
    static func pose(_ layers: [SceneNode], moments: [Double], ids: [ElementID]) -> [Element] {
        // Per layer: its moment, its local time on copy 0's path at time 0,
        // and how much it draws at its moment.
        var chosen: [ObjectIdentifier: (moment: Double, base: Double, most: Double)] = [:]
        var next = 0
        func index(_ node: SceneNode, time: Double) {
            let local = time - node.beginTime
            let moment = moments[next]
            next += 1
            chosen[ObjectIdentifier(node)] = (moment, local, measure(node, node.state(at: moment)))
            if case let .replicator(_, _, sublayers) = node.kind {
                for sublayer in sublayers { index(sublayer, time: local) }
            }
        }
        for layer in layers { index(layer, time: 0) }

        var elements: [Element] = []
        var count = 0
        func walk(_ node: SceneNode, time: Double, transform: Similarity, opacity: Double) {
            let c = chosen[ObjectIdentifier(node)]!
            let local = time - node.beginTime
            var state = node.state(at: c.moment + (local - c.base))
            if measure(node, state) < c.most - 1e-9 * max(abs(c.most), 1e-300) { state = node.state(at: c.moment) }
            switch node.kind {
            case .shape:
                elements.append(node.element(state, transform: transform, opacity: opacity, id: ids[count]))
                count += 1
            case let .replicator(_, copies, sublayers):
                let own = node.placement(state, transform)
                for copy in copies {
                    for sublayer in sublayers {
                        walk(sublayer, time: local - copy.delay, transform: own.after(copy.transform),
                             opacity: opacity * state.opacity * copy.alpha)
                    }
                }
            }
        }
        for layer in layers { walk(layer, time: 0, transform: .identity, opacity: 1) }
        return elements
    }

    /// The local time in one cycle of `animations`, after every one has
    /// begun, at which `node` draws the most (`fullest`).
    static func moment(_ animations: [AnimationSpec], _ node: SceneNode, apartFrom placed: ArraySlice<Point> = [],
                       clearOf discs: ArraySlice<Disc> = [], samples budget: Int = maxSamples) -> Double {
        guard !animations.isEmpty else { return 0 }
        var start = 0.0
        var cycles: [Double] = []
        for animation in animations {
            let t = animation.timing
            let begin = t.beginTime - t.timeOffset / t.speed
            if t.repeatDuration == nil && t.repeatCount == .infinity {
                cycles.append(t.duration * (t.autoreverses ? 2 : 1) / t.speed)
                start = max(start, begin)
            } else {
                // One that ends: from its end on it holds (or is gone).
                start = max(start, begin + t.activeDuration / t.speed)
            }
        }
        guard let longest = cycles.max() else { return start }
        let period = commonPeriod(cycles) ?? longest
        let count = min(budget, maxSamples, max(samples, Int((Double(samples) * period / longest).rounded(.up))))
        let time = { (k: Int) in start + period * Double(k) / Double(count) }
        let states = (0..<count).map { node.state(at: time($0)) }
        let distance = { (p: Point, q: Point) in ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot() }
        let clear: [Bool]? = discs.isEmpty ? nil : states.map { state in
            guard let r = radius(node, state) else { return true }
            return discs.allSatisfy { distance(state.position, $0.center) >= r + $0.radius - 1e-9 }
        }
        let apart: [Double]? = placed.isEmpty ? nil : states.map { state in placed.map { distance(state.position, $0) }.min()! }
        return time(fullest(states.map { measure(node, $0) }, clear: clear, apart: apart))
    }

    /// A layer's extent in its parent's space, for telling whether two
    /// siblings overlap.
    struct Disc {
        let center: Point
        let radius: Double
    }

    /// The radius of the disc that holds a shape layer in `state`; nil for a replicator.
    static func radius(_ node: SceneNode, _ state: LayerState) -> Double? {
        let scale = abs(state.scale)
        switch node.kind {
        case let .shape(shape, _, _):
            switch shape {
            case .circle, .segment: return node.diameter * scale / 2
            case .rect: return (state.width * state.width + state.height * state.height).squareRoot() * scale / 2
            case .ring: return (node.diameter + max(state.lineWidth, 0)) * scale / 2
            }
        case .replicator:
            return nil
        }
    }

    /// Of samples around a cycle that draw `drawn`: where a sample is
    /// `clear` of its earlier siblings, those clear ones that draw at least
    /// half the most, if any; of them, those that draw the most (within
    /// 1e-9 of it); of those, the first farthest `apart` from the siblings
    /// when that differs among them, else the middle of their longest run
    /// (the first such run when several are as long).
    static func fullest(_ drawn: [Double], clear: [Bool]? = nil, apart: [Double]? = nil) -> Int {
        let count = drawn.count
        let most = drawn.max() ?? 0
        var allowed = [Bool](repeating: true, count: count)
        if let clear {
            let fair = (0..<count).map { clear[$0] && drawn[$0] >= most / 2 }
            if fair.contains(true) { allowed = fair }
        }
        let top = (0..<count).filter { allowed[$0] }.map { drawn[$0] }.max() ?? 0
        let tolerance = 1e-9 * max(abs(top), 1e-300)
        let full = (0..<count).map { allowed[$0] && drawn[$0] >= top - tolerance }
        if let apart {
            let candidates = (0..<count).filter { full[$0] }
            let distances = candidates.map { apart[$0] }
            if let far = distances.max(), let near = distances.min(), far - near > 1e-9 {
                return candidates[distances.firstIndex { $0 >= far - 1e-9 }!]
            }
        }
        // Runs go round the cycle: start after a sample that is not full.
        guard let first = full.firstIndex(of: false) else { return count / 2 }
        var best = (start: 0, length: 0)
        var run = (start: 0, length: 0)
        for j in 1...count {
            let i = (first + j) % count
            if full[i] {
                if run.length == 0 { run.start = i }
                run.length += 1
                if run.length > best.length { best = run }
            } else {
                run.length = 0
            }
        }
        return (best.start + (best.length - 1) / 2) % count
    }

    /// How much a layer in `state` draws: its area × opacity (a ring: its
    /// stroke's length × width; a replicator: opacity × scale²).
    static func measure(_ node: SceneNode, _ state: LayerState) -> Double {
        let opacity = min(max(state.opacity, 0), 1)
        let scale = abs(state.scale)
        switch node.kind {
        case let .shape(shape, _, _):
            switch shape {
            case .circle, .segment:
                let d = node.diameter * scale
                return d * d * opacity
            case .rect:
                return max(state.width, 0) * max(state.height, 0) * scale * scale * opacity
            case .ring:
                let length = max(0, min(max(state.strokeEnd, 0), 1) - min(max(state.strokeStart, 0), 1))
                return length * node.diameter * max(state.lineWidth, 0) * scale * scale * opacity
            }
        case .replicator:
            return opacity * scale * scale
        }
    }

    /// A built-in loader's round layer held where it draws the most in one
    /// `period` of its local time ((diameter × scale)² × opacity), its
    /// opacity then pulsing 1 → 0.5 → 1 of that.
    static func still(_ layer: Layer, period: Double?) -> Layer {
        var best = layer.presentation(atAnimationTime: 0)
        if let period, period > 0 {
            let drawn = (0..<samples).map { k in
                let state = layer.presentation(atAnimationTime: period * Double(k) / Double(samples))
                let d = layer.diameter * abs(state.scale)
                return d * d * min(max(state.opacity, 0), 1)
            }
            best = layer.presentation(atAnimationTime: period * Double(fullest(drawn)) / Double(samples))
        }
        return held(layer, best)
    }

    /// `layer` showing `state`, its opacity pulsing from it to half of it.
    static func held(_ layer: Layer, _ state: LayerState) -> Layer {
        var still = layer
        still.model = state
        still.animations = [BasicAnimation(
            .opacity, from: state.opacity, to: state.opacity / 2,
            timing: pulse.timing, timingFunction: .easeInEaseOut)]
        return still
    }
}

/// The moments a definition's reduced form holds its layers at: chosen once,
/// the first time a reduced scene is built, and shared by every later one.
final class ReducedPoseCache: Sendable {
    private let moments = Mutex<[Double]?>(nil)

    init() {}

    func moments(_ layers: [LayerSpec]) -> [Double] {
        moments.withLock { cached in
            if let cached { return cached }
            let chosen = ReducedPose.moments(layers)
            cached = chosen
            return chosen
        }
    }
}
