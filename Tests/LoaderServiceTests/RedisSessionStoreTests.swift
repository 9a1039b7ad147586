import Dispatch
import EventLoop
import FoundationEssentials
import Glibc
import HTTPTestSupport
import LoaderEngine
import Redis
import Synchronization
import Testing
@testable import HTTPServer
@testable import LoaderService
@testable import LoaderSessions

/// The session API with its sessions in a real Redis (each test starts its
/// own redis-server): the same answers as the local store, any replica
/// serving any session, and Redis going away and coming back.
@Suite(.serialized, .enabled(if: RedisServerProcess.available, "needs redis-server (apt-get install redis-server; .ci/run installs it)"))
struct RedisSessionStoreTests {
    struct Created: Decodable { let id: String; let token: String }
    struct State: Decodable { struct Event: Decodable { let type: String; let t: Double }; let events: [Event]; let done: Bool; let viewers: Int }

    /// One replica: a service whose store is in Redis, on a loop of its own.
    final class Replica {
        let app: TestApp
        let store: RedisSessionStore
        let loops: [EventLoop]
        var loop: EventLoop { loops[0] }
        /// With `loops`, the store has a Redis connection on each, so its replies come on as many threads.
        init(_ redis: RedisServerProcess, loops: Int = 1, _ configure: (inout ServiceConfiguration) -> Void = { _ in }) throws {
            var configuration = ServiceConfiguration.embeddedDefault()
            configure(&configuration)
            self.loops = try (0..<loops).map { _ in try EventLoop.started() }
            store = RedisSessionStore(url: try RedisURL(parsing: redis.url), limits: configuration.sessionLimits, catalog: .standard,
                                      logger: Logger(level: .off))
            store.start(on: self.loops)
            app = TestApp(configure, sessions: store)
        }
        deinit { for loop in loops { loop.stopAndJoin() } }

        func request(_ method: String, _ target: String, token: String? = nil, body: String? = nil) throws -> TestResponse {
            var headers: [String: String] = [:]
            if let token { headers["Authorization"] = "Bearer \(token)" }
            if body != nil { headers["Content-Type"] = "application/json" }
            return try app.request(method, target, headers, body: Array((body ?? "").utf8))
        }

        func create(_ body: String = #"{"loader":"web"}"#) throws -> Created {
            let r = try request("POST", "/sessions", body: body)
            #expect(r.status == 201, "\(r.text)")
            return try JSONDecoder().decode(Created.self, from: Data(r.body))
        }
    }

    func waitUntil(_ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = monotonicNanoseconds() + 5_000_000_000
        while monotonicNanoseconds() < deadline {
            if try condition() { return true }
            usleep(2_000)
        }
        return try condition()
    }

