/// A web-view loading indicator (Windows Modern UI style): a dot pulsing in
/// the corner while the page loads, and a drop falling through the view for
/// each finished sub-resource. On `finish` the running pulse leg completes,
/// then the indicator fades out and is removed.
struct WebLoader: LoaderScene {
    let indicator: Layer
    /// Template for every drop; drop k runs it from its progress time.
    let drop: Layer
    let dropDuration: Double
    /// Kept progress times, ascending (those at or after finish or stop are ignored).
    let dropTimes: [Double]
    /// When nothing is left to show, if ever.
    let doneAt: Double?

    static let definition = LoaderDefinition(
        name: "web",
        summary: "Web-view loading indicator: a pulsing dot, and a falling drop per loaded resource.",
        parameters: CommonParameters.canvas(width: 320, height: 480) + [
            CommonParameters.color(.blue),
            CommonParameters.size("indicatorSize", 54, "Indicator diameter in points."),
            CommonParameters.size("dropSize", 15, "Drop diameter in points."),
            CommonParameters.duration("pulseDuration", 0.8, "Seconds of one pulse leg (1 to 0 or 0 to 1)."),
            CommonParameters.duration("dropDuration", 0.6, "Seconds a drop takes to fall through the view."),
            ParameterSpec("steps", .integer(min: 0, max: 10_000), default: .integer(0),
                          "How many progress events make the whole load, when known: frames then carry progress, the share done (0 to 1; finish is 1), and <loader-frames> gives assistive technology a value. 0: unknown."),
            CommonParameters.motion,
            CommonParameters.speed,
            CommonParameters.scale,
        ],
        events: [
            CommonParameters.stop,
            EventSpec("progress", .timeList, "Times a sub-resource finished loading, comma-separated: one drop each."),
            EventSpec("finish", .time, "Time loading completed: the pulse completes its leg, then fades out."),
        ],
        reducedMotion: "The indicator stays at full size and pulses between 1 and 0.5 (1 s each way, easeInEaseOut) instead of 1 and 0; a drop does not fall but shows at the view's centre and fades out over dropDuration.",
        background: nil,
        family: "iOS articles",
        original: "web-view progress indicator",
        period: { _ in nil },
        // The indicator's animations, and each drop in the air with its one.
        frameCost: { _, events in 8 + 2 * min(events.progress.count, WebLoader.maxDrops) },
        scene: { p, events in WebLoader(p, events) }
    )

    init(_ p: ParameterValues, _ events: LoaderEvents) {
        let width = p.number("width"), height = p.number("height")
        let reduced = p.reducedMotion
        // Reduced: every loader's gentle pulse, 1 → 0.5 → 1, 1 s each way.
        let pulse = reduced ? 1 : p.number("pulseDuration")
        let low = reduced ? 0.5 : 0.0
        let color = p.color("color")
        dropDuration = p.number("dropDuration")

        // Pulse legs of `pulse` seconds, 1 → low, low → 1, … (autoreverses).
        var pulseTiming = MediaTiming(duration: pulse, repeatCount: .infinity, autoreverses: true)
        var animations = [any Animation]()
        var removedAt = Double.infinity
        var fadeEnd: Double?
        if let finish = events.finish, finish < (events.stop ?? .infinity) {
            // The leg running at `finish` completes at `end`, holding its target…
            let legs = (finish / pulse).rounded(.down) + 1
            let end = pulse * legs
            let target = legs.truncatingRemainder(dividingBy: 2) == 1 ? low : 1
            pulseTiming.repeatCount = legs / 2
            pulseTiming.fillMode = .forwards
            animations.append((BasicAnimation(.opacity, from: 1, to: low, timing: pulseTiming, timingFunction: .easeInEaseOut)))
            // …then fades to 0 over one more leg and is removed.
            animations.append((BasicAnimation(
                .opacity, from: target, to: 0,
                timing: MediaTiming(beginTime: end, duration: pulse, fillMode: .forwards),
                timingFunction: .easeInEaseOut)))
            removedAt = end + pulse
            fadeEnd = removedAt
        } else {
            animations.append((BasicAnimation(.opacity, from: 1, to: low, timing: pulseTiming, timingFunction: .easeInEaseOut)))
        }
        // A 60×60 label at (10, 10).
        indicator = Layer(id: ElementID("indicator"), diameter: p.number("indicatorSize"), color: color,
                          model: LayerState(position: Point(x: 40, y: 40)), animations: animations, removedAt: removedAt)

        let fall = MediaTiming(duration: dropDuration)
        if reduced {
            drop = Layer(id: ElementID("drop"), diameter: p.number("dropSize"), color: color,
                         model: LayerState(position: Point(x: width / 2, y: height / 2)),
                         animations: [(BasicAnimation(.opacity, from: 1, to: 0, timing: fall, timingFunction: .easeOut))])
        } else {
            // A 30×30 label falling from y = -50 to y = height.
            drop = Layer(id: ElementID("drop"), diameter: p.number("dropSize"), color: color,
                         model: LayerState(position: Point(x: width / 2, y: -35)),
                         animations: [(BasicAnimation(.positionY, from: -35, by: height + 50, timing: fall, timingFunction: .easeOut))])
        }

        let cutoff = min(events.finish ?? .infinity, events.stop ?? .infinity)
        dropTimes = events.progress.filter { $0 < cutoff }.sorted()
        if let fadeEnd {
            doneAt = max(fadeEnd, (dropTimes.last ?? 0) + dropDuration)
        } else {
            doneAt = nil
        }
    }

    /// A frame draws at most the element limit: the indicator and the
    /// latest drops in the air (docs/FRAMES.md). More in the air at once
    /// only comes from thousands of progress events within one fall.
    static let maxDrops = DefinitionLimits.maxElements - 1

    func render(at t: Double, into elements: inout [Element]) -> Bool {
        indicator.render(at: t, into: &elements)
        // Drops in the air: e <= t < e + dropDuration. Times are sorted, so
        // find the first one still falling, and the first not yet fallen,
        // by bisection.
        var lo = 0, hi = dropTimes.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if dropTimes[mid] + dropDuration > t { hi = mid } else { lo = mid + 1 }
        }
        var end = lo, top = dropTimes.count
        while end < top {
            let mid = (end + top) / 2
            if dropTimes[mid] <= t { end = mid + 1 } else { top = mid }
        }
        var k = max(lo, end - Self.maxDrops)
        while k < end {
            let e = dropTimes[k]
            if t < e + dropDuration {
                elements.append(drop.element(drop.presentation(atAnimationTime: t - e), id: drop.id.indexed(k)))
            }
            k += 1
        }
        if let doneAt { return t >= doneAt }
        return false
    }
}
