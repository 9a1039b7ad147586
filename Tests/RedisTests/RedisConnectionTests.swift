import Dispatch
import EventLoop
import Glibc
import HTTPServer
import Synchronization
import HTTPTestSupport
import Testing
@testable import Redis

/// Against a real redis-server: each test starts its own.
@Suite(.serialized, .enabled(if: RedisServerProcess.available, "needs redis-server (apt-get install redis-server; .ci/run installs it)"))
struct RedisConnectionTests {
    /// A fresh redis-server and a loop on its own thread (as the server's
    /// are), for the length of `body`.
    func withRedis(_ body: (RedisServerProcess, EventLoop) throws -> Void) throws {
        let redis = try RedisServerProcess()
        let loop = try EventLoop.started()
        defer { loop.stopAndJoin() }
        try body(redis, loop)
    }

    /// Sends `parts` and waits (with a deadline) for the reply.
    func call(_ c: RedisConnection, _ parts: [String]) -> Result<RESPValue, RedisError>? {
        let box = Mutex<Result<RESPValue, RedisError>?>(nil)
        c.send(parts) { r in box.withLock { $0 = r } }
        let deadline = monotonicNanoseconds() + 5_000_000_000
        while monotonicNanoseconds() < deadline {
            if let r = box.withLock({ $0 }) { return r }
            usleep(1_000)
        }
        return nil
    }

    func waitConnected(_ c: RedisConnection, _ expected: Bool = true) -> Bool {
        let deadline = monotonicNanoseconds() + 5_000_000_000
        while monotonicNanoseconds() < deadline {
            if c.isConnected == expected { return true }
            usleep(1_000)
        }
        return false
    }

