extension DocumentParser {
    static let timingKeys = ["beginTime", "duration", "repeatCount", "repeatDuration", "autoreverses", "speed",
                             "timeOffset", "fillMode", "removedOnCompletion"]

    /// What a key path animates, and on which layer types.
    static func property(_ keyPath: String, layerType: String) -> AnimatableProperty? {
        switch keyPath {
        case "opacity": return .opacity
        case "position": return .position
        case "position.x": return .positionX
        case "position.y": return .positionY
        case "transform.scale": return .scale
        case "transform.rotation.z", "transform.rotation": return .rotation
        case "backgroundColor" where layerType == "circle" || layerType == "rect": return .color
        case "cornerRadius" where layerType == "rect": return .cornerRadius
        case "bounds.size.width" where layerType == "rect": return .width
        case "bounds.size.height" where layerType == "rect": return .height
        case "strokeColor" where layerType == "ring": return .color
        case "strokeStart" where layerType == "ring": return .strokeStart
        case "strokeEnd" where layerType == "ring": return .strokeEnd
        case "lineWidth" where layerType == "ring": return .lineWidth
        case "fillColor" where layerType == "segment" || layerType == "triangle": return .color
        case "transform.rotation.x": return .rotationX
        case "transform.rotation.y": return .rotationY
        case "transform.scale.x": return .scaleX
        case "transform.scale.y": return .scaleY
        case "transform.scale.z": return .scaleZ
        case "transform.translation.x": return .translationX
        case "transform.translation.y": return .translationY
        case "transform.translation.z": return .translationZ
        case "transform.translation": return .translation
        default: return nil
        }
    }

    /// Format 1.1's key paths (refused in format 1 with a message naming it).
    static let spaceKeyPaths = ["transform.rotation.x", "transform.rotation.y", "transform.scale.x", "transform.scale.y",
                                "transform.scale.z", "transform.translation.x", "transform.translation.y",
                                "transform.translation.z", "transform.translation", "transform"]

    func keyPaths(for layerType: String) -> [String] {
        let v11 = self.v11
        var paths = ["opacity", "position", "position.x", "position.y", "transform.scale", "transform.rotation.z", "transform.rotation"]
        switch layerType {
        case "circle": paths += ["backgroundColor"]
        case "rect": paths += ["backgroundColor", "cornerRadius", "bounds.size.width", "bounds.size.height"]
        case "ring": paths += ["strokeColor", "strokeStart", "strokeEnd", "lineWidth"]
        case "segment", "triangle": paths += ["fillColor"]
        default: break
        }
        if v11 {
            paths += Self.spaceKeyPaths
            if layerType == "layer" || layerType == "replicator" { paths += ["sublayerTransform"] }
        }
        return paths
    }

