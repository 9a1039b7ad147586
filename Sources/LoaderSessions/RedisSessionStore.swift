import EventLoop
import LoaderEngine
import Redis
import Synchronization

/// Sessions in Redis, so that any replica serves any session and losing a
/// replica loses nothing (`RedisScripts` has the layout). Every write is one
/// script; its reply, and so the API's 2xx, comes once Redis has applied it
/// (durable as Redis's `appendfsync` makes it; with `waitReplicas`, once
/// that many replicas have it too).
///
/// Each replica keeps a connection for commands on each of its event loops,
/// so that a request's commands and their replies stay on its thread, and
/// one subscribed to `loaderd:events`. A session read here is
/// kept folded (`Folded`): a later read is one script that answers its
/// state and only the events since, so a request costs the same however
/// long the session has run. Sessions that this replica's viewers watch are
/// read again when an event is published for them (and every half second),
/// so frames are computed locally and shared by all their viewers; each
/// read claims this replica's viewers of the session under a lease of
/// `RedisScripts.viewerLeaseMilliseconds`, so the count over all replicas
/// is right again within half a second of a claim that was lost, and a
/// replica that dies stops counting once its lease runs out. While Redis cannot be reached,
/// operations fail at once (`.unavailable`, a 503), while viewers of the
/// sessions this replica has read go on watching them from what it read.
///
/// With a `sentinel`, every connection follows the primary the Sentinels
/// name (`RedisSentinel`): through a failover the store is unavailable as
/// through an outage, viewers go on from what this replica read, and the
/// refreshes claim this replica's viewers again on the new primary.
public final class RedisSessionStore: SessionStore, Sendable {
    /// The user, password and database; with a Sentinel, not the host.
    public let url: RedisURL
    public let sentinel: RedisSentinel?
    /// The store as logs name it: its URL without the password.
    private let name: String
    let limits: SessionLimits
    let catalog: LoaderCatalog
    /// The loaders whose sessions take progress, as the post script reads
    /// them: made once, not on every event.
    private let progressLoaders: String
    let logger: any SessionLogger
    let waitReplicas: Int
    public let clock: WallClock
    /// The connections `start` opens: set once, then only read (an
    /// uncontended lock a command, for a checked `Sendable`).
    private let started = Mutex<Started?>(nil)
    private struct Started: Sendable {
        /// One for each event loop, in the loops' order.
        let connections: [RedisConnection]
        let subscriber: RedisConnection
    }

    /// The connection of the caller's loop: a write from another loop's
    /// thread would wake that thread twice, there and back.
    private var commands: RedisConnection? {
        started.withLock { started in
            guard let connections = started?.connections else { return nil }
            return connections.first { $0.loop.inLoop } ?? connections.first
        }
    }
    /// Sessions as this replica last read them, by id.
    private let known = Mutex<[String: Folded]>([:])
    private let liveCount = Atomic<Int>(0)
    /// This replica in the sessions' viewer counts (`RedisScripts`): new at
    /// each start, so a restarted replica's old claims simply lapse.
    let replica = randomToken(bytes: 9)
    /// Viewers whose join is on its way to Redis, by session: claimed with
    /// those that watch, so that a claim sent meanwhile does not drop them.
    /// Locks are taken in the order `claims`, `known`, `joining`.
    private let joining = Mutex<[String: Int]>([:])
    /// Sessions whose count Redis may not have right (a claim that failed,
    /// a join whose outcome is unknown): claimed again at the next refresh.
    private let unsettled = Mutex<Set<String>>([])
    /// The sequence number of this replica's last claim (`RedisScripts`):
    /// a claim's count is taken under it, so a later number always carries
    /// a count at least as recent, and Redis keeps the latest to arrive.
    private let claims = Mutex<Int>(0)

    /// This replica's count of a session's viewers as of its `sequence`.
    private struct Claim {
        let count: Int
        let sequence: Int
    }

