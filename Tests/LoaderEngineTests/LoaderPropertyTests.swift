import FoundationEssentials
import Testing
@testable import LoaderEngine

struct LoaderPropertyTests {
    /// The largest move of any element between frames `step` apart, skipping
    /// pairs that straddle a time where `isWrap` says the loader jumps.
    func largestJump(_ loader: ConfiguredLoader, until end: Double, step: Double, isWrap: (Double, Double) -> Bool) -> Double {
        var worst = 0.0
        var t = 0.0
        var previous = loader.frame(at: 0)
        while t < end {
            let next = t + step
            let frame = loader.frame(at: next)
            if !isWrap(t, next) {
                for (a, b) in zip(previous.elements, frame.elements) {
                    worst = max(worst, abs(a.x - b.x), abs(a.y - b.y), abs(a.scale - b.scale) * 10, abs(a.opacity - b.opacity) * 10)
                }
            }
            previous = frame
            t = next
        }
        return worst
    }

    func crossesMultiple(of period: Double, _ a: Double, _ b: Double) -> Bool {
        (a / period).rounded(.down) != (b / period).rounded(.down) || frac(b / period) < 1e-9
    }

    @Test func typingIsContinuousAwayFromItsWraps() throws {
        let loader = LoaderCatalog.standard["typing"]!.configure()
        let durations = [1.0, 1.2, 0.6]
        let jump = largestJump(loader, until: 8, step: 0.001) { a, b in
            // Each dot's animations wrap at multiples of their durations after its delay.
            (0..<3).contains { i in durations.contains { d in crossesMultiple(of: d, a - Double(i) * 0.2, b - Double(i) * 0.2) } }
                || (0..<3).contains { i in a < Double(i) * 0.2 + 1e-9 && b >= Double(i) * 0.2 - 1e-9 }
        }
        // Fastest change: 0.8 opacity per second (×10) over 1 ms.
        #expect(jump < 0.02)
    }

    @Test func switchIsContinuousAwayFromMultiplesOfTheDuration() throws {
        let loader = LoaderCatalog.standard["switch"]!.configure()
        let jump = largestJump(loader, until: 6, step: 0.001) { a, b in crossesMultiple(of: 1.2, a, b) }
        // Arc speed: 2 half circles of radius 20 in 1.2 s ≈ 105 pt/s.
        #expect(jump < 0.2)
    }

    @Test func switchIsPeriodicFromHalfAPeriod() throws {
        for query in ["", "duration=2&width=100&height=40", "duration=0.37&size=3"] {
            let loader = try LoaderCatalog.standard["switch"]!.configure(queryItems(query))
            let d = loader.parameters.number("duration")
            let side = max(loader.width, loader.height)
            for i in 0..<500 {
                let t = d / 2 + Double(i) * 0.0137
                let a = loader.frame(at: t), b = loader.frame(at: t + d), c = loader.frame(at: t + 7 * d)
                for (x, (y, z)) in zip(a.elements, zip(b.elements, c.elements)) {
                    #expect(abs(x.x - y.x) < 1e-9 * side && abs(x.y - y.y) < 1e-9 * side)
                    #expect(abs(x.x - z.x) < 1e-9 * side && abs(x.y - z.y) < 1e-9 * side)
                }
            }
            #expect(loader.period == d)
        }
    }

    @Test func switchDotsSitOnTheThreePlacesAtHalfPeriods() throws {
        let loader = try LoaderCatalog.standard["switch"]!.configure(queryItems("width=100&height=40&duration=2"))
        let places = [Point(x: 0, y: 20), Point(x: 50, y: 20), Point(x: 100, y: 20)]
        for k in 0..<40 {
            let frame = loader.frame(at: Double(k) * 1.0)
            var found = Set<Int>()
            for e in frame.elements {
                let hit = places.firstIndex { abs($0.x - e.x) < 1e-9 * 100 && abs($0.y - e.y) < 1e-9 * 100 }
                #expect(hit != nil, "t=\(k): \(e.id) at (\(e.x), \(e.y))")
                if let hit { found.insert(hit) }
            }
            #expect(found == [0, 1, 2], "t=\(k)")
        }
    }

    @Test func typingBeforeDelayShowsModelValues() throws {
        let frame = try frame("typing", "t=0.1&maxScale=2")
        #expect(frame.elements[1].scale == 2 && frame.elements[1].opacity == 1 && frame.elements[1].y == 7)
        #expect(frame.elements[2].scale == 2)
        #expect(frame.elements[0].scale < 2)
    }

