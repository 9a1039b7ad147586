import Testing
@testable import LoaderEngine

/// The format's own example: the built-in typing loader written as a
/// definition gives the same frames.
struct DefinitionTypingTests {
    static let typingCopy = #"""
    {
      "format": 1, "name": "typing-copy",
      "summary": "The typing dots, written as a definition.",
      "canvas": {"width": 70, "height": 20}, "background": "#000000", "color": "#FFFFFF",
      "layers": [{
        "type": "replicator", "id": "dots", "position": [35, 10], "bounds": [70, 20],
        "instanceCount": 3, "instanceDelay": 0.2,
        "instanceTransform": {"translation": [15, 0]},
        "sublayers": [{
          "type": "circle", "id": "dot", "position": [20, 7], "diameter": 8,
          "backgroundColor": "color", "transform": {"scale": 1.4},
          "animations": [
            {"type": "basic", "keyPath": "opacity", "fromValue": 1, "byValue": -0.8,
             "duration": 1, "repeatCount": "infinity"},
            {"type": "basic", "keyPath": "position.y", "fromValue": 7, "byValue": 3,
             "duration": 1.2, "repeatCount": "infinity"},
            {"type": "basic", "keyPath": "transform.scale", "fromValue": 1, "byValue": 0.4,
             "duration": 0.6, "repeatCount": "infinity"}
          ]
        }]
      }]
    }
    """#

    /// Within 1e-6 s of an instant where a copy's animation wraps, either
    /// side of the jump is right (the built-in's delay is 0.6/3, one ulp
    /// from 0.2).
    static func nearWrap(_ t: Double) -> Bool {
        for k in 0..<3 {
            let local = t - Double(k) * 0.2
            for d in [1.0, 1.2, 0.6] {
                let u = local / d
                if abs(u - u.rounded()) * d < 1e-6 { return true }
            }
        }
        return false
    }

    @Test func equalsTheBuiltInTypingAtEveryTime() throws {
        let copy = try LoaderDefinition(definition: Array(Self.typingCopy.utf8)).configure()
        let typing = LoaderCatalog.standard["typing"]!.configure()
        #expect(copy.width == typing.width && copy.height == typing.height)
        #expect(copy.period == typing.period)
        var compared = 0
        // Every millisecond of 10 s, plus times just off the wrap instants.
        var times = (0...10_000).map { Double($0) / 1000 }
        for i in 0..<200 {
            let step: Double = Double(i) * 0.2
            times += [step + 3e-6, step - 3e-6, step / 2 + 2e-6]
        }
        times += [-1, -0.1, 1e6 + 0.37, 123_456.789]
        for t in times where !Self.nearWrap(t) {
            let a = copy.frame(at: t), b = typing.frame(at: t)
            #expect(a.elements.count == b.elements.count)
            for (x, y) in zip(a.elements, b.elements) {
                #expect(x.id.description == y.id.description)
                let same = x.shape == y.shape && x.color == y.color
                #expect(same && x.diameter == y.diameter && x.rotation == 0)
                let position: Double = max(abs(x.x - y.x), abs(x.y - y.y))
                let worst: Double = max(position, abs(x.scale - y.scale), abs(x.opacity - y.opacity))
                #expect(worst <= 1e-9, "t=\(t) \(x.id): \(x) vs \(y)")
                if worst > 1e-9 { return }
            }
            compared += 1
        }
        #expect(compared > 10_000)
    }

    @Test func encodesAsACircleFrameDoes() throws {
        let copy = try LoaderDefinition(definition: Array(Self.typingCopy.utf8)).configure()
        let json = String(decoding: FrameEncoder.encode(copy.frame(at: 0)), as: UTF8.self)
        #expect(json.hasPrefix(##"{"loader":"typing-copy","t":0,"width":70,"height":20,"done":false,"background":"#000000","elements":[{"id":"dot0","shape":"circle","x":20,"y":7,"diameter":8,"scale":1,"opacity":1,"color":"#FFFFFF"}"##))
    }
}