    @Test func commandsPipelineAndRepliesComeInOrder() throws {
        try withRedis { redis, loop in
            let c = RedisConnection(url: try RedisURL(parsing: redis.url), loop: loop)
            #expect(call(c, ["PING"]) == .success(.simple("PONG")))
            // 1,000 commands at once, without waiting: each reply to its own command.
            let got = Mutex<[Int: RESPValue]>([:])
            for i in 0..<1000 { c.send(["SET", "k\(i)", "v\(i)"]) { _ in } }
            for i in 0..<1000 { c.send(["GET", "k\(i)"]) { r in if case .success(let v) = r { got.withLock { $0[i] = v } } } }
            #expect(call(c, ["PING"]) == .success(.simple("PONG")))
            let values = got.withLock { $0 }
            #expect(values.count == 1000 && (0..<1000).allSatisfy { values[$0] == .bulk(Array("v\($0)".utf8)) })
            // An error reply is the command's, and the connection goes on.
            if case .failure(.reply(let error))? = call(c, ["INCR", "k1"]) { #expect(error.message.hasPrefix("ERR")); #expect(error.kind == .other) } else { Issue.record("no error reply") }
            #expect(call(c, ["EVAL", "return redis.call('GET', KEYS[1])", "1", "k7"]) == .success(.bulk(Array("v7".utf8))))
            c.close()
        }
    }

    /// SHA1 names a script as Redis does: SCRIPT LOAD answers the same
    /// digest, for short, long and multi-block texts, and EVALSHA by it runs it.
    @Test func scriptDigestsAreRedisOwn() throws {
        try withRedis { redis, loop in
            let c = RedisConnection(url: try RedisURL(parsing: redis.url), loop: loop)
            // Lengths either side of SHA-1's block and padding edges (55, 56, 64 bytes).
            let edges = [55, 56, 63, 64, 65].map { "return 1 --" + String(repeating: "x", count: $0 - 11) }
            let texts = ["return 1", "", String(repeating: "-- padding\n", count: 5) + "return 'x'",
                         "return '" + String(repeating: "é", count: 700) + "'"] + edges
            for text in texts {
                #expect(call(c, ["SCRIPT", "LOAD", text]) == .success(.bulk(Array(SHA1.hex(text.utf8).utf8))), "\(text.prefix(20))")
            }
            #expect(call(c, ["EVALSHA", SHA1.hex("return 1".utf8), "0"]) == .success(.integer(1)))
            c.close()
        }
    }

    /// FIPS 180's examples.
    @Test func sha1OfTheStandardsExamples() {
        #expect(SHA1.hex("abc".utf8) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(SHA1.hex("".utf8) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(SHA1.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8) == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
    }

    /// Redis goes away: commands fail at once (never held), and the
    /// connection comes back by itself once Redis is back, with no restart.
    @Test func commandsFailAtOnceWhileRedisIsAwayAndTheConnectionComesBack() throws {
        try withRedis { redis, loop in
            let c = RedisConnection(url: try RedisURL(parsing: redis.url), loop: loop)
            #expect(call(c, ["SET", "durable", "yes"]) == .success(.simple("OK")))
            redis.stop(signal: SIGKILL)
            #expect(waitConnected(c, false))
            let started = monotonicNanoseconds()
            guard case .failure(.unavailable)? = call(c, ["GET", "durable"]) else { Issue.record("not unavailable"); return }
            #expect(monotonicNanoseconds() - started < 1_000_000_000)
            try redis.start()
            #expect(waitConnected(c))
            // Acknowledged before the kill, so in the append-only file.
            #expect(call(c, ["GET", "durable"]) == .success(.bulk(Array("yes".utf8))))
            c.close()
        }
    }

    /// Redis stops answering (SIGSTOP: its socket still accepts): a command
    /// fails as unavailable once its deadline passes, the connection is no
    /// longer reported up, and everything comes back after SIGCONT.
    @Test func aSilentRedisFailsCommandsAtTheirDeadline() throws {
        try withRedis { redis, loop in
            let c = RedisConnection(url: try RedisURL(parsing: redis.url), loop: loop, commandTimeout: 0.2)
            #expect(call(c, ["SET", "durable", "yes"]) == .success(.simple("OK")))
            redis.send(signal: SIGSTOP)
            defer { redis.send(signal: SIGCONT) }
            let started = monotonicNanoseconds()
            guard case .failure(.unavailable(let reason))? = call(c, ["GET", "durable"]) else { Issue.record("not unavailable"); return }
            let waited = monotonicNanoseconds() - started
            #expect(waited >= 200_000_000 && waited < 2_000_000_000, "\(waited) ns")
            #expect(reason.contains("no reply within 200 ms"), "\(reason)")
            #expect(waitConnected(c, false))
            redis.send(signal: SIGCONT)
            #expect(waitConnected(c))
            #expect(call(c, ["GET", "durable"]) == .success(.bulk(Array("yes".utf8))))
            c.close()
        }
    }

    @Test func aWrongPasswordIsTheConnectionsFailure() throws {
        try withRedis { redis, loop in
            let admin = RedisConnection(url: try RedisURL(parsing: redis.url), loop: loop)
            #expect(call(admin, ["CONFIG", "SET", "requirepass", "s3cret"]) == .success(.simple("OK")))
            admin.close()
            let good = RedisConnection(url: try RedisURL(parsing: "redis://:s3cret@127.0.0.1:\(redis.port)/2"), loop: loop)
            #expect(call(good, ["SET", "in-db-2", "1"]) == .success(.simple("OK")))
            let bad = RedisConnection(url: try RedisURL(parsing: "redis://:wrong@127.0.0.1:\(redis.port)"), loop: loop)
            guard case .failure(.unavailable)? = call(bad, ["PING"]) else { Issue.record("a wrong password answered"); return }
            good.close()
            bad.close()
        }
    }
}

struct RedisURLTests {
    @Test func urls() throws {
        let u = try RedisURL(parsing: "redis://app:pw@redis.default.svc:6380/3")
        #expect(u == RedisURL(host: "redis.default.svc", port: 6380, user: "app", password: "pw", database: 3))
        #expect(u.description == "redis://app:***@redis.default.svc:6380/3")
        #expect(try RedisURL(parsing: "redis://[::1]:6379").host == "::1")
        for bad in ["http://x:1", "redis://x", "redis://x:0", "redis://:6379", "redis://x:1/a", "redis://x:+1", "redis://x:1/+2"] {
            #expect(throws: RedisError.self) { try RedisURL(parsing: bad) }
        }
    }

