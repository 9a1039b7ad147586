import FoundationEssentials
import HTTPTestSupport
import LoaderEngine
import Testing
@testable import HTTPServer
@testable import LoaderService
@testable import LoaderSessions

/// Shared-clock streams (`clock=shared`) and multiplexed streams (`/streams`).
struct StreamClockTests {
    func frames(_ stream: EmbeddedStream) -> [DispatchedEvent] { parseEventStream(stream.text).events.filter { $0.type == "frame" } }

    /// The loader's time that the shared clock shows in frame `k`.
    func sharedTime(_ loader: String, _ k: Int, fps: Double, _ parameters: [(name: String, value: String)] = []) throws -> Double {
        try SteadyLoop(LoaderCatalog.standard[loader]!, parameters: parameters).time(ofFrame: k, fps: fps)
    }

    @Test func theFoldIsTheLoopAtEveryFrame() throws {
        let typing = try SteadyLoop(LoaderCatalog.standard["typing"]!, parameters: [])
        #expect(typing.duration == 6)
        let k = 53_884_496_776  // about now at 30 fps
        let phase = k % 180
        #expect(abs(typing.time(ofFrame: k, fps: 30) - (typing.start + Double(phase) / 30)) < 1e-12)
        #expect(typing.time(ofFrame: 180 * 1_000_000_000, fps: 30) == typing.start)
        let web = try SteadyLoop(LoaderCatalog.standard["web"]!, parameters: [])
        #expect(web.start == 0 && web.duration > 2 && web.loader.events.finish != nil)
        // Exports draw the same loop.
        let svg = try SampledLoop.loop(for: LoaderCatalog.standard["material-spinner"]!, parameters: [])
        let spinner = try SteadyLoop(LoaderCatalog.standard["material-spinner"]!, parameters: [])
        #expect(svg.start == spinner.start && svg.duration == spinner.duration)
    }