    /// A session as this replica last read it: its events folded into its
    /// loader, and the stream ID of the last, so that the next read asks
    /// Redis for the new events only and a request costs the same however
    /// long the session has run. Kept while this replica's viewers watch
    /// it; else a cache within `cacheEvents`.
    // unchecked: touched only under `known`'s lock, which holds it.
    private final class Folded: @unchecked Sendable {
        /// The loader as configured, before any event.
        let base: ConfiguredLoader
        let params: [(String, JSONValue)]
        let createdAt: Double
        private(set) var events: [SessionEvent] = []
        private var folded = LoaderEvents()
        private(set) var loader: ConfiguredLoader
        private(set) var last: StreamID?
        /// This replica's viewers of it.
        var viewers = 0
        /// Why streams must end, once they must (the session is gone; an
        /// outage of the store does not end them: see `refresh`).
        var ended: String?

        init(base: ConfiguredLoader, params: [(String, JSONValue)], createdAt: Double) {
            self.base = base
            self.params = params
            self.createdAt = createdAt
            loader = base
        }

        /// Adds the events it does not have yet (a read may repeat some an
        /// earlier one gave).
        @discardableResult
        func append(_ new: [(StreamID, SessionEvent)]) -> Bool {
            let before = events.count
            for (id, event) in new where last.map({ $0 < id }) ?? true {
                events.append(event)
                switch event.kind {
                case .progress: folded.progress.append(event.t)
                case .finish: folded.finish = event.t
                case .stop: folded.stop = event.t
                }
                last = id
            }
            guard events.count != before else { return false }
            loader = base.with(events: folded)
            return true
        }

        /// Forgets the events, to read them all again.
        func reset() {
            events = []
            folded = LoaderEvents()
            last = nil
            loader = base
        }

        func snapshot(_ id: String, viewers: Int, at now: Double) -> SessionSnapshot {
            SessionSnapshot(id: id, loader: loader, params: params, createdAt: createdAt, events: events, viewers: viewers, now: now - createdAt)
        }
    }

    /// Sessions no viewer here watches are a cache of those read lately, of
    /// at most this many sessions and events (about 40 bytes an event).
    static let cacheSessions = 4096
    static let cacheEvents = 200_000

    /// A command unanswered this long fails (503) and the connection is made anew.
    let commandTimeout: Double

    public init(url: RedisURL, sentinel: RedisSentinel? = nil, limits: SessionLimits, catalog: LoaderCatalog, logger: any SessionLogger,
                waitReplicas: Int = 0, commandTimeout: Double = 1, clock: WallClock = .system, logIntervals: LogIntervals = LogIntervals()) {
        self.logIntervals = logIntervals
        self.clock = clock
        self.url = url
        self.sentinel = sentinel
        name = sentinel?.url.description ?? url.description
        self.commandTimeout = commandTimeout
        self.limits = limits
        self.catalog = catalog
        progressLoaders = catalog.loaders.filter { $0.accepts(.progress) }.map(\.name).joined(separator: " ")
        self.logger = logger
        self.waitReplicas = waitReplicas
    }

    /// How often an outage is logged: a new reason at most every
    /// `changedReason` seconds, the same one again every `sameReason`
    /// seconds while it lasts.
    public struct LogIntervals: Sendable {
        public var changedReason: Double = 10
        public var sameReason: Double = 30
        public init(changedReason: Double = 10, sameReason: Double = 30) {
            self.changedReason = changedReason
            self.sameReason = sameReason
        }
    }
    let logIntervals: LogIntervals

    /// While the store is unavailable: since when, the reason last logged,
    /// and whether this outage was logged. `logged` (when the last line was)
    /// is kept from one outage to the next, so a connection that comes and
    /// goes says so once in `logIntervals`, not twice each time; "available"
    /// comes only after an outage that was logged. With a Sentinel, the
    /// primary writes last went to, so that a move is logged as one.
    private struct Outage {
        var since: UInt64?
        var reason: String?
        var said = false
        var logged: UInt64?
        var primary: RedisAddress?
    }
    private let outage = Mutex(Outage())

