import FoundationEssentials
import Testing
@testable import LoaderEngine

/// The `background` parameter and the frames' field; the reduced form's
/// named pose and the rule that picks one.
struct BackgroundParameterTests {
    func error(_ loader: String, _ query: String) -> ParameterError? {
        do {
            _ = try FrameQuery(LoaderCatalog.standard[loader]!, items: queryItems(query)).frame()
            return nil
        } catch {
            return error
        }
    }

    @Test func everyLoaderTakesBackgroundWithItsOwnAsDefault() {
        for definition in LoaderCatalog.standard.loaders {
            let spec = definition.parameters.first { $0.name == "background" }
            #expect(spec?.kind == .colorOrNone, "\(definition.name)")
            #expect(spec?.defaultValue == .colorOrNone(definition.background))
            let dark = definition.name == "typing" || definition.name == "switch"
            #expect(definition.background == (dark ? .black : nil), "\(definition.name)")
        }
    }

    @Test func acceptsColoursAndNone() throws {
        #expect(try frame("typing", "background=none").background == nil)
        #expect(try frame("typing", "").background == .black)
        #expect(try frame("circle", "").background == nil)
        #expect(try frame("circle", "background=%23102030").background == RGBColor(rgb: 0x102030))
        #expect(try frame("circle", "background=102030").background == RGBColor(rgb: 0x102030))
        #expect(try frame("circle", "background=%23abc").background == RGBColor(rgb: 0xAABBCC))
        #expect(try frame("web", "background=ABC").background == RGBColor(rgb: 0xAABBCC))
    }

    @Test func refusesOthersNamingItself() {
        for bad in ["", "red", "transparent", "None", "%23none", "%2312", "1234", "%23GGGGGG"] {
            let e = error("circle", "background=\(bad)")
            #expect(e?.code == .invalidParameter, "\(bad)")
            #expect(e?.parameter == "background")
            #expect(e?.message == "background must be a colour as #RRGGBB, RRGGBB, #RGB or RGB (send # as %23), or none")
        }
    }

    @Test func framesCarryTheFieldOnlyWhenDrawn() throws {
        let plain = String(decoding: FrameEncoder.encode(try frame("circle", "t=0.5")), as: UTF8.self)
        #expect(!plain.contains("background"))
        #expect(plain.contains(#""done":false,"elements":["#))
        let coloured = String(decoding: FrameEncoder.encode(try frame("circle", "t=0.5&background=102030")), as: UTF8.self)
        #expect(coloured.contains(##""done":false,"background":"#102030","elements":["##))
        #expect(try decodeFrame(Array(coloured.utf8)).background == "#102030")
        // Streams and batches: the renderer writes the same bytes.
        let loader = try LoaderCatalog.standard["circle"]!.configure(queryItems("background=102030"))
        var renderer = FrameRenderer(loader)
        #expect(renderer.encodedFrame(at: 0.5).json == FrameEncoder.encode(loader.frame(at: 0.5)))
        let batch = renderer.encodedBatch(times: [0, 0.1], fps: 10).json
        #expect(batch == FrameEncoder.encodeBatch(loader: loader.name, fps: 10, frames: [loader.frame(at: 0), loader.frame(at: 0.1)]))
        // JSONEncoder agrees, present and absent.
        for query in ["t=0.5", "t=0.5&background=none", "t=0.5&background=fff"] {
            let f = try frame("typing", query)
            #expect(try decodeFrame(FrameEncoder.encode(f)) == decodeFrame(Array(JSONEncoder().encode(f))))
        }
    }

    @Test func catalogueAndDefinitionsDescribeIt() throws {
        let json = String(decoding: LoaderCatalog.standard["typing"]!.json(), as: UTF8.self)
        #expect(json.contains(##"{"name":"background","type":"colorOrNone","pattern":"^(none|#?([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6}))$","default":"#000000""##))
        let circle = String(decoding: LoaderCatalog.standard["circle"]!.json(), as: UTF8.self)
        #expect(circle.contains(#""default":"none""#) && circle.contains(#""background":null"#))
    }
}

struct ReducedPoseTests {
    /// A dot that moves, grows and fades, named pose or not.
    static func definition(pose: String?) throws -> LoaderDefinition {
        try LoaderDefinition(definition: Array("""
        {"format": 1, "name": "posed", "summary": "A dot.", "canvas": {"width": 40, "height": 40},
         \(pose.map { "\"reducedPose\": \($0)," } ?? "")
         "layers": [{"type": "replicator", "id": "row", "position": [20, 20], "bounds": [40, 40],
           "instanceCount": 2, "instanceDelay": 0.3, "instanceTransform": {"translation": [10, 0]},
           "sublayers": [{"type": "circle", "id": "dot", "position": [10, 20], "diameter": 8, "backgroundColor": "color",
             "animations": [
               {"type": "basic", "keyPath": "transform.scale", "fromValue": 0, "toValue": 2, "duration": 1, "repeatCount": "infinity"},
               {"type": "basic", "keyPath": "position.y", "fromValue": 10, "toValue": 30, "duration": 1, "repeatCount": "infinity"}
             ]}]}]}
        """.utf8))
    }