    mutating func animation(_ node: DefinitionNode, layerType: String, inGroup: Bool) throws(DefinitionError) -> AnimationSpec {
        guard case let .object(raw) = node.value else { throw node.fail("must be an object (an animation)") }
        guard let typeValue = raw.first(where: { $0.0 == "type" }) else {
            throw DefinitionError(path: node.child("type"), message: "is required: \"basic\", \"keyframe\" or \"group\"")
        }
        let type = try DefinitionNode(value: typeValue.1, path: node.child("type")).choice(["basic", "keyframe", "group"])
        let own: [String]
        switch type {
        case "basic": own = ["keyPath", "fromValue", "toValue", "byValue", "timingFunction"]
        case "keyframe": own = ["keyPath", "values", "path", "keyTimes", "timingFunctions", "timingFunction", "calculationMode"]
        default: own = ["animations", "timingFunction"]
        }
        let f = try node.object(["type"] + Self.timingKeys + own)
        let timing = try self.timing(f, inGroup: inGroup)
        let timingFunction = try f["timingFunction"].map { n throws(DefinitionError) in try Self.timingFunction(n) } ?? .linear
        if type == "group" {
            var children: [AnimationSpec] = []
            for item in try f.required("animations", "the group's animations").array() {
                children.append(try animation(item, layerType: layerType, inGroup: true))
            }
            return .group(children, timing: timing, timingFunction: timingFunction)
        }
        let keyNode = try f.required("keyPath", "the property to animate")
        let keyText = try keyNode.string()
        if !v11 && (Self.spaceKeyPaths.contains(keyText) || keyText == "sublayerTransform") {
            throw needsFormat11(keyNode, "keyPath \"\(keyText)\"")
        }
        if keyText == "transform" || (keyText == "sublayerTransform" && (layerType == "layer" || layerType == "replicator")) {
            return try matrixAnimation(f, keyText == "transform" ? .transform : .sublayerTransform, type: type, timing, timingFunction)
        }
        guard let keyPath = Self.property(keyText, layerType: layerType),
              v11 || !Self.spaceKeyPaths.contains(keyText) else {
            throw keyNode.fail("a \(layerType) layer animates " + keyPaths(for: layerType).joined(separator: ", "))
        }
        if type == "basic" {
            let from = try f["fromValue"].map { n throws(DefinitionError) in try value(n, keyPath) }
            let to = try f["toValue"].map { n throws(DefinitionError) in try value(n, keyPath) }
            let by = try f["byValue"].map { n throws(DefinitionError) in try value(n, keyPath) }
            if from != nil && to != nil && by != nil {
                throw f.node.fail("give at most two of fromValue, toValue and byValue, as Core Animation takes them")
            }
            keyframes += 2
            try checkKeyframes(f.node)
            return .basic(keyPath: keyPath, from: from, to: to, by: by, timing: timing, timingFunction: timingFunction)
        }
        return try keyframe(f, keyPath, keyText, timing, timingFunction)
    }

    mutating func keyframe(_ f: DefinitionFields, _ keyPath: AnimatableProperty, _ keyText: String, _ timing: MediaTiming,
                           _ timingFunction: TimingFunction) throws(DefinitionError) -> AnimationSpec {
        let mode: KeyframeAnimation.CalculationMode
        switch try f["calculationMode"]?.choice(["linear", "discrete", "paced"]) ?? "linear" {
        case "discrete": mode = .discrete
        case "paced": mode = .paced
        default: mode = .linear
        }
        var values: [ValueSpec]? = nil, path: Path? = nil
        let legs: Int
        switch (f["values"], f["path"]) {
        case (.some, .some): throw f.node.fail("give values or path, not both")
        case (nil, nil): throw DefinitionError(path: f.node.child("values"), message: "is required (or path, for position)")
        case let (.some(v), nil):
            let items = try v.array()
            guard !items.isEmpty else { throw v.fail("must hold at least one value") }
            keyframes += items.count
            try checkKeyframes(v)
            var list: [ValueSpec] = []
            for item in items { list.append(try value(item, keyPath)) }
            values = list
            legs = mode == .discrete ? list.count : list.count - 1
        case let (nil, .some(p)):
            guard keyPath == .position else { throw p.fail("a path animates position only; this animation's keyPath is \(keyText)") }
            var data = SVGPathData(text: try p.string(), node: p)
            let segments = try data.segments()
            pathCommands += segments.count
            guard pathCommands <= DefinitionLimits.maxPathCommands else {
                throw p.fail("more than maxPathCommands (\(DefinitionLimits.maxPathCommands)) path commands in the definition")
            }
            keyframes += segments.count + 1
            try checkKeyframes(p)
            path = Path(segments)
            legs = segments.count
        }
        let (keyTimes, functions) = try keyTimesAndFunctions(f, legs: legs, mode: mode)
        return .keyframe(keyPath: keyPath, values: values, path: path, keyTimes: keyTimes, timingFunctions: functions,
                         calculationMode: mode, timing: timing, timingFunction: timingFunction)
    }