    private func logStateChange(up: Bool, reason: String) {
        let now = monotonicNanoseconds()
        if up {
            let primary = sentinel?.primary
            let (since, said, from) = outage.withLock { o in
                defer { o = Outage(logged: o.logged, primary: primary) }
                return (o.since, o.said, o.primary)
            }
            var fields: [(String, LogField)] = [("store", .string(name))]
            let refused = since.map { (Double(now &- $0) / 1e6).rounded() / 1000 }
            if let from, let primary, from != primary {
                fields += [("from", .string(from.description)), ("to", .string(primary.description)), ("writesRefusedSeconds", .double(refused ?? 0))]
                return logger.log(.warning, "session store primary moved", fields)
            }
            guard said || since == nil else { return }
            if let primary { fields.append(("primary", .string(primary.description))) }
            if let refused { fields.append(("outageSeconds", .double(refused))) }
            logger.log(.info, "session store available", fields)
        } else {
            let log = outage.withLock { o -> Bool in
                if o.since == nil { o.since = now }
                let since = o.logged.map { Double(now &- $0) / 1e9 } ?? .infinity
                let due = since >= logIntervals.sameReason || (o.reason != reason && since >= logIntervals.changedReason)
                guard due else { return false }
                o.reason = reason
                o.logged = now
                o.said = true
                return true
            }
            if log { logger.log(.warning, "session store unavailable", [("store", .string(name)), ("reason", .string(reason))]) }
        }
    }

    /// Connects on each of the server's loops: until then every operation
    /// answers `.unavailable`.
    public func start(on loops: [EventLoop]) {
        guard let loop = loops.first else { return }
        // Logged once per outage, from the first loop's connection.
        let logState: RedisConnection.StateChange = { [weak self] up, reason in self?.logStateChange(up: up, reason: reason) }
        sentinel?.start()
        let connections = loops.map { other in
            RedisConnection(url: url, loop: other, commandTimeout: commandTimeout, sentinel: sentinel, onStateChange: other === loop ? logState : nil)
        }
        let subscriber = RedisConnection(url: url, loop: loop, commandTimeout: commandTimeout, sentinel: sentinel, onConnect: { [weak self] in
            guard let self else { return }
            self.started.withLock { $0?.subscriber }?.send(["SUBSCRIBE", RedisScripts.channel]) { _ in }
            // Messages may have been missed while it was down.
            self.refreshAll()
        }, onMessage: { [weak self] _, payload in
            self?.refresh(String(decoding: payload, as: UTF8.self))
        })
        started.withLock { $0 = Started(connections: connections, subscriber: subscriber) }
        loop.execute { [self] in scheduleRefresh(loop) }
    }

    private func scheduleRefresh(_ loop: EventLoop) {
        loop.schedule(afterNanoseconds: 500_000_000) { [weak self] in
            guard let self else { return }
            self.refreshAll()
            if let commands = self.commands {
                let call = RedisScript.Call(script: RedisScripts.count, rest: ["1", RedisScripts.live, JSONWriter.number(clock.now())])
                Self.run(call, on: commands) { [weak self] r in
                    if case .success(let value) = r, let n = try? RedisScripts.liveCount(value) { self?.liveCount.store(n, ordering: .relaxed) }
                }
            }
            self.scheduleRefresh(loop)
        }
    }

    public var count: Int { liveCount.load(ordering: .relaxed) }

    /// As `loaderd_redis_up` says: the first loop's connection.
    public var isAvailable: Bool { started.withLock { $0?.connections.first }?.isConnected ?? false }

