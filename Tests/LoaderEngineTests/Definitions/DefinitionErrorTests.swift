import Testing
@testable import LoaderEngine

/// Every refusal names the JSON path and what is accepted there.
struct DefinitionErrorTests {
    static func document(name: String = "\"spinner\"", extra: String = "", layers: String) -> String {
        #"{"format": 1, "name": \#(name), "summary": "A test.", "canvas": {"width": 40, "height": 40}\#(extra), "layers": [\#(layers)]}"#
    }
    static let dot = #"{"type": "circle", "id": "dot", "diameter": 8}"#
    static func animated(_ animation: String, type: String = "circle") -> String {
        let shape = type == "circle" ? #""diameter": 8"# : type == "ring" ? #""diameter": 8, "lineWidth": 2"# : #""bounds": [4, 8]"#
        return document(layers: #"{"type": "\#(type)", "id": "dot", \#(shape), "animations": [\#(animation)]}"#)
    }

    /// (definition, the error's path, a part of its message).
    static let cases: [(String, String, String)] = [
        ("{", "", "not valid JSON"),
        ("[]", "", "must be an object"),
        (#"{"format": 2, "name": "a", "summary": "s", "canvas": {"width": 1, "height": 1}, "layers": []}"#, "format", "must be 1 or 1.1"),
        (document(name: "\"Spinner\"", layers: dot), "name", "must match [a-z][a-z0-9-]{0,39}"),
        (document(name: "\"preview\"", layers: dot), "name", "reserved"),
        (document(extra: ##", "colour": "#FFFFFF""##, layers: dot), "colour", "unknown key; accepted here: format, name"),
        (document(extra: #", "color": "white""#, layers: dot), "color", "\"#RRGGBB\""),
        (document(extra: #", "family": """#, layers: dot), "family", "1 to 40 bytes"),
        (document(extra: #", "original": "a\u0007b""#, layers: dot), "original", "no control characters"),
        (document(extra: #", "family": 3"#, layers: dot), "family", "string"),
        (#"{"format": 1, "name": "a", "summary": "s", "canvas": {"width": 0, "height": 1}, "layers": [\#(dot)]}"#, "canvas.width", "greater than 0"),
        (document(layers: ""), "layers", "at least one layer"),
        (document(layers: #"{"type": "star", "id": "a"}"#), "layers[0].type", "\"circle\", \"rect\", \"ring\", \"segment\", \"replicator\""),
        (document(layers: #"{"type": "circle", "id": "Dot", "diameter": 8}"#), "layers[0].id", "[a-z][a-z0-9]{0,19}"),
        (document(layers: #"{"type": "circle", "id": "dot"}"#), "layers[0].diameter", "is required"),
        (document(layers: #"{"type": "circle", "id": "dot", "diameter": 8, "bounds": [1, 1]}"#), "layers[0].bounds", "unknown key; accepted here: type, id, position"),
        (document(layers: #"{"type": "circle", "id": "dot", "diameter": 8, "opacity": 2}"#), "layers[0].opacity", "from 0 to 1"),
        (document(layers: #"{"type": "circle", "id": "dot", "diameter": 8, "position": [1]}"#), "layers[0].position", "[x, y]"),
        (document(layers: #"{"type": "ring", "id": "arc", "diameter": 8, "lineCap": "square"}"#), "layers[0].lineCap", "\"butt\", \"round\""),
        (document(layers: #"{"type": "replicator", "id": "r", "bounds": [1, 1]}"#), "layers[0].sublayers", "is required"),
        (document(layers: #"{"type": "replicator", "id": "r", "bounds": [1, 1], "instanceCount": 2.5, "sublayers": [\#(dot)]}"#), "layers[0].instanceCount", "whole number from 0 to 1000"),
        (document(layers: "\(dot), \(dot)"), "layers", "two elements have the id \"dot\""),
        (document(layers: #"{"type": "replicator", "id": "r", "bounds": [1, 1], "instanceCount": 1001, "sublayers": [\#(dot)]}"#), "layers[0].instanceCount", "from 0 to 1000"),
        (document(layers: #"{"type": "replicator", "id": "r", "bounds": [1, 1], "instanceCount": 40, "sublayers": [{"type": "replicator", "id": "s", "bounds": [1, 1], "instanceCount": 30, "sublayers": [\#(dot)]}]}"#), "layers", "maxElements (1000)"),
        (animated(#"{"type": "spring", "keyPath": "opacity"}"#), "layers[0].animations[0].type", "\"basic\", \"keyframe\", \"group\""),
        (animated(#"{"type": "basic", "keyPath": "strokeEnd", "toValue": 1}"#), "layers[0].animations[0].keyPath", "a circle layer animates opacity, position"),
        (animated(#"{"type": "basic", "keyPath": "opacity", "fromValue": 1, "toValue": 0, "byValue": 1}"#), "layers[0].animations[0]", "at most two of fromValue, toValue and byValue"),
        (animated(#"{"type": "basic", "keyPath": "position", "toValue": 3}"#), "layers[0].animations[0].toValue", "[x, y]"),
        (animated(#"{"type": "basic", "keyPath": "opacity", "toValue": 0, "duration": 0}"#), "layers[0].animations[0].duration", "greater than 0"),
        (animated(#"{"type": "basic", "keyPath": "opacity", "toValue": 0, "repeatCount": "forever"}"#), "layers[0].animations[0].repeatCount", "\"infinity\""),
        (animated(#"{"type": "basic", "keyPath": "opacity", "toValue": 0, "repeatCount": 2, "repeatDuration": 1}"#), "layers[0].animations[0].repeatDuration", "repeatCount or repeatDuration, not both"),
        (animated(#"{"type": "basic", "keyPath": "opacity", "toValue": 0, "fillMode": "forward"}"#), "layers[0].animations[0].fillMode", "\"removed\", \"forwards\""),
        (animated(#"{"type": "basic", "keyPath": "opacity", "toValue": 0, "timingFunction": "ease"}"#), "layers[0].animations[0].timingFunction", "\"easeInEaseOut\""),
        (animated(#"{"type": "basic", "keyPath": "opacity", "toValue": 0, "timingFunction": [0, 0, 2, 1]}"#), "layers[0].animations[0].timingFunction", "x in 0…1"),
        (animated(#"{"type": "keyframe", "keyPath": "opacity", "values": [0, 1], "keyTimes": [0, 0.5, 1]}"#), "layers[0].animations[0].keyTimes", "one key time per value (2)"),
        (animated(#"{"type": "keyframe", "keyPath": "opacity", "values": [0, 1, 0], "keyTimes": [0, 0.6, 0.5]}"#), "layers[0].animations[0].keyTimes", "must be non-decreasing from 0 to 1"),
        (animated(#"{"type": "keyframe", "keyPath": "opacity", "values": [0, 1], "keyTimes": [0.1, 1]}"#), "layers[0].animations[0].keyTimes", "must be non-decreasing from 0 to 1"),
        (animated(#"{"type": "keyframe", "keyPath": "opacity", "values": [0, 1, 0], "timingFunctions": ["linear"]}"#), "layers[0].animations[0].timingFunctions", "one fewer timing function than values (2)"),
        (animated(#"{"type": "keyframe", "keyPath": "opacity", "values": [0, 1], "calculationMode": "discrete", "keyTimes": [0, 1]}"#), "layers[0].animations[0].keyTimes", "one more key time than values (3)"),
        (animated(#"{"type": "keyframe", "keyPath": "opacity"}"#), "layers[0].animations[0].values", "is required"),
        (animated(#"{"type": "keyframe", "keyPath": "opacity", "path": "M0 0 L1 1"}"#), "layers[0].animations[0].path", "animates position only"),
        (animated(#"{"type": "keyframe", "keyPath": "position", "path": "L1 1"}"#), "layers[0].animations[0].path", "must start with M"),
        (animated(#"{"type": "keyframe", "keyPath": "position", "path": "M0 0 X1 1"}"#), "layers[0].animations[0].path", "a number is expected (at byte 5"),
        (animated(#"{"type": "keyframe", "keyPath": "position", "path": "M0 0 A5 5 0 2 0 10 0"}"#), "layers[0].animations[0].path", "an arc flag must be 0 or 1"),
        (animated(#"{"type": "keyframe", "keyPath": "position", "values": [[0, 0]], "path": "M0 0 L1 1"}"#), "layers[0].animations[0]", "values or path, not both"),
        (animated(##"{"type": "keyframe", "keyPath": "backgroundColor", "values": ["#FF0000", "red"]}"##), "layers[0].animations[0].values[1]", "\"#RRGGBB\" or \"color\""),
        (animated(#"{"type": "group", "animations": [{"type": "basic", "keyPath": "opacity", "toValue": "x"}]}"#), "layers[0].animations[0].animations[0].toValue", "must be a number"),
        (animated(#"{"type": "basic", "keyPath": "cornerRadius", "toValue": 1}"#, type: "ring"), "layers[0].animations[0].keyPath", "a ring layer animates opacity"),
    ]

    @Test(arguments: cases.indices)
    func refusedWithItsPath(_ i: Int) {
        let (text, path, message) = Self.cases[i]
        do {
            _ = try LoaderDocument.parse(text)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.path == path, "\(error)")
            #expect(error.description.contains(message), "\(error)")
            #expect(error.description.hasPrefix(path.isEmpty ? "" : path + ": "))
        }
    }

    @Test func distinctMistakes() {
        #expect(Set(Self.cases.map { "\($0.1) \($0.2)" }).count >= 20)
    }

    @Test func limits() {
        // 257 layers.
        let many = (0..<257).map { #"{"type": "circle", "id": "d\#($0)", "diameter": 1}"# }.joined(separator: ",")
        #expect(throws: DefinitionError.self) { try LoaderDocument.parse(Self.document(layers: many)) }
        do { _ = try LoaderDocument.parse(Self.document(layers: many)) } catch {
            #expect(error.path == "layers[256]" && error.message.contains("maxLayers is 256"))
        }
        // 10,001 keyframes.
        let values = (0..<10_001).map { _ in "0" }.joined(separator: ",")
        do { _ = try LoaderDocument.parse(Self.animated(#"{"type": "keyframe", "keyPath": "opacity", "values": [\#(values)]}"#)) } catch {
            #expect(error.message.contains("maxKeyframes (10000)"))
        }
        // 10,001 path commands.
        let path = "M0 0" + String(repeating: " L1 1", count: 10_001)
        do { _ = try LoaderDocument.parse(Self.animated(#"{"type": "keyframe", "keyPath": "position", "path": "\#(path)"}"#)) } catch {
            #expect(error.message.contains("maxPathCommands (10000)"))
        }
        // More than 1 MiB.
        let padded = Self.document(extra: ##", "background": "#000000""##, layers: Self.dot) + String(repeating: " ", count: 1 << 20)
        do { _ = try LoaderDocument.parse(padded) } catch {
            #expect(error.message.contains("maxBytes is 1048576"))
        }
    }

    /// Replicators nested four deep, `instanceCount` 1000 each, around `inner`.
    static func nested(around inner: String) -> String {
        var layer = inner
        for id in ["d", "c", "b", "a"] {
            layer = #"{"type": "replicator", "id": "\#(id)", "bounds": [1, 1], "instanceCount": 1000, "sublayers": [\#(layer)]}"#
        }
        return document(layers: layer)
    }

    /// The cost is counted from the tree before any copy is walked: a frame
    /// of 1000⁴ copies is refused at once, by its count, with its limit's name.
    @Test func nestedReplicatorsAreCountedNotWalked() throws {
        do { _ = try LoaderDocument.parse(Self.nested(around: Self.dot)); Issue.record("accepted") } catch {
            #expect(error.path == "layers" && error.message.contains("maxElements (1000)"), "\(error)")
        }
        // Copies of copies that draw nothing are never visited: no elements, no cost.
        let empty = #"{"type": "replicator", "id": "e", "bounds": [1, 1], "instanceCount": 0, "sublayers": [\#(Self.dot)]}"#
        let document = try LoaderDocument.parse(Self.nested(around: empty))
        #expect(document.frameCost == 0)
        let loader = LoaderDefinition(document: document).configure()
        #expect(loader.frame(at: 1).elements.isEmpty)
    }

    /// 1,000 elements with 24 animations each: 1,000 × (1 + 24) + 1 units,
    /// past 25,000 (a visit per copy and one per animation evaluated).
    @Test func frameCostLimit() throws {
        func dots(animations: Int) -> String {
            let fade = #"{"type": "basic", "keyPath": "opacity", "toValue": 0, "duration": 1}"#
            let dot = #"{"type": "circle", "id": "dot", "diameter": 8, "animations": [\#(Array(repeating: fade, count: animations).joined(separator: ","))]}"#
            return Self.document(layers: #"{"type": "replicator", "id": "r", "bounds": [1, 1], "instanceCount": 1000, "sublayers": [\#(dot)]}"#)
        }
        #expect(try LoaderDocument.parse(dots(animations: 23)).frameCost == 1 + 1000 * 24)
        do { _ = try LoaderDocument.parse(dots(animations: 24)); Issue.record("accepted") } catch {
            #expect(error.path == "layers" && error.message.contains("a frame would cost 25001 units") && error.message.contains("maxFrameCost is 25000"),
                    "\(error)")
        }
        // A group counts itself and each of its animations.
        let grouped = Self.animated(#"{"type": "group", "duration": 1, "animations": [{"type": "basic", "keyPath": "opacity", "toValue": 0}, {"type": "basic", "keyPath": "opacity", "toValue": 1}]}"#)
        #expect(try LoaderDocument.parse(grouped).frameCost == 1 + 3)
    }

    @Test func catalogueRefusesTakenNamesWithTheFile() throws {
        let mine = Array(Self.document(name: "\"mine\"", layers: Self.dot).utf8)
        let typing = Array(Self.document(name: "\"typing\"", layers: Self.dot).utf8)
        let grown = try LoaderCatalog.standard.adding(files: [("mine.json", mine)])
        #expect(grown["mine"] != nil && grown.names.count == LoaderCatalog.standard.names.count + 1)
        #expect(throws: DefinitionError(file: "b.json", path: "name", message: "\"mine\" is taken by a.json; choose another name")) {
            try LoaderCatalog.standard.adding(files: [("a.json", mine), ("b.json", mine)])
        }
        #expect(throws: DefinitionError(file: "t.json", path: "name", message: "\"typing\" is taken by a built-in loader; choose another name")) {
            try LoaderCatalog.standard.adding(files: [("t.json", typing)])
        }
        do { _ = try LoaderCatalog.standard.adding(files: [("spinner.json", Array("{".utf8))]) } catch {
            #expect(error.description.hasPrefix("spinner.json: not valid JSON"))
        }
    }
}