    /// A whole-matrix animation: basic from/to, or keyframe values with a
    /// linear or discrete calculation mode.
    mutating func matrixAnimation(_ f: DefinitionFields, _ target: MatrixAnimation.Target, type: String, _ timing: MediaTiming,
                                  _ timingFunction: TimingFunction) throws(DefinitionError) -> AnimationSpec {
        if type == "basic" {
            if let by = f["byValue"] { throw by.fail("a whole matrix has no byValue; give fromValue and toValue (a missing one is the model value)") }
            let from = try f["fromValue"].map { n throws(DefinitionError) in try Self.matrixValue(n) }
            let to = try f["toValue"].map { n throws(DefinitionError) in try Self.matrixValue(n) }
            keyframes += 2 * FrameCost.matrixUnits
            try checkKeyframes(f.node)
            return .matrix(target, values: [from, to], keyTimes: nil, timingFunctions: [], calculationMode: .linear,
                           timing: timing, timingFunction: timingFunction)
        }
        let mode: KeyframeAnimation.CalculationMode
        switch try f["calculationMode"]?.choice(["linear", "discrete", "paced"]) ?? "linear" {
        case "discrete": mode = .discrete
        case "paced": throw f["calculationMode"]!.fail("a whole matrix animates \"linear\" or \"discrete\" (no distance between matrices paces it)")
        default: mode = .linear
        }
        if let p = f["path"] { throw p.fail("a path animates position only; this animation's keyPath is a whole matrix") }
        let v = try f.required("values", "an array of matrices, 16 numbers each")
        let items = try v.array()
        guard !items.isEmpty else { throw v.fail("must hold at least one value") }
        // A matrix is 16 numbers, decomposed when built: it counts as many keyframes.
        keyframes += items.count * FrameCost.matrixUnits
        try checkKeyframes(v)
        var values: [Transform3D?] = []
        for item in items { values.append(try Self.matrixValue(item)) }
        let legs = mode == .discrete ? values.count : values.count - 1
        let (keyTimes, functions) = try keyTimesAndFunctions(f, legs: legs, mode: mode)
        return .matrix(target, values: values, keyTimes: keyTimes, timingFunctions: functions, calculationMode: mode,
                       timing: timing, timingFunction: timingFunction)
    }

    /// `keyTimes` and `timingFunctions`, checked against the legs.
    func keyTimesAndFunctions(_ f: DefinitionFields, legs: Int, mode: KeyframeAnimation.CalculationMode)
        throws(DefinitionError) -> ([Double]?, [TimingFunction]) {
        var keyTimes: [Double]? = nil
        if let k = f["keyTimes"], mode != .paced {
            let items = try k.array()
            guard items.count == legs + 1 else {
                throw k.fail(mode == .discrete ? "must have one more key time than values (\(legs + 1))"
                                               : "must have one key time per value (\(legs + 1))")
            }
            var times: [Double] = []
            for item in items { times.append(try item.number(0...1)) }
            guard times.first == 0, times.last == 1, zip(times, times.dropFirst()).allSatisfy({ $0 <= $1 }) else {
                throw k.fail("must be non-decreasing from 0 to 1")
            }
            keyTimes = times
        }
        var functions: [TimingFunction] = []
        if let list = f["timingFunctions"], mode == .linear {
            let items = try list.array()
            guard items.count == legs else { throw list.fail("must have one fewer timing function than values (\(legs))") }
            for item in items { functions.append(try Self.timingFunction(item)) }
        }
        return (keyTimes, functions)
    }

    func checkKeyframes(_ node: DefinitionNode) throws(DefinitionError) {
        guard keyframes <= DefinitionLimits.maxKeyframes else {
            throw node.fail("more than maxKeyframes (\(DefinitionLimits.maxKeyframes)) keyframes in the definition")
        }
    }

