import Dispatch
import EventLoop
import Glibc
import Synchronization

/// The primary that Redis Sentinels name, followed as it moves.
///
/// `locate` asks the Sentinels in turn for the primary's address
/// (`SENTINEL get-master-addr-by-name`) and takes it only once the server
/// there says with `ROLE` that it is the primary: a Sentinel may be stale,
/// and a demoted primary that comes back still answers. The answer is kept
/// until a connection to it is lost or it answers as a replica (`lost`).
/// A watcher subscribes to `+switch-master` on one Sentinel after another
/// and tells the connections that follow (`follow`) when the primary moves.
///
/// Queries and the watcher block, so they run on threads of their own,
/// never on a loop; each step has a deadline of `timeout`.
public final class RedisSentinel: Sendable {
    public let url: RedisSentinelURL
    private let sentinelPassword: String?
    private let timeout: UInt64

    private struct State {
        /// The primary as last verified; nil until asked again.
        var primary: RedisAddress?
        /// The primary as last known, kept when `primary` is dropped: a move is a change of it.
        var known: RedisAddress?
        var moves = 0
        /// Counts what was learnt of the primary: a query's answer is
        /// taken only if nothing newer (a `+switch-master`) came meanwhile.
        var learnt = 0
        var querying = false
        /// Why the last query found no primary (nil once one found it).
        var failure: String?
        var waiting: [@Sendable (Result<RedisAddress, RedisError>) -> Void] = []
        var followers: [@Sendable (RedisAddress) -> Void] = []
        /// The Sentinel to ask first: the last that named the primary.
        var first = 0
        var watching = false
        var stopped = false
    }
    private let state = Mutex(State())
    private let queries = DispatchQueue(label: "loaderd.redis.sentinel.queries")
    private let watcher = DispatchQueue(label: "loaderd.redis.sentinel.watcher")

    public init(url: RedisSentinelURL, sentinelPassword: String?, timeout seconds: Double) {
        self.url = url
        self.sentinelPassword = sentinelPassword
        timeout = UInt64(seconds * 1e9)
    }

    /// The primary as last known (nil before the first answer).
    public var primary: RedisAddress? { state.withLock { $0.known } }
    /// How many times the primary has moved since this process started.
    public var moves: Int { state.withLock { $0.moves } }
    /// Why the Sentinels' last answer named no primary, if it did not.
    public var failure: String? { state.withLock { $0.failure } }

    /// The primary's address, verified; `done` runs on a thread of the
    /// Sentinel's own (any thread).
    public func locate(_ done: @escaping @Sendable (Result<RedisAddress, RedisError>) -> Void) {
        let (known, ask) = state.withLock { s -> (RedisAddress?, Bool) in
            if let p = s.primary { return (p, false) }
            s.waiting.append(done)
            defer { s.querying = true }
            return (nil, !s.querying)
        }
        if let known { return done(.success(known)) }
        if ask { query() }
    }

    private func query() {
        queries.async { [self] in
            let before = state.withLock { $0.learnt }
            answer(find(), learnt: before)
        }
    }

    /// A connection to `address` was lost, or it answered as no primary:
    /// the next `locate` asks the Sentinels again.
    public func lost(_ address: RedisAddress) {
        state.withLock { s in if s.primary == address { s.primary = nil } }
    }

    /// `moved` runs (on any thread) with the new primary each time it moves.
    public func follow(_ moved: @escaping @Sendable (RedisAddress) -> Void) {
        state.withLock { $0.followers.append(moved) }
    }

    /// Starts watching the Sentinels for moves (once).
    public func start() {
        guard state.withLock({ s in defer { s.watching = true }; return !s.watching }) else { return }
        watcher.async { [self] in watch() }
    }

    public func stop() {
        state.withLock { $0.stopped = true }
    }

    // MARK: Threads of its own

