import Dispatch
import FoundationEssentials
import EventLoop
import HTTPServer
import HTTPTestSupport
import LoaderEngine
import Synchronization
import Testing
@testable import LoaderService

/// The bounds of issue "bounded under attack" that one request or client
/// meets: work per request and per stream, streams per client and in all,
/// sessions created per client. Each refusal is a JSON error with its code.
// One at a time: one test fills the dispatch pool that the others' heavy
// work runs on.
@Suite(.serialized) struct LimitsTests {
    static let json = ["Content-Type": "application/json"]

    /// A replicator of `count` dots, each with `animations` fades: by the
    /// documented rule (a visit per layer and copy, one per animation
    /// evaluated) a frame costs 1 + count × (1 + animations).
    static func dots(_ count: Int, animations: Int) -> String {
        let fade = #"{"type": "basic", "keyPath": "opacity", "toValue": 0, "duration": 1, "repeatCount": "infinity"}"#
        let dot = #"{"type": "circle", "id": "dot", "diameter": 2, "animations": [\#(Array(repeating: fade, count: animations).joined(separator: ","))]}"#
        return #"{"format": 1, "name": "dots", "summary": "Dots.", "canvas": {"width": 20, "height": 20}, "layers": [{"type": "replicator", "id": "r", "bounds": [20, 20], "instanceCount": \#(count), "sublayers": [\#(dot)]}]}"#
    }

    @Test(arguments: Transport.allCases)
    func aStreamsWorkASecondIsBounded(_ transport: Transport) throws {
        let app = try TestApp(transport)
        // 1 + 1000 × 11 = 11,001 units a frame: 1,320,120 a second at 120 fps.
        let heavy = Self.dots(1000, animations: 10)
        let refused = try app.request("POST", "/loaders/preview?stream=sse&fps=120", Self.json, body: Array(heavy.utf8))
        #expect(refused.status == 400)
        let error = try decodeError(refused)
        #expect(error.code == "too_costly" && error.message.contains("maxStreamWorkPerSecond is 1000000"), "\(error.message)")
        // At 60 fps, 660,060 a second: it streams.
        let streamed = try app.request("POST", "/loaders/preview?stream=sse&fps=60&duration=0.1", Self.json, body: Array(heavy.utf8), streamSeconds: 1)
        #expect(streamed.status == 200 && parseEventStream(streamed.text).events.filter { $0.type == "frame" }.count == 6)
    }

    @Test(arguments: Transport.allCases)
    func aBatchStopsAtItsWorkWithANextLink(_ transport: Transport) throws {
        // typing: a replicator and 3 copies of a dot with 3 animations, 13 units a frame.
        let app = try TestApp(transport) { $0.maxWorkPerRequest = 1300 }
        let page = try get(app, "/loaders/typing/frames?from=0&to=10&fps=30")
        #expect(page.status == 200)
        struct Batch: Decodable { let frames: [Frame]; let next: String?; struct Frame: Decodable { let t: Double } }
        let batch = try JSONDecoder().decode(Batch.self, from: Data(page.body))
        #expect(batch.frames.count == 100)
        #expect(batch.next?.hasPrefix("/loaders/typing/frames?from=3.333333333333333") == true, "\(batch.next ?? "")")
        #expect(page.headers["link"]?.contains("rel=\"next\"") == true)
    }

    @Test(arguments: Transport.allCases)
    func anExportThatCouldCostTooMuchIsRefused(_ transport: Transport) throws {
        let app = try TestApp(transport) { $0.maxWorkPerRequest = 1000 }
        let refused = try get(app, "/loaders/typing/animation.svg")
        #expect(try refused.status == 400 && decodeError(refused).code == "too_costly")
        #expect(try get(TestApp(transport), "/loaders/typing/animation.svg").status == 200)
    }