    /// The form Lettuce takes: Sentinels, the primary's name, a database.
    @Test func sentinelURLs() throws {
        let u = try RedisSentinelURL(parsing: "redis-sentinel://app:pw@s1.default.svc:26379,10.0.0.2:26380,[::1]:26381/my-primary/3")
        #expect(u == RedisSentinelURL(sentinels: [RedisAddress(host: "s1.default.svc", port: 26379), RedisAddress(host: "10.0.0.2", port: 26380),
                                                  RedisAddress(host: "::1", port: 26381)],
                                      primaryName: "my-primary", user: "app", password: "pw", database: 3))
        #expect(u.description == "redis-sentinel://app:***@s1.default.svc:26379,10.0.0.2:26380,[::1]:26381/my-primary/3")
        #expect(u.server(RedisAddress(host: "10.0.0.9", port: 6379)) == RedisURL(host: "10.0.0.9", port: 6379, user: "app", password: "pw", database: 3))
        let plain = try RedisSentinelURL(parsing: "redis-sentinel://s:26379/mymaster")
        #expect(plain.password == nil && plain.user == nil && plain.database == 0 && plain.sentinels.count == 1)
        let bad = ["redis://s:26379/m", "redis-sentinel://s:26379", "redis-sentinel://s:26379/", "redis-sentinel://s/m",
                   "redis-sentinel://s:0/m", "redis-sentinel://s:1,/m", "redis-sentinel://:1/m", "redis-sentinel://s:1/m/x",
                   "redis-sentinel://s:1/a b", "redis-sentinel://s:1/m/70000", "redis-sentinel://s:1/m/+5", "redis-sentinel://s:+1/m",
                   "redis-sentinel://s: 1/m",
                   "redis-sentinel://" + Array(repeating: "s:1", count: RedisSentinelURL.maxSentinels + 1).joined(separator: ",") + "/m"]
        for text in bad {
            #expect(throws: RedisError.self, "\(text)") { try RedisSentinelURL(parsing: text) }
        }
        // A message about a bad URL does not show its password.
        do {
            _ = try RedisSentinelURL(parsing: "redis-sentinel://u:secret-pw@s:0/m")
        } catch {
            #expect(!"\(error)".contains("secret-pw"))
        }
    }
}

extension RedisConnectionTests {
    /// Writes answered together share one WAIT (Redis's own count of its
    /// WAIT calls says so), so a Redis without the replicas asked for
    /// holds the connection up once, not once a write: each write hears
    /// "not confirmed", and the connection's watchdog never fires.
    @Test func writesAnsweredTogetherShareOneWait() throws {
        try withRedis { redis, loop in
            let c = RedisConnection(url: try RedisURL(parsing: redis.url), loop: loop, commandTimeout: 1)
            #expect(call(c, ["PING"]) == .success(.simple("PONG")))
            let outcomes = Mutex<[Bool]>([])
            loop.execute {
                for i in 0..<16 {
                    c.send(["SET", "k\(i)", "v"]) { r in
                        guard case .success = r else { return outcomes.withLock { $0.append(true) } }
                        c.confirmReplicated(1, milliseconds: 300) { confirmed in outcomes.withLock { $0.append(confirmed) } }
                    }
                }
            }
            let deadline = monotonicNanoseconds() + 5_000_000_000
            while outcomes.withLock({ $0.count }) < 16 && monotonicNanoseconds() < deadline { usleep(5_000) }
            #expect(outcomes.withLock { $0 } == Array(repeating: false, count: 16))
            #expect(c.isConnected)
            guard case .success(let info)? = call(c, ["INFO", "commandstats"]), let text = info.string,
                  let line = text.split(whereSeparator: \.isNewline).first(where: { $0.hasPrefix("cmdstat_wait:") }),
                  let calls = line.split(separator: ",").first?.split(separator: "=").last.flatMap({ Int($0) }) else {
                Issue.record("no WAIT in INFO commandstats")
                return
            }
            #expect(calls <= 2, "\(calls) WAITs for 16 writes answered together")
        }
    }

