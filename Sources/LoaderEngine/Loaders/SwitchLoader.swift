/// Three dots swapping places along half circles ("LoadingAnimation -
/// Switch"): dot0 travels left to right over the top of both circles with a
/// paced keyframe animation; dot1 and dot2 take the way back underneath, each
/// in a repeating group, dot2's group starting half a period later.
struct SwitchLoader: LoaderScene {
    let dots: [Layer]

    static let definition = LoaderDefinition(
        name: "switch",
        summary: "Three dots swapping places along half-circle arcs.",
        parameters: CommonParameters.canvas(width: 80, height: 80) + [
            CommonParameters.size("size", 8, "Dot diameter in points."),
            CommonParameters.duration("duration", 1.2, "Seconds for dot0 to cross the view; the period."),
            CommonParameters.color(.white),
            CommonParameters.motion,
            CommonParameters.speed,
            CommonParameters.scale,
        ],
        events: [CommonParameters.stop],
        reducedMotion: "A still pose: dot0 at the middle (half way over), dot1 and dot2 at the bottoms of the left and right half circles (a quarter and three quarters of the period); their opacity pulses from 1 to 0.5 and back, 1 s each way, easeInEaseOut.",
        background: .black,
        family: "iOS articles",
        original: "LoadingAnimation - Switch",
        period: { p in p.reducedMotion ? 2 : commonPeriod([p.number("duration")]) },
        settle: { p in p.number("duration") / 2 },
        scene: { p, _ in SwitchLoader(p) }
    )

    init(_ p: ParameterValues) {
        let width = p.number("width"), height = p.number("height")
        let d = p.number("duration")
        let r = width / 4, cy = height / 2
        let left = Point(x: width / 4, y: cy), right = Point(x: 3 * width / 4, y: cy)
        let models = [Point(x: 0, y: cy), Point(x: width / 2, y: cy), Point(x: width, y: cy)]
        let dot = { (i: Int, animations: [any Animation]) in
            Layer(id: ElementID("dot", index: i), diameter: p.number("size"), color: p.color("color"),
                  model: LayerState(position: models[i]), animations: animations)
        }

        let over = KeyframeAnimation(
            path: Path([
                .arc(center: left, radius: r, startAngle: .pi, endAngle: 2 * .pi),
                .arc(center: right, radius: r, startAngle: .pi, endAngle: 2 * .pi),
            ]),
            timing: MediaTiming(duration: d, repeatCount: .infinity))
        // A group of one period holding a half-period move underneath.
        func under(_ center: Point, fill: FillMode, beginTime: Double) -> any Animation {
            let move = KeyframeAnimation(
                path: Path([.arc(center: center, radius: r, startAngle: 0, endAngle: .pi)]),
                timing: MediaTiming(duration: d / 2, fillMode: fill))
            return (AnimationGroup([(move)], timing: MediaTiming(beginTime: beginTime, duration: d, repeatCount: .infinity)))
        }
        let moving = [
            dot(0, [(over)]),
            dot(1, [under(left, fill: .forwards, beginTime: 0)]),
            dot(2, [under(right, fill: .removed, beginTime: d / 2)]),
        ]
        if p.reducedMotion {
            // Each dot where the loop takes it inside the view: dot0 half
            // way (the middle), dot1 and dot2 at the bottoms of their half
            // circles. At any one time of the loop a dot is half out.
            let moments = [d / 2, d / 4, 3 * d / 4]
            dots = (0..<3).map { i in ReducedPose.held(moving[i], moving[i].presentation(atAnimationTime: moments[i])) }
        } else {
            dots = moving
        }
    }

    func render(at t: Double, into elements: inout [Element]) -> Bool {
        for dot in dots { dot.render(at: t, into: &elements) }
        return false
    }
}