    @Test func stopEndsEveryLoader() throws {
        for name in ["typing", "switch", "web"] {
            let before = try frame(name, "t=0.99&stop=1")
            let at = try frame(name, "t=1&stop=1")
            #expect(!before.done && !before.elements.isEmpty)
            #expect(at.done && at.elements.isEmpty)
        }
    }

    @Test func webDropsFollowProgressAndFinishFadesTheIndicator() throws {
        // A drop at each progress time, in the air for 0.6 s; ids by sorted order.
        let f = try frame("web", "t=1.15&progress=1,0.9,0.5")
        #expect(f.elements.map(\.id.description) == ["indicator", "drop1", "drop2"])
        // Progress at or after finish is ignored.
        let late = try frame("web", "t=2.1&progress=2,2.05&finish=2")
        #expect(late.elements.map(\.id.description) == ["indicator"])
        // Finish at 1.0 (leg 1, 0 → 1): completes at 1.6 at opacity 1, fades to 0 by 2.4.
        let held = try frame("web", "t=1.6&finish=1")
        #expect(abs(held.elements[0].opacity - 1) < 1e-9)
        let fading = try frame("web", "t=2.0&finish=1")
        #expect(abs(fading.elements[0].opacity - 0.5) < 1e-6)
        let gone = try frame("web", "t=2.41&finish=1")
        #expect(gone.done && gone.elements.isEmpty)
        // Done waits for the last drop to land.
        let landing = try frame("web", "t=2.41&finish=1&progress=0.99&dropDuration=2")
        #expect(!landing.done && landing.elements.map(\.id.description) == ["drop0"])
        #expect(try frame("web", "t=2.99&finish=1&progress=0.99&dropDuration=2").done)
    }

    /// A frame draws at most the element limit (1,000): with 1,500 drops in
    /// the air at once, the indicator and the latest 999 (drop501…drop1499);
    /// with 999 in the air, every one, as the spec has it.
    @Test func webDrawsAtMostTheElementLimit() throws {
        let times = (0..<1500).map { "\(Double($0) / 10_000)" }.joined(separator: ",")
        let crowded = try frame("web", "t=0.2&progress=\(times)")
        #expect(crowded.elements.count == 1000)
        #expect(crowded.elements[1].id.description == "drop501" && crowded.elements.last?.id.description == "drop1499")
        let full = try frame("web", "t=0.2&progress=\(times.split(separator: ",").prefix(999).joined(separator: ","))")
        #expect(full.elements.count == 1000 && full.elements[1].id.description == "drop0")
    }

    @Test func webIndicatorIsContinuousThroughFinish() throws {
        let loader = try LoaderCatalog.standard["web"]!.configure(queryItems("finish=1.3"))
        var previous = loader.frame(at: 0).elements[0].opacity
        var t = 0.0
        while t < 3.19 {
            t += 0.001
            let frame = loader.frame(at: t)
            guard let opacity = frame.elements.first?.opacity else { break }
            #expect(abs(opacity - previous) < 0.01, "t=\(t)")
            previous = opacity
        }
        #expect(loader.frame(at: 3.2).done)
    }

    @Test func reducedMotionOnlyChangesOpacity() throws {
        for name in ["typing", "switch", "web"] {
            let loader = try LoaderCatalog.standard[name]!.configure(queryItems(name == "web" ? "motion=reduced&progress=0.1,0.3" : "motion=reduced"))
            let first = loader.frame(at: 0.35)
            var opacities = Set<Double>()
            for i in 0..<300 {
                let frame = loader.frame(at: Double(i) * 0.01)
                for e in frame.elements {
                    #expect(e.scale > 0, "\(name) \(e.id) shows")
                    #expect(e.opacity >= 0 && e.opacity <= 1)
                    if let same = first.elements.first(where: { $0.id == e.id }) {
                        #expect(same.x == e.x && same.y == e.y, "\(name) \(e.id) moved")
                        #expect(same.scale == e.scale, "\(name) \(e.id) scaled")
                    }
                    if !e.id.description.hasPrefix("drop") { opacities.insert(e.opacity) }
                }
            }
            #expect(opacities.count > 10, "\(name) should pulse")
        }
    }