    @Test func theSameAnswersAsTheLocalStore() throws {
        let redis = try RedisServerProcess()
        let a = try Replica(redis) { $0.maxEventsPerSession = 3 }
        #expect(try waitUntil { try a.request("POST", "/sessions", body: #"{"loader":"typing"}"#).status == 201 })
        let s = try a.create()
        #expect(try a.request("POST", "/sessions/\(s.id)/events", body: #"{"type":"progress"}"#).status == 401)
        #expect(try a.request("POST", "/sessions/\(s.id)/events", token: "wrong", body: #"{"type":"progress"}"#).status == 401)
        #expect(try a.request("POST", "/sessions/nope/events", token: s.token, body: #"{"type":"progress"}"#).status == 404)
        #expect(try a.request("POST", "/sessions/\(s.id)/events", token: s.token, body: #"{"type":"jump"}"#).status == 400)
        for _ in 0..<3 { #expect(try a.request("POST", "/sessions/\(s.id)/events", token: s.token, body: #"{"type":"progress"}"#).status == 202) }
        #expect(try a.request("POST", "/sessions/\(s.id)/events", token: s.token, body: #"{"type":"progress"}"#).status == 429)
        let state = try JSONDecoder().decode(State.self, from: Data(a.request("GET", "/sessions/\(s.id)").body))
        #expect(state.events.map(\.type) == ["progress", "progress", "progress"])
        // typing takes stop only; after stop the session is done.
        let typing = try a.create(#"{"loader":"typing"}"#)
        #expect(try a.request("POST", "/sessions/\(typing.id)/events", token: typing.token, body: #"{"type":"finish"}"#).status == 400)
        // Progress is one script, which names the loader when it does not take the event.
        let progress = try a.request("POST", "/sessions/\(typing.id)/events", token: typing.token, body: #"{"type":"progress"}"#)
        #expect(progress.status == 400 && progress.text.contains("progress is not an event of typing sessions; they take stop"), "\(progress.text)")
        #expect(try a.request("POST", "/sessions/\(typing.id)/events", token: "wrong", body: #"{"type":"progress"}"#).status == 401)
        #expect(try a.request("POST", "/sessions/\(typing.id)/events", token: "wrong", body: #"{"type":"jump"}"#).status == 401)
        #expect(try a.request("POST", "/sessions/\(typing.id)/events", token: typing.token, body: #"{"type":"stop"}"#).status == 202)
        #expect(try a.request("POST", "/sessions/\(typing.id)/events", token: typing.token, body: #"{"type":"stop"}"#).status == 409)
        #expect(try JSONDecoder().decode(State.self, from: Data(a.request("GET", "/sessions/\(typing.id)").body)).done)
        #expect(try a.request("DELETE", "/sessions/\(s.id)", token: "wrong").status == 401)
        #expect(try a.request("DELETE", "/sessions/\(s.id)", token: s.token).status == 204)
        #expect(try a.request("GET", "/sessions/\(s.id)").status == 404)
    }

    /// A replica reads a session's events once: later reads ask Redis for
    /// the new ones only (shown by an event Redis no longer has, which the
    /// replica still serves), and pages are those of the local store.
    @Test func aLongSessionIsReadOnce() throws {
        let redis = try RedisServerProcess()
        let a = try Replica(redis), b = try Replica(redis)
        #expect(try waitUntil { try a.request("POST", "/sessions", body: #"{"loader":"typing"}"#).status == 201 })
        let s = try a.create()
        for i in 0..<2500 {
            #expect(try a.request("POST", "/sessions/\(s.id)/events", token: s.token, body: #"{"type":"progress"}"#).status == 202)
            // b reads along the way, so that later reads add to what it has.
            if i % 700 == 0 { #expect(try b.request("GET", "/sessions/\(s.id)").status == 200) }
        }
        try expectEventPages(of: s.id, count: 2500) { try b.request("GET", $0) }
        // Take the first event out of Redis behind the replicas' backs.
        let direct = try RedisConnection(url: RedisURL(parsing: redis.url), loop: b.loop)
        #expect(waitUntil { direct.isConnected })
        let removed = Outcome<Bool>()
        direct.send(["XRANGE", "loaderd:{\(s.id)}:ev", "-", "+", "COUNT", "1"]) { r in
            guard case .success(.array(let entries?)) = r, case .array(let pair?) = entries.first, let first = pair.first?.string else {
                return removed.complete(false)
            }
            direct.send(["XDEL", "loaderd:{\(s.id)}:ev", first]) { r in
                if case .success(.integer(1)) = r { removed.complete(true) } else { removed.complete(false) }
            }
        }
        #expect(waitUntil { removed.value != nil } && removed.value == true)
        #expect(try a.request("POST", "/sessions/\(s.id)/events", token: s.token, body: #"{"type":"progress"}"#).status == 202)
        // b had it and read only the new one: 2501 events still.
        try expectEventPages(of: s.id, count: 2501) { try b.request("GET", $0) }
        // Redis's count runs ahead of its events: the next read on b reads them all again, and the
        // viewer that came with that read is counted and watches.
        let bumped = Outcome<Bool>()
        direct.send(["HINCRBY", "loaderd:{\(s.id)}:s", "events", "1"]) { r in bumped.complete((try? r.get()) == .integer(2502)) }
        #expect(waitUntil { bumped.value != nil } && bumped.value == true)
        let viewer = try b.app.open("/sessions/\(s.id)/frames?stream=sse")
        b.app.advance(seconds: 0.2)
        #expect(viewer.isOpen && parseEventStream(viewer.text).events.filter { $0.type == "frame" }.count >= 5, "\(viewer.text.suffix(120))")
        viewer.close()
        // A replica that never read it finds the 2500 Redis has, though the count says 2501.
        let c = try Replica(redis)
        #expect(try waitUntil { try c.request("GET", "/sessions/\(s.id)").status == 200 })
        let first = try JSONDecoder().decode(Page.self, from: Data(c.request("GET", "/sessions/\(s.id)?after=2000").body))
        #expect(first.events.count == 500)
    }
    struct Page: Decodable { struct Event: Decodable { let t: Double }; let events: [Event] }

    @Test func limitsAndExpiry() throws {
        let redis = try RedisServerProcess()
        let a = try Replica(redis) {
            $0.maxSessions = 2
            $0.sessionTtlSeconds = 1
            $0.maxViewersPerSession = 1
        }
        #expect(try waitUntil { try a.request("POST", "/sessions", body: #"{"loader":"web"}"#).status == 201 })
        let s = try a.create()
        #expect(try a.request("POST", "/sessions", body: #"{"loader":"web"}"#).status == 503)
        let viewer = try a.app.open("/sessions/\(s.id)/frames?stream=sse")
        #expect(viewer.text.contains("event: frame"))
        #expect(try a.request("GET", "/sessions/\(s.id)/frames?stream=sse").status == 503)
        viewer.close()
        // No activity for the time-to-live: 410 (a tombstone), then room for a new one.
        #expect(try waitUntil { try a.request("GET", "/sessions/\(s.id)").status == 410 })
        #expect(try a.request("POST", "/sessions/\(s.id)/events", token: s.token, body: #"{"type":"stop"}"#).status == 410)
        #expect(try waitUntil { try a.request("POST", "/sessions", body: #"{"loader":"web"}"#).status == 201 })
    }

    /// Created on one replica, written on a second, watched on a third:
    /// the viewer's frames change, and its stream ends when the session does.
    @Test func anyReplicaServesAnySession() throws {
        let redis = try RedisServerProcess()
        let (a, b, c) = (try Replica(redis), try Replica(redis), try Replica(redis))
        #expect(try waitUntil { try a.request("POST", "/sessions", body: #"{"loader":"typing"}"#).status == 201 })
        let s = try a.create(#"{"loader":"web","params":{"pulseDuration":0.05,"dropDuration":0.2}}"#)
        let viewer = try c.app.open("/sessions/\(s.id)/frames?stream=sse&fps=50")
        #expect(viewer.text.contains("event: frame"))
        #expect(try b.request("POST", "/sessions/\(s.id)/events", token: s.token, body: #"{"type":"progress"}"#).status == 202)
        // The viewer on c sees the drop within its next frames (pub/sub, then a read).
        #expect(waitUntil {
            c.app.advance(seconds: 0.02)
            return viewer.text.contains("\"drop0\"")
        })
        #expect(try b.request("POST", "/sessions/\(s.id)/events", token: s.token, body: #"{"type":"stop"}"#).status == 202)
        #expect(waitUntil {
            c.app.advance(seconds: 0.02)
            return !viewer.isOpen
        })
        #expect(parseEventStream(viewer.text).events.last?.type == "end")
        #expect(try JSONDecoder().decode(State.self, from: Data(a.request("GET", "/sessions/\(s.id)").body)).events.map(\.type) == ["progress", "stop"])
    }

    /// A viewer whose client resets or half-closes while its join is on its
    /// way to Redis (Redis has counted it; the answer finds the connection
    /// gone) is let go: once things settle, the count another replica reads
    /// is the one viewer the test holds, then none.
    @Test func aViewerThatLeavesDuringTheRoundTripIsNotCounted() throws {
        let redis = try RedisServerProcess()
        let a = try Replica(redis), b = try Replica(redis)
        #expect(try waitUntil { try a.request("POST", "/sessions", body: #"{"loader":"typing"}"#).status == 201 })
        let s = try a.create(#"{"loader":"typing"}"#)
        let ask = "GET /sessions/\(s.id)/frames?stream=sse HTTP/1.1\r\nHost: x\r\n\r\n"
        for n in 0..<8 {
            let c = a.app.server.connect()
            c.write(ask)
            if n % 2 == 0 { c.close() } else { c.shutdownWrite() }
        }
        let held = try a.app.open("/sessions/\(s.id)/frames?stream=sse")
        func viewers() throws -> Int {
            a.app.server.wait(seconds: 0.02) { false }  // the answers that come to a's loop
            return try JSONDecoder().decode(State.self, from: Data(b.request("GET", "/sessions/\(s.id)").body)).viewers
        }
        #expect(try waitUntil { try viewers() == 1 }, "\((try? viewers()) ?? -1)")
        #expect(gauge(try a.request("GET", "/metrics").text, "loaderd_session_viewers") == 1)
        held.close()
        #expect(try waitUntil { try viewers() == 0 }, "\((try? viewers()) ?? -1)")
        #expect(gauge(try a.request("GET", "/metrics").text, "loaderd_session_viewers") == 0)
    }

    /// Viewers joining at once on a replica with two loops: their replies
    /// come on both threads while other joins are counted, and every claim
    /// counts each viewer once, so Redis has the count right as soon as
    /// every join is answered, not only at the next refresh.
    @Test func viewersJoiningAtOnceAreCountedOnceEach() throws {
        let redis = try RedisServerProcess()
        let a = try Replica(redis, loops: 2)
        #expect(try waitUntil { try a.request("POST", "/sessions", body: #"{"loader":"typing"}"#).status == 201 })
        let s = try a.create(#"{"loader":"typing"}"#)
        let joins = 16
        for round in 0..<100 {
            let admitted = Atomic<Int>(0), refused = Atomic<Int>(0)
            let store = a.store, id = s.id
            // Two threads, each join a little after the last: later joins are counted while earlier ones are answered.
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                for n in 0..<joins / 2 {
                    usleep(UInt32(20 + (n * 37 + thread * 53 + round * 11) % 180))
                    store.addViewer(id) { result in
                        if case .success = result { admitted.add(1, ordering: .relaxed) } else { refused.add(1, ordering: .relaxed) }
                    }
                }
            }
            #expect(waitUntil { admitted.load(ordering: .relaxed) + refused.load(ordering: .relaxed) == joins })
            #expect(refused.load(ordering: .relaxed) == 0)
            let counted = Outcome<Int>()
            a.store.snapshot(s.id) { counted.complete((try? $0.get())?.viewers ?? -1) }
            #expect(waitUntil { counted.value != nil })
            #expect(counted.value == joins, "round \(round): \(joins) joined, Redis counted \(counted.value ?? -1)")
            for _ in 0..<joins { a.store.removeViewer(s.id) }
            let left = Mutex<Int?>(nil)
            #expect(waitUntil {
                let now = Outcome<Int>()
                a.store.snapshot(s.id) { now.complete((try? $0.get())?.viewers ?? -1) }
                _ = waitUntil { now.value != nil }
                left.withLock { $0 = now.value }
                return now.value == 0
            }, "round \(round): \(left.withLock { $0 } ?? -1) counted after all left")
        }
    }