    /// A query's `result`, asked when `learnt` was the count: the waiting
    /// get the primary as known now if a move was told meanwhile (an old
    /// primary may still say it is one).
    private func answer(_ result: Result<RedisAddress, RedisError>, learnt: Int) {
        var result = result
        let waiting = state.withLock { s in
            defer { s.waiting = []; s.querying = false }
            if s.learnt != learnt, let p = s.primary { result = .success(p) }
            if case .failure(let error) = result { s.failure = error.message } else { s.failure = nil }
            return s.waiting
        }
        if case .success(let address) = result { moved(to: address) }
        for done in waiting { done(result) }
    }

    /// The primary is at `address` now.
    private func moved(to address: RedisAddress) {
        let followers = state.withLock { s -> [@Sendable (RedisAddress) -> Void] in
            s.learnt += 1
            s.primary = address
            guard s.known != address else { return [] }
            if s.known != nil { s.moves += 1 }
            s.known = address
            return s.followers
        }
        for f in followers { f(address) }
    }

    private var sentinelAuth: [[String]] { sentinelPassword.map { [["AUTH", $0]] } ?? [] }

    /// Asks each Sentinel in turn, starting with the last that answered,
    /// until one names a server that says it is the primary.
    private func find() -> Result<RedisAddress, RedisError> {
        let sentinels = url.sentinels
        let first = state.withLock { $0.first }
        var refused: [String] = [], unknown: [String] = [], wrong: [String] = []
        // A server found not to be the primary is not asked again in this query:
        // a frozen one would cost the timeout for each Sentinel that names it.
        var passedOver: [RedisAddress: String] = [:]
        for i in 0..<sentinels.count {
            let n = (first + i) % sentinels.count
            let sentinel = sentinels[n]
            let replies: [RESPValue]
            do {
                replies = try BlockingRedis.exchange(sentinel, sentinelAuth + [["SENTINEL", "get-master-addr-by-name", url.primaryName]],
                                                     by: monotonicNanoseconds() &+ timeout)
            } catch {
                refused.append("\(sentinel): \(error.message)")
                continue
            }
            if case .error(let message)? = replies.first, replies.count > 1 {
                refused.append("\(sentinel): AUTH: \(String(message.prefix(200)))")
                continue
            }
            switch replies.last {
            case .array(let parts?) where parts.count == 2:
                guard let host = parts[0].string, RedisSentinel.isHost(host), let port = parts[1].string.flatMap({ RedisURL.decimal(Substring($0)) }),
                      (1...65535).contains(port) else {
                    wrong.append("\(sentinel) answered an address that is none")
                    continue
                }
                let address = RedisAddress(host: host, port: port)
                if let why = passedOver[address] ?? notPrimary(address) {
                    passedOver[address] = why
                    wrong.append("\(sentinel) named \(address) as the primary \(url.primaryName), but \(why)")
                    continue
                }
                state.withLock { $0.first = n }
                return .success(address)
            case .error(let message)?:
                refused.append("\(sentinel): \(String(message.prefix(200)))")
            case .array(nil)?, .bulk(nil)?:
                unknown.append("\(sentinel)")
            default:
                wrong.append("\(sentinel) answered something that is no address")
            }
        }
        var reasons: [String] = []
        if !wrong.isEmpty { reasons.append(wrong.joined(separator: "; ")) }
        if !unknown.isEmpty { reasons.append("no primary named \(url.primaryName) is known to the Sentinel\(unknown.count > 1 ? "s" : "") at \(unknown.joined(separator: ", "))") }
        if !refused.isEmpty {
            reasons.append(refused.count == sentinels.count ? "no Sentinel answered (\(refused.joined(separator: "; ")))" : refused.joined(separator: "; "))
        }
        return .failure(.unavailable(reasons.joined(separator: "; ")))
    }