    /// A picture's work counts each element over every pixel of a frame
    /// (docs/LOADERS.md). Typing's loop at dpr 2 (180 frames of 13 units
    /// at 30 fps, 140 × 40 pixels) costs 180 × (13 × (1 + 5600 / 24) +
    /// 5600 / 4), 799,560 units (a GIF twice that): with fps asked, past a
    /// limit of 400,000 it is refused; without, it is drawn with fewer
    /// frames, never fewer pixels, and Loader-Frame-Rate says how many.
    @Test(arguments: Transport.allCases)
    func anAnimationWithoutFpsIsDrawnAtAFrameRateThatFits(_ transport: Transport) throws {
        let app = try TestApp(transport) { $0.maxWorkPerRequest = 400_000 }
        for file in ["animation.png", "animation.gif"] {
            let refused = try get(app, "/loaders/typing/\(file)?dpr=2&fps=30")
            #expect(try refused.status == 400 && decodeError(refused).code == "too_costly", "\(file)")
            for (query, pixels) in [("?dpr=2", 140), ("", 70)] {
                let fitted = try get(app, "/loaders/typing/\(file)\(query)")
                #expect(fitted.status == 200, "\(file)\(query)")
                // The width: PNG's IHDR (bytes 16 to 19, big-endian), GIF's screen descriptor (bytes 6 and 7, little-endian).
                let b = fitted.body
                let width = file.hasSuffix(".png") ? Int(b[16]) << 24 | Int(b[17]) << 16 | Int(b[18]) << 8 | Int(b[19]) : Int(b[6]) | Int(b[7]) << 8
                #expect(width == pixels, "\(file)\(query): \(width) pixels wide")
                let rate = Double(fitted.headers["loader-frame-rate"] ?? "") ?? 0
                #expect(query.isEmpty && file.hasSuffix(".png") ? rate == 30 : rate > 1 && rate < 30, "\(file)\(query): \(rate) frames a second")
            }
        }
        #expect(try get(TestApp(transport), "/loaders/typing/animation.png?dpr=2").headers["loader-frame-rate"] == "30")
        #expect(try get(TestApp(transport), "/loaders/typing/animation.gif?fps=12.5").headers["loader-frame-rate"] == "12.5")
        // A page on another origin reads it.
        let cors = try get(TestApp(transport), "/loaders/typing/animation.png?fps=2", ["Origin": "https://example.com"])
        #expect(cors.headers["access-control-expose-headers"]?.contains("Loader-Frame-Rate") == true)
    }

