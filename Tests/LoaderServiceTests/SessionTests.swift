import Dispatch
import FoundationEssentials
import Glibc
import HTTPTestSupport
import LoaderEngine
import Synchronization
import Testing
@testable import HTTPServer
@testable import LoaderService
@testable import LoaderSessions

@Suite(.serialized)
struct SessionTests {
    struct Created: Decodable { let id: String; let token: String; let loader: String; let createdAt: String }
    struct State: Decodable {
        struct Event: Decodable { let type: String; let t: Double }
        let id: String; let loader: String; let t: Double; let done: Bool; let events: [Event]
    }
    struct Element: Decodable { let id: String; let opacity: Double }
    struct Frame: Decodable { let t: Double; let done: Bool; let elements: [Element] }

    func request(_ app: TestApp, _ method: String, _ target: String, token: String? = nil, body: String? = nil,
                 headers: [String: String] = [:]) throws -> TestResponse {
        var h = headers
        if let token { h["Authorization"] = "Bearer \(token)" }
        if body != nil { h["Content-Type"] = "application/json" }
        return try app.request(method, target, h, body: Array((body ?? "").utf8))
    }

    func create(_ app: TestApp, _ body: String = #"{"loader":"web"}"#) throws -> Created {
        let r = try request(app, "POST", "/sessions", body: body)
        #expect(r.status == 201)
        let created = try JSONDecoder().decode(Created.self, from: Data(r.body))
        #expect(r.headers["location"] == "/sessions/\(created.id)")
        return created
    }

    /// Session time is the store's clock, here the test's: a session's `t`
    /// is the time since it was created, and one left alone for longer
    /// than sessionTtlSeconds is gone (410), with no real time waited.
    @Test(arguments: Transport.allCases)
    func sessionsKeepTheStoresTimeAndExpire(_ transport: Transport) throws {
        let seconds = Mutex(1_800_000_000.0)
        let clock = WallClock { seconds.withLock { $0 } }
        var limits = SessionLimits()
        limits.ttlSeconds = 60
        let store = LocalSessionStore(inMemory: limits, catalog: .standard, replicaName: nil, logger: Logger(level: .off), clock: clock)
        let app = try TestApp(transport, { $0.sessionTtlSeconds = 60 }, sessions: store)
        let s = try create(app)
        seconds.withLock { $0 += 30.25 }
        let state = try JSONDecoder().decode(State.self, from: Data(try request(app, "GET", "/sessions/\(s.id)").body))
        #expect(state.t == 30.25)
        #expect(try request(app, "POST", "/sessions/\(s.id)/events", token: s.token, body: #"{"type":"progress"}"#).status == 202)
        seconds.withLock { $0 += 59 }
        #expect(try request(app, "GET", "/sessions/\(s.id)").status == 200)
        seconds.withLock { $0 += 2 }
        let gone = try request(app, "GET", "/sessions/\(s.id)")
        #expect(try gone.status == 410 && decodeError(gone).code == "session_expired")
    }

