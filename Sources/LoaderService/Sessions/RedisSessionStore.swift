import HTTPServer
import LoaderEngine
import Redis
import Synchronization

/// Sessions in Redis, so that any replica serves any session and losing a
/// replica loses nothing (`RedisScripts` has the layout). Every write is one
/// script; its reply, and so the API's 2xx, comes once Redis has applied it
/// (durable as Redis's `appendfsync` makes it; with `waitReplicas`, once
/// that many replicas have it too).
///
/// Each replica keeps two connections, on one of its event loops: one for
/// commands, one subscribed to `loaderd:events`. Sessions that this
/// replica's viewers watch are mirrored here and read again when an event
/// is published for them (and every half second), so frames are computed
/// locally and shared by all their viewers. While Redis cannot be reached,
/// operations fail at once (`.unavailable`, a 503) and viewers' streams end
/// with `unavailable`, so that EventSource reconnects.
public final class RedisSessionStore: SessionStore, @unchecked Sendable {
    public let url: RedisURL
    let limits: SessionLimits
    let catalog: LoaderCatalog
    let logger: Logger
    let waitReplicas: Int
    private var commands: RedisConnection?
    private var subscriber: RedisConnection?
    private let mirrors = Mutex<[String: Mirror]>([:])
    private let liveCount = Atomic<Int>(0)

    /// A watched session as this replica last read it.
    private final class Mirror: @unchecked Sendable {
        var loader: ConfiguredLoader
        let createdAt: Double
        var eventCount: Int
        /// This replica's viewers of it.
        var viewers = 1
        /// Why streams must end, once they must.
        var ended: String?
        var frames = SharedFrames()

        init(_ s: SessionSnapshot) {
            loader = s.loader
            createdAt = s.createdAt
            eventCount = s.events.count
        }

        /// The session as read now; shared frames go when its events changed.
        func update(_ s: SessionSnapshot) {
            guard s.events.count != eventCount else { return }
            loader = s.loader
            eventCount = s.events.count
            frames.removeAll()
        }
    }

    /// A command unanswered this long fails (503) and the connection is made anew.
    let commandTimeout: Double

    public init(url: RedisURL, limits: SessionLimits, catalog: LoaderCatalog, logger: Logger, waitReplicas: Int = 0,
                commandTimeout: Double = 1) {
        self.url = url
        self.commandTimeout = commandTimeout
        self.limits = limits
        self.catalog = catalog
        self.logger = logger
        self.waitReplicas = waitReplicas
    }

    /// When the store became unavailable, while it is.
    private let outageStart = Mutex<UInt64?>(nil)

    private func logStateChange(up: Bool, reason: String) {
        if up {
            let since = outageStart.withLock { since in
                defer { since = nil }
                return since
            }
            var fields: [(String, LogField)] = [("store", .string(url.description))]
            if let since { fields.append(("outageSeconds", .double((Double(monotonicNanoseconds() &- since) / 1e6).rounded() / 1000))) }
            logger.log(.info, "session store available", fields)
        } else {
            outageStart.withLock { $0 = monotonicNanoseconds() }
            logger.log(.warning, "session store unavailable", [("store", .string(url.description)), ("reason", .string(reason))])
        }
    }

    /// Connects on `loop`, one of the server's: until then every operation
    /// answers `.unavailable`.
    public func start(on loop: EventLoop) {
        // Logged once per outage, from the connection that carries the commands.
        commands = RedisConnection(url: url, loop: loop, commandTimeout: commandTimeout, onStateChange: { [weak self] up, reason in
            self?.logStateChange(up: up, reason: reason)
        })
        subscriber = RedisConnection(url: url, loop: loop, commandTimeout: commandTimeout, onConnect: { [weak self] in
            guard let self else { return }
            self.subscriber?.send(["SUBSCRIBE", RedisScripts.channel]) { _ in }
            // Messages may have been missed while it was down.
            self.refreshAll()
        }, onMessage: { [weak self] _, payload in
            self?.refresh(String(decoding: payload, as: UTF8.self))
        })
        loop.execute { [self] in scheduleRefresh(loop) }
    }

    private func scheduleRefresh(_ loop: EventLoop) {
        loop.schedule(afterNanoseconds: 500_000_000) { [weak self] in
            guard let self else { return }
            self.refreshAll()
            self.commands?.send(["EVAL", RedisScripts.count, "1", RedisScripts.live, JSONWriter.number(wallClock())]) { [weak self] r in
                if case .success(.integer(let n)) = r { self?.liveCount.store(Int(n), ordering: .relaxed) }
            }
            self.scheduleRefresh(loop)
        }
    }

    public var count: Int { liveCount.load(ordering: .relaxed) }

    public func appendMetrics(to out: inout String) {
        out += "# HELP loaderd_redis_up Whether the session store's Redis is reachable.\n# TYPE loaderd_redis_up gauge\n"
        out += "loaderd_redis_up \((commands?.isConnected ?? false) ? 1 : 0)\n"
        out += "# HELP loaderd_redis_watched_sessions Sessions this replica's viewers watch.\n# TYPE loaderd_redis_watched_sessions gauge\n"
        out += "loaderd_redis_watched_sessions \(mirrors.withLock { $0.count })\n"
    }