    /// One subscriber connection takes the messages of its channels, and
    /// subscribes again each time it reconnects (`onConnect`).
    @Test func aSubscriberGetsMessagesAndSubscribesAgainAfterALoss() throws {
        try withRedis { redis, loop in
            let url = try RedisURL(parsing: redis.url)
            let received = Mutex<[String]>([])
            let subscribed = Atomic<Int>(0)
            let box = Mutex<RedisConnection?>(nil)
            let subscriber = RedisConnection(url: url, loop: loop, onConnect: {
                box.withLock { $0 }?.send(["SUBSCRIBE", "loaderd:events"]) { r in
                    if case .success = r { subscribed.add(1, ordering: .relaxed) }
                }
            }, onMessage: { channel, payload in
                received.withLock { $0.append(channel + " " + String(decoding: payload, as: UTF8.self)) }
            })
            box.withLock { $0 = subscriber }
            // The first connection may come before the box is filled: subscribe then too.
            subscriber.send(["SUBSCRIBE", "loaderd:events"]) { r in if case .success = r { subscribed.add(1, ordering: .relaxed) } }
            let publisher = RedisConnection(url: url, loop: loop)
            #expect(eventually { subscribed.load(ordering: .relaxed) >= 1 })
            for i in 0..<3 { #expect(call(publisher, ["PUBLISH", "loaderd:events", "s\(i)"]) != nil) }
            #expect(eventually { received.withLock { $0 } == ["loaderd:events s0", "loaderd:events s1", "loaderd:events s2"] })
            // A reply to an ordinary command still reaches its command (PING in subscribed mode answers an array).
            let before = subscribed.load(ordering: .relaxed)
            redis.stop(signal: SIGKILL)
            try redis.start()
            #expect(eventually { subscribed.load(ordering: .relaxed) > before })
            #expect(waitConnected(publisher))
            #expect(call(publisher, ["PUBLISH", "loaderd:events", "after"]) == .success(.integer(1)))
            #expect(eventually { received.withLock { $0 }.last == "loaderd:events after" })
            subscriber.close()
            publisher.close()
        }
    }

    func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = monotonicNanoseconds() + 5_000_000_000
        while monotonicNanoseconds() < deadline {
            if condition() { return true }
            usleep(1_000)
        }
        return condition()
    }
}

extension RedisConnectionTests {
    /// A reply's callback during which the connection drops (Redis closed
    /// it, and the callback's own command finds out): the rest of that read
    /// goes with the connection, and the connection comes back. (Redis lost
    /// during a burst of session events did this to a replica.)
    @Test func aConnectionDroppedInsideAReplyCallbackComesBack() throws {
        try withRedis { redis, loop in
            let c = RedisConnection(url: try RedisURL(parsing: redis.url), loop: loop)
            guard case .success(.integer(let id))? = call(c, ["CLIENT", "ID"]) else { Issue.record("no client id"); return }
            let admin = LoopBound(try TestClient(port: redis.port), loop: loop)  // used inside the callback, on the loop
            let answered = Atomic<Bool>(false)
            let droppedInside = Atomic<Bool>(false)
            let done = Atomic<Bool>(false)
            c.send(["PING"]) { r in
                if case .success = r { answered.store(true, ordering: .relaxed) }
                // Another client has Redis close this connection now…
                admin.value.send("CLIENT KILL ID \(id)\r\n")
                _ = admin.value.read(until: "\r\n")
                // …and this callback's own commands find it gone.
                let deadline = monotonicNanoseconds() + 2_000_000_000
                while c.isConnected && monotonicNanoseconds() < deadline {
                    c.send(["PING"]) { _ in }
                    usleep(1_000)
                }
                droppedInside.store(!c.isConnected, ordering: .relaxed)
                done.store(true, ordering: .relaxed)
            }
            for _ in 0..<3 { c.send(["PING"]) { _ in } }
            #expect(eventually { done.load(ordering: .relaxed) })
            let (dropped, replied) = (droppedInside.load(ordering: .relaxed), answered.load(ordering: .relaxed))
            #expect(dropped)
            #expect(replied)
            #expect(waitConnected(c))
            #expect(call(c, ["PING"]) == .success(.simple("PONG")))
            c.close()
        }
    }
}