    @Test(arguments: Transport.allCases)
    func createReadAndTheTokenGuardsWrites(_ transport: Transport) throws {
        let app = try TestApp(transport)
        let s = try create(app, ##"{"loader":"web","params":{"color":"#ff0000","pulseDuration":0.5}}"##)
        #expect(s.id.count >= 22 && s.token.count >= 43 && s.id != s.token)
        let urlSafe = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        #expect(s.id.allSatisfy { urlSafe.contains($0) } && s.token.allSatisfy { urlSafe.contains($0) })
        let state = try JSONDecoder().decode(State.self, from: Data(request(app, "GET", "/sessions/\(s.id)").body))
        #expect(state.loader == "web" && !state.done && state.events.isEmpty && state.t >= 0)

        #expect(try request(app, "POST", "/sessions/\(s.id)/events", body: #"{"type":"progress"}"#).status == 401)
        #expect(try request(app, "POST", "/sessions/\(s.id)/events", token: "wrong", body: #"{"type":"progress"}"#).status == 401)
        #expect(try request(app, "POST", "/sessions/nope/events", token: s.token, body: #"{"type":"progress"}"#).status == 404)
        #expect(try request(app, "POST", "/sessions/\(s.id)/events", token: s.token, body: #"{"type":"jump"}"#).status == 400)
        #expect(try request(app, "POST", "/sessions/\(s.id)/events", token: s.token, body: #"{"type":"#).status == 400)
        #expect(try request(app, "POST", "/sessions/\(s.id)/events", token: s.token, body: #"{"type":"stop","extra":1}"#).status == 400)
        let accepted = try request(app, "POST", "/sessions/\(s.id)/events", token: s.token, body: #"{"type":"progress"}"#)
        #expect(accepted.status == 202)
        #expect(try request(app, "DELETE", "/sessions/\(s.id)", token: "wrong").status == 401)
        #expect(try request(app, "DELETE", "/sessions/\(s.id)", token: s.token).status == 204)
        #expect(try request(app, "GET", "/sessions/\(s.id)").status == 404)
    }

    /// A body past the size parsed on the loop (16 KiB) is read only once
    /// the session and the token are known good: a stranger's megabyte
    /// gets its 404 or 401 unread; a good client's large body still works.
    @Test(arguments: Transport.allCases)
    func aLargeBodyIsReadAfterTheSessionAndItsToken(_ transport: Transport) throws {
        let app = try TestApp(transport)
        let s = try create(app)
        let broken = "{\"type\":" + String(repeating: "[", count: 20_000)
        let padded = "{\"type\":\"progress\"" + String(repeating: " ", count: 20_000) + "}"
        #expect(try request(app, "POST", "/sessions/nope/events", token: s.token, body: broken).status == 404)
        #expect(try request(app, "POST", "/sessions/\(s.id)/events", body: broken).status == 401)
        #expect(try request(app, "POST", "/sessions/\(s.id)/events", token: "wrong", body: broken).status == 401)
        let refused = try request(app, "POST", "/sessions/\(s.id)/events", token: s.token, body: broken)
        #expect(try refused.status == 400 && decodeError(refused).code == "invalid_body")
        #expect(try request(app, "POST", "/sessions/\(s.id)/events", token: s.token, body: padded).status == 202)
        let state = try JSONDecoder().decode(State.self, from: Data(request(app, "GET", "/sessions/\(s.id)").body))
        #expect(state.events.map(\.type) == ["progress"])
        let created = try request(app, "POST", "/sessions", body: "{\"loader\":\"web\"" + String(repeating: " ", count: 20_000) + "}")
        #expect(created.status == 201)
        let many = "{" + (0..<3000).map { "\"k\($0)\":0" }.joined(separator: ",") + "}"
        let unknown = try request(app, "POST", "/sessions", body: many)
        #expect(try unknown.status == 400 && decodeError(unknown).code == "invalid_body")
    }

    @Test(arguments: Transport.allCases)
    func eventsComeInPages(_ transport: Transport) throws {
        let app = try TestApp(transport)
        let s = try create(app)
        try expectEventPages(of: s.id, count: 0) { try request(app, "GET", $0) }
        for _ in 0..<2500 { #expect(try request(app, "POST", "/sessions/\(s.id)/events", token: s.token, body: #"{"type":"progress"}"#).status == 202) }
        try expectEventPages(of: s.id, count: 2500) { try request(app, "GET", $0) }
    }

    @Test(arguments: Transport.allCases)
    func badCreations(_ transport: Transport) throws {
        let app = try TestApp(transport)
        for (body, code) in [
            (#"{"loader":"spinner"}"#, "invalid_parameter"),
            (#"{}"#, "invalid_parameter"),
            (#"{"loader":"web","params":{"count":3}}"#, "unknown_parameter"),
            (#"{"loader":"web","params":{"progress":"1"}}"#, "unknown_parameter"),
            (#"{"loader":"web","params":{"dropSize":-1}}"#, "invalid_parameter"),
            (#"{"loader":"web","extra":true}"#, "invalid_body"),
            (#"[1,2]"#, "invalid_body"),
            (#"not json"#, "invalid_body"),
        ] {
            let r = try request(app, "POST", "/sessions", body: body)
            #expect(r.status == 400, "\(body)")
            #expect(try decodeError(r).code == code, "\(body)")
        }
    }

    @Test(arguments: Transport.allCases)
    func eventsChangeFramesAsTheSpecSays(_ transport: Transport) throws {
        let app = try TestApp(transport)
        // typing and switch take stop only; stop ends them.
        let typing = try create(app, #"{"loader":"typing"}"#)
        #expect(try request(app, "POST", "/sessions/\(typing.id)/events", token: typing.token, body: #"{"type":"progress"}"#).status == 400)
        #expect(try JSONDecoder().decode(Frame.self, from: Data(request(app, "GET", "/sessions/\(typing.id)/frames").body)).elements.count == 3)
        #expect(try request(app, "POST", "/sessions/\(typing.id)/events", token: typing.token, body: #"{"type":"stop"}"#).status == 202)
        let stopped = try JSONDecoder().decode(Frame.self, from: Data(request(app, "GET", "/sessions/\(typing.id)/frames").body))
        #expect(stopped.done && stopped.elements.isEmpty)
        #expect(try request(app, "POST", "/sessions/\(typing.id)/events", token: typing.token, body: #"{"type":"stop"}"#).status == 409)

        // web: a drop appears at each progress time; finish fades the indicator.
        let web = try create(app, #"{"loader":"web","params":{"pulseDuration":0.05,"dropDuration":0.2}}"#)
        let progress = try request(app, "POST", "/sessions/\(web.id)/events", token: web.token, body: #"{"type":"progress"}"#)
        struct Posted: Decodable { let type: String; let t: Double }
        let p = try JSONDecoder().decode(Posted.self, from: Data(progress.body))
        // Once the session clock has passed it, the frame just after the event shows the drop.
        #expect(eventually { (try? request(app, "GET", "/sessions/\(web.id)/frames?t=\(p.t + 0.01)").status) == 200 })
        let atDrop = try JSONDecoder().decode(Frame.self, from: Data(request(app, "GET", "/sessions/\(web.id)/frames?t=\(p.t + 0.01)").body))
        #expect(atDrop.elements.map(\.id).contains("drop0"))
        let before = try JSONDecoder().decode(Frame.self, from: Data(request(app, "GET", "/sessions/\(web.id)/frames?t=\(max(0, p.t - 0.001))").body))
        #expect(!before.elements.map(\.id).contains("drop0"))
        #expect(try request(app, "GET", "/sessions/\(web.id)/frames?t=1e9").status == 409)
        #expect(try request(app, "POST", "/sessions/\(web.id)/events", token: web.token, body: #"{"type":"finish"}"#).status == 202)
        #expect(try request(app, "POST", "/sessions/\(web.id)/events", token: web.token, body: #"{"type":"progress"}"#).status == 409)
        // The indicator completes its leg, fades over one more and the last drop lands.
        #expect(eventually(3) {
            (try? JSONDecoder().decode(State.self, from: Data(request(app, "GET", "/sessions/\(web.id)").body)).done) == true
        })
        let state = try JSONDecoder().decode(State.self, from: Data(request(app, "GET", "/sessions/\(web.id)").body))
        #expect(state.events.map(\.type) == ["progress", "finish"])
        #expect(try request(app, "POST", "/sessions/\(web.id)/events", token: web.token, body: #"{"type":"stop"}"#).status == 409)
    }

    @Test func viewersShareFrameIdsAndStreamsEndWhenDone() throws {
        let app = TestApp()
        let s = try create(app, #"{"loader":"typing"}"#)
        let viewers = try (0..<6).map { _ in try app.open("/sessions/\(s.id)/frames?fps=20", ["Accept": "text/event-stream"]) }
        #expect(viewers.allSatisfy { $0.text.contains("event: frame") })
        #expect(try (app.service.sessions as! LocalSessionStore).snapshot(s.id).viewers == 6)
        // Let a few frames pass on the streams' clock, then stop: every stream ends.
        app.advance(seconds: 0.2)
        #expect(try request(app, "POST", "/sessions/\(s.id)/events", token: s.token, body: #"{"type":"stop"}"#).status == 202)
        app.advance(seconds: 0.1)
        var idSets: [Set<String>] = []
        for v in viewers {
            let events = parseEventStream(v.text).events
            #expect(!v.isOpen && events.last?.type == "end")
            idSets.append(Set(events.filter { $0.type == "frame" }.map(\.lastEventID)))
        }
        // Started together, they were sent the same frames under the same ids.
        let common = idSets.dropFirst().reduce(idSets[0]) { $0.intersection($1) }
        #expect(common.count >= 3)
        #expect(try (app.service.sessions as! LocalSessionStore).snapshot(s.id).viewers == 0)
    }

    /// A loop's viewers of a session share its frames and a ticker: the
    /// store is asked once per frame for all of them, and the last viewer
    /// to go takes both with it.
    @Test func aLoopsViewersOfASessionAskTheStoreOncePerFrame() throws {
        let store = CountingStore(try LocalSessionStore(limits: .init(), catalog: .standard, dataDirectory: nil, logger: Logger(level: .off)))
        let app = TestApp(sessions: store)
        let caches = try #require(app.server.storage as? LoopCaches)
        let s = try create(app, #"{"loader":"typing"}"#)
        let viewers = try (0..<8).map { _ in try app.open("/sessions/\(s.id)/frames?fps=20&stream=sse") }
        #expect(caches.sessionViewers.count == 1 && caches.streamTickers.count == 1)
        let asked = store.framesAsked.withLock { $0 }
        app.advance(seconds: 0.5)
        #expect(store.framesAsked.withLock { $0 } - asked == 10)
        let ids = parseEventStream(viewers[0].text).events.filter { $0.type == "frame" }.map(\.lastEventID)
        #expect(ids.count == 11)
        for v in viewers { #expect(parseEventStream(v.text).events.filter { $0.type == "frame" }.map(\.lastEventID) == ids) }
        for v in viewers { v.close() }
        #expect(caches.sessionViewers.count == 0 && caches.streamTickers.count == 0)
        #expect(try store.inner.snapshot(s.id).viewers == 0)
    }

    /// A viewer that reconnects (here or on another replica) with
    /// Last-Event-ID goes on after the last frame it had, never repeating
    /// it; an id from the future starts afresh.
    @Test func aResumedViewerGoesOnAfterItsLastFrame() throws {
        let app = TestApp()
        let s = try create(app, #"{"loader":"typing"}"#)
        let first = try app.open("/sessions/\(s.id)/frames?fps=10&stream=sse")
        app.advance(seconds: 0.35)
        let last = try #require(parseEventStream(first.text).events.last { $0.type == "frame" }?.lastEventID)
        first.close()
        let resumed = try app.open("/sessions/\(s.id)/frames?fps=10&stream=sse", ["Last-Event-ID": last])
        // Its next frame is not due yet on the session's clock (here the
        // wall clock, which the test's loop time ran ahead of): it comes at
        // its moment, not before.
        #expect(!parseEventStream(resumed.text).events.contains { $0.type == "frame" })
        app.advance(seconds: 0.5)
        let ids = parseEventStream(resumed.text).events.filter { $0.type == "frame" }.map(\.lastEventID)
        #expect(ids.first == String(Int(last)! + 1))
        resumed.close()
        let future = try app.open("/sessions/\(s.id)/frames?fps=10&stream=sse", ["Last-Event-ID": "999999"])
        #expect(parseEventStream(future.text).events.first { $0.type == "frame" }.map { Int($0.lastEventID)! < 1000 } == true)
        future.close()
    }

    /// Every count a viewer's request takes (its place among the session's
    /// viewers, its stream's place under maxStreams) is given back however
    /// its connection ends: reset or half-closed while the store's answer
    /// is on its way (`GateStore` holds it), a HEAD (whose stream never
    /// starts), refused after the store
    /// counted it (maxStreamsPerClient), reset mid-stream, cut for not
    /// reading (the stall timeout), and at shutdown. The expected figures
    /// are the streams the test holds open.
    @Test func everyViewerIsLetGoHoweverItsConnectionEnds() throws {
        let gate = GateStore(try LocalSessionStore(limits: .init(), catalog: .standard, dataDirectory: nil, logger: Logger(level: .off)))
        let app = TestApp({ $0.maxStreamsPerClient = 2 }, sessions: gate, server: { $0.streamStallTimeout = 1_000_000_000 })
        let s = try create(app, #"{"loader":"typing"}"#)
        let ask = "GET /sessions/\(s.id)/frames?stream=sse&fps=10 HTTP/1.1\r\nHost: x\r\n\r\n"
        func counts() throws -> [Int] {
            let state = try JSONDecoder().decode(Viewers.self, from: Data(request(app, "GET", "/sessions/\(s.id)").body))
            let metrics = try request(app, "GET", "/metrics").text
            return [state.viewers] + ["loaderd_session_viewers", "loaderd_admitted_streams"].map { gauge(metrics, $0) ?? -1 }
        }
        #expect(try counts() == [0, 0, 0], "\((try? counts()) ?? [])")
        // The client leaves while its join is on its way: reset, then half-close.
        for leave in [{ (c: EmbeddedClient) in c.close() }, { c in c.shutdownWrite() }] {
            let c = app.server.connect()
            c.write(ask)
            #expect(gate.waiting == 1)
            leave(c)
            gate.open()
            #expect(app.server.wait { (try? counts()) == [0, 0, 0] }, "\((try? counts()) ?? [])")
        }
        // HEAD: a stream's head is written and its body never starts (the code before kept each one counted).
        for _ in 0..<3 {
            let c = app.server.connect()
            c.write("HEAD /sessions/\(s.id)/frames?stream=sse HTTP/1.1\r\nHost: x\r\n\r\n")
            gate.open()
            #expect(app.server.wait { c.text.hasPrefix("HTTP/1.1 200") }, "\(c.text)")
            c.close()
        }
        #expect(app.server.wait { (try? counts()) == [0, 0, 0] }, "\((try? counts()) ?? [])")
        // Two streams of this client fill its places: the third viewer is refused after the store counted it.
        let held = try (0..<2).map { _ in try app.open("/loaders/typing/frames?stream=sse") }
        let refused = app.server.connect()
        refused.write(ask)
        gate.open()
        #expect(app.server.wait { refused.text.hasPrefix("HTTP/1.1 429") }, "\(refused.text)")
        #expect(try counts() == [0, 0, 2], "\((try? counts()) ?? [])")
        held[1].close()
        // A viewer reset mid-stream.
        let viewer = app.server.connect()
        viewer.write(ask)
        gate.open()
        #expect(app.server.wait { viewer.text.contains("event: frame") })
        #expect(try counts() == [1, 1, 2], "\((try? counts()) ?? [])")
        viewer.close()
        #expect(try counts() == [0, 0, 1], "\((try? counts()) ?? [])")
        // A viewer that stops reading is cut after the stall timeout.
        let stalled = app.server.connect()
        stalled.write(ask)
        gate.open()
        #expect(app.server.wait { stalled.text.contains("event: frame") })
        stalled.reading = false
        #expect(try counts() == [1, 1, 2], "\((try? counts()) ?? [])")
        for _ in 0..<30 where !stalled.serverClosed { app.advance(seconds: 0.1) }
        #expect(stalled.serverClosed)
        #expect(try counts() == [0, 0, 1], "\((try? counts()) ?? [])")
        // At shutdown, the last viewer's stream gets its end and goes.
        let last = app.server.connect()
        last.write(ask)
        gate.open()
        #expect(app.server.wait { last.text.contains("event: frame") })
        #expect(try counts() == [1, 1, 2], "\((try? counts()) ?? [])")
        app.server.shutdown()
        #expect(last.serverClosed && held[0].isFinished)
        #expect(try gate.inner.snapshot(s.id).viewers == 0)
        let viewers = gate.inner.metrics.first { $0.name == "loaderd_session_viewers" }
        if case .int(let n)? = viewers?.value { #expect(n == 0) } else { Issue.record("no loaderd_session_viewers") }
    }
    struct Viewers: Decodable { let viewers: Int }

    /// The same over real sockets, with a store that answers from another
    /// thread, later (as a networked one): clients reset (SO_LINGER 0, an RST) at
    /// once after their request or once their stream has begun, half-close
    /// after it, or close normally; once things settle the counts are those
    /// of the one viewer the test holds, then of none.
    @Test func viewersOverSocketsAreLetGoHoweverTheyLeave() throws {
        let store = try LocalSessionStore(limits: .init(), catalog: .standard, dataDirectory: nil, logger: Logger(level: .off))
        // A join answered 20 ms later: a reset right after the request comes while it is on its way.
        let (server, service) = try startService(sessions: LaterStore(store, joinSeconds: 0.02))
        defer { server.shutdown(gracePeriod: 1_000_000_000) }
        let session = try store.create(definition: LoaderCatalog.standard["typing"]!, params: [], loader: LoaderCatalog.standard["typing"]!.configure([])).0
        let ask = "GET /sessions/\(session.id)/frames?stream=sse HTTP/1.1\r\nHost: x\r\n\r\n"
        func reset(_ client: TestClient) {
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(client.fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        }
        let viewers = { (try? store.snapshot(session.id).viewers) ?? -1 }
        for n in 0..<40 {
            // The client before is let go, whichever way it left.
            #expect(eventually { viewers() == 0 }, "\(n): \(viewers())")
            let client = try TestClient(port: server.port)
            client.send(ask)
            switch n % 4 {
            case 0:
                // Counted, its answer on its way: then an RST (the socket closes at the end of the iteration).
                #expect(eventually { viewers() == 1 })
                reset(client)
            case 1:
                _ = client.read(until: "event: frame")
                reset(client)
            case 2:
                client.shutdownWrite()
                _ = client.readToClose()
            default: _ = client.read(until: "event: frame")
            }
        }
        func counts() -> [Int] {
            let metrics = (try? get(server.port, "/metrics").text) ?? ""
            return [(try? store.snapshot(session.id).viewers) ?? -1, service.streamAdmission.count] +
                ["loaderd_session_viewers", "loaderd_admitted_streams", "loaderd_open_streams"].map { gauge(metrics, $0) ?? -1 }
        }
        do {
            let held = try TestClient(port: server.port)
            held.send(ask)
            #expect(held.read(until: "event: frame") != nil)
            #expect(eventually { counts() == [1, 1, 1, 1, 1] }, "\(counts())")
            reset(held)
        }  // its socket closes here, with an RST
        #expect(eventually { counts() == [0, 0, 0, 0, 0] }, "\(counts())")
    }

    /// A preview's stream that maxStreamsPerClient refuses was made by heavy
    /// work: its heavy place is given back with it, not kept for good.
    @Test func aRefusedPreviewStreamGivesItsHeavyPlaceBack() throws {
        let app = TestApp {
            $0.maxStreamsPerClient = 1
            $0.maxHeavyRequestsPerClient = 1
        }
        let body = Array(LimitsTests.dots(3, animations: 1).utf8)
        let held = try app.open("/loaders/typing/frames?stream=sse")
        for _ in 0..<3 {
            let refused = try app.request("POST", "/loaders/preview?stream=sse&fps=10", LimitsTests.json, body: body)
            #expect(try refused.status == 429 && decodeError(refused).code == "too_many_streams")
            // The place goes back when the worker lets go of the dropped
            // answer, which may be a moment after the client has its 429.
            #expect(eventually { app.service.heavyWork.count == 0 })
        }
        #expect(try app.request("POST", "/loaders/preview?t=1", LimitsTests.json, body: body).status == 200)
        #expect(eventually { app.service.heavyWork.count == 0 } && app.service.streamAdmission.count == 1)
        held.close()
        #expect(app.service.streamAdmission.count == 0)
    }

    @Test(arguments: Transport.allCases)
    func expiry(_ transport: Transport) throws {
        let app = try TestApp(transport) { $0.sessionTtlSeconds = 1 }
        let s = try create(app)
        #expect(try request(app, "GET", "/sessions/\(s.id)").status == 200)
        #expect(eventually(4) { (try? request(app, "GET", "/sessions/\(s.id)").status) == 410 })
        #expect(try request(app, "POST", "/sessions/\(s.id)/events", token: s.token, body: #"{"type":"stop"}"#).status == 410)
    }

    @Test func limits() throws {
        let app = TestApp {
            $0.maxSessions = 2
            $0.maxEventsPerSession = 3
            $0.maxViewersPerSession = 1
        }
        let a = try create(app)
        _ = try create(app)
        #expect(try request(app, "POST", "/sessions", body: #"{"loader":"web"}"#).status == 503)
        for _ in 0..<3 { #expect(try request(app, "POST", "/sessions/\(a.id)/events", token: a.token, body: #"{"type":"progress"}"#).status == 202) }
        #expect(try request(app, "POST", "/sessions/\(a.id)/events", token: a.token, body: #"{"type":"progress"}"#).status == 429)
        let viewer = try app.open("/sessions/\(a.id)/frames?stream=sse")
        #expect(viewer.text.contains("event: frame"))
        #expect(try request(app, "GET", "/sessions/\(a.id)/frames?stream=sse").status == 503)
    }

    /// The store speaks of sessions, not HTTP: its errors are its own, and
    /// a loader takes the events it declares, whatever its name.
    @Test func theStoreFailsInItsOwnTerms() throws {
        var limits = SessionLimits()
        limits.maxEventsPerSession = 1
        let store = try LocalSessionStore(limits: limits, catalog: .standard, dataDirectory: nil, logger: Logger(level: .off))
        let typing = LoaderCatalog.standard["typing"]!
        let (created, ticket) = try store.create(definition: typing, params: [], loader: typing.configure([]))
        #expect(ticket == nil)
        #expect(throws: SessionError.eventNotAccepted(kind: .progress, loader: "typing", accepted: ["stop"])) {
            try store.post(.progress, to: created.id, token: created.token)
        }
        #expect(throws: SessionError.unauthorized) { try store.post(.stop, to: created.id, token: "wrong") }
        #expect(throws: SessionError.notFound(id: "nope")) { try store.snapshot("nope") }
        _ = try store.post(.stop, to: created.id, token: created.token)
        #expect(throws: SessionError.done) { try store.post(.stop, to: created.id, token: created.token) }
        let web = LoaderCatalog.standard["web"]!
        let (page, _) = try store.create(definition: web, params: [], loader: web.configure([]))
        _ = try store.post(.progress, to: page.id, token: page.token)
        #expect(throws: SessionError.tooManyEvents(limit: 1)) { try store.post(.progress, to: page.id, token: page.token) }
        // Each maps to its documented status.
        #expect(ServiceError(SessionError.eventNotAccepted(kind: .finish, loader: "switch", accepted: ["stop"])).status == .badRequest)
        #expect(ServiceError(SessionError.tooManyEvents(limit: 1)).status == .tooManyRequests)
        #expect(ServiceError(SessionError.expired(id: "x", ttlSeconds: 60)).status == .gone)
        #expect(ServiceError(SessionError.unavailable("redis away")).headers["Retry-After"] == "1")
    }

    /// A store that replies later, from another thread, as a networked one
    /// does: every session answer is then deferred, and the same.
    @Test func aStoreThatRepliesLaterGetsTheSameAnswers() throws {
        let app = TestApp(sessions: LaterStore(try LocalSessionStore(limits: .init(), catalog: .standard, dataDirectory: nil, logger: Logger(level: .off))))
        let s = try create(app, #"{"loader":"web"}"#)
        #expect(try request(app, "POST", "/sessions/\(s.id)/events", token: "wrong", body: #"{"type":"progress"}"#).status == 401)
        #expect(try request(app, "POST", "/sessions/\(s.id)/events", token: s.token, body: #"{"type":"jump"}"#).status == 400)
        #expect(try request(app, "POST", "/sessions/\(s.id)/events", token: s.token, body: #"{"type":"progress"}"#).status == 202)
        let state = try JSONDecoder().decode(State.self, from: Data(request(app, "GET", "/sessions/\(s.id)").body))
        #expect(state.events.map(\.type) == ["progress"])
        #expect(try request(app, "GET", "/sessions/\(s.id)/frames").status == 200)
        let viewer = try app.open("/sessions/\(s.id)/frames?stream=sse")
        #expect(viewer.text.contains("event: frame"))
        viewer.close()
        #expect(try request(app, "DELETE", "/sessions/\(s.id)", token: s.token).status == 204)
        #expect(try request(app, "GET", "/sessions/\(s.id)").status == 404)
    }

    /// Session ids name their replica, so that a load balancer can route them.
    @Test(arguments: Transport.allCases)
    func idsStartWithTheReplicaNameAndOtherReplicasSessionsAre421(_ transport: Transport) throws {
        let store = try LocalSessionStore(limits: .init(), catalog: .standard, dataDirectory: nil, replicaName: "loaderd-1", logger: Logger(level: .off))
        let app = try TestApp(transport, sessions: store)
        let created = try JSONDecoder().decode(Created.self, from: Data(request(app, "POST", "/sessions", body: #"{"loader":"web"}"#).body))
        #expect(created.id.hasPrefix("loaderd-1.") && created.id.count == "loaderd-1.".count + 22)
        #expect(try request(app, "GET", "/sessions/\(created.id)").status == 200)
        #expect(try request(app, "POST", "/sessions/\(created.id)/events", token: created.token, body: #"{"type":"progress"}"#).status == 202)
        // Another replica's session: 421, naming the owner; an unknown one of ours: 404.
        let elsewhere = "loaderd-2." + created.id.dropFirst("loaderd-1.".count)
        for (method, path) in [("GET", "/sessions/\(elsewhere)"), ("GET", "/sessions/\(elsewhere)/frames"), ("DELETE", "/sessions/\(elsewhere)")] {
            let r = try request(app, method, path, token: created.token)
            #expect(r.status == 421, "\(method) \(path)")
            #expect(try decodeError(r).code == "misdirected_request")
        }
        #expect(try decodeError(request(app, "GET", "/sessions/\(elsewhere)")).message.contains("replica loaderd-2"))
        #expect(try request(app, "GET", "/sessions/loaderd-1.nothere").status == 404)
        #expect(try request(app, "GET", "/sessions/plain").status == 404)
    }

    @Test func aRestartWithTheSameDataDirectoryKeepsEverything() throws {
        let directory = "/tmp/loaderd-sessions-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { _ = try? FileManagerLite.removeTree(directory) }
        var ids: [Created] = []
        do {
            let store = try LocalSessionStore(limits: .init(), catalog: .standard, dataDirectory: directory, logger: Logger(level: .off))
            let app = TestApp(sessions: store)
            // Journaled answers come later; they carry CORS headers all the same.
            let cross = try request(app, "POST", "/sessions", body: #"{"loader":"typing"}"#, headers: ["Origin": "https://example.com"])
            #expect(cross.status == 201 && cross.headers["access-control-allow-origin"] == "*")
            for _ in 0..<3 {
                let s = try create(app)
                #expect(try request(app, "POST", "/sessions/\(s.id)/events", token: s.token, body: #"{"type":"progress"}"#).status == 202)
                ids.append(s)
            }
            #expect(try request(app, "POST", "/sessions/\(ids[0].id)/events", token: ids[0].token, body: #"{"type":"finish"}"#).status == 202)
            #expect(try request(app, "DELETE", "/sessions/\(ids[2].id)", token: ids[2].token).status == 204)
            // The journal shows in /metrics: its size and its group commits.
            let metrics = try request(app, "GET", "/metrics").text
            let syncs = metrics.split(separator: "\n").first { $0.hasPrefix("loaderd_journal_syncs_total ") }
            #expect(syncs.flatMap { Int($0.split(separator: " ")[1]) }.map { $0 >= 1 } == true)
            #expect(metrics.contains("loaderd_journal_bytes ") && metrics.contains("loaderd_journal_compactions_total 0"))
        }
        let store = try LocalSessionStore(limits: .init(), catalog: .standard, dataDirectory: directory, logger: Logger(level: .off))
        let app = TestApp(sessions: store)
        let first = try JSONDecoder().decode(State.self, from: Data(request(app, "GET", "/sessions/\(ids[0].id)").body))
        #expect(first.events.map(\.type) == ["progress", "finish"])
        #expect(try request(app, "GET", "/sessions/\(ids[1].id)").status == 200)
        #expect(try request(app, "GET", "/sessions/\(ids[2].id)").status == 404)
        // The token still works after the restart.
        #expect(try request(app, "POST", "/sessions/\(ids[1].id)/events", token: ids[1].token, body: #"{"type":"finish"}"#).status == 202)
    }

    @Test func aTornOrCorruptJournalTailIsCutAndTheRestRecovered() throws {
        let directory = "/tmp/loaderd-torn-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { _ = try? FileManagerLite.removeTree(directory) }
        var sessionIDs: [String] = []
        do {
            let store = try LocalSessionStore(limits: .init(), catalog: .standard, dataDirectory: directory, logger: Logger(level: .off))
            let app = TestApp(sessions: store)
            for _ in 0..<4 { sessionIDs.append(try create(app).id) }
        }
        let path = directory + "/sessions.journal"
        let intact = try Data(contentsOf: URL(fileURLWithPath: path))
        // A torn last record: half of it written.
        let torn = Journal.frame(Array(#"{"op":"create","id":"x"}"#.utf8))!   // as the journal writes it (JournalTests checks that framing)
        try Data(intact + Data(torn.prefix(torn.count / 2))).write(to: URL(fileURLWithPath: path))
        do {
            let store = try LocalSessionStore(limits: .init(), catalog: .standard, dataDirectory: directory, logger: Logger(level: .off))
            #expect(store.count == 4)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == intact.count)
        // A flipped bit in the last record's payload: that record is skipped, the rest kept.
        var flipped = intact
        flipped[flipped.count - 5] ^= 0x04
        try flipped.write(to: URL(fileURLWithPath: path))
        let store = try LocalSessionStore(limits: .init(), catalog: .standard, dataDirectory: directory, logger: Logger(level: .off))
        #expect(store.count == 3)
        for id in sessionIDs.prefix(3) { #expect((try? store.snapshot(id)) != nil) }
    }
}

/// Compaction while running, under concurrent writers: every acknowledged
/// change is in the journal exactly once, in order.
@Suite struct JournalCompactionTests {
    struct Owned: Sendable { let id: String; let token: String }
    final class Tally: Sendable {
        let appended = Atomic<Int>(0), acknowledged = Atomic<Int>(0), refused = Atomic<Int>(0)
    }

    @Test func compactionWhileWritingLosesAndDoublesNothing() throws {
        let directory = "/tmp/loaderd-compact-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { _ = try? FileManagerLite.removeTree(directory) }
        var limits = SessionLimits()
        limits.journalCompactBytes = 4096
        let web = LoaderCatalog.standard["web"]!
        var live: [String: [SessionEvent]] = [:]
        var deleted: [String] = []
        do {
            let store = try LocalSessionStore(limits: limits, catalog: .standard, dataDirectory: directory, logger: Logger(level: .off))
            let tally = Tally()
            let owned = Mutex<[Owned]>([])
            let removed = Mutex<[String]>([])
            @Sendable func track(_ ticket: WriteTicket?) {
                tally.appended.add(1, ordering: .relaxed)
                ticket!.whenDone { ok in
                    if ok { tally.acknowledged.add(1, ordering: .relaxed) } else { tally.refused.add(1, ordering: .relaxed) }
                }
            }
            let writers = (0..<4).map { _ in
                Thread {
                    var mine: [Owned] = []
                    for _ in 0..<10 {
                        let (created, ticket) = try! store.create(definition: web, params: [], loader: web.configure())
                        track(ticket)
                        mine.append(Owned(id: created.id, token: created.token))
                    }
                    for _ in 0..<30 {
                        for s in mine { track(try! store.post(.progress, to: s.id, token: s.token).1) }
                    }
                    for s in mine.enumerated() where s.offset % 3 == 0 {
                        track(try! store.delete(s.element.id, token: s.element.token))
                        removed.withLock { $0.append(s.element.id) }
                    }
                    owned.withLock { $0 += mine }
                }
            }
            for w in writers { w.join() }
            let total = 4 * (10 + 300 + 4)
            #expect(eventually(20) {
                let done: Int = tally.acknowledged.load(ordering: .relaxed) + tally.refused.load(ordering: .relaxed)
                return done == total
            })
            #expect(tally.refused.load(ordering: .relaxed) == 0)
            #expect(tally.appended.load(ordering: .relaxed) == total)
            #expect(store.journal!.compactions.load(ordering: .relaxed) > 0)
            deleted = removed.withLock { $0 }
            for s in owned.withLock({ $0 }) where !deleted.contains(s.id) {
                live[s.id] = try store.snapshot(s.id).events
            }
        }
        let reopened = try LocalSessionStore(limits: limits, catalog: .standard, dataDirectory: directory, logger: Logger(level: .off))
        #expect(reopened.count == live.count)
        for (id, events) in live {
            let restored = try reopened.snapshot(id).events
            let same = restored == events
            #expect(same, "session \(id): \(restored.count) events restored, \(events.count) acknowledged")
        }
        for id in deleted { #expect((try? reopened.snapshot(id)) == nil) }
    }
}

/// A local store seen through a test's own store: every call goes to
/// `inner` unless the subclass changes it (when replies come, what is
/// counted).
class ForwardingStore: SessionStore, @unchecked Sendable {
    let inner: LocalSessionStore
    init(_ inner: LocalSessionStore) { self.inner = inner }

    var count: Int { inner.count }
    func create(definition: LoaderDefinition, params: [(String, JSONValue)], loader: ConfiguredLoader, reply: @escaping SessionReply<SessionCreated>) {
        inner.create(definition: definition, params: params, loader: loader, reply: reply)
    }
    func post(_ kind: SessionEvent.Kind, to id: String, token: String?, reply: @escaping SessionReply<SessionEvent>) {
        inner.post(kind, to: id, token: token, reply: reply)
    }
    func authorize(_ id: String, token: String?, reply: @escaping SessionReply<Void>) { inner.authorize(id, token: token, reply: reply) }
    func delete(_ id: String, token: String?, reply: @escaping SessionReply<Void>) { inner.delete(id, token: token, reply: reply) }
    func snapshot(_ id: String, reply: @escaping SessionReply<SessionSnapshot>) { inner.snapshot(id, reply: reply) }
    func addViewer(_ id: String, reply: @escaping SessionReply<SessionSnapshot>) { inner.addViewer(id, reply: reply) }
    func removeViewer(_ id: String) { inner.removeViewer(id) }
    func watch(_ id: String) -> SessionWatch { inner.watch(id) }
    var metrics: [StoreMetric] { inner.metrics }
    var clock: WallClock { inner.clock }
}

/// Replies on another thread, after the call has returned.
final class LaterStore: ForwardingStore, @unchecked Sendable {
    /// How long a viewer's join takes to be answered (a round trip).
    let joinSeconds: Double
    init(_ inner: LocalSessionStore, joinSeconds: Double = 0) {
        self.joinSeconds = joinSeconds
        super.init(inner)
    }

    static func later<T: Sendable>(_ reply: @escaping SessionReply<T>) -> SessionReply<T> {
        { result in DispatchQueue.global().async { reply(result) } }
    }

    override func create(definition: LoaderDefinition, params: [(String, JSONValue)], loader: ConfiguredLoader, reply: @escaping SessionReply<SessionCreated>) {
        inner.create(definition: definition, params: params, loader: loader, reply: Self.later(reply))
    }
    override func post(_ kind: SessionEvent.Kind, to id: String, token: String?, reply: @escaping SessionReply<SessionEvent>) {
        inner.post(kind, to: id, token: token, reply: Self.later(reply))
    }
    override func authorize(_ id: String, token: String?, reply: @escaping SessionReply<Void>) { inner.authorize(id, token: token, reply: Self.later(reply)) }
    override func delete(_ id: String, token: String?, reply: @escaping SessionReply<Void>) { inner.delete(id, token: token, reply: Self.later(reply)) }
    override func snapshot(_ id: String, reply: @escaping SessionReply<SessionSnapshot>) { inner.snapshot(id, reply: Self.later(reply)) }
    override func addViewer(_ id: String, reply: @escaping SessionReply<SessionSnapshot>) {
        inner.addViewer(id) { [joinSeconds] result in DispatchQueue.global().asyncAfter(deadline: .now() + joinSeconds) { reply(result) } }
    }
}

/// A local store whose viewers' joins are answered only when the test
/// lets them through (`open`), from its thread: a client can leave while
/// the answer is on its way, as during a networked store's round trip.
final class GateStore: ForwardingStore, @unchecked Sendable {
    private let held = Mutex<[@Sendable () -> Void]>([])

    var waiting: Int { held.withLock { $0.count } }
    func open() {
        for reply in held.withLock({ h in
            defer { h = [] }
            return h
        }) { reply() }
    }

    override func addViewer(_ id: String, reply: @escaping SessionReply<SessionSnapshot>) {
        inner.addViewer(id) { [self] result in held.withLock { $0.append { reply(result) } } }
    }
}

/// A gauge's value in `/metrics` text, if it is there.
func gauge(_ metrics: String, _ name: String) -> Int? {
    for line in metrics.split(separator: "\n") where line.hasPrefix(name + " ") { return Int(line.dropFirst(name.count + 1)) }
    return nil
}

/// Counts the frames asked of a local store (a watched session's state, asked once a frame).
final class CountingStore: ForwardingStore, @unchecked Sendable {
    let framesAsked = Mutex(0)

    override func watch(_ id: String) -> SessionWatch {
        framesAsked.withLock { $0 += 1 }
        return inner.watch(id)
    }
}
