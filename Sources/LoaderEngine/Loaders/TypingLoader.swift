/// Chat typing dots: one round dot layer copied `count` times by a
/// `CAReplicatorLayer` (+`spacing` in x, `instanceDelay = scaleDuration /
/// count`), each copy fading, bouncing down and growing with three linear,
/// forever-repeating basic animations.
struct TypingLoader: LoaderScene {
    let replicator: ReplicatorLayer

    static let definition = LoaderDefinition(
        name: "typing",
        summary: "Chat typing dots: a replicated dot that fades, bounces and grows, each copy a little later.",
        parameters: [
            ParameterSpec("count", .integer(min: 1, max: 64), default: .integer(3), "Number of dots."),
            CommonParameters.size("dotSize", 8, "Dot diameter in points."),
            CommonParameters.size("spacing", 15, "Distance between dot centres in points."),
        ] + CommonParameters.canvas(width: 70, height: 20) + [
            CommonParameters.color(.white),
            CommonParameters.duration("opacityDuration", 1.0, "Seconds of one fade from 1 to minOpacity."),
            CommonParameters.duration("bounceDuration", 1.2, "Seconds of one bounce down by `bounce`."),
            CommonParameters.duration("scaleDuration", 0.6, "Seconds of one growth from 1 to maxScale; also count × instanceDelay."),
            ParameterSpec("bounce", .number(min: -1000, max: 1000), default: .number(3), "How far a dot moves down per bounce, in points."),
            ParameterSpec("minOpacity", .number(min: 0, max: 1), default: .number(0.2), "Opacity at the end of a fade."),
            ParameterSpec("maxScale", .number(min: 0, max: 100, minExclusive: true), default: .number(1.4), "Scale at the end of a growth; also the model scale shown before a dot starts."),
            CommonParameters.motion,
            CommonParameters.speed,
            CommonParameters.scale,
        ],
        events: [CommonParameters.stop],
        reducedMotion: "A still pose: every dot held at the moment of its loop where it draws the most ((dotSize × scale)² × opacity, sampled 240 times over the common cycle); its opacity pulses to half and back, 1 s each way, easeInEaseOut, the copies staggered by instanceDelay.",
        background: .black,
        family: "iOS articles",
        original: "typing loader",
        period: { p in
            p.reducedMotion
                ? 2
                : commonPeriod([p.number("opacityDuration"), p.number("bounceDuration"), p.number("scaleDuration")])
        },
        settle: { p in p.number("scaleDuration") },
        // A replicator and its copies of one dot with three animations.
        frameCost: { p, _ in 1 + 4 * p.integer("count") },
        scene: { p, _ in TypingLoader(p) }
    )

    init(_ p: ParameterValues) {
        let count = p.integer("count")
        let dotSize = p.number("dotSize"), spacing = p.number("spacing")
        let width = p.number("width"), height = p.number("height")
        let minOpacity = p.number("minOpacity"), maxScale = p.number("maxScale")
        // Centred replicator two dots tall; the dot sits at its top, 1 pt in.
        let x0 = width / 2 - spacing * Double(count - 1) / 2
        let y0 = height / 2 - dotSize / 2 + 1
        let forever = { (d: Double) in MediaTiming(duration: d, repeatCount: .infinity) }

        var dot = Layer(
            id: ElementID("dot"), diameter: dotSize, color: p.color("color"),
            // The article sets `dot.transform = toScale`: the model scale.
            model: LayerState(position: Point(x: x0, y: y0), opacity: 1, scale: maxScale),
            animations: [
                (BasicAnimation(.opacity, from: 1, by: -(1 - minOpacity), timing: forever(p.number("opacityDuration")))),
                (BasicAnimation(.positionY, from: y0, by: p.number("bounce"), timing: forever(p.number("bounceDuration")))),
                (BasicAnimation(.scale, from: 1, by: maxScale - 1, timing: forever(p.number("scaleDuration")))),
            ])
        if p.reducedMotion {
            // Held where one dot draws the most over its three cycles.
            let cycles = [p.number("opacityDuration"), p.number("bounceDuration"), p.number("scaleDuration")]
            dot = ReducedPose.still(dot, period: commonPeriod(cycles) ?? cycles.max()!)
        }
        replicator = ReplicatorLayer(
            instance: dot, instanceCount: count, instanceTranslation: Point(x: spacing, y: 0),
            instanceDelay: p.number("scaleDuration") / Double(count))
    }

    func render(at t: Double, into elements: inout [Element]) -> Bool {
        replicator.render(at: t, into: &elements)
        return false
    }

    func copies() -> [CopyRelation?] { replicator.copies() }
}