    /// A preview's stream computes frames no other stream shares: it is
    /// heavy work for as long as it runs, and holds its client's place. The
    /// client's next heavy requests wait for that place, in order, up to
    /// maxHeavyWaitingPerClient; one more gets 429.
    @Test func aPreviewStreamHoldsItsHeavyPlaceUntilItEnds() throws {
        let app = TestApp {
            $0.maxHeavyRequestsPerClient = 1
            $0.maxHeavyWaitingPerClient = 2
            $0.heavyWaitSeconds = 60
        }
        let body = Self.dots(3, animations: 1)
        let open = app.server.request(.POST, "/loaders/preview?stream=sse&fps=10", headers: [("Content-Type", "application/json")], body: Array(body.utf8))
        guard let stream = open.stream else { Issue.record("no stream: \(open.status)"); return }
        let waiting = (0..<2).map { i in
            let client = TestClient(embedded: app.server)
            client.send("POST /loaders/preview?t=\(i + 1) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            return client
        }
        #expect(app.server.wait { app.service.heavyWork.waiting == 2 })
        let refused = try app.request("POST", "/loaders/preview?t=3", Self.json, body: Array(body.utf8))
        #expect(try refused.status == 429 && decodeError(refused).code == "too_many_heavy_requests" && refused.headers["retry-after"] == "1")
        #expect(app.service.heavyWork.count == 1 && app.service.heavyWork.waiting == 2)
        // Counted for an alert: the gauges never see a request refused at the door.
        #expect(try Self.metricLines(app).contains(#"loaderd_heavy_refused_total{reason="client_busy"} 1"#))
        stream.close()
        for (i, client) in waiting.enumerated() {
            let answer = try #require(client.readResponse())
            struct Answer: Decodable { let t: Double }
            #expect(try answer.status == 200 && JSONDecoder().decode(Answer.self, from: Data(answer.body)).t == Double(i + 1))
        }
        #expect(app.server.wait { app.service.heavyWork.count == 0 && app.service.heavyWork.waiting == 0 })
        #expect(try app.request("POST", "/loaders/preview?t=1", Self.json, body: Array(body.utf8)).status == 200)
    }

    /// One client never holds every heavy worker: its running places are at
    /// most one fewer than the workers (at least one).
    @Test func oneClientsPlacesLeaveAWorkerForTheOthers() {
        for (workers, asked, places) in [(1, 2, 1), (2, 2, 1), (3, 2, 2), (3, 10, 2), (8, 2, 2), (8, 1, 1)] {
            let app = TestApp { $0.heavyWorkers = workers; $0.maxHeavyRequestsPerClient = asked }
            #expect(app.service.heavyWork.perClient == places, "\(workers) workers, \(asked) asked")
        }
    }

    /// A request waiting for its client's place waits at most
    /// heavyWaitSeconds in all, then gets 503; it never runs.
    @Test func aWaitForTheClientsOwnPlaceEndsAtHeavyWaitSeconds() throws {
        let app = TestApp {
            $0.maxHeavyRequestsPerClient = 1
            $0.maxHeavyWaitingPerClient = 1
            $0.heavyWaitSeconds = 0.2
        }
        let body = Array(Self.dots(3, animations: 1).utf8)
        let open = app.server.request(.POST, "/loaders/preview?stream=sse&fps=10", headers: [("Content-Type", "application/json")], body: body)
        guard let stream = open.stream else { Issue.record("no stream: \(open.status)"); return }
        let waited = try app.request("POST", "/loaders/preview?t=1", Self.json, body: body)
        #expect(try waited.status == 503 && decodeError(waited).code == "overloaded" && waited.headers["retry-after"] == "1")
        #expect(app.service.heavyWork.waiting == 0 && app.service.heavyWork.count == 1)
        let lines = try Self.metricLines(app)
        #expect(lines.contains(#"loaderd_heavy_refused_total{reason="wait_timeout"} 1"#) && lines.contains(#"loaderd_heavy_refused_total{reason="client_busy"} 0"#))
        stream.close()
        #expect(app.server.wait { app.service.heavyWork.count == 0 })
    }

    /// A client's waiting requests wait for its own places, never in the
    /// workers' queue: with one worker busy on client A's long batch and
    /// five more of A's waiting, client B's request is the next to run (the
    /// access log, written as answers end, gives the order).
    @Test func oneClientsWaitingRequestsDoNotTakeTheWorkersFromOthers() throws {
        let a = try SocketAddress(host: "192.0.2.1", port: 40_000), b = try SocketAddress(host: "192.0.2.2", port: 40_000)
        let lines = try AccessLogTests().withLogFile { logger in
            let app = TestApp({
                $0.logLevel = .info
                $0.heavyWorkers = 1
                $0.heavyWaitSeconds = 60
                $0.maxHeavyRequestsPerClient = 1
                $0.maxHeavyWaitingPerClient = 8
                $0.maxWorkPerRequest = 1 << 40
            }, logger: logger)
            let service = app.service
            func preview(_ query: String, _ body: String, from peer: SocketAddress) -> TestClient {
                let client = TestClient(embedded: app.server, from: peer, timeoutSeconds: 30)
                client.send("POST /loaders/preview?\(query) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
                return client
            }
            // The one worker busy for 20 s or more (as in aBatchWhoseClientLeftStops).
            let long = preview("from=0&to=100&fps=100", Self.dots(10, animations: 2400), from: a)
            #expect(app.server.wait { service.heavyWork.count == 1 })
            let queued = (0..<5).map { i in preview("t=\(i)", Self.dots(3, animations: 1), from: a) }
            #expect(app.server.wait { service.heavyWork.waiting == 5 })
            let other = preview("t=9", Self.dots(3, animations: 1), from: b)
            #expect(app.server.wait { service.heavyWork.waiting == 6 && service.heavyWork.count == 2 })
            // The worker comes free; every waiting request is answered.
            long.shutdownWrite()
            for client in queued + [other] { #expect(client.readResponse()?.status == 200) }
        }
        let previews = lines.filter { $0.msg == "request" && $0.path == "/loaders/preview" && $0.status == 200 }.map { $0.client ?? "" }
        #expect(previews == ["192.0.2.2"] + Array(repeating: "192.0.2.1", count: 5), "\(previews)")
    }

    /// A costly batch whose client leaves stops at the next frame: its
    /// heavy place is given back long before its frames would be done, and
    /// it is counted as 499 (never written).
    @Test func aBatchWhoseClientLeftStops() throws {
        // 24,011 units a frame (about 2 ms) of 10 small elements: 10,000
        // frames (1 MB, one page) would take 20 s or more.
        let app = TestApp { $0.maxWorkPerRequest = 1 << 40 }
        let body = Self.dots(10, animations: 2400)
        let client = app.server.connect()
        client.write("POST /loaders/preview?from=0&to=100&fps=100 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        #expect(app.server.wait { app.service.heavyWork.count == 1 })
        client.close()  // the client leaves
        #expect(app.server.wait { app.service.heavyWork.count == 0 })
        #expect(client.received.isEmpty)
        let metrics = try get(app, "/metrics").text
        #expect(metrics.contains(#"route="/loaders/preview",method="POST",status="499"} 1"#), "\(metrics.split(separator: "\n").filter { $0.contains("preview") })")
    }

    /// With every worker busy, a heavy request waits at most
    /// heavyWaitSeconds, then gets 503 with Retry-After; it never runs.
    @Test func aHeavyRequestWaitsForAWorkerAtMostHeavyWaitSeconds() throws {
        let app = TestApp {
            $0.heavyWorkers = 1
            $0.heavyWaitSeconds = 0.2
            $0.maxHeavyRequestsPerClient = 10
            $0.maxWorkPerRequest = 1 << 40
        }
        let service = app.service
        func preview(_ query: String, _ body: String) -> TestClient {
            let client = TestClient(embedded: app.server)
            client.send("POST /loaders/preview?\(query) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            return client
        }
        // The one worker busy for 20 s or more (as in aBatchWhoseClientLeftStops).
        let long = preview("from=0&to=100&fps=100", Self.dots(10, animations: 2400))
        #expect(app.server.wait { service.heavyWork.count == 1 && service.heavyWork.waiting == 0 })
        let waiting = preview("t=1", Self.dots(3, animations: 1))
        #expect(app.server.wait { service.heavyWork.waiting == 1 })
        let refused = try #require(waiting.readResponse())
        #expect(try refused.status == 503 && decodeError(refused).code == "overloaded" && refused.headers["retry-after"] == "1")
        #expect(service.heavyWork.waiting == 0)
        // Once the long one's client leaves, the worker is free again.
        long.shutdownWrite()
        #expect(app.server.wait { service.heavyWork.count == 0 })
        let after = try #require(preview("t=1", Self.dots(3, animations: 1)).readResponse())
        #expect(after.status == 200)
    }

    /// The wait's deadline needs no thread of the pool the workers run on:
    /// with that pool full (here, of tasks that block), a heavy request
    /// still gets its 503 after heavyWaitSeconds. Its deadline used to run
    /// on the same pool, and fired only once a thread was free.
    @Test func aWaitEndsOnTimeWhileEveryPoolThreadIsBusy() throws {
        let app = TestApp {
            $0.heavyWaitSeconds = 0.2
            $0.maxHeavyRequestsPerClient = 10
        }
        let gate = DispatchSemaphore(value: 0)
        let blockers = 4 * HTTPServerConfiguration.cores
        for _ in 0..<blockers { DispatchQueue.global().async { gate.wait() } }
        defer { for _ in 0..<blockers { gate.signal() } }
        let body = Self.dots(3, animations: 1)
        let client = TestClient(embedded: app.server)
        client.send("POST /loaders/preview?t=1 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        let refused = try #require(client.readResponse())
        #expect(try refused.status == 503 && decodeError(refused).code == "overloaded")
    }

    @Test func theWorkerPoolRunsInOrderAndWithdrawsWhatWaits() {
        let pool = WorkerPool(width: 1)
        let gate = DispatchSemaphore(value: 0)
        let ran = Mutex<[Int]>([])
        let first = pool.submit { gate.wait(); ran.withLock { $0.append(1) } }
        let second = pool.submit { ran.withLock { $0.append(2) } }
        _ = pool.submit { ran.withLock { $0.append(3) } }
        #expect(eventually { pool.waiting == 2 })  // the first has started
        #expect(pool.withdraw(first) == nil)
        #expect(pool.withdraw(second) != nil && pool.withdraw(second) == nil)
        #expect(pool.waiting == 1)
        gate.signal()
        #expect(eventually { ran.withLock { $0 } == [1, 3] })
        #expect(pool.waiting == 0)
        // Empty, then used again.
        _ = pool.submit { ran.withLock { $0.append(4) } }
        #expect(eventually { ran.withLock { $0 } == [1, 3, 4] })
    }

    @Test func streamsPerClientAndInAll() throws {
        let app = TestApp { $0.maxStreamsPerClient = 2 }
        let a = try app.open("/loaders/typing/frames?stream=sse")
        let b = try app.open("/streams?loader=typing&loader=switch")
        let third = try get(app, "/loaders/switch/frames?stream=sse&duration=1")
        #expect(third.status == 429 && third.headers["retry-after"] == "1")
        #expect(try decodeError(third).code == "too_many_streams")
        a.close()
        let again = try app.open("/loaders/web/frames?stream=sse")
        #expect(again.isOpen)
        again.close()
        b.close()

        let full = TestApp { $0.maxStreams = 1 }
        let only = try full.open("/loaders/typing/frames?stream=sse")
        let refused = try get(full, "/loaders/typing/frames?stream=sse&duration=1")
        #expect(refused.status == 503 && refused.headers["retry-after"] == "1")
        only.close()
    }

    /// The limits an alert divides by are in /metrics as set.
    @Test(arguments: Transport.allCases)
    func theLimitsAreInMetrics(_ transport: Transport) throws {
        let app = try TestApp(transport) { $0.maxStreams = 7; $0.maxConnections = 300; $0.heavyWorkers = 3 }
        let lines = try Self.metricLines(app)
        #expect(lines.contains("loaderd_max_streams 7") && lines.contains("loaderd_max_connections 300") && lines.contains("loaderd_heavy_workers 3"),
                "\(lines.filter { $0.hasPrefix("loaderd_max") || $0.hasPrefix("loaderd_heavy") })")
    }

    /// The lines of `/metrics`.
    static func metricLines(_ app: TestApp) throws -> [String] {
        try get(app, "/metrics").text.split(separator: "\n").map(String.init)
    }

    @Test(arguments: Transport.allCases)
    func sessionsCreatedPerClient(_ transport: Transport) throws {
        let app = try TestApp(transport) { $0.sessionCreateRate = 0.001; $0.sessionCreateBurst = 3; $0.sessionCreateKey = "backend-secret" }
        let body = Array(#"{"loader":"web"}"#.utf8)
        for _ in 0..<3 { #expect(try app.request("POST", "/sessions", Self.json, body: body).status == 201) }
        let refused = try app.request("POST", "/sessions", Self.json, body: body)
        #expect(try refused.status == 429 && decodeError(refused).code == "too_many_session_creations")
        // A token a thousand seconds: the wait is rounded up to whole seconds.
        #expect(refused.headers["retry-after"] == "1000")
        // A backend with the key is not limited by address; a wrong key is.
        var keyed = Self.json
        keyed["Authorization"] = "Bearer backend-secret"
        for _ in 0..<5 { #expect(try app.request("POST", "/sessions", keyed, body: body).status == 201) }
        keyed["Authorization"] = "Bearer backend-secreT"
        #expect(try app.request("POST", "/sessions", keyed, body: body).status == 429)

        let full = try TestApp(transport) { $0.maxSessions = 1 }
        #expect(try full.request("POST", "/sessions", Self.json, body: body).status == 201)
        let none = try full.request("POST", "/sessions", Self.json, body: body)
        #expect(none.status == 503 && none.headers["retry-after"] != nil)
    }
}