    /// A value of the key path's kind: a point, a colour or a number.
    func value(_ node: DefinitionNode, _ keyPath: AnimatableProperty) throws(DefinitionError) -> ValueSpec {
        switch keyPath {
        case .position: return .value(AnimatedValue(try node.point()))
        case .color: return .color(try node.color())
        case .opacity, .strokeStart, .strokeEnd: return .value(AnimatedValue(try node.number(-1...1)))
        case .scale, .lineWidth, .cornerRadius, .width, .height: return .value(AnimatedValue(try node.number(-10000...10000)))
        case .positionX, .positionY: return .value(AnimatedValue(try node.number(-1e6...1e6)))
        case .rotation, .rotationX, .rotationY: return .value(AnimatedValue(try node.number(-1000...1000)))
        case .scaleX, .scaleY, .scaleZ: return .value(AnimatedValue(try node.number(-10000...10000)))
        case .translationX, .translationY, .translationZ: return .value(AnimatedValue(try node.number(-1e6...1e6)))
        case .translation: return .value(AnimatedValue(try node.point()))
        }
    }

    /// `CAMediaTiming`; outside a group, `removedOnCompletion` (default true)
    /// removes a forward fill, as Core Animation does.
    func timing(_ f: DefinitionFields, inGroup: Bool) throws(DefinitionError) -> MediaTiming {
        var t = MediaTiming(duration: try f.number("duration", default: 0.25, 0...1e6, above: 0))
        t.beginTime = try f.number("beginTime", default: 0, -1e6...1e6)
        if let r = f["repeatCount"] {
            if case .string = r.value {
                guard try r.string() == "infinity" else { throw r.fail("must be a number from 0 to 1e9 or \"infinity\"") }
                t.repeatCount = .infinity
            } else {
                t.repeatCount = try r.number(0...1e9)
            }
        }
        if let r = f["repeatDuration"] {
            guard f["repeatCount"] == nil else { throw r.fail("give repeatCount or repeatDuration, not both") }
            t.repeatDuration = try r.number(0...1e9, above: 0)
        }
        t.autoreverses = try f["autoreverses"]?.bool() ?? false
        t.speed = try f.number("speed", default: 1, 0...1000, above: 0)
        t.timeOffset = try f.number("timeOffset", default: 0, -1e6...1e6)
        switch try f["fillMode"]?.choice(["removed", "forwards", "backwards", "both"]) ?? "removed" {
        case "forwards": t.fillMode = .forwards
        case "backwards": t.fillMode = .backwards
        case "both": t.fillMode = .both
        default: t.fillMode = .removed
        }
        let removed = try f["removedOnCompletion"]?.bool() ?? true
        if removed && !inGroup {
            t.fillMode = t.fillMode == .both || t.fillMode == .backwards ? .backwards : .removed
        }
        return t
    }

    /// A named curve, or `[c1x, c1y, c2x, c2y]` with x in 0…1.
    static func timingFunction(_ node: DefinitionNode) throws(DefinitionError) -> TimingFunction {
        let names = ["linear", "easeIn", "easeOut", "easeInEaseOut", "default"]
        let accepted = "must be one of \"linear\", \"easeIn\", \"easeOut\", \"easeInEaseOut\", \"default\" or [c1x, c1y, c2x, c2y] with x in 0…1"
        switch node.value {
        case let .string(s):
            switch s {
            case names[0]: return .linear
            case names[1]: return .easeIn
            case names[2]: return .easeOut
            case names[3]: return .easeInEaseOut
            case names[4]: return .default
            default: throw node.fail(accepted)
            }
        case let .array(items):
            guard items.count == 4, case let .number(x1) = items[0], case let .number(y1) = items[1],
                  case let .number(x2) = items[2], case let .number(y2) = items[3],
                  (0...1).contains(x1), (0...1).contains(x2), abs(y1) <= 100, abs(y2) <= 100 else { throw node.fail(accepted) }
            return TimingFunction(controlPoints: x1, y1, x2, y2)
        default:
            throw node.fail(accepted)
        }
    }
}