    // MARK: Operations

    public func create(definition: LoaderDefinition, params: [(String, JSONValue)], loader: ConfiguredLoader,
                       reply: @escaping SessionReply<SessionCreated>) {
        let id = randomToken(bytes: 16)
        let token = randomToken(bytes: 32)
        let now = wallClock()
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

    public func post(_ kind: SessionEvent.Kind, to id: String, token: String?, reply: @escaping SessionReply<SessionEvent>) {
        post(kind, id, token, tries: 4, reply)
    }

    /// Reads the session, checks and computes what a script cannot (the
    /// event's kind, when the loader is done), then writes if no other event
    /// came in between; else reads again. Progress does not change when the
    /// loader is done: its read leaves the events out, and its write does
    /// not depend on them.
    private func post(_ kind: SessionEvent.Kind, _ id: String, _ token: String?, tries: Int, _ reply: @escaping SessionReply<SessionEvent>) {
        read(id, owner: token ?? "", addViewer: false, events: kind != .progress) { [self] (result: Result<SessionSnapshot, SessionError>) in
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
        let t = wallClock() - s.createdAt
        let event = SessionEvent(kind: kind, t: t)
        var seen = "", doneAt = ""
        if kind != .progress {
            let after = s.loader.with(events: (s.events + [event]).loaderEvents)
            seen = String(s.events.count)
            doneAt = after.doneTime(from: t).map(JSONWriter.number) ?? ""
        }
        let arguments = [token ?? "", kind.rawValue, JSONWriter.number(t), seen, doneAt,
                         String(limits.maxEventsPerSession), ttl, JSONWriter.number(wallClock())]
        let id = s.id
        var again: (@Sendable () -> Void)? = nil
        if tries > 1 { again = { @Sendable [self] in self.post(kind, id, token, tries: tries - 1, reply) } }
        write(id, RedisScripts.eval(RedisScripts.post, id, arguments), retry: again) { (result: Result<Void, SessionError>) in
            reply(result.map { _ in event })
        }
    }

    public func authorize(_ id: String, token: String?, reply: @escaping SessionReply<Void>) {
        read(id, owner: token ?? "", addViewer: false, events: false) { reply($0.map { _ in () }) }
    }

    public func delete(_ id: String, token: String?, reply: @escaping SessionReply<Void>) {
        write(id, RedisScripts.eval(RedisScripts.delete, id, [token ?? ""]), reply)
    }

    public func snapshot(_ id: String, reply: @escaping SessionReply<SessionSnapshot>) {
        read(id, owner: nil, addViewer: false, reply)
    }

    public func addViewer(_ id: String, reply: @escaping SessionReply<SessionSnapshot>) {
        read(id, owner: nil, addViewer: true) { [self] result in
            if case .success(let s) = result {
                mirrors.withLock { all in
                    guard let m = all[id] else { all[id] = Mirror(s); return }
                    // Read just now: whatever ended the others' streams is over.
                    m.viewers += 1
                    m.ended = nil
                    m.update(s)
                }
            }
            reply(result)
        }
    }

    public func removeViewer(_ id: String) {
        mirrors.withLock { all in
            guard let m = all[id] else { return }
            m.viewers -= 1
            if m.viewers <= 0 { all[id] = nil }
        }
        commands?.send(RedisScripts.eval(RedisScripts.removeViewer, id, [])) { _ in }
    }

    public func sharedFrame(_ id: String, fps: Double, k: Int, encode: (Frame, Int) -> [UInt8]) -> SharedFrame {
        let key = SharedFrames.Key(fps: fps, k: k)
        return SharedFrames.frame(key, encode: encode, find: {
            mirrors.withLock { all in
                guard let m = all[id] else { return .ready(.ended(reason: "gone")) }
                if let ended = m.ended { return .ready(.ended(reason: ended)) }
                return m.frames[key].map(SharedFrames.Found.ready) ?? .make(m.loader)
            }
        }, keep: { loader, frame in
            mirrors.withLock { all in
                guard let m = all[id] else { return }
                m.frames.keep(key, frame, made: loader, now: m.loader)
            }
        })
    }

    // MARK: Mirrors

    /// Reads a watched session again: its events, or that it is gone, or
    /// that Redis cannot be reached (its viewers' streams end either way).
    private func refresh(_ id: String) {
        guard mirrors.withLock({ $0[id] != nil }) else { return }
        read(id, owner: nil, addViewer: false) { [self] result in
            mirrors.withLock { all in
                guard let m = all[id] else { return }
                switch result {
                case .success(let s):
                    m.update(s)
                case .failure(.unavailable):
                    m.ended = "unavailable"
                case .failure:
                    m.ended = "gone"
                }
            }
        }
    }

    private func refreshAll() {
        for id in mirrors.withLock({ Array($0.keys) }) { refresh(id) }
    }

    // MARK: Redis

    private var ttl: String { String(Int(limits.ttlSeconds.rounded(.up))) }

    /// Reads session `id`; with `owner`, only for that token (a missing one
    /// is ""): 401 comes after 404 and 410, as in every store. With
    /// `addViewer`, a viewer is counted against the limit.
    /// Without `events`, the snapshot's events (and its loader's) are left out.
    private func read(_ id: String, owner: String?, addViewer: Bool, events: Bool = true, _ reply: @escaping SessionReply<SessionSnapshot>) {
        let arguments = [owner ?? "", owner == nil ? "0" : "1", addViewer ? "1" : "0",
                         String(limits.maxViewersPerSession), ttl, JSONWriter.number(wallClock()), events ? "1" : "0"]
        command(id, RedisScripts.eval(RedisScripts.read, id, arguments)) { [self] result in
            reply(result.flatMap { value in snapshot(id, value) })
        }
    }

    /// The session in a read's reply.
    private func snapshot(_ id: String, _ value: RESPValue) -> Result<SessionSnapshot, SessionError> {
        guard case .array(let parts?) = value, parts.count == 2, case .array(let h?) = parts[0], h.count == 7,
              let name = h[0].string, let paramsText = h[1].string, let createdAt = h[2].string.flatMap(Double.init),
              let viewers = h[3].string.flatMap(Int.init), case .array(let entries?) = parts[1],
              let definition = catalog[name]
        else { return .failure(.unavailable("an unexpected reply from Redis")) }
        var events: [SessionEvent] = []
        for entry in entries {
            guard case .array(let pair?) = entry, pair.count == 2, case .array(let fields?) = pair[1] else { continue }
            var kind: SessionEvent.Kind?, t: Double?
            var i = 0
            while i + 1 < fields.count {
                if fields[i].string == "type" { kind = fields[i + 1].string.flatMap(SessionEvent.Kind.init(rawValue:)) }
                if fields[i].string == "t" { t = fields[i + 1].string.flatMap(Double.init) }
                i += 2
            }
            if let kind, let t { events.append(SessionEvent(kind: kind, t: t)) }
        }
        guard case .object(let params)? = try? JSONValue.parse(Array(paramsText.utf8)),
              let items = try? SessionParams.items(params), let base = try? definition.configure(items)
        else { return .failure(.unavailable("session \(id) has parameters this replica cannot read")) }
        return .success(SessionSnapshot(id: id, loader: base.with(events: events.loaderEvents), params: params,
                                        createdAt: createdAt, events: events, viewers: viewers))
    }

    /// A write: its reply once Redis has applied it (and, with
    /// `waitReplicas`, once that many replicas have it). `retry` runs instead
    /// when the script says the session changed since it was read.
    private func write(_ id: String, _ parts: [String], retry: (@Sendable () -> Void)? = nil, _ reply: @escaping SessionReply<Void>) {
        command(id, parts, retry: retry) { [self] result in
            guard case .success = result, waitReplicas > 0, let commands else { return reply(result.map { _ in () }) }
            commands.send(["WAIT", String(waitReplicas), "1000"]) { [waitReplicas] r in
                if case .success(.integer(let n)) = r, n >= waitReplicas { reply(.success(())) } else { reply(.failure(.writeFailed)) }
            }
        }
    }

    /// Sends a command about session `id`; a script's error reply (its
    /// code) becomes the sessions' own error.
    private func command(_ id: String, _ parts: [String], retry: (@Sendable () -> Void)? = nil, _ reply: @escaping SessionReply<RESPValue>) {
        guard let commands else { return reply(.failure(.unavailable("the session store has not started"))) }
        let limits = limits
        commands.send(parts) { result in
            switch result {
            case .success(let value): reply(.success(value))
            case .failure(.reply(let message)):
                // A script's own error is its code (Redis may put "ERR " before it).
                let code = message.hasPrefix("ERR ") ? String(message.dropFirst(4)) : message
                if code == "retry", let retry { return retry() }
                reply(.failure(Self.error(code, id, limits)))
            case .failure(.unavailable(let why)), .failure(.invalidURL(let why)): reply(.failure(.unavailable(why)))
            }
        }
    }

    private static func error(_ code: String, _ id: String, _ limits: SessionLimits) -> SessionError {
        switch code {
        case "not_found": return .notFound(id: id)
        case "session_expired": return .expired(id: id, ttlSeconds: limits.ttlSeconds)
        case "unauthorized": return .unauthorized
        case "too_many_sessions": return .tooManySessions(limit: limits.maxSessions)
        case "too_many_viewers": return .tooManyViewers(limit: limits.maxViewersPerSession)
        case "too_many_events": return .tooManyEvents(limit: limits.maxEventsPerSession)
        case "session_done": return .done
        case "session_finished": return .finished
        // Another writer kept changing the session: the outcome is unknown to nobody, but try later.
        case "retry": return .unavailable("the session changed too often while this event was written; try again")
        default: return .unavailable("Redis answered: \(code)")
        }
    }
}