    /// A replica that dies without a word leaves claims in Redis that no
    /// one renews: they lapse, and a session they filled takes viewers
    /// again (here a claim written as such a replica's, of 2 viewers, the
    /// limit, beside this replica's own live one).
    @Test func aDeadReplicasViewersLapse() throws {
        let redis = try RedisServerProcess()
        let a = try Replica(redis) { $0.maxViewersPerSession = 3 }
        #expect(try waitUntil { try a.request("POST", "/sessions", body: #"{"loader":"typing"}"#).status == 201 })
        let s = try a.create(#"{"loader":"typing"}"#)
        let live = try a.app.open("/sessions/\(s.id)/frames?stream=sse")
        let direct = try RedisConnection(url: RedisURL(parsing: redis.url), loop: a.loop)
        #expect(waitUntil { direct.isConnected })
        let claimed = Outcome<Bool>()
        // Leased for the time a live replica's claim is (Redis's clock, in ms), and never renewed.
        direct.send(["TIME"]) { r in
            guard case .success(.array(let t?)) = r, let seconds = t.first?.string.flatMap(Int.init) else { return claimed.complete(false) }
            let until = seconds * 1000 + RedisScripts.viewerLeaseMilliseconds
            direct.send(["HSET", "loaderd:{\(s.id)}:v", "dead", "2 \(until)"]) { r in claimed.complete((try? r.get()) == .integer(1)) }
        }
        #expect(waitUntil { claimed.value != nil } && claimed.value == true)
        func viewers() throws -> Int { try JSONDecoder().decode(State.self, from: Data(a.request("GET", "/sessions/\(s.id)").body)).viewers }
        #expect(try viewers() == 3)
        #expect(try a.request("GET", "/sessions/\(s.id)/frames?stream=sse").status == 503)
        // Past its lease, only the live viewer counts, and another joins.
        #expect(try waitUntil { try viewers() == 1 }, "\((try? viewers()) ?? -1)")
        let joined = try a.app.open("/sessions/\(s.id)/frames?stream=sse")
        #expect(try viewers() == 2)
        joined.close()
        live.close()
        #expect(try waitUntil { try viewers() == 0 })
    }

    /// A viewer that leaves while Redis is away: its replica's claim of one
    /// fewer cannot reach Redis, which keeps the old count (its append-only
    /// file); once Redis is back the count is right again.
    @Test func aLeaveLostWhileRedisWasAwayIsMadeGood() throws {
        let redis = try RedisServerProcess()
        let a = try Replica(redis), b = try Replica(redis)
        #expect(try waitUntil { try a.request("POST", "/sessions", body: #"{"loader":"typing"}"#).status == 201 })
        let s = try a.create(#"{"loader":"typing"}"#)
        let staying = try a.app.open("/sessions/\(s.id)/frames?stream=sse")
        let leaving = try a.app.open("/sessions/\(s.id)/frames?stream=sse")
        func viewers() throws -> Int? {
            let r = try b.request("GET", "/sessions/\(s.id)")
            return r.status == 200 ? try JSONDecoder().decode(State.self, from: Data(r.body)).viewers : nil
        }
        #expect(try waitUntil { try viewers() == 2 })
        redis.stop(signal: SIGKILL)
        #expect(try waitUntil { try a.request("GET", "/metrics").text.contains("loaderd_redis_up 0") })
        leaving.close()
        try redis.start()
        #expect(try waitUntil { try viewers() == 1 }, "\((try? viewers()) ?? nil ?? -1)")
        staying.close()
        #expect(try waitUntil { try viewers() == 0 })
    }

    /// With redisWaitReplicas, a write waits for that many Redis replicas;
    /// a Redis with none cannot promise it: the write is not acknowledged
    /// (503, as when Redis is away), and the answer comes within the
    /// command timeout.
    @Test func waitingForReplicasThatAreNotThere() throws {
        let redis = try RedisServerProcess()
        let loop = try EventLoop.started()
        defer { loop.stopAndJoin() }
        let store = RedisSessionStore(url: try RedisURL(parsing: redis.url), limits: SessionLimits(), catalog: .standard,
                                      logger: Logger(level: .off), waitReplicas: 1)
        store.start(on: [loop])
        let app = TestApp(sessions: store)
        // Connected: a read needs no replica (404 for an unknown session).
        #expect(try waitUntil { try app.request("GET", "/sessions/unknown").status == 404 })
        let r = try app.request("POST", "/sessions", ["Content-Type": "application/json"], body: Array(#"{"loader":"web"}"#.utf8))
        #expect(r.status == 503)
        #expect(try decodeError(r).code == "sessions_unavailable")
        #expect(r.headers["retry-after"] == "1")
    }

    /// A Redis that cannot be reached is logged at once, with the reason,
    /// again while it stays away (every `sameReason`, here 0.3 s for 30 s),
    /// and once when it is back.
    @Test func anOutageIsLoggedAtOnceAgainWhileItLastsAndWhenItEnds() throws {
        let redis = try RedisServerProcess()
        redis.stop(signal: SIGKILL)
        var template = Array("/tmp/loaderd-store-log-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        try #require(fd >= 0)
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        defer { close(fd); unlink(path) }
        let logger = Logger(level: .info, fd: fd)
        let loop = try EventLoop.started()
        defer { loop.stopAndJoin() }
        let store = RedisSessionStore(url: try RedisURL(parsing: redis.url), limits: SessionLimits(), catalog: .standard, logger: logger,
                                      logIntervals: .init(changedReason: 0.1, sameReason: 0.3))
        store.start(on: [loop])
        func lines() -> [[String: String]] {
            logger.flush()
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            lseek(fd, 0, SEEK_SET)
            while case let n = read(fd, &chunk, chunk.count), n > 0 { bytes += chunk[0..<n] }
            return bytes.split(separator: UInt8(ascii: "\n")).compactMap { line in
                guard case .object(let fields)? = try? JSONValue.parse(Array(line)) else { return nil }
                return Dictionary(fields.compactMap { k, v in if case .string(let s) = v { (k, s) } else { nil } }, uniquingKeysWith: { a, _ in a })
            }
        }
        func said(_ message: String) -> [[String: String]] { lines().filter { $0["msg"] == message } }
        #expect(waitUntil { !said("session store unavailable").isEmpty })
        #expect(said("session store unavailable").first?["reason"]?.contains("refused") == true, "\(said("session store unavailable"))")
        // Still away: said again, and not at every attempt (one a 50 ms to 1 s backoff).
        #expect(waitUntil { said("session store unavailable").count >= 3 })
        try redis.start()
        #expect(waitUntil { !said("session store available").isEmpty })
        let down = said("session store unavailable").count
        #expect(down >= 3 && down <= 20, "\(down) lines for an outage of a few seconds")
    }

    /// Redis goes away: session requests are answered at once with a JSON
    /// 503 and Retry-After, but the viewers of a session this replica has
    /// read watch on from what it read, and new ones may join them; a stream
    /// a replica cannot start is an event stream that says why and ends (on
    /// a 503 EventSource gives up for good); stateless endpoints still work;
    /// and all comes back by itself: an event posted then reaches the
    /// viewers that watched through the outage.
    @Test func redisAwayAndBack() throws {
        let redis = try RedisServerProcess()
        let a = try Replica(redis), b = try Replica(redis)
        #expect(try waitUntil { try a.request("POST", "/sessions", body: #"{"loader":"web"}"#).status == 201 })
        let s = try a.create()
        #expect(try a.request("POST", "/sessions/\(s.id)/events", token: s.token, body: #"{"type":"progress"}"#).status == 202)
        let viewer = try a.app.open("/sessions/\(s.id)/frames?stream=sse")
        a.app.advance(seconds: 0.2)
        func frames(_ stream: EmbeddedStream) -> Int { parseEventStream(stream.text).events.filter { $0.type == "frame" }.count }
        redis.stop(signal: SIGKILL)
        #expect(try waitUntil { try a.request("GET", "/sessions/\(s.id)").status == 503 })
        let before = frames(viewer)
        a.app.advance(seconds: 1)
        #expect(viewer.isOpen && frames(viewer) >= before + 25, "\(viewer.text.suffix(200))")
        let joining = try a.app.open("/sessions/\(s.id)/frames?stream=sse")
        a.app.advance(seconds: 0.2)
        #expect(joining.isOpen && frames(joining) >= 5)
        joining.close()
        #expect(try waitUntil { try b.request("GET", "/metrics").text.contains("loaderd_redis_up 0") })
        let elsewhere = try b.app.open("/sessions/\(s.id)/frames?stream=sse")
        b.app.advance(seconds: 0.05)
        #expect(!elsewhere.isOpen && elsewhere.text == "retry: 1000\n\nevent: end\ndata: {\"reason\":\"unavailable\"}\n\n", "\(elsewhere.text)")
        #expect(try waitUntil { try a.request("GET", "/sessions/\(s.id)").status == 503 })
        let started = monotonicNanoseconds()
        let refused = try a.request("POST", "/sessions/\(s.id)/events", token: s.token, body: #"{"type":"progress"}"#)
        #expect(monotonicNanoseconds() - started < 1_000_000_000)
        #expect(refused.status == 503 && refused.headers["retry-after"] == "1")
        #expect(try decodeError(refused).code == "sessions_unavailable")
        // Nothing of the store's URL in a public answer.
        let port = String(try RedisURL(parsing: redis.url).port)
        #expect(!refused.text.contains("redis") && !refused.text.contains("127.0.0.1") && !refused.text.contains(port), "\(refused.text)")
        #expect(try a.request("GET", "/loaders/typing/frames?t=1").status == 200)
        #expect(try a.request("GET", "/readyz").status == 200)
        #expect(try a.request("GET", "/metrics").text.contains("loaderd_redis_up 0"))
        try redis.start()
        // Back with no restart; the acknowledged event survived (append-only file).
        #expect(try waitUntil { try a.request("GET", "/sessions/\(s.id)").status == 200 })
        #expect(try JSONDecoder().decode(State.self, from: Data(a.request("GET", "/sessions/\(s.id)").body)).events.count == 1)
        #expect(try a.request("GET", "/metrics").text.contains("loaderd_redis_up 1"))
        // An event posted now reaches the viewer that watched through the outage: finish, then its stream ends done.
        #expect(try a.request("POST", "/sessions/\(s.id)/events", token: s.token, body: #"{"type":"finish"}"#).status == 202)
        #expect(waitUntil {
            a.app.advance(seconds: 0.1)
            return !viewer.isOpen
        })
        #expect(viewer.text.hasSuffix("event: end\ndata: {\"reason\":\"done\"}\n\n"), "\(viewer.text.suffix(200))")
        // The replica that could not start a stream watches now.
        let again = try b.app.open("/sessions/\(s.id)/frames?stream=sse")
        b.app.advance(seconds: 0.2)
        #expect(frames(again) >= 1)
        again.close()
    }
}