/// Connections through a real Sentinel (`redis-server --sentinel`) to a
/// real primary and replica.
struct RedisSentinelTests {
    /// Polls `condition` until it holds, for at most `seconds`.
    func eventually(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = monotonicNanoseconds() + UInt64(seconds * 1e9)
        while monotonicNanoseconds() < deadline {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }

    func call(_ c: RedisConnection, _ parts: [String]) -> Result<RESPValue, RedisError>? {
        RedisConnectionTests().call(c, parts)
    }

    /// The connection goes where the Sentinel says, and follows a failover
    /// (forced with SENTINEL FAILOVER): its next commands run on the
    /// promoted replica, which has what the old primary had.
    @Test(.enabled(if: RedisServerProcess.available)) func aConnectionFollowsThePrimaryThroughAFailover() throws {
        let primary = try RedisServerProcess()
        let replica = try RedisServerProcess(arguments: ["--replicaof", "127.0.0.1", String(primary.port)])
        let sentinelProcess = try RedisServerProcess(sentinelMonitoring: [("mymaster", primary.port)])
        let loop = try EventLoop.started()
        defer { loop.stopAndJoin() }
        let url = RedisSentinelURL(sentinels: [RedisAddress(host: "127.0.0.1", port: sentinelProcess.port)], primaryName: "mymaster")
        let sentinel = RedisSentinel(url: url, sentinelPassword: nil, timeout: 1)
        sentinel.start()
        defer { sentinel.stop() }
        let c = RedisConnection(url: url.server(url.sentinels[0]), loop: loop, sentinel: sentinel)
        #expect(call(c, ["SET", "k", "before"]) == .success(.simple("OK")))
        #expect(sentinel.primary == RedisAddress(host: "127.0.0.1", port: primary.port))
        let toSentinel = RedisConnection(url: try RedisURL(parsing: "redis://127.0.0.1:\(sentinelProcess.port)"), loop: loop)
        let toReplica = RedisConnection(url: try RedisURL(parsing: replica.url), loop: loop)
        // The replica has it, and the Sentinel knows the replica: then it can fail over.
        #expect(eventually(10) { call(toReplica, ["GET", "k"]) == .success(.bulk(Array("before".utf8))) })
        #expect(eventually(15) { call(toSentinel, ["SENTINEL", "FAILOVER", "mymaster"]) == .success(.simple("OK")) })
        #expect(eventually(10) { sentinel.primary == RedisAddress(host: "127.0.0.1", port: replica.port) && sentinel.moves == 1 })
        // Commands go to the new primary: a write succeeds there, and it has the old one's key.
        #expect(eventually(10) { call(c, ["SET", "k2", "after"]) == .success(.simple("OK")) })
        #expect(call(c, ["GET", "k"]) == .success(.bulk(Array("before".utf8))))
        #expect(call(toReplica, ["GET", "k2"]) == .success(.bulk(Array("after".utf8))))
        if case .success(.array(let role?))? = call(c, ["ROLE"]) { #expect(role.first?.string == "master") } else { Issue.record("no ROLE") }
    }

    /// A Sentinel that names a replica as the primary (a stale one): no
    /// connection is made, and commands fail as unavailable within the
    /// timeout, saying why.
    @Test(.enabled(if: RedisServerProcess.available)) func aReplicaNamedAsThePrimaryIsPassedOver() throws {
        let primary = try RedisServerProcess()
        let replica = try RedisServerProcess(arguments: ["--replicaof", "127.0.0.1", String(primary.port)])
        let sentinelProcess = try RedisServerProcess(sentinelMonitoring: [("stale", replica.port)])
        let loop = try EventLoop.started()
        defer { loop.stopAndJoin() }
        let url = RedisSentinelURL(sentinels: [RedisAddress(host: "127.0.0.1", port: sentinelProcess.port)], primaryName: "stale")
        let sentinel = RedisSentinel(url: url, sentinelPassword: nil, timeout: 1)
        let reasons = Mutex<[String]>([])
        let c = RedisConnection(url: url.server(url.sentinels[0]), loop: loop, sentinel: sentinel,
                                onStateChange: { up, reason in if !up { reasons.withLock { $0.append(reason) } } })
        let started = monotonicNanoseconds()
        guard case .failure(.unavailable)? = call(c, ["SET", "k", "v"]) else {
            Issue.record("a command ran on a replica named as the primary")
            return
        }
        #expect(monotonicNanoseconds() - started < 1_500_000_000)
        #expect(eventually(5) { reasons.withLock { $0.contains { $0.contains("127.0.0.1:\(replica.port)") && $0.contains("replica, not the primary") } } },
                "\(reasons.withLock { $0 })")
        #expect(!c.isConnected)
    }
}