    @Test func aNamedPoseIsTheNormalFrameWithOnlyOpacityChanged() throws {
        let definition = try Self.definition(pose: "0.25")
        let normal = definition.configure().frame(at: 0.25)
        let reduced = try definition.configure(queryItems("motion=reduced"))
        #expect(definition.reducedMotion.hasPrefix("A still pose: the normal loop's frame at 0.25 s"))
        for t in [0.0, 0.4, 1.0, 1.7, 3.2] {
            let frame = reduced.frame(at: t)
            #expect(frame.elements.count == normal.elements.count)
            let pulse = ReducedPose.pulseFactor(at: t)
            for (e, n) in zip(frame.elements, normal.elements) {
                var same = e
                same.opacity = n.opacity
                #expect(same == n, "t=\(t)")
                #expect(abs(e.opacity - n.opacity * pulse) < 1e-12)
            }
        }
        #expect(abs(reduced.frame(at: 1).elements[0].opacity - 0.5) < 1e-9)
        #expect(reduced.period == 2)
    }

    @Test func reducedPoseIsParsedStrictly() {
        for bad in ["-1", "3601", "\"0.5\"", "null", "[1]"] {
            #expect(throws: DefinitionError.self, "\(bad)") { try Self.definition(pose: bad) }
        }
        #expect((try? Self.definition(pose: "0")) != nil)
        #expect((try? Self.definition(pose: "3600")) != nil)
    }

    @Test func withoutAPoseEveryCopyShowsItsFullest() throws {
        let reduced = try Self.definition(pose: nil).configure(queryItems("motion=reduced"))
        // Scale 0 → 2 over 1 s: the last of 240 samples, 239/240 of the way.
        for e in reduced.frame(at: 0.5).elements {
            #expect(abs(e.scale - 2 * 239 / 240) < 1e-9)
            #expect(abs(e.y - (10 + 20 * 239 / 240)) < 1e-9)
        }
    }

    /// material-spinner: the reduced arc is as long as the normal loop's
    /// longest, within one sample step of the arc's 1.333 s cycle.
    @Test func materialSpinnerShowsItsLongestArc() throws {
        let definition = LoaderCatalog.standard["material-spinner"]!
        let normal = definition.configure()
        var longest = 0.0
        let samples = 4000
        for k in 0..<samples {
            let e = normal.frame(at: 1.333 * Double(k) / Double(samples)).elements[0]
            longest = max(longest, e.strokeEnd - e.strokeStart)
        }
        #expect(abs(longest - 0.7777777777777778) < 1e-3)
        let reduced = try definition.configure(queryItems("motion=reduced"))
        // The arc's speed is at most π/2 of a turn per second... one step is 1.333/240 s.
        let step = 1.333 / 240
        var slope = 0.0
        for k in 0..<samples {
            let t = 1.333 * Double(k) / Double(samples)
            let a = normal.frame(at: t).elements[0], b = normal.frame(at: t + step).elements[0]
            slope = max(slope, abs((b.strokeEnd - b.strokeStart) - (a.strokeEnd - a.strokeStart)))
        }
        for t in [0.0, 0.5, 1.0, 1.5] {
            let e = reduced.frame(at: t).elements[0]
            #expect(longest - (e.strokeEnd - e.strokeStart) <= slope + 1e-9, "t=\(t)")
            #expect(e.strokeEnd - e.strokeStart <= longest + 1e-9)
        }
    }

    /// What the CSS export shares among copies still holds in a pose: a
    /// copy is its base, that much later, moved by the offset.
    @Test func copyRelationsHoldInTheReducedForm() throws {
        for definition in LoaderCatalog.standard.loaders {
            let loader = try definition.configure([(name: "motion", value: "reduced")])
            for t in [2.3, 3.1, 4.75] {
                let frame = loader.frame(at: t)
                for (i, relation) in loader.copies.enumerated() {
                    guard let relation else { continue }
                    let base = loader.frame(at: t - relation.delay).elements[relation.base]
                    let copy = frame.elements[i]
                    #expect(abs(copy.x - base.x - relation.offset.x) < 1e-9 && abs(copy.y - base.y - relation.offset.y) < 1e-9,
                            "\(definition.name) \(copy.id)")
                    #expect(abs(copy.scale - base.scale) < 1e-12 && abs(copy.opacity - base.opacity) < 1e-12 && copy.rotation == base.rotation,
                            "\(definition.name) \(copy.id)")
                }
            }
        }
    }
}