    /// Two viewers who start at different moments get the same ids and the
    /// same bytes for the moments they share, and the frame is the loop's.
    @Test func viewersShareIdsAndFrames() throws {
        let app = TestApp()
        let first = try app.open("/loaders/typing/frames?stream=sse&clock=shared&fps=20&count=4")
        app.advance(seconds: 0.33)
        let second = try app.open("/loaders/typing/frames?stream=sse&clock=shared&fps=20&count=4")
        #expect(app.service.sharedClockFrames.count == 1)
        app.advance(seconds: 0.5)
        let a = frames(first), b = frames(second)
        #expect(a.count >= 16 && b.count >= 10)
        let shared = Dictionary(uniqueKeysWithValues: a.map { ($0.lastEventID, $0.data) })
        for event in b { #expect(shared[event.lastEventID] == event.data, "frame \(event.lastEventID)") }
        let ids = a.compactMap { Int($0.lastEventID) }
        #expect(zip(ids, ids.dropFirst()).allSatisfy { $1 == $0 + 1 })
        // Frame k is due at k/fps of the epoch: the ids are the wall clock's.
        #expect(abs(Double(ids.last!) / 20 - WallClock.system.now()) < 5)
        // And each is the frame of the steady loop at that moment.
        let k = ids[3]
        let t = try sharedTime("typing", k, fps: 20, [("count", "4")])
        let single = try get(app, "/loaders/typing/frames?count=4&t=\(t)")
        #expect(String(decoding: single.body, as: UTF8.self) == a[3].data)
        first.close()
        second.close()
        #expect(app.service.sharedClockFrames.count == 0)
    }

    @Test func aResumedSharedStreamGoesOnFromNowAndDurationEndsIt() throws {
        let app = TestApp()
        let stream = try app.open("/loaders/switch/frames?stream=sse&clock=shared&fps=10&duration=0.3")
        app.advance(seconds: 0.5)
        let ids = frames(stream).compactMap { Int($0.lastEventID) }
        #expect(ids.count == 3 && stream.isFinished)
        // An old id is not replayed: the stream starts at the frame due now.
        let resumed = try app.open("/loaders/switch/frames?stream=sse&clock=shared&fps=10", ["Last-Event-ID": "5"])
        #expect(frames(resumed).compactMap { Int($0.lastEventID) }.first! >= ids.last!)
        // An id a little ahead (another replica's clock) is continued.
        let ahead = (Int(frames(resumed)[0].lastEventID) ?? 0) + 5
        let next = try app.open("/loaders/switch/frames?stream=sse&clock=shared&fps=10", ["Last-Event-ID": String(ahead)])
        #expect(frames(next).isEmpty)  // frame ahead + 1 is not due yet
        app.advance(seconds: 0.7)
        #expect(frames(next).first?.lastEventID == String(ahead + 1))
        let later = frames(next).compactMap { Int($0.lastEventID) }
        #expect(zip(later, later.dropFirst()).allSatisfy { $1 == $0 + 1 })
        resumed.close()
        next.close()
    }

    /// One ticker per loop serves every viewer: a viewer that is not reading
    /// skips frames and gets the latest when it reads again; a shutdown ends
    /// each with `event: end`.
    @Test func aSlowViewerSkipsAndShutdownEndsEveryViewer() throws {
        let app = TestApp(server: { $0.streamHighWatermark = 1 })
        let reader = try app.open("/loaders/pulse-dots/frames?stream=sse&clock=shared&fps=10")
        let stalled = try app.open("/loaders/pulse-dots/frames?stream=sse&clock=shared&fps=10")
        stalled.reading = false
        app.advance(seconds: 1)
        #expect(frames(reader).count >= 10)
        #expect(frames(stalled).count <= 2)
        #expect(app.service.metrics.framesSkipped.load(ordering: .relaxed) >= 8)
        stalled.reading = true
        app.advance(seconds: 0.1)
        #expect(frames(stalled).last?.lastEventID == frames(reader).last?.lastEventID)
        app.advance(seconds: 15)
        #expect(reader.text.contains(": keep-alive\n\n"))
        app.server.shutdown()
        for stream in [reader, stalled] {
            #expect(stream.isFinished)
            #expect(stream.text.hasSuffix("event: end\ndata: {\"reason\":\"shutdown\"}\n\n"))
        }
        #expect(app.service.sharedClockFrames.count == 0)
    }

    @Test(arguments: Transport.allCases)
    func sharedClockRefusals(_ transport: Transport) throws {
        let app = try TestApp(transport)
        for (target, words) in [
            ("/loaders/typing/frames?stream=sse&clock=shared&t=1", "t does not apply"),
            ("/loaders/typing/frames?stream=sse&clock=shared&stop=2", "stop, finish and progress"),
            ("/loaders/typing/frames?stream=sse&clock=mine", "clock must be stream"),
            ("/loaders/typing/frames?clock=shared", "clock applies to streams"),
            ("/loaders/typing/frames?clock=shared&from=0&to=1", "clock applies to streams"),
        ] {
            let r = try get(app, target)
            #expect(r.status == 400, "\(target)")
            #expect(try decodeError(r).message.contains(words), "\(target)")
        }
        let preview = try app.request("POST", "/loaders/preview?stream=sse&clock=shared", ["Content-Type": "application/json"],
                                      body: Array(#"{"format":1}"#.utf8))
        #expect(preview.status == 400)
        #expect(try decodeError(preview).message.contains("a preview streams on its own clock"))
    }

    /// Every tick sends one event per loader, in query order, the last with
    /// the tick's id; each frame is the loader's own.
    @Test func multiplexedFramesSayWhichLoader() throws {
        let app = TestApp()
        let stream = try app.open("/streams?loader=typing&loader=switch%3Fduration%3D2%26color%3D%2523FF0000&loader=typing%3Fcount%3D5&fps=10&duration=0.3")
        app.advance(seconds: 0.5)
        #expect(stream.isFinished)
        let events = parseEventStream(stream.text).events
        let ticks = events.filter { $0.type == "frame" }
        #expect(ticks.count == 9)
        #expect(ticks.map(\.lastEventID) == ["", "", "0", "0", "0", "1", "1", "1", "2"])
        struct Event: Decodable { struct Inner: Decodable { let loader: String; let t: Double }; let index: Int; let frame: Inner }
        for (n, event) in ticks.enumerated() {
            let decoded = try JSONDecoder().decode(Event.self, from: Data(event.data.utf8))
            #expect(decoded.index == n % 3)
            #expect(abs(decoded.frame.t - Double(n / 3) / 10) < 1e-12)
        }
        let own = ["/loaders/typing/frames?t=0.1", "/loaders/switch/frames?duration=2&color=%23FF0000&t=0.1", "/loaders/typing/frames?count=5&t=0.1"]
        for (i, target) in own.enumerated() {
            let single = String(decoding: try get(app, target).body, as: UTF8.self)
            #expect(ticks[3 + i].data == #"{"index":\#(i),"frame":"# + single + "}")
        }
        #expect(events.last?.type == "end" && events.last?.data == #"{"reason":"duration"}"#)
    }

    @Test func aLoaderThatIsDoneLeavesTheTicksAndTheLastEndsTheStream() throws {
        let app = TestApp()
        let stream = try app.open("/streams?loader=typing%3Fstop%3D0.1&loader=switch%3Fstop%3D0.25&fps=10")
        app.advance(seconds: 1)
        #expect(stream.isFinished)
        let events = parseEventStream(stream.text).events
        let indexes = events.filter { $0.type == "frame" }.map { $0.data.hasPrefix(#"{"index":0"#) ? 0 : 1 }
        // typing: t = 0, 0.1 (done); switch: t = 0 … 0.3 (done from 0.25).
        #expect(indexes == [0, 1, 0, 1, 1, 1])
        #expect(events.last?.data == #"{"reason":"done"}"#)
    }

    @Test func oneLastEventIDResumesEveryLoader() throws {
        let app = TestApp()
        let stream = try app.open("/streams?loader=typing&loader=pulse-dots&fps=10&duration=1", ["Last-Event-ID": "6"])
        app.advance(seconds: 0.05)
        let ticks = frames(stream)
        #expect(ticks.count == 2 && ticks[1].lastEventID == "7")
        #expect(ticks[0].data.contains(#""t":0.7,"#) && ticks[1].data.contains(#""t":0.7,"#))
        stream.close()
        let over = try get(app, "/streams?loader=typing&fps=10&duration=1", ["Last-Event-ID": "9"])
        #expect(over.status == 204)
    }

    @Test func multiplexedOnTheSharedClock() throws {
        let app = TestApp()
        let stream = try app.open("/streams?loader=typing&loader=material-spinner&clock=shared&fps=30")
        let single = try app.open("/loaders/material-spinner/frames?stream=sse&clock=shared&fps=30")
        app.advance(seconds: 0.2)
        let spinner = Dictionary(uniqueKeysWithValues: frames(single).map { ($0.lastEventID, $0.data) })
        let ticks = frames(stream)
        #expect(ticks.count >= 12)
        for pair in stride(from: 0, to: ticks.count - 1, by: 2) {
            let id = ticks[pair + 1].lastEventID
            #expect(ticks[pair + 1].data == #"{"index":1,"frame":"# + spinner[id]! + "}")
        }
        #expect(app.service.sharedClockFrames.count == 2)
        stream.close()
        single.close()
        #expect(app.service.sharedClockFrames.count == 0)
    }

    /// Shared-clock viewers ride the loop's stream tickers: those of one
    /// fps share a ticker and, with a multiplexed stream of the same loader,
    /// one source of frames. Frame k leaves at its moment of the epoch or
    /// less than a millisecond after, a viewer that goes during a tick leaves
    /// the others going on, and the last takes everything with it.
    @Test func sharedViewersRideTheLoopsTickers() throws {
        let app = TestApp()
        let caches = try #require(app.server.storage as? LoopCaches)
        let loop = app.server.loop
        var viewers: [EmbeddedStream] = []
        for _ in 0..<4 {
            viewers.append(try app.open("/loaders/typing/frames?stream=sse&clock=shared&fps=30"))
            app.advance(seconds: 0.007)
        }
        let multiplexed = try app.open("/streams?loader=typing&clock=shared&fps=30")
        #expect(caches.streamTickers.count == 1 && caches.sharedClockViewers.count == 1)
        let epoch = EpochFrames(fps: 30, wallOffset: app.service.sharedClockFrames.wallOffset(now: loop.now))
        var arrivals: [Int: UInt64] = [:]
        var seen = viewers[0].bytes.count
        for step in 0..<1_500 {
            if step == 500 { viewers[1].closesOnNextWrite = true }
            app.advance(seconds: 0.0001)
            guard viewers[0].bytes.count != seen else { continue }
            seen = viewers[0].bytes.count
            if let id = frames(viewers[0]).last.flatMap({ Int($0.lastEventID) }), arrivals[id] == nil { arrivals[id] = loop.now }
        }
        // The first frame left when the viewer came; each later one on the epoch.
        let joined = try #require(arrivals.keys.min())
        #expect(arrivals.count >= 4)
        for (k, arrived) in arrivals where k > joined {
            #expect(arrived >= epoch.deadline(of: k) && arrived - epoch.deadline(of: k) < TickGrid.quantum + 100_000, "frame \(k)")
        }
        #expect(!viewers[1].isOpen)
        let ids = frames(viewers[0]).map(\.lastEventID)
        for other in [viewers[2], viewers[3]] { #expect(frames(other).map(\.lastEventID) == Array(ids.dropFirst(ids.count - frames(other).count))) }
        #expect(frames(multiplexed).last?.lastEventID == ids.last)
        for viewer in viewers where viewer.isOpen { viewer.close() }
        #expect(caches.streamTickers.count == 1 && caches.sharedClockViewers.count == 1)
        multiplexed.close()
        #expect(caches.streamTickers.count == 0 && caches.sharedClockViewers.count == 0)
        #expect(app.service.sharedClockFrames.count == 0)
    }

    @Test(arguments: Transport.allCases)
    func multiplexedRefusals(_ transport: Transport) throws {
        let app = try TestApp(transport)
        let many = (0...LoaderService.maxMultiplexedLoaders).map { _ in "loader=typing" }.joined(separator: "&")
        for (target, status, words) in [
            ("/streams", 400, "loader must be given 1 to 64 times"),
            ("/streams?\(many)", 400, "loader must be given 1 to 64 times"),
            ("/streams?loader=spinner", 400, "loader 0: no loader named spinner"),
            ("/streams?loader=typing&loader=typing%3Fcount%3D0", 400, "loader 1: count must be"),
            ("/streams?loader=typing%3Fcount%3D%25zz", 400, "loader 0: invalid percent-encoding"),
            ("/streams?loader=typing&count=3", 400, "unknown parameter count"),
            ("/streams?loader=typing&fps=0", 400, "fps must be"),
            ("/streams?loader=typing&fps=10&fps=20", 400, "fps is given more than once"),
            ("/streams?loader=typing&clock=shared&t=2", 400, "t does not apply"),
            ("/streams?loader=typing%3Fstop%3D1&clock=shared", 400, "stop, finish and progress"),
            ("/streams?loader=typing&stream=json", 400, "stream must be sse"),
        ] {
            let r = try get(app, target)
            #expect(r.status == status, "\(target)")
            let message = try decodeError(r).message
            #expect(message.contains(words), "\(target): \(message)")
        }
        let json = try get(app, "/streams?loader=typing", ["Accept": "application/json"])
        #expect(json.status == 406)
    }
}
