import Testing
import LoaderEngine

/// The moment a reduced pose holds a layer at: as full as the normal loop
/// ever shows it, on the canvas, including before animations begin. What
/// "full" is comes from sampling the normal frames, not from the pose code.
struct ReducedPoseMomentTests {
    static func definition(_ layer: String) throws -> LoaderDefinition {
        try LoaderDefinition(definition: Array("""
            {"format": 1, "name": "held", "summary": "One shape.", "canvas": {"width": 40, "height": 40},
             "color": "#333333", "layers": [\(layer)]}
            """.utf8))
    }

    /// Area × opacity of the part of `e`'s box on the 40 × 40 canvas.
    static func shown(_ e: Element) -> Double {
        let w = (e.shape == .rect ? e.width : e.diameter) * abs(e.scale)
        let h = (e.shape == .rect ? e.height : e.diameter) * abs(e.scale)
        guard w > 0, h > 0 else { return 0 }
        let x = max(0, min(e.x + w / 2, 40) - max(e.x - w / 2, 0))
        let y = max(0, min(e.y + h / 2, 40) - max(e.y - h / 2, 0))
        return x * y * e.opacity
    }

    /// The most the normal loop shows of its one element over `0...until`,
    /// sampled `count` times, and what the reduced pose shows at full pulse.
    static func compare(_ layer: String, until: Double, count: Int = 20_000) throws -> (normal: Double, reduced: Double) {
        let definition = try Self.definition(layer)
        let loop = definition.configure()
        let normal = (0...count).map { shown(loop.frame(at: until * Double($0) / Double(count)).elements[0]) }.max()!
        let reduced = try definition.configure([(name: "motion", value: "reduced")]).frame(at: 0).elements[0]
        return (normal, shown(reduced))
    }

    /// A short window of a short animation on a layer with a long one that
    /// does not change what it draws: 240 samples of the long cycle miss it.
    static let windows = [
        // A dot shown for a sixth of each second, moving over 1000 s.
        #"""
        {"type": "circle", "id": "dot", "position": [20, 20], "diameter": 20, "transform": {"scale": 0}, "animations": [
         {"type": "keyframe", "keyPath": "transform.scale", "values": [0, 0, 1, 1, 0, 0], "keyTimes": [0, 0.17, 0.171, 0.329, 0.33, 1],
          "duration": 1, "repeatCount": "infinity"},
         {"type": "keyframe", "keyPath": "position.x", "values": [19, 21, 19], "duration": 1000, "repeatCount": "infinity"}]}
        """#,
        // A bar that flashes at one instant late in its cycle, turning slowly.
        #"""
        {"type": "rect", "id": "bar", "position": [20, 20], "bounds": [10, 20], "opacity": 0, "animations": [
         {"type": "keyframe", "keyPath": "opacity", "values": [0, 0, 1, 0, 0], "keyTimes": [0, 0.9, 0.9005, 0.901, 1], "duration": 0.7, "repeatCount": "infinity",
          "timingFunction": "easeIn"},
         {"type": "basic", "keyPath": "transform.rotation.z", "fromValue": 0, "toValue": 6.283185307179586, "duration": 613, "repeatCount": "infinity"}]}
        """#,
        // A step up, in a group, autoreversing, beside a long drift of y.
        #"""
        {"type": "circle", "id": "dot", "position": [20, 20], "diameter": 16, "transform": {"scale": 0.1}, "animations": [
         {"type": "group", "duration": 0.5, "repeatCount": "infinity", "autoreverses": true, "animations": [
          {"type": "keyframe", "keyPath": "transform.scale", "values": [0.1, 1, 0.1], "keyTimes": [0, 0.52, 0.53, 1], "duration": 0.5,
           "calculationMode": "discrete"}]},
         {"type": "basic", "keyPath": "position.y", "fromValue": 19, "toValue": 21, "duration": 777, "repeatCount": "infinity"}]}
        """#,
    ]

    @Test(arguments: windows.indices) func aShortWindowIsNotMissed(_ i: Int) throws {
        let (normal, reduced) = try Self.compare(Self.windows[i], until: 2)
        #expect(normal > 0)
        #expect(reduced >= normal * 0.999, "\(reduced) < \(normal)")
    }

    /// A shape that grows as it leaves the canvas: held where most of it is on it.
    static let exits = [
        #"""
        {"type": "circle", "id": "dot", "position": [20, 20], "diameter": 10, "animations": [
         {"type": "keyframe", "keyPath": "position.x", "values": [20, -100, 20], "duration": 2, "repeatCount": "infinity"},
         {"type": "keyframe", "keyPath": "transform.scale", "values": [1, 3, 1], "duration": 2, "repeatCount": "infinity"}]}
        """#,
        #"""
        {"type": "rect", "id": "bar", "position": [20, 20], "bounds": [8, 4], "animations": [
         {"type": "basic", "keyPath": "position.y", "fromValue": 20, "toValue": 90, "duration": 1.3, "repeatCount": "infinity",
          "autoreverses": true},
         {"type": "basic", "keyPath": "bounds.size.width", "fromValue": 8, "toValue": 60, "duration": 1.3, "repeatCount": "infinity",
          "autoreverses": true}]}
        """#,
    ]

    @Test(arguments: exits.indices) func heldWhereItIsOnTheCanvas(_ i: Int) throws {
        let (normal, reduced) = try Self.compare(Self.exits[i], until: 4, count: 8000)
        #expect(normal > 0)
        // Within a sample step (1/240 of the cycle) of the most on the canvas.
        #expect(reduced >= normal * 0.95, "\(reduced) < \(normal)")
    }

    /// A shape whose animation, hiding it, begins later: the loop shows it first.
    static let lateStarts = [
        #"""
        {"type": "circle", "id": "dot", "position": [20, 20], "diameter": 20, "animations": [
         {"type": "basic", "keyPath": "opacity", "fromValue": 0, "toValue": 0, "beginTime": 1, "duration": 1, "repeatCount": "infinity"}]}
        """#,
        #"""
        {"type": "circle", "id": "dot", "position": [20, 20], "diameter": 20, "beginTime": 0.5, "animations": [
         {"type": "basic", "keyPath": "transform.scale", "fromValue": 0, "toValue": 0.2, "duration": 3, "repeatCount": "infinity"}]}
        """#,
    ]

    @Test(arguments: lateStarts.indices) func shownAsBeforeItsAnimationsBegin(_ i: Int) throws {
        let (normal, reduced) = try Self.compare(Self.lateStarts[i], until: 4, count: 4000)
        #expect(normal > 0 && reduced > 0)
        #expect(reduced >= normal * 0.999, "\(reduced) < \(normal)")
    }
}