    @Test func catalogPeriodsAndJSON() throws {
        let catalog = LoaderCatalog.standard
        #expect(catalog.names.prefix(3) == ["typing", "switch", "web"])
        #expect(catalog.names.count == 3 + ClassicLoaders.definitions.count)
        #expect(catalog["typing"]!.configure().period == 6)
        #expect(catalog["switch"]!.configure().period == 1.2)
        #expect(catalog["web"]!.configure().period == nil)
        struct Catalog: Decodable {
            struct Entry: Decodable {
                struct Parameter: Decodable { let name: String; let type: String; let description: String }
                let name: String
                let period: Double?
                let parameters: [Parameter]
                struct Event: Decodable { let name: String; let type: String }
                let events: [Event]
            }
            let loaders: [Entry]
        }
        let decoded = try JSONDecoder().decode(Catalog.self, from: Data(catalog.json()))
        #expect(decoded.loaders.map(\.name) == catalog.names)
        #expect(decoded.loaders[0].parameters.map(\.name).contains("maxScale"))
        #expect(decoded.loaders[2].period == nil)
        #expect(decoded.loaders[2].events.map(\.name) == ["stop", "progress", "finish"])
    }

    @Test func batchEncodingIsValidJSON() throws {
        struct Batch: Decodable { let loader: String; let fps: Double; let frames: [DecodedFrame] }
        let loader = LoaderCatalog.standard["typing"]!.configure()
        let frames = (0..<31).map { loader.frame(at: Double($0) / 30) }
        let batch = try JSONDecoder().decode(Batch.self, from: Data(FrameEncoder.encodeBatch(loader: "typing", fps: 30, frames: frames)))
        #expect(batch.frames.count == 31 && batch.fps == 30)
        #expect(batch.frames[30].t == 1)
        let empty = try JSONDecoder().decode(Batch.self, from: Data(FrameEncoder.encodeBatch(loader: "typing", fps: 1, frames: [])))
        #expect(empty.frames.isEmpty)
    }
}

struct FrameRendererTests {
    @Test func rendererMatchesTheFrameEncoder() throws {
        for (name, query) in [("typing", "count=64"), ("switch", ""), ("web", "progress=0.1,0.2,0.25,0.3&finish=2")] {
            let loader = try LoaderCatalog.standard[name]!.configure(queryItems(query))
            var renderer = FrameRenderer(loader)
            var appended = [UInt8]()
            for i in 0..<400 {
                let t = Double(i) / 97
                let (json, done) = renderer.encodedFrame(at: t)
                let frame = loader.frame(at: t)
                #expect(json == FrameEncoder.encode(frame))
                #expect(done == frame.done)
                appended.removeAll()
                #expect(renderer.appendFrame(at: t, to: &appended) == done)
                #expect(appended == json)
            }
        }
    }

    @Test func batchesFromTheRendererMatchTheEncoder() throws {
        let loader = try LoaderCatalog.standard["web"]!.configure(queryItems("progress=0.1,0.2&finish=1"))
        let times = (0..<40).map { Double($0) / 30 }
        var renderer = FrameRenderer(loader)
        let (batch, count) = renderer.encodedBatch(times: times, fps: 30)
        #expect(count == 40)
        #expect(batch == FrameEncoder.encodeBatch(loader: "web", fps: 30, frames: times.map { loader.frame(at: $0) }))
        // Past the byte limit: the frames that fit, whole, and how many.
        let (part, fitted) = renderer.encodedBatch(times: times, fps: 30, maxBytes: batch.count / 2)
        #expect(fitted > 0 && fitted < 40 && part.count <= batch.count / 2)
        #expect(part == FrameEncoder.encodeBatch(loader: "web", fps: 30, frames: times.prefix(fitted).map { loader.frame(at: $0) }))
    }

    @Test func encodesTheSameAsJSONEncoder() throws {
        let frame = try frame("typing", "t=0.5")
        let ours = try decodeFrame(FrameEncoder.encode(frame))
        let theirs = try decodeFrame(Array(JSONEncoder().encode(frame)))
        #expect(ours == theirs)
        #expect(String(decoding: FrameEncoder.encode(frame), as: UTF8.self).hasPrefix(##"{"loader":"typing","t":0.5,"width":70,"height":20,"done":false,"background":"#000000","elements":[{"id":"dot0","shape":"circle","x":20,"y":8.25,"diameter":8,"scale":1.3333333333333333,"opacity":0.6,"color":"#FFFFFF"}"##))
    }
}