    public var metrics: [StoreMetric] {
        var sentinelMetrics: [StoreMetric] = []
        if let sentinel {
            // Info: 1, with the primary as a label; absent until the Sentinels have named one.
            if let primary = sentinel.primary {
                sentinelMetrics.append(StoreMetric(name: "loaderd_redis_primary_info", help: "The Redis primary the Sentinels name, where this replica writes.",
                                                   kind: .gauge, value: .int(1), labels: [("address", primary.description)]))
            }
            sentinelMetrics.append(StoreMetric(name: "loaderd_redis_failovers_total", help: "Moves of the Redis primary this replica has followed.",
                                               kind: .counter, value: .int(sentinel.moves)))
        }
        return sentinelMetrics + [
            StoreMetric(name: "loaderd_redis_up", help: "Whether the session store's Redis is reachable.", kind: .gauge,
                        value: .int(isAvailable ? 1 : 0)),
            StoreMetric(name: "loaderd_redis_watched_sessions", help: "Sessions this replica's viewers watch.", kind: .gauge,
                        value: .int(known.withLock { $0.values.count { $0.viewers > 0 } })),
            StoreMetric(name: "loaderd_session_viewers", help: "Viewers of sessions streaming from this replica (maxViewersPerSession bounds each session's, over all replicas).",
                        kind: .gauge, value: .int(known.withLock { $0.values.reduce(0) { $0 + $1.viewers } })),
        ]
    }

    // MARK: Operations

    public func create(definition: LoaderDefinition, params: [(String, JSONValue)], loader: ConfiguredLoader,
                       reply: @escaping SessionReply<SessionCreated>) {
        let id = randomToken(bytes: 16)
        let token = randomToken(bytes: 32)
        let now = clock.now()
        var w = JSONWriter(capacity: 128)
        SessionParams.write(params, &w)
        let doneAt = loader.doneTime(from: 0).map(JSONWriter.number) ?? ""
        write(id, RedisScripts.eval(RedisScripts.create, id, [
            definition.name, String(decoding: w.bytes, as: UTF8.self), JSONWriter.number(now), token,
            ttl, String(limits.maxSessions), JSONWriter.number(now), doneAt,
        ])) { result in
            reply(result.map { _ in SessionCreated(id: id, token: token, loader: definition.name, createdAt: now) })
        }
    }

    /// Progress is one script: it changes neither when the loader is done
    /// nor what the other events mean, so the script checks the token, the
    /// loader and the limits and takes the session clock itself. Finish and
    /// stop read the session first (see the next function).
    public func post(_ kind: SessionEvent.Kind, to id: String, token: String?, reply: @escaping SessionReply<SessionEvent>) {
        guard kind == .progress else { return post(kind, id, token, tries: 4, reply) }
        let arguments = [token ?? "", kind.rawValue, "", "", "", String(limits.maxEventsPerSession), ttl,
                         JSONWriter.number(clock.now()), progressLoaders]
        write(id, RedisScripts.eval(RedisScripts.post, id, arguments), kind: kind) { result in
            reply(result.flatMap { value in
                guard let t = try? RedisScripts.postedTime(value) else { return .failure(.unavailable("an unexpected reply from Redis")) }
                return .success(SessionEvent(kind: kind, t: t))
            })
        }
    }

    /// Reads the session, checks and computes what a script cannot (the
    /// event's kind, when the loader is done), then writes if no other event
    /// came in between; else reads again.
    private func post(_ kind: SessionEvent.Kind, _ id: String, _ token: String?, tries: Int, _ reply: @escaping SessionReply<SessionEvent>) {
        read(id, owner: token ?? "", addViewer: false) { [self] (result: Result<SessionSnapshot, SessionError>) in
            switch result {
            case .failure(let error): reply(.failure(error))
            case .success(let s): post(kind, s, token, tries: tries, reply)
            }
        }
    }

