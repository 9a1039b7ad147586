import Testing
@testable import HTTPServer
@testable import LoaderService

/// Own-clock streams (the default) on the loop's tickers: each keeps its
/// own clock, while streams whose clocks tick together share one timer.
struct OwnClockTests {
    func frames(_ stream: EmbeddedStream) -> [DispatchedEvent] { parseEventStream(stream.text).events.filter { $0.type == "frame" } }

    /// `place` finds a grid's tick at a moment or less than a millisecond
    /// after it, and `tick(at:)` is the inverse of `deadline(of:)`.
    @Test func aPlacedTickIsDueAtItsMomentOrWithinAMillisecond() {
        var random = SystemRandomNumberGenerator()
        for fps in [1, 7.5, 24, 29.97, 30, 60, 120] {
            for _ in 0..<2_000 {
                let time = UInt64.random(in: 1_000_000_000...1_000_000_000_000_000, using: &random)
                let (grid, j) = TickGrid.place(time, fps: fps)
                let due = grid.deadline(of: j)
                #expect(due >= time && due - time < TickGrid.quantum, "fps \(fps), time \(time)")
                #expect(grid.offset % TickGrid.quantum == 0 && Double(grid.offset) < grid.period)
                #expect(grid.tick(at: due) == j && grid.tick(at: due - 1) == j - 1)
            }
        }
    }

    /// Streams started 0.4 ms apart share a few tickers, and every frame k
    /// still leaves k/fps after its own stream's first: never before, and
    /// less than a millisecond after.
    @Test func eachStreamKeepsItsOwnClockOnASharedTicker() throws {
        let app = TestApp()
        let caches = try #require(app.server.storage as? LoopCaches)
        let loop = app.server.loop
        var streams: [(stream: EmbeddedStream, began: UInt64)] = []
        for _ in 0..<12 {
            streams.append((try app.open("/loaders/typing/frames?fps=30&stream=sse"), loop.now))
            app.advance(seconds: 0.0004)
        }
        #expect(caches.streamTickers.count >= 2 && caches.streamTickers.count <= 6)
        var arrivals = streams.map { _ in [UInt64]() }
        var seen = streams.map { $0.stream.bytes.count }
        for _ in 0..<2_000 {
            app.advance(seconds: 0.0001)
            for (i, s) in streams.enumerated() where s.stream.bytes.count != seen[i] {
                seen[i] = s.stream.bytes.count
                while arrivals[i].count < frames(s.stream).count - 1 { arrivals[i].append(loop.now) }
            }
        }
        for (i, s) in streams.enumerated() {
            #expect(frames(s.stream).map(\.lastEventID) == (0...arrivals[i].count).map(String.init))
            #expect(arrivals[i].count >= 5)
            for (n, arrived) in arrivals[i].enumerated() {
                let own = s.began + UInt64((Double(n + 1) / 30 * 1e9).rounded(.up))
                #expect(arrived >= own && arrived - own < TickGrid.quantum + 100_000, "stream \(i), frame \(n + 1)")
            }
        }
        for s in streams { s.stream.close() }
        #expect(caches.streamTickers.count == 0)
    }

    /// Streams of one ticker that end or go during a tick leave it; the
    /// others go on, the counts are exact, and the last takes the ticker
    /// with it.
    @Test func streamsThatEndOrGoDuringATickLeaveTheOthersGoingOn() throws {
        let app = TestApp(server: { $0.streamHighWatermark = 1 })
        let caches = try #require(app.server.storage as? LoopCaches)
        let short = try app.open("/loaders/typing/frames?fps=10&duration=0.3&stream=sse")
        let gone = try app.open("/loaders/typing/frames?fps=10&stream=sse")
        let slow = try app.open("/loaders/typing/frames?fps=10&stream=sse")
        let long = try app.open("/loaders/typing/frames?fps=10&stream=sse&t=1")
        #expect(caches.streamTickers.count == 1)
        slow.reading = false
        app.advance(seconds: 0.1)
        gone.closesOnNextWrite = true
        app.advance(seconds: 0.25)
        #expect(!short.isOpen && short.text.hasSuffix("event: end\ndata: {\"reason\":\"duration\"}\n\n"))
        #expect(frames(short).map(\.lastEventID) == ["0", "1", "2"])
        #expect(!gone.isOpen && frames(gone).count == 2)
        #expect(frames(long).map(\.lastEventID) == ["0", "1", "2", "3"])
        let first = try #require(frames(long).first)
        #expect(first.data.contains(#""t":1,"#))
        // The slow client took frames 0 and 1, which filled it: 2 and 3 skipped.
        slow.reading = true
        #expect(frames(slow).map(\.lastEventID) == ["0", "1"])
        #expect(app.service.metrics.framesSkipped.load(ordering: .relaxed) == 2)
        // Sent: short 3, gone 3 (the last went to a closing client), slow 2, long 4.
        #expect(app.service.metrics.framesSent.load(ordering: .relaxed) == 3 + 3 + 2 + 4)
        long.close()
        #expect(caches.streamTickers.count == 1)
        slow.close()
        #expect(caches.streamTickers.count == 0)
    }
}
