import Synchronization

/// `motion=reduced` without a `reducedMotion` tree or a `reducedPose`: a
/// still pose of the normal loop in which every element shows.
///
/// Each shape layer is held at the moment of its own animations (its local
/// time, sampled over their common cycle) at which it draws the most:
/// drawn area × opacity. A replicator's copies differ only by delay, so
/// each copy holds its sublayers at that same moment; a replicator's own
/// animations (a turn of the whole group) hold at the moment where
/// opacity × scale² is largest, the first such one when all are alike.
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
        func walk(_ spec: LayerSpec, _ node: SceneNode) {
            moments.append(moment(spec.animations, node))
            if case let .replicator(r) = spec.kind, case let .replicator(_, _, sublayers) = node.kind {
                for (sub, subnode) in zip(r.sublayers.filter(\.draws), sublayers) { walk(sub, subnode) }
            }
        }
        // Colour does not count: any will do.
        var none = 0
        for spec in layers where spec.draws {
            walk(spec, SceneNode(spec, color: .white, frozen: nil, next: &none))
        }
        return moments
    }

    /// The local time in one cycle of `animations`, after every one has
    /// begun, at which `node` draws the most; the first such sample.
    static func moment(_ animations: [AnimationSpec], _ node: SceneNode) -> Double {
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
        var best = start, most = -Double.infinity
        for k in 0..<count {
            let local = start + period * Double(k) / Double(count)
            let drawn = measure(node, node.state(at: local))
            if drawn > most + 1e-12 {
                most = drawn
                best = local
            }
        }
        return best
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
            var most = -Double.infinity
            for k in 0..<samples {
                let state = layer.presentation(atAnimationTime: period * Double(k) / Double(samples))
                let d = layer.diameter * abs(state.scale)
                let drawn = d * d * min(max(state.opacity, 0), 1)
                if drawn > most + 1e-12 {
                    most = drawn
                    best = state
                }
            }
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