    private func post(_ kind: SessionEvent.Kind, _ s: SessionSnapshot, _ token: String?, tries: Int, _ reply: @escaping SessionReply<SessionEvent>) {
        let definition = s.loader.definition
        guard definition.accepts(kind) else {
            let accepted = definition.events.map { $0.name }
            reply(.failure(.eventNotAccepted(kind: kind, loader: definition.name, accepted: accepted)))
            return
        }
        let t = clock.now() - s.createdAt
        let event = SessionEvent(kind: kind, t: t)
        let after = s.loader.with(events: (s.events + [event]).loaderEvents)
        let seen = String(s.events.count)
        let doneAt = after.doneTime(from: t).map(JSONWriter.number) ?? ""
        let arguments = [token ?? "", kind.rawValue, JSONWriter.number(t), seen, doneAt,
                         String(limits.maxEventsPerSession), ttl, JSONWriter.number(clock.now()), ""]
        let id = s.id
        var again: (@Sendable () -> Void)? = nil
        if tries > 1 { again = { @Sendable [self] in self.post(kind, id, token, tries: tries - 1, reply) } }
        write(id, RedisScripts.eval(RedisScripts.post, id, arguments), retry: again) { result in
            reply(result.map { _ in event })
        }
    }

    public func authorize(_ id: String, token: String?, reply: @escaping SessionReply<Void>) {
        read(id, owner: token ?? "", addViewer: false, events: false) { reply($0.map { _ in () }) }
    }

    public func delete(_ id: String, token: String?, reply: @escaping SessionReply<Void>) {
        write(id, RedisScripts.eval(RedisScripts.delete, id, [token ?? ""])) { reply($0.map { _ in () }) }
    }

    public func snapshot(_ id: String, reply: @escaping SessionReply<SessionSnapshot>) {
        read(id, owner: nil, addViewer: false, reply)
    }

    /// While Redis cannot be reached, a session this replica has read is
    /// still watched from what it read: its frames are a function of its
    /// events, and new ones come once Redis is back (its refresh then
    /// claims these viewers too).
    public func addViewer(_ id: String, reply: @escaping SessionReply<SessionSnapshot>) {
        let claim = claim(id, joining: 1)
        read(id, owner: nil, addViewer: true, claim: claim) { [self] result in
            // Admitted as it was read (`admit`); a refusal is no longer joining.
            guard case .failure(let error) = result else { return reply(result) }
            guard case .unavailable = error else {
                joined(id, -1)
                return reply(result)
            }
            // Redis may have counted it before the reply was lost: the next refresh says what is true.
            unsettled.withLock { _ = $0.insert(id) }
            guard let snapshot = known.withLock({ all -> SessionSnapshot? in
                guard let f = all[id], f.ended == nil else {
                    joined(id, -1)
                    return nil
                }
                admit(f, id)
                return f.snapshot(id, viewers: f.viewers, at: clock.now())
            })
            else { return reply(result) }
            reply(.success(snapshot))
        }
    }

    /// Called once for each viewer `addViewer` admitted, whatever ended its
    /// stream: this replica's count of it is claimed again.
    public func removeViewer(_ id: String) {
        known.withLock { all in
            guard let f = all[id], f.viewers > 0 else { return }
            f.viewers -= 1
        }
        claimViewers(id)
    }

    /// Viewers of `id` joining now, changed by `change`.
    @discardableResult
    private func joined(_ id: String, _ change: Int) -> Int {
        joining.withLock { all -> Int in
            let n = (all[id] ?? 0) + change
            all[id] = n > 0 ? n : nil
            return max(0, n)
        }
    }

    /// A joining viewer of `id` is in: it leaves `joining` and joins `f`'s
    /// viewers in one step under `known`'s lock (the caller holds it), the
    /// lock a claim counts under, so no claim counts it twice or not at all.
    private func admit(_ f: Folded, _ id: String) {
        f.viewers += 1
        joined(id, -1)
    }

    /// This replica's viewers of `id` now, with `joining` more on their way,
    /// numbered after every claim made before: those that watch and those
    /// joining, counted in one step (`admit`).
    private func claim(_ id: String, joining change: Int = 0) -> Claim {
        claims.withLock { last in
            last += 1
            let count = known.withLock { all in joined(id, change) + (all[id]?.viewers ?? 0) }
            return Claim(count: count, sequence: last)
        }
    }

