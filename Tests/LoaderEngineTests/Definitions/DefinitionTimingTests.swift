import Testing
@testable import LoaderEngine

/// The format's timing and geometry, each on a small definition whose
/// frames are worked out by hand.
struct DefinitionTimingTests {
    /// One circle `dot` at (10, 10) with these animations (and extra keys).
    static func dot(_ animations: String, extra: String = "") -> ConfiguredLoader {
        let text = #"{"format": 1, "name": "t", "summary": "A test.", "canvas": {"width": 20, "height": 20}, "layers": [{"type": "circle", "id": "dot", "position": [10, 10], "diameter": 4\#(extra), "animations": [\#(animations)]}]}"#
        return try! LoaderDefinition(definition: Array(text.utf8)).configure()
    }

    func at(_ loader: ConfiguredLoader, _ t: Double) -> Element { loader.frame(at: t).elements[0] }
    func near(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

    @Test func basicValuesFollowCoreAnimationsRules() {
        // toValue alone: from the model value.
        let to = Self.dot(#"{"type": "basic", "keyPath": "opacity", "toValue": 0, "duration": 2}"#)
        #expect(near(at(to, 0.5).opacity, 0.75))
        // byValue alone: model + by.
        let by = Self.dot(#"{"type": "basic", "keyPath": "position.x", "byValue": 4, "duration": 1}"#)
        #expect(near(at(by, 0.5).x, 12))
        // toValue and byValue: from = to − by.
        let both = Self.dot(#"{"type": "basic", "keyPath": "position", "toValue": [0, 0], "byValue": [-4, -8], "duration": 1}"#)
        #expect(near(at(both, 0.25).x, 3) && near(at(both, 0.25).y, 6))
        // After the end (removed): the model value again.
        #expect(at(to, 2).opacity == 1)
    }

    @Test func fillModesAndRemovedOnCompletion() {
        let removed = Self.dot(#"{"type": "basic", "keyPath": "opacity", "fromValue": 0.5, "toValue": 0, "beginTime": 1, "duration": 1, "fillMode": "both"}"#)
        #expect(at(removed, 0).opacity == 0.5)    // backwards fill
        #expect(at(removed, 3).opacity == 1)      // removedOnCompletion (default true) drops the forward fill
        let kept = Self.dot(#"{"type": "basic", "keyPath": "opacity", "fromValue": 0.5, "toValue": 0, "beginTime": 1, "duration": 1, "fillMode": "forwards", "removedOnCompletion": false}"#)
        #expect(at(kept, 0).opacity == 1 && at(kept, 3).opacity == 0)
    }

    @Test func repeatDurationAutoreversesSpeedAndTimeOffset() {
        // Autoreversing: up in the first second, down in the next.
        let bounce = Self.dot(#"{"type": "basic", "keyPath": "position.y", "fromValue": 0, "toValue": 10, "duration": 1, "autoreverses": true, "repeatDuration": 1.5, "fillMode": "forwards", "removedOnCompletion": false}"#)
        #expect(near(at(bounce, 0.25).y, 2.5) && near(at(bounce, 1.25).y, 7.5))
        // Active for 2 × 1.5 s (up, down, up); then held at the top.
        #expect(near(at(bounce, 2.5).y, 5) && near(at(bounce, 9).y, 10))
        // speed 2 and timeOffset 0.5: local time 2t + 0.5.
        let quick = Self.dot(#"{"type": "basic", "keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 4, "speed": 2, "timeOffset": 0.5}"#)
        #expect(near(at(quick, 1).opacity, 0.625))
    }

    @Test func keyframeModes() {
        let linear = Self.dot(#"{"type": "keyframe", "keyPath": "opacity", "values": [0, 1, 0.5], "keyTimes": [0, 0.25, 1], "duration": 4}"#)
        #expect(near(at(linear, 0.5).opacity, 0.5) && near(at(linear, 2.5).opacity, 0.75))
        let discrete = Self.dot(#"{"type": "keyframe", "keyPath": "opacity", "values": [0.2, 0.4, 0.8], "calculationMode": "discrete", "duration": 3}"#)
        #expect(at(discrete, 0.9).opacity == 0.2 && at(discrete, 1).opacity == 0.4 && at(discrete, 2.5).opacity == 0.8)
        // Paced values: distances 3 and 1, so the middle value comes at 3/4.
        let paced = Self.dot(#"{"type": "keyframe", "keyPath": "position.x", "values": [0, 3, 4], "keyTimes": [0, 0.9, 1], "calculationMode": "paced", "duration": 4}"#)
        #expect(near(at(paced, 3).x, 3) && near(at(paced, 1).x, 1))
        // Colours mix channel by channel.
        let colour = Self.dot(##"{"type": "keyframe", "keyPath": "backgroundColor", "values": ["#000000", "#FF0080"], "duration": 1}"##)
        #expect(at(colour, 0.5).color == RGBColor(rgb: 0x800040))
    }

    @Test func pathsLinearAndPaced() {
        // A 10 pt line, then a half circle of radius 5 (length 5π), relative.
        let path = "M0 0 h10 a5 5 0 0 1 0 10"
        let linear = Self.dot(#"{"type": "keyframe", "keyPath": "position", "path": "\#(path)", "duration": 2}"#)
        #expect(near(at(linear, 0.5).x, 5) && near(at(linear, 0.5).y, 0))
        let onArc = at(linear, 1.5)   // halfway through the arc: its rightmost point
        #expect(near(onArc.x, 15) && near(onArc.y, 5))
        let paced = Self.dot(#"{"type": "keyframe", "keyPath": "position", "path": "\#(path)", "calculationMode": "paced", "duration": 1}"#)
        let total = 10 + 5 * Double.pi
        #expect(near(at(paced, 10 / total).x, 10) && near(at(paced, 10 / total).y, 0))
        // Curves are measured by arc length: a straight cubic at constant speed.
        let cubic = Self.dot(#"{"type": "keyframe", "keyPath": "position", "path": "M0 0 C1 0 2 0 9 0", "calculationMode": "paced", "duration": 1}"#)
        #expect(near(at(cubic, 0.5).x, 4.5, 1e-9))
        // An ellipse's quarter, paced: the end at the end.
        let ellipse = Self.dot(#"{"type": "keyframe", "keyPath": "position", "path": "M10 0 A10 5 0 0 1 0 5", "calculationMode": "paced", "duration": 1, "fillMode": "forwards", "removedOnCompletion": false}"#)
        #expect(near(at(ellipse, 1).x, 0, 1e-9) && near(at(ellipse, 1).y, 5, 1e-9))
    }

    @Test func groupsRepeatTheirChildren() {
        let group = Self.dot(#"{"type": "group", "duration": 2, "repeatCount": "infinity", "animations": [{"type": "basic", "keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 1, "fillMode": "forwards"}]}"#)
        #expect(near(at(group, 0.5).opacity, 0.5) && at(group, 1.5).opacity == 1 && near(at(group, 2.5).opacity, 0.5))
    }

    @Test func aGroupsTimingFunctionPacesItsChildren() {
        // Control points (1/3, 0) and (2/3, 0) make the curve's x its
        // parameter s and its y s³: halfway through the group's 2 s, the
        // children are at 0.125 of it.
        let group = Self.dot(#"{"type": "group", "duration": 2, "repeatCount": "infinity", "timingFunction": [0.3333333333333333, 0, 0.6666666666666666, 0], "animations": [{"type": "basic", "keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 2}]}"#)
        #expect(near(at(group, 1).opacity, 0.125, 1e-9) && near(at(group, 3).opacity, 0.125, 1e-9))
        #expect(near(at(group, 1.6).opacity, 0.512, 1e-9))
    }

    @Test func nestedReplicatorsPlaceTurnFadeAndDelay() throws {
        // A ring of 4 (quarter turns, each copy 0.5 scaled further and 0.25
        // fainter) inside a replicator turned a quarter itself.
        let text = #"""
        {"format": 1, "name": "n", "summary": "A test.", "canvas": {"width": 100, "height": 100},
         "layers": [{"type": "replicator", "id": "outer", "position": [50, 50], "bounds": [100, 100],
                     "transform": {"rotation": 1.5707963267948966},
                     "sublayers": [{"type": "replicator", "id": "inner", "position": [50, 50], "bounds": [100, 100],
                                    "instanceCount": 4, "instanceDelay": 1, "instanceAlphaOffset": -0.25,
                                    "instanceTransform": {"rotation": 1.5707963267948966, "scale": 0.5},
                                    "sublayers": [{"type": "rect", "id": "bar", "position": [50, 10], "bounds": [2, 6],
                                                   "animations": [{"type": "basic", "keyPath": "opacity", "fromValue": 0.5, "toValue": 0.5, "duration": 1}]}]}]}]}
        """#
        let loader = try LoaderDefinition(definition: Array(text.utf8)).configure()
        let elements = loader.frame(at: 0.5).elements
        #expect(elements.map(\.id.description) == ["bar0-0", "bar0-1", "bar0-2", "bar0-3"])
        // Copy 0: the outer quarter turn moves (50, 10) to (90, 50).
        #expect(near(elements[0].x, 90) && near(elements[0].y, 50) && near(elements[0].rotation, .pi / 2))
        // Copy 1: a further quarter turn at half size: 20 pt below the centre.
        #expect(near(elements[1].x, 50) && near(elements[1].y, 70) && near(elements[1].scale, 0.5) && near(elements[1].rotation, .pi))
        // Copy 0 is animated (0.5); copy 1 not yet (model 1, faded by 0.75).
        #expect(near(elements[0].opacity, 0.5) && near(elements[1].opacity, 0.75) && near(elements[3].opacity, 0.25))
        #expect(elements[0].width == 2 && elements[0].height == 6)
    }

    @Test func aSegmentIsItsCircleTurnedScaledAndColoured() throws {
        let text = #"""
        {"format": 1, "name": "s", "summary": "A test.", "canvas": {"width": 40, "height": 40}, "color": "#102030",
         "layers": [{"type": "segment", "id": "cap", "position": [20, 10], "diameter": 16, "arc": 1,
                     "transform": {"rotation": 0.5, "scale": 2}, "fillColor": "#AABBCC",
                     "animations": [{"type": "basic", "keyPath": "fillColor", "toValue": "color", "duration": 2}]},
                    {"type": "segment", "id": "half", "diameter": 4}]}
        """#
        let loader = try LoaderDefinition(definition: Array(text.utf8)).configure([(name: "scale", value: "2")])
        let cap = loader.frame(at: 1).elements[0], half = loader.frame(at: 1).elements[1]
        #expect(cap.shape == .segment && cap.x == 40 && cap.y == 20 && cap.diameter == 32 && cap.arc == 1)
        #expect(cap.rotation == 0.5 && cap.scale == 2)
        // Halfway from #AABBCC to #102030, channel by channel.
        #expect(cap.color == RGBColor(rgb: 0x5D6E7E))
        // The default arc is the upper half.
        #expect(half.arc == .pi && half.diameter == 8)
        let json = String(decoding: FrameEncoder.encode(loader.frame(at: 1)), as: UTF8.self)
        #expect(json.contains(#"{"id":"cap","shape":"segment","x":40,"y":20,"diameter":32,"arc":1,"scale":2,"rotation":0.5,"#))
    }

    @Test func builtInsTakeSpeedAndScale() throws {
        let typing = LoaderCatalog.standard["typing"]!
        let plain = typing.configure().frame(at: 0.8)
        let fast = try typing.configure([(name: "speed", value: "2")]).frame(at: 0.4)
        #expect(zip(plain.elements, fast.elements).allSatisfy { $0.x == $1.x && $0.y == $1.y && $0.opacity == $1.opacity && $0.scale == $1.scale })
        let big = try typing.configure([(name: "scale", value: "3")]).frame(at: 0.8)
        #expect(big.width == 210 && big.height == 60)
        #expect(zip(plain.elements, big.elements).allSatisfy { near($0.x * 3, $1.x) && near($0.y * 3, $1.y) && $0.diameter * 3 == $1.diameter && $0.scale == $1.scale })
        #expect(try typing.configure([(name: "speed", value: "2")]).period == 3)
        // The web loader's events are on the clock before speed.
        let web = try LoaderCatalog.standard["web"]!.configure([(name: "speed", value: "2"), (name: "finish", value: "1")])
        #expect(try LoaderCatalog.standard["web"]!.configure([(name: "finish", value: "2")]).frame(at: 1.5) == web.frame(at: 0.75).with(t: 1.5))
    }
}

extension Frame {
    func with(t: Double) -> Frame { Frame(loader: loader, t: t, width: width, height: height, done: done, elements: elements) }
}