    /// Why the server at `address` is not the primary; nil if it says it is.
    private func notPrimary(_ address: RedisAddress) -> String? {
        let server = url.server(address)
        var commands: [[String]] = []
        if let password = server.password { commands.append(server.user.map { ["AUTH", $0, password] } ?? ["AUTH", password]) }
        commands.append(["ROLE"])
        let replies: [RESPValue]
        do {
            replies = try BlockingRedis.exchange(address, commands, by: monotonicNanoseconds() &+ timeout)
        } catch {
            return "it did not answer: \(error.message)"
        }
        if commands.count > 1, case .error(let message)? = replies.first { return "it refused the password: \(message.prefix(200))" }
        guard let role = RedisRole(replies.last) else { return "its ROLE reply is not one" }
        return role.isPrimary ? nil : "it is a \(role.name), not the primary"
    }

    /// Subscribes to `+switch-master` on one Sentinel after another, for as
    /// long as the process runs. A watch that begins asks the Sentinels
    /// again: a move may have come while no one was watching.
    private func watch() {
        var n = 0
        var pause: UInt64 = 50_000_000
        while !state.withLock({ $0.stopped }) {
            let sentinel = url.sentinels[n % url.sentinels.count]
            n += 1
            if (try? watch(sentinel)) == true { pause = 50_000_000 }
            // Every Sentinel tried: wait a little before the next round.
            if n % url.sentinels.count == 0 {
                var ts = timespec(tv_sec: Int(pause / 1_000_000_000), tv_nsec: Int(pause % 1_000_000_000))
                nanosleep(&ts, nil)
                pause = min(pause * 2, 1_000_000_000)
            }
        }
    }

    /// Watches one Sentinel until its connection fails; true if it was
    /// watched for a while.
    private func watch(_ sentinel: RedisAddress) throws(RedisError) -> Bool {
        let connection = try BlockingRedis.connect(sentinel, by: monotonicNanoseconds() &+ timeout)
        try connection.send(sentinelAuth + [["SUBSCRIBE", "+switch-master"]], by: monotonicNanoseconds() &+ timeout)
        for _ in 0..<(sentinelAuth.count + 1) {
            guard let reply = try connection.receive(by: monotonicNanoseconds() &+ timeout) else { throw .unavailable("no answer") }
            if case .error(let message) = reply { throw .reply(RedisErrorReply(message)) }
        }
        // Moves while no one watched: ask the Sentinels again.
        queries.async { [self] in
            let before = state.withLock { $0.learnt }
            guard case .success(let address) = find() else { return }
            let current = state.withLock { $0.learnt == before }
            if current { moved(to: address) }
        }
        // Quiet for a second: a PING shows whether the Sentinel is still there.
        var pinged = false
        while !state.withLock({ $0.stopped }) {
            guard let message = try connection.receive(by: monotonicNanoseconds() &+ max(timeout, 1_000_000_000)) else {
                if pinged { throw .unavailable("\(sentinel) stopped answering") }
                try connection.send([["PING"]], by: monotonicNanoseconds() &+ timeout)
                pinged = true
                continue
            }
            pinged = false
            // ["message", "+switch-master", "<name> <old ip> <old port> <new ip> <new port>"]
            guard case .array(let parts?) = message, parts.count == 3, parts[0].string == "message",
                  let text = parts[2].string else { continue }
            let words = text.split(separator: " ")
            guard words.count == 5, words[0] == url.primaryName, Self.isHost(String(words[3])), let port = RedisURL.decimal(words[4]), (1...65535).contains(port) else { continue }
            moved(to: RedisAddress(host: String(words[3]), port: port))
        }
        return true
    }

    /// Whether a Sentinel's host is one: a name or an address of at most
    /// 255 printable bytes (what a Sentinel says ends up in logs).
    static func isHost(_ host: String) -> Bool {
        (1...255).contains(host.utf8.count) && host.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "@") }
    }

}

/// What a server's `ROLE` reply says it is.
struct RedisRole {
    /// `master`, `slave` or `sentinel`, as Redis names them.
    let name: String
    var isPrimary: Bool { name == "master" }

    init?(_ reply: RESPValue?) {
        guard case .array(let parts?)? = reply, let first = parts.first?.string else { return nil }
        name = first == "slave" ? "replica" : first
    }
}