    /// Claims this replica's viewers of `id` on their own (a viewer left);
    /// if that fails, the next refresh claims them.
    private func claimViewers(_ id: String) {
        guard let commands else { return }
        let claim = claim(id)
        let call = RedisScripts.eval(RedisScripts.claimViewers, id,
                                     [replica, String(claim.count), String(RedisScripts.viewerLeaseMilliseconds), String(claim.sequence)])
        Self.run(call, on: commands) { [self] result in
            guard case .failure = result else { return }
            unsettled.withLock { _ = $0.insert(id) }
        }
    }

    public func watch(_ id: String) -> SessionWatch {
        known.withLock { all in
            guard let f = all[id], f.viewers > 0 else { return .ended(reason: "gone") }
            if let ended = f.ended { return .ended(reason: ended) }
            return .live(f.loader)
        }
    }

    // MARK: Watched sessions

    /// Reads a watched session again: its new events, or that it is gone
    /// (its viewers' streams end), claiming this replica's viewers of it
    /// (the claim's lease runs out unless renewed). While Redis cannot be
    /// reached, the viewers go on with what this replica has; the next read
    /// after the outage brings what came meanwhile and claims them again.
    private func refresh(_ id: String) {
        let mine = claim(id)
        let settling = unsettled.withLock { $0.remove(id) != nil }
        guard mine.count > 0 || settling else { return }
        read(id, owner: nil, addViewer: false, claim: mine) { [self] result in
            switch result {
            case .success: break
            case .failure(.notFound), .failure(.expired):
                known.withLock { all in
                    guard let f = all[id], f.viewers > 0 else { return }
                    f.ended = "gone"
                }
            case .failure:
                if settling { unsettled.withLock { _ = $0.insert(id) } }
            }
        }
    }

    private func refreshAll() {
        let watched = known.withLock { $0.compactMap { $0.value.viewers > 0 ? $0.key : nil } }
        let others = unsettled.withLock { $0 }.union(joining.withLock { Set($0.keys) }).subtracting(watched)
        for id in watched { refresh(id) }
        for id in others { refresh(id) }
    }

    // MARK: Redis

    private var ttl: String { String(Int(limits.ttlSeconds.rounded(.up))) }

    /// Reads session `id`; with `owner`, only for that token (a missing one
    /// is ""): 401 comes after 404 and 410, as in every store. With
    /// `addViewer`, a viewer is counted against the limit.
    /// Without `events`, the snapshot's events (and its loader's) are left
    /// out; with them, only those this replica has not read yet are asked
    /// for, unless `full`. With `claim`, this replica claims that many
    /// viewers of it (with `addViewer`, the new one among them).
    private func read(_ id: String, owner: String?, addViewer: Bool, claim: Claim? = nil, events: Bool = true, full: Bool = false,
                      _ reply: @escaping SessionReply<SessionSnapshot>) {
        let from = !events ? "" : full ? "-" : known.withLock { $0[id]?.last?.next ?? "-" }
        let arguments = [owner ?? "", owner == nil ? "0" : "1", addViewer ? "1" : "0",
                         String(limits.maxViewersPerSession), ttl, JSONWriter.number(clock.now()), from,
                         replica, claim.map { String($0.count) } ?? "", String(RedisScripts.viewerLeaseMilliseconds),
                         claim.map { String($0.sequence) } ?? ""]
        command(id, RedisScripts.eval(RedisScripts.read, id, arguments)) { [self] result in
            switch result.flatMap({ value in fold(id, value, from: from, addViewer: addViewer) }) {
            case .success(let snapshot?): reply(.success(snapshot))
            // The count and the events disagree: this replica missed some (it cannot, short of a bug); read them all.
            // Redis has counted a new viewer already: the replica counts it once the full read is in.
            case .success(nil):
                read(id, owner: owner, addViewer: false, events: true, full: true) { [self] result in
                    guard addViewer, case .success = result else {
                        // Redis counted the viewer that is not coming: the next refresh claims the true count.
                        if addViewer { unsettled.withLock { _ = $0.insert(id) } }
                        return reply(result)
                    }
                    known.withLock { all in
                        guard let f = all[id] else {
                            joined(id, -1)
                            return
                        }
                        admit(f, id)
                        f.ended = nil
                    }
                    reply(result)
                }
            case .failure(let error):
                switch error {
                case .notFound, .expired: known.withLock { all in if all[id]?.viewers == 0 { all[id] = nil } }
                default: break
                }
                reply(.failure(error))
            }
        }
    }

