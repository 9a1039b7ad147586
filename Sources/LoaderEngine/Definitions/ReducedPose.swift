import Synchronization

/// `motion=reduced` without a `reducedMotion` tree or a `reducedPose`: a
/// still pose of the normal loop in which every element shows.
///
/// Each shape layer is held at a moment of its own animations (its local
/// time: a grid over the common cycle of those that change what it draws,
/// their key moments, and the loop's start) at which it draws the most:
/// drawn area × opacity × the share of it inside its parent. Where it can draw at least half that clear of the
/// places its earlier siblings are held, it is held at the fullest such
/// moment instead, so that dots chasing round one path show apart. When it
/// draws that much for a while (a dot that only moves), it takes the moment
/// farthest from its earlier siblings, or with none, the middle of the
/// longest such while. A replicator whose animations move what it holds
/// (a turn of the whole group) is held with all of it at one moment, as
/// one normal frame; one whose animations only fade it, where opacity ×
/// scale² is largest, at its first sublayer's moment if that is as large. Its
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
    /// pre-order (a replicator before its sublayers), as `SceneNode` walks
    /// them; `canvas` bounds the top-level layers.
    static func moments(_ layers: [LayerSpec], canvas: Point) -> [Double] {
        var moments: [Double] = []
        func count(_ specs: [LayerSpec]) -> Int {
            specs.reduce(0) { n, spec in
                guard spec.draws else { return n }
                if case let .replicator(r) = spec.kind { return n + 1 + count(r.sublayers) }
                return n + 1
            }
        }
        let most = max(24, sampleBudget / max(1, count(layers)))
        // A subtree held at one moment: each layer that moment less its begin time.
        func hold(_ specs: [LayerSpec], at moment: Double) {
            for spec in specs {
                moments.append(moment - spec.beginTime)
                if case let .replicator(r) = spec.kind { hold(r.sublayers.filter(\.draws), at: moment - spec.beginTime) }
            }
        }
        // Siblings in order; each one's place in its parent's space (`box`
        // in size), `base` the parent's local time at the loop's start.
        // Returns the first one's moment in its parent's time.
        func walk(_ specs: [LayerSpec], _ nodes: [SceneNode], box: Point, base: Double) -> Double? {
            var placed: [Point] = []
            var discs: [Disc] = []
            var first: Double?
            for (spec, node) in zip(specs, nodes) {
                let local = base - spec.beginTime
                let slot = moments.count
                moments.append(0)
                let chosen: Double
                if case let .replicator(r) = spec.kind, case let .replicator(_, _, sublayers) = node.kind {
                    let children = r.sublayers.filter(\.draws)
                    if node.moves {
                        // Its turn or move places its children: all at one moment.
                        chosen = held(node, base: local, box: box, samples: most * (1 + count(children)))
                        hold(children, at: chosen)
                    } else {
                        let preferred = walk(children, sublayers, box: spec.bounds, base: local)
                        chosen = moment(spec.animations, node, base: local, box: box, preferring: preferred,
                                        apartFrom: placed.suffix(maxDiscs), samples: most)
                    }
                } else {
                    chosen = moment(spec.animations, node, base: local, box: box, apartFrom: placed.suffix(maxDiscs),
                                    clearOf: discs.suffix(maxDiscs), samples: most)
                }
                moments[slot] = chosen
                if first == nil { first = chosen + spec.beginTime }
                let state = node.measured(at: chosen)
                placed.append(state.position)
                if let r = radius(node, state) { discs.append(Disc(center: state.position, radius: r)) }
            }
            return first
        }
        // Colour does not count: any will do.
        let specs = layers.filter(\.draws)
        _ = walk(specs, specs.map { SceneNode($0, color: .white) }, box: canvas, base: 0)
        return moments
    }

    /// Whether an animation changes how much a layer draws (not where).
    static func draws(_ spec: AnimationSpec) -> Bool {
        switch spec {
        case let .basic(key, _, _, _, _, _), let .keyframe(key, _, _, _, _, _, _, _):
            switch key {
            case .opacity, .scale, .width, .height, .strokeStart, .strokeEnd, .lineWidth: return true
            default: return false
            }
        case let .group(children, _, _): return children.contains(where: draws)
        case .matrix: return false
        }
    }

    /// Whether an animation of a replicator moves what it holds.
    static func moves(_ spec: AnimationSpec) -> Bool {
        switch spec {
        case let .basic(key, _, _, _, _, _), let .keyframe(key, _, _, _, _, _, _, _):
            switch key {
            case .position, .positionX, .positionY, .rotation, .scale, .rotationX, .rotationY, .scaleX, .scaleY, .scaleZ,
                 .translationX, .translationY, .translationZ, .translation: return true
            default: return false
            }
        case let .group(children, _, _): return children.contains(where: moves)
        case .matrix: return true
        }
    }

    /// Where in one leg of `spec` (0…1 of its duration) its value can stop
    /// rising or falling: its key times, begin and end, and the middles
    /// between (a step's plateau), through its timing function. Between
    /// key times values are monotone for the timing functions allowed.
    static func marks(_ spec: AnimationSpec) -> [Double] {
        var inner: [Double]
        let function: TimingFunction
        switch spec {
        case let .basic(_, _, _, _, _, f):
            inner = [0, 1]
            function = f
        case let .keyframe(_, values, _, keyTimes, _, mode, _, f):
            function = f
            if let keyTimes {
                inner = keyTimes
            } else if let values, values.count > 1 {
                let legs = mode == .discrete ? values.count : values.count - 1
                inner = (0...legs).map { Double($0) / Double(legs) }
            } else {
                inner = [0, 1]
            }
        case let .matrix(_, values, keyTimes, _, mode, _, f):
            function = f
            let legs = mode == .discrete ? values.count : values.count - 1
            inner = keyTimes ?? (legs > 0 ? (0...legs).map { Double($0) / Double(legs) } : [0, 1])
        case let .group(children, timing, f):
            function = f
            inner = [0, 1] + children.filter(draws).flatMap { times($0, from: 0, to: timing.duration) }.map { $0 / timing.duration }
        }
        inner = inner.filter { $0 >= 0 && $0 <= 1 }.sorted()
        let middles = zip(inner, inner.dropFirst()).map { ($0 + $1) / 2 }
        return (inner + middles).map { invert(function, $0) }
    }

    /// The progress at which a timing function reaches `y`.
    static func invert(_ f: TimingFunction, _ y: Double) -> Double {
        if y <= 0 || y >= 1 || f.isLinear { return min(max(y, 0), 1) }
        var lo = 0.0, hi = 1.0
        for _ in 0..<60 {
            let mid = (lo + hi) / 2
            if f(mid) < y { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }

    /// The moments in `lo..<hi` of its parent's time at which `spec` passes
    /// one of its `marks`, over at most 64 legs.
    static func times(_ spec: AnimationSpec, from lo: Double, to hi: Double) -> [Double] {
        let t = spec.timing
        guard t.duration > 0, t.speed > 0, hi > lo else { return [] }
        let leg = t.duration / t.speed
        let anchor = t.beginTime - t.timeOffset / t.speed
        var fractions = marks(spec)
        if t.autoreverses { fractions += fractions.map { 1 - $0 } }
        let first = max(0, ((lo - anchor) / leg).rounded(.down))
        let last = min(t.legs.rounded(.up) - 1, ((hi - anchor) / leg).rounded(.down))
        var out: [Double] = []
        var l = first
        while l <= last && l < first + 64 {
            for q in fractions {
                let time = anchor + (l + q) * leg
                if time >= lo && time < hi { out.append(time) }
            }
            l += 1
        }
        return out
    }

    /// The local times a layer (or a subtree held as one, its animations
    /// `offset` later) is weighed at, in order: a grid over one common
    /// cycle of the animations that change what it draws (of all, when none
    /// do), after every one has begun; every moment of that cycle at which
    /// one of those passes a key time, begins or ends (a short window of a
    /// long cycle is not missed); and `base`, the loop's start, where
    /// animations that begin later show the written values.
    static func candidates(_ tracks: [(spec: AnimationSpec, offset: Double)], base: Double?, samples budget: Int) -> [Double] {
        var start = 0.0
        var all: [Double] = []
        var drawing: [Double] = []
        for (spec, offset) in tracks {
            let t = spec.timing
            let begin = offset + t.beginTime - t.timeOffset / t.speed
            if t.repeatDuration == nil && t.repeatCount == .infinity {
                let cycle = t.duration * (t.autoreverses ? 2 : 1) / t.speed
                all.append(cycle)
                if draws(spec) { drawing.append(cycle) }
                start = max(start, begin)
            } else {
                // One that ends: from its end on it holds (or is gone).
                start = max(start, begin + t.activeDuration / t.speed)
            }
        }
        var list: [Double] = base.map { [$0] } ?? []
        let cycles = drawing.isEmpty ? all : drawing
        guard let longest = cycles.max() else { return (list + [start]).sorted() }
        let period = commonPeriod(cycles) ?? longest
        var marks: [Double] = []
        for (spec, offset) in tracks where draws(spec) {
            marks += times(spec, from: start - offset, to: start + period - offset).map { $0 + offset }
            if marks.count >= budget { break }
        }
        let count = min(budget, maxSamples, max(samples, Int((Double(samples) * period / longest).rounded(.up))))
        list += (0..<count).map { start + period * Double($0) / Double(count) }
        list += marks.prefix(budget)
        return list.sorted()
    }

    /// The local time at which `node` draws the most (`fullest`) of its
    /// `candidates`; `preferred` (its first child's) when that draws as much.
    static func moment(_ animations: [AnimationSpec], _ node: SceneNode, base: Double? = nil, box: Point? = nil,
                       preferring preferred: Double? = nil, apartFrom placed: ArraySlice<Point> = [],
                       clearOf discs: ArraySlice<Disc> = [], samples budget: Int = maxSamples) -> Double {
        guard !animations.isEmpty else { return 0 }
        let times = candidates(animations.map { ($0, 0) }, base: base, samples: budget)
        let states = times.map { node.measured(at: $0) }
        let weigh = { (state: LayerState) in measure(node, state) * (box.map { inside(node, state, $0) } ?? 1) }
        let drawn = states.map(weigh)
        if let preferred, let top = drawn.max(), weigh(node.measured(at: preferred)) >= top - 1e-9 * max(abs(top), 1e-300) {
            return preferred
        }
        let distance = { (p: Point, q: Point) in ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot() }
        let clear: [Bool]? = discs.isEmpty ? nil : states.map { state in
            guard let r = radius(node, state) else { return true }
            return discs.allSatisfy { distance(state.position, $0.center) >= r + $0.radius - 1e-9 }
        }
        let apart: [Double]? = placed.isEmpty ? nil : states.map { state in placed.map { distance(state.position, $0) }.min()! }
        return times[fullest(drawn, clear: clear, apart: apart)]
    }

    /// The local time at which a replicator whose own animations move what
    /// it holds is held, with everything it holds at that same moment (as
    /// one normal frame): of the moments at which all of it draws at least
    /// 1.02 × its mean (or its most, if less), the one where the element that
    /// shows least, as a share of the most it shows, shows most.
    static func held(_ node: SceneNode, base: Double, box: Point, samples budget: Int) -> Double {
        // Its animations and those of what it holds, each copy as delayed.
        var tracks: [(spec: AnimationSpec, offset: Double)] = node.specs.map { ($0, 0) }
        var elements = 0
        func gather(_ node: SceneNode, offset: Double) {
            guard case let .replicator(_, copies, sublayers) = node.kind else {
                elements += 1
                return
            }
            for copy in copies {
                for sublayer in sublayers {
                    let later = offset + copy.delay + sublayer.beginTime
                    if tracks.count < 256 { tracks += sublayer.specs.map { ($0, later) } }
                    gather(sublayer, offset: later)
                }
            }
        }
        gather(node, offset: 0)
        let times = candidates(tracks, base: base, samples: max(24, min(maxSamples, budget / max(1, elements))))
        // Each element's share at each time: area × opacity inside its parent.
        func visit(_ node: SceneNode, _ local: Double, _ box: Point, _ opacity: Double, _ scale: Double, _ out: inout [Double]) {
            let state = node.measured(at: local)
            guard case let .replicator(_, copies, sublayers) = node.kind else {
                out.append(measure(node, state) * inside(node, state, box) * scale * scale * min(max(opacity, 0), 1))
                return
            }
            for copy in copies {
                for sublayer in sublayers {
                    visit(sublayer, local - copy.delay - sublayer.beginTime, node.bounds, opacity * state.opacity * copy.alpha,
                          scale * abs(state.scale * copy.transform.scale), &out)
                }
            }
        }
        let shown = times.map { t in
            var out: [Double] = []
            visit(node, t, box, 1, 1, &out)
            return out
        }
        guard let width = shown.first?.count, width > 0 else { return times[0] }
        let peaks = (0..<width).map { i in shown.map { $0[i] }.max() ?? 0 }
        // As full as the loop is on average (2 % more, for the raster's
        // edges, where it can be): at half opacity it still draws half of it.
        let totals = shown.map { $0.reduce(0, +) }
        let floor = min(totals.max() ?? 0, 1.02 * totals.reduce(0, +) / Double(totals.count))
        let least = zip(shown, totals).map { row, total in
            total < floor * (1 - 1e-9) ? -1 : zip(row, peaks).filter { $0.1 > 0 }.map { $0.0 / $0.1 }.min() ?? 0
        }
        return times[fullest(least)]
    }

    /// The share of a shape layer's box (its extent, unturned for a circle)
    /// in `state` that lies inside its parent's, 0,0 to `box`: a moment
    /// off the canvas draws nothing there.
    static func inside(_ node: SceneNode, _ state: LayerState, _ box: Point) -> Double {
        let s = abs(state.scale)
        var hx: Double, hy: Double
        switch node.kind {
        case let .shape(shape, _, _):
            switch shape {
            case .circle, .segment:
                hx = node.diameter * s / 2
                hy = hx
            case .ring:
                hx = (node.diameter + max(state.lineWidth, 0)) * s / 2
                hy = hx
            // A triangle by its box, which holds it.
            case .rect, .triangle:
                let w = max(state.width, 0) * s / 2, h = max(state.height, 0) * s / 2
                let c = abs(cosine(state.rotation)), n = abs(sine(state.rotation))
                hx = c * w + n * h
                hy = n * w + c * h
            }
        case .replicator:
            return 1
        }
        guard hx > 0, hy > 0 else { return 1 }
        let x = max(0, min(state.position.x + hx, box.x) - max(state.position.x - hx, 0))
        let y = max(0, min(state.position.y + hy, box.y) - max(state.position.y - hy, 0))
        return x * y / (4 * hx * hy)
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
            chosen[ObjectIdentifier(node)] = (moment, local, measure(node, node.measured(at: moment)))
            if case let .replicator(_, _, sublayers) = node.kind {
                for sublayer in sublayers { index(sublayer, time: local) }
            }
        }
        for layer in layers { index(layer, time: 0) }

        var elements: [Element] = []
        var count = 0
        // `shift`: how far from its moment a layer inside a replicator that
        // moves what it holds is, that replicator's copy shown as one frame.
        func walk(_ node: SceneNode, time: Double, transform: Placing, opacity: Double, shift: Double? = nil) {
            let c = chosen[ObjectIdentifier(node)]!
            let local = time - node.beginTime
            var held = shift
            var state: LayerState
            var at: Double
            if let shift {
                at = c.moment + shift
                state = node.state(at: at)
            } else {
                var s = local - c.base
                at = c.moment + s
                state = node.state(at: at)
                if measure(node, node.measured(at: at)) < c.most - 1e-9 * max(abs(c.most), 1e-300) {
                    s = 0
                    at = c.moment
                    state = node.state(at: at)
                }
                if node.moves { held = s }
            }
            let space = node.usesSpace ? node.spatial(at: at).space : nil
            switch node.kind {
            case .shape:
                node.element(state, space, transform: transform, opacity: opacity, id: ids[count], into: &elements)
                count += 1
            case let .replicator(_, copies, sublayers):
                let own = node.placement(state, transform.similarity)
                for copy in copies {
                    let placed = node.placing(state, space, transform, own: own, copy: copy)
                    for sublayer in sublayers {
                        walk(sublayer, time: local - copy.delay, transform: placed,
                             opacity: opacity * state.opacity * copy.alpha, shift: held.map { $0 - copy.delay })
                    }
                }
            }
        }
        for layer in layers { walk(layer, time: 0, transform: Placing.identity, opacity: 1) }
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
        let states = (0..<count).map { node.measured(at: time($0)) }
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
            case .rect, .triangle: return (state.width * state.width + state.height * state.height).squareRoot() * scale / 2
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
            case .triangle:
                // Half its box.
                return max(state.width, 0) * max(state.height, 0) * scale * scale * opacity / 2
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

    func moments(_ layers: [LayerSpec], canvas: Point) -> [Double] {
        moments.withLock { cached in
            if let cached { return cached }
            let chosen = ReducedPose.moments(layers, canvas: canvas)
            cached = chosen
            return chosen
        }
    }
}
