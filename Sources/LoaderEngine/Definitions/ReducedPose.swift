import Synchronization

/// `motion=reduced` without a `reducedMotion` tree or a `reducedPose`: a
/// still pose of the normal loop in which every element shows.
///
/// Each shape layer is held at the moment of its own animations (its local
/// time, sampled over their common cycle) at which it draws the most:
/// drawn area × opacity. When it draws the most for a while (a dot that
/// only moves), the moment of that while farthest from where its earlier
/// siblings are held, so that two dots that start together at one place
/// show apart; with no earlier sibling, or all as far, the middle of the
/// longest such while. A
/// replicator's copies differ only by delay, so each copy holds its
/// sublayers at that same moment; a replicator's own animations (a turn of
/// the whole group) hold where opacity × scale² is largest, by the same rule.
enum ReducedPose {
    /// Samples per cycle; more (up to `maxSamples`) when a layer's
    /// animations have a common period longer than their longest cycle.
    static let samples = 240
    static let maxSamples = 960

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
        // Siblings in order; each one's place in its parent's space.
        func walk(_ specs: [LayerSpec], _ nodes: [SceneNode]) {
            var placed: [Point] = []
            for (spec, node) in zip(specs, nodes) {
                let chosen = moment(spec.animations, node, apartFrom: placed)
                moments.append(chosen)
                placed.append(node.state(at: chosen).position)
                if case let .replicator(r) = spec.kind, case let .replicator(_, _, sublayers) = node.kind {
                    walk(r.sublayers.filter(\.draws), sublayers)
                }
            }
        }
        // Colour does not count: any will do.
        var none = 0
        let specs = layers.filter(\.draws)
        walk(specs, specs.map { SceneNode($0, color: .white, frozen: nil, next: &none) })
        return moments
    }

    /// The local time in one cycle of `animations`, after every one has
    /// begun, at which `node` draws the most (`fullest`).
    static func moment(_ animations: [AnimationSpec], _ node: SceneNode, apartFrom placed: [Point] = []) -> Double {
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
        let count = min(maxSamples, max(samples, Int((Double(samples) * period / longest).rounded(.up))))
        let time = { (k: Int) in start + period * Double(k) / Double(count) }
        let k = fullest(count, { measure(node, node.state(at: time($0))) }, apart: placed.isEmpty ? nil : { k in
            let p = node.state(at: time(k)).position
            return placed.map { q in ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot() }.min()!
        })
        return time(k)
    }

    /// Of `count` samples around a cycle, of those that draw the most
    /// (within 1e-9 of it): the first farthest `apart` from the siblings
    /// when that differs among them, else the middle of their longest run
    /// (the first such run when several are as long).
    static func fullest(_ count: Int, _ measure: (Int) -> Double, apart: ((Int) -> Double)? = nil) -> Int {
        let drawn = (0..<count).map(measure)
        let most = drawn.max() ?? 0
        let tolerance = 1e-9 * max(abs(most), 1e-300)
        let full = drawn.map { $0 >= most - tolerance }
        if let apart {
            let candidates = (0..<count).filter { full[$0] }
            let distances = candidates.map(apart)
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
            let k = fullest(samples) { k in
                let state = layer.presentation(atAnimationTime: period * Double(k) / Double(samples))
                let d = layer.diameter * abs(state.scale)
                return d * d * min(max(state.opacity, 0), 1)
            }
            best = layer.presentation(atAnimationTime: period * Double(k) / Double(samples))
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