    /// The session in a read's reply, its new events folded into what this
    /// replica had read of it before; nil if they do not add up to its count.
    private func fold(_ id: String, _ value: RESPValue, from: String, addViewer: Bool) -> Result<SessionSnapshot?, SessionError> {
        guard let read = try? RedisScripts.ReadReply.decode(value), let definition = catalog[read.loader]
        else { return .failure(.unavailable("an unexpected reply from Redis")) }
        let paramsText = read.params, createdAt = read.createdAt, viewers = read.viewers, count = read.eventCount
        let new = read.events
        // A session's parameters never change: read once per session.
        var made: Folded?
        if from == "-" || known.withLock({ $0[id] == nil }) {
            guard case .object(let params)? = try? JSONValue.parse(Array(paramsText.utf8)),
                  let items = try? SessionParams.items(params), let base = try? definition.configure(items)
            else { return .failure(.unavailable("session \(id) has parameters this replica cannot read")) }
            made = Folded(base: base, params: params, createdAt: createdAt)
        }
        // Without events (a write's check), only the loader as configured is needed.
        guard !from.isEmpty else {
            let f = made ?? known.withLock { $0[id] }
            guard let f else { return .failure(.unavailable("session \(id) vanished from this replica")) }
            return .success(SessionSnapshot(id: id, loader: f.base, params: f.params, createdAt: createdAt, events: [], viewers: viewers,
                                            now: clock.now() - createdAt))
        }
        return .success(known.withLock { all -> SessionSnapshot? in
            let f: Folded
            if let existing = all[id] {
                f = existing
                if from == "-" { f.reset() }
            } else {
                guard let made else { return nil }
                f = made
                all[id] = f
            }
            let grew = f.append(new) || f === made
            // A full read is what Redis has, whatever its count says.
            guard f.events.count == count || from == "-" else {
                f.reset()
                return nil
            }
            if addViewer {
                admit(f, id)
                // Read just now: whatever ended the others' streams is over.
                f.ended = nil
            } else if grew && f.viewers == 0 {
                Self.trim(&all, keeping: id)
            }
            return f.snapshot(id, viewers: viewers, at: clock.now())
        })
    }

    /// Keeps the sessions no viewer watches within `cacheSessions` and
    /// `cacheEvents`, dropping others than `id` (the one just read) at random.
    private static func trim(_ all: inout [String: Folded], keeping id: String) {
        var sessions = 0, events = 0
        for (_, f) in all where f.viewers == 0 {
            sessions += 1
            events += f.events.count
        }
        guard sessions > cacheSessions || events > cacheEvents else { return }
        for (other, f) in all where f.viewers == 0 && other != id {
            all[other] = nil
            sessions -= 1
            events -= f.events.count
            if sessions <= cacheSessions && events <= cacheEvents { return }
        }
    }

    /// A write: its reply once Redis has applied it (and, with
    /// `waitReplicas`, once that many replicas have it). `retry` runs instead
    /// when the script says the session changed since it was read.
    private func write(_ id: String, _ call: RedisScript.Call, kind: SessionEvent.Kind? = nil, retry: (@Sendable () -> Void)? = nil,
                       _ reply: @escaping SessionReply<RESPValue>) {
        guard let commands else { return reply(.failure(.unavailable("the session store has not started"))) }
        command(id, call, on: commands, kind: kind, retry: retry) { [waitReplicas, commandTimeout] result in
            guard case .success(let value) = result, waitReplicas > 0 else { return reply(result) }
            // WAIT counts this connection's writes: it goes on the same one. A write may wait
            // for the WAIT in flight and then its own: a third of the command timeout each
            // answers it within the timeout (and the connection's watchdog never fires).
            commands.confirmReplicated(waitReplicas, milliseconds: max(1, Int(commandTimeout * 1000 / 3))) { confirmed in
                // Not acknowledged: a failover now could lose it. Applied on the primary, it may still be kept.
                reply(confirmed ? .success(value) : .failure(.unavailable("the write was not confirmed by \(waitReplicas) Redis replica(s) in time")))
            }
        }
    }

