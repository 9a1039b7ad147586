import Testing
import LoaderEngine
import Raster

/// The reduced form shows the loader: rasterised, each of its frames draws
/// at least half as much as the normal loop does on average, and never
/// nothing. What counts is measured from the normal loop's own pixels.
struct ReducedCoverageTests {
    static let moments = 20

    /// Σ alpha/255 over the pixels, elements only.
    static func drawn(_ frame: Frame) -> Double {
        let image = Rasteriser.image(frame, scale: 2, background: nil)
        var sum = 0
        for i in stride(from: 3, to: image.pixels.count, by: 4) { sum += Int(image.pixels[i]) }
        return Double(sum) / 255
    }

    /// 20 moments evenly over one loop, after every element has started.
    static func areas(_ loader: ConfiguredLoader) -> [Double] {
        let start = loader.definition.settleTime(loader.parameters)
        let length = loader.period ?? 2
        return (0..<moments).map { k in drawn(loader.frame(at: start + length * Double(k) / Double(moments))) }
    }

    static func check(_ definition: LoaderDefinition) throws {
        let normal = areas(definition.configure())
        let mean = normal.reduce(0, +) / Double(normal.count)
        #expect(mean > 0, "\(definition.name) draws")
        let reduced = areas(try definition.configure([(name: "motion", value: "reduced")]))
        for (k, area) in reduced.enumerated() {
            #expect(area > 0, "\(definition.name) reduced moment \(k) draws nothing")
            #expect(area >= mean / 2, "\(definition.name) reduced moment \(k): \(area) < half of \(mean)")
        }
    }

    @Test func everyCatalogueLoader() throws {
        for definition in LoaderCatalog.standard.loaders { try Self.check(definition) }
    }

    /// Shapes that start from nothing: scale 0, strokeEnd 0, opacity 0.
    static let definitions = [
        #"""
            {"type": "circle", "id": "dot", "position": [20, 20], "diameter": 30, "backgroundColor": "color", "transform": {"scale": 0},
            "animations": [{"type": "keyframe", "keyPath": "transform.scale", "values": [0, 1, 0], "keyTimes": [0, 0.3, 1],
            "duration": 1.5, "repeatCount": "infinity"}]}
            """#,
        #"""
            {"type": "ring", "id": "arc", "position": [20, 20], "diameter": 30, "lineWidth": 4, "strokeColor": "color", "strokeEnd": 0,
            "animations": [{"type": "basic", "keyPath": "strokeEnd", "fromValue": 0, "toValue": 1, "duration": 1, "repeatCount": "infinity",
            "autoreverses": true, "timingFunction": "easeInEaseOut"},
            {"type": "basic", "keyPath": "transform.rotation.z", "fromValue": 0, "toValue": 6.283185307179586,
            "duration": 0.7, "repeatCount": "infinity"}]}
            """#,
        #"""
            {"type": "rect", "id": "bar", "position": [20, 20], "bounds": [20, 30], "backgroundColor": "color", "opacity": 0,
            "animations": [{"type": "keyframe", "keyPath": "opacity", "values": [0, 0, 1, 0], "keyTimes": [0, 0.5, 0.6, 1],
            "duration": 1.2, "repeatCount": "infinity"}]}
            """#,
        #"""
            {"type": "replicator", "id": "fan", "position": [20, 20], "bounds": [40, 40],
            "instanceCount": 4, "instanceDelay": 0.25, "instanceTransform": {"rotation": 1.5707963267948966},
            "animations": [{"type": "basic", "keyPath": "transform.rotation.z", "fromValue": 0, "byValue": 6.283185307179586,
            "duration": 3, "repeatCount": "infinity"}],
            "sublayers": [{"type": "segment", "id": "cap", "position": [20, 12], "diameter": 14, "arc": 2, "fillColor": "color",
            "transform": {"scale": 0},
            "animations": [{"type": "basic", "keyPath": "transform.scale", "fromValue": 0, "toValue": 1, "duration": 1,
            "repeatCount": "infinity", "autoreverses": true}]}]}
            """#,
        #"""
            {"type": "replicator", "id": "row", "position": [20, 20], "bounds": [40, 40],
            "instanceCount": 3, "instanceDelay": 0.2, "instanceTransform": {"translation": [12, 0]},
            "sublayers": [{"type": "circle", "id": "dot", "position": [8, 20], "diameter": 8, "backgroundColor": "color", "opacity": 0,
            "animations": [{"type": "group", "duration": 1.2, "repeatCount": "infinity", "animations": [
            {"type": "keyframe", "keyPath": "opacity", "values": [0, 1, 0], "keyTimes": [0, 0.1, 1], "duration": 1.2},
            {"type": "keyframe", "keyPath": "transform.scale", "values": [0, 1, 0], "keyTimes": [0, 0.5, 1], "duration": 1.2}]}]}]}
            """#,
    ]

    @Test(arguments: definitions.indices) func customDefinitions(_ i: Int) throws {
        let definition = try LoaderDefinition(definition: Array("""
            {"format": 1, "name": "shape\(i)", "summary": "A shape that starts from nothing.",
             "canvas": {"width": 40, "height": 40}, "layers": [\(Self.definitions[i])]}
            """.utf8))
        try Self.check(definition)
    }
}

/// What is drawn outside the elements: nothing, unless asked.
struct BackgroundPixelTests {
    /// Pixels no element touches, in the frame rasterised with `background`
    /// as the exports draw it; the frame's own elements found without one.
    static func outside(_ loader: ConfiguredLoader, at t: Double) -> [[UInt8]] {
        let frame = loader.frame(at: t)
        let bare = Rasteriser.image(frame, scale: 1, background: nil)
        let drawn = Rasteriser.image(frame, scale: 1, background: loader.background)
        var pixels: [[UInt8]] = []
        for i in stride(from: 0, to: bare.pixels.count, by: 4) where bare.pixels[i + 3] == 0 {
            pixels.append(Array(drawn.pixels[i..<i + 4]))
        }
        return pixels
    }

    @Test func transparentByDefaultButTypingAndSwitch() throws {
        for definition in LoaderCatalog.standard.loaders {
            let loader = definition.configure()
            let pixels = Self.outside(loader, at: 0.3)
            #expect(!pixels.isEmpty, "\(definition.name) leaves some pixels bare")
            if definition.name == "typing" || definition.name == "switch" {
                #expect(pixels.allSatisfy { $0 == [0, 0, 0, 255] }, "\(definition.name) is on black")
            } else {
                #expect(loader.background == nil && loader.frame(at: 0.3).background == nil)
                #expect(pixels.allSatisfy { $0[3] == 0 }, "\(definition.name) is transparent")
            }
            let coloured = try definition.configure([(name: "background", value: "#102030")])
            #expect(Self.outside(coloured, at: 0.3).allSatisfy { $0 == [0x10, 0x20, 0x30, 255] }, "\(definition.name)")
        }
    }

    @Test func noneTakesTypingsBlackAway() throws {
        let typing = try LoaderCatalog.standard["typing"]!.configure([(name: "background", value: "none")])
        let pixels = Self.outside(typing, at: 0.3)
        #expect(!pixels.isEmpty && pixels.allSatisfy { $0[3] == 0 })
    }
}