    /// Runs a script about session `id`; a script's error reply (its
    /// code) becomes the sessions' own error.
    private func command(_ id: String, _ call: RedisScript.Call, on connection: RedisConnection? = nil, kind: SessionEvent.Kind? = nil,
                         retry: (@Sendable () -> Void)? = nil, _ reply: @escaping SessionReply<RESPValue>) {
        guard let commands = connection ?? commands else { return reply(.failure(.unavailable("the session store has not started"))) }
        let limits = limits, catalog = catalog
        Self.run(call, on: commands) { result in
            switch result {
            case .success(let value): reply(.success(value))
            case .failure(.reply(let error)):
                switch RedisScripts.ScriptError(error) {
                case .retry where retry != nil: retry?()
                // The post script names the session's loader when it does not take the event.
                case .eventNotAccepted(let loader) where kind != nil:
                    reply(.failure(.eventNotAccepted(kind: kind!, loader: loader, accepted: catalog[loader]?.events.map(\.name) ?? [])))
                case let script: reply(.failure(Self.error(script, code: error.code, id, limits)))
                }
            case .failure(.unavailable(let why)), .failure(.invalidURL(let why)): reply(.failure(.unavailable(why)))
            }
        }
    }

    /// `call` by the script's digest; whole when Redis does not have the
    /// script yet (a new or restarted Redis), which also has it keep it.
    private static func run(_ call: RedisScript.Call, on connection: RedisConnection, _ reply: @escaping RedisConnection.Reply) {
        connection.send(call.bySHA) { result in
            guard case .failure(.reply(let error)) = result, error.kind == .noScript else { return reply(result) }
            connection.send(call.whole, reply: reply)
        }
    }

    /// A script's error as the sessions' own; `code` is its text, for one
    /// that is none of the scripts'.
    private static func error(_ error: RedisScripts.ScriptError, code: String, _ id: String, _ limits: SessionLimits) -> SessionError {
        switch error {
        case .notFound: return .notFound(id: id)
        case .expired: return .expired(id: id, ttlSeconds: limits.ttlSeconds)
        case .unauthorized: return .unauthorized
        case .tooManySessions: return .tooManySessions(limit: limits.maxSessions)
        case .tooManyViewers: return .tooManyViewers(limit: limits.maxViewersPerSession)
        case .tooManyEvents: return .tooManyEvents(limit: limits.maxEventsPerSession)
        case .done: return .done
        case .finished: return .finished
        // Another writer kept changing the session: the outcome is unknown to nobody, but try later.
        case .retry: return .unavailable("the session changed too often while this event was written; try again")
        case .eventNotAccepted, .other: return .unavailable("Redis answered: \(code)")
        }
    }
}

/// An entry's ID in a Redis stream: milliseconds and a sequence number, in
/// the order Redis gives them.
struct StreamID: Comparable, Sendable {
    let milliseconds: UInt64
    let sequence: UInt64

    init?(_ text: String) {
        let parts = text.split(separator: "-")
        guard parts.count == 2, let ms = UInt64(parts[0]), let seq = UInt64(parts[1]) else { return nil }
        milliseconds = ms
        sequence = seq
    }

    /// The least ID after this one: where a read of the entries after it
    /// begins (XRANGE's start is inclusive).
    var next: String {
        sequence == .max ? "\(milliseconds + 1)-0" : "\(milliseconds)-\(sequence + 1)"
    }

    static func < (a: StreamID, b: StreamID) -> Bool {
        (a.milliseconds, a.sequence) < (b.milliseconds, b.sequence)
    }
}
