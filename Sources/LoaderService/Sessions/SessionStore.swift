import Dispatch
import Glibc
import LoaderEngine
import Synchronization

/// Seconds since the Unix epoch, from the wall clock (a session's clock must
/// survive a restart, so it cannot be monotonic).
func wallClock() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// An event of a session, at seconds on the session clock.
public struct SessionEvent: Sendable, Equatable {
    public enum Kind: String, Sendable { case progress, finish, stop }
    public let kind: Kind
    public let t: Double
}

/// Live sessions: one party reports events, many watch. Every accepted
/// change is journaled (when a data directory is set) before it is
/// acknowledged. All state is behind one lock; frames are computed outside it.
public final class SessionStore: @unchecked Sendable {
    public struct Limits: Sendable {
        public var maxSessions = 100_000
        public var ttlSeconds = 3600.0
        public var maxEventsPerSession = 10_000
        public var maxViewersPerSession = 10_000
        /// The journal is compacted while running once it reaches this size
        /// (or twice its size after the last compaction, if more).
        public var journalCompactBytes = 64 << 20
        public init() {}
    }

    /// Touched only under the store's lock.
    final class Session: @unchecked Sendable {
        let id: String
        let token: [UInt8]
        let definition: LoaderDefinition
        let params: [(String, JSONValue)]
        let createdAt: Double
        var events: [SessionEvent] = []
        var lastActivity: Double
        var loader: ConfiguredLoader
        var viewers = 0
        var expired = false
        /// Encoded stream events by (fps, k), shared by every viewer.
        var frames: [FrameKey: (bytes: [UInt8], done: Bool)] = [:]

        init(id: String, token: [UInt8], definition: LoaderDefinition, params: [(String, JSONValue)], createdAt: Double, loader: ConfiguredLoader) {
            self.id = id
            self.token = token
            self.definition = definition
            self.params = params
            self.createdAt = createdAt
            self.lastActivity = createdAt
            self.loader = loader
        }

        /// What the journal keeps of it.
        var image: Image {
            Image(id: id, token: token, loader: definition.name, params: params, createdAt: createdAt, events: events)
        }

        var loaderEvents: LoaderEvents {
            var e = LoaderEvents()
            for event in events {
                switch event.kind {
                case .progress: e.progress.append(event.t)
                case .finish: e.finish = event.t
                case .stop: e.stop = event.t
                }
            }
            return e
        }
    }

    struct FrameKey: Hashable { let fps: Double; let k: Int }

    /// A session as the journal keeps it: a copy, safe outside the lock.
    struct Image: Sendable {
        let id: String
        let token: [UInt8]
        let loader: String
        let params: [(String, JSONValue)]
        let createdAt: Double
        let events: [SessionEvent]
    }

    let limits: Limits
    let catalog: LoaderCatalog
    let journal: Journal?
    /// Session ids start with this and a dot (see `ServiceConfiguration.replicaName`).
    let replicaName: String?
    private let sessions = Mutex<[String: Session]>([:])
    private let liveCount = Atomic<Int>(0)
    private var sweeper: DispatchSourceTimer?
    let logger: Logger

    /// Opens the store: with a data directory, replays its journal (cutting a
    /// damaged tail) and compacts expired sessions away.
    public init(limits: Limits, catalog: LoaderCatalog, dataDirectory: String?, replicaName: String? = nil, logger: Logger) throws(JournalError) {
        self.limits = limits
        self.catalog = catalog
        self.replicaName = replicaName
        self.logger = logger
        if let dataDirectory {
            if mkdir(dataDirectory, 0o700) != 0 && errno != EEXIST {
                throw JournalError("cannot create the data directory \(dataDirectory): \(String(cString: strerror(errno)))")
            }
            let journal = try Journal(path: dataDirectory + "/sessions.journal")
            self.journal = journal
            try restore(from: journal)
            journal.needsCompaction = { [weak self] in self?.compactJournal() }
            journal.armCompaction(threshold: limits.journalCompactBytes)
        } else {
            journal = nil
        }
        startSweeper()
    }

    deinit { sweeper?.cancel() }

    public var count: Int { liveCount.load(ordering: .relaxed) }

    // MARK: Changes

    struct Created { let id: String; let token: String; let loader: String; let createdAt: Double }

    // Every change is journaled under the store's lock, so the journal's
    // order is the order of the changes and a compaction's snapshot (taken
    // under the same lock) leaves no change in between. The ticket (nil
    // without a journal) tells when the change is durable.

    func create(definition: LoaderDefinition, params: [(String, JSONValue)], loader: ConfiguredLoader) throws(ServiceError) -> (Created, JournalTicket?) {
        let id = (replicaName.map { "\($0)." } ?? "") + randomToken(bytes: 16)
        let token = randomToken(bytes: 32)
        let now = wallClock()
        let session = Session(id: id, token: Array(token.utf8), definition: definition, params: params, createdAt: now, loader: loader)
        let record = Record.create(session.image)
        let ticket = try sessions.withLock { (all: inout [String: Session]) throws(ServiceError) -> JournalTicket? in
            guard liveCount.load(ordering: .relaxed) < limits.maxSessions else {
                throw ServiceError(.serviceUnavailable, "too_many_sessions", "the session limit (\(limits.maxSessions)) is reached; try again later")
            }
            all[id] = session
            liveCount.add(1, ordering: .relaxed)
            return journal?.append(record)
        }
        return (Created(id: id, token: token, loader: definition.name, createdAt: now), ticket)
    }

    func post(_ kind: SessionEvent.Kind, to id: String, token: String?) throws(ServiceError) -> (SessionEvent, JournalTicket?) {
        try sessions.withLock { (all: inout [String: Session]) throws(ServiceError) -> (SessionEvent, JournalTicket?) in
            let session = try authorized(id, token, in: &all)
            if kind != .stop && session.definition.name != "web" {
                throw ServiceError.invalid("\(kind.rawValue) applies to web sessions only; a \(session.definition.name) session takes stop")
            }
            let now = wallClock()
            let t = now - session.createdAt
            if session.loader.frame(at: t).done { throw ServiceError(.conflict, "session_done", "the session is done; it takes no more events") }
            if kind != .stop && session.events.contains(where: { $0.kind == .finish }) {
                throw ServiceError(.conflict, "session_finished", "the session has finished loading; only stop is accepted")
            }
            guard session.events.count < limits.maxEventsPerSession else {
                throw ServiceError(.tooManyRequests, "too_many_events", "a session takes at most \(limits.maxEventsPerSession) events")
            }
            let event = SessionEvent(kind: kind, t: t)
            apply(event, to: session, at: now)
            return (event, journal?.append(Record.event(id: id, event)))
        }
    }

    /// 404 for an unknown session, 410 for an expired one, 401 for a wrong token.
    func authorize(_ id: String, token: String?) throws(ServiceError) {
        try sessions.withLock { (all: inout [String: Session]) throws(ServiceError) -> Void in
            _ = try authorized(id, token, in: &all)
        }
    }

    func delete(_ id: String, token: String?) throws(ServiceError) -> JournalTicket? {
        try sessions.withLock { (all: inout [String: Session]) throws(ServiceError) -> JournalTicket? in
            let session = try authorized(id, token, in: &all)
            all[id] = nil
            if !session.expired { liveCount.subtract(1, ordering: .relaxed) }
            return journal?.append(Record.delete(id: id))
        }
    }

    private func apply(_ event: SessionEvent, to session: Session, at now: Double) {
        session.events.append(event)
        session.loader = session.loader.with(events: session.loaderEvents)
        session.lastActivity = max(session.lastActivity, now)
        session.frames.removeAll()
    }

    private func authorized(_ id: String, _ token: String?, in all: inout [String: Session]) throws(ServiceError) -> Session {
        let session = try live(id, in: &all)
        guard let token, constantTimeEqual(Array(token.utf8), session.token) else {
            throw ServiceError(.unauthorized, "unauthorized", "a valid Authorization: Bearer <token> for this session is required")
        }
        return session
    }

    /// The session if it exists and has not expired (410) or been deleted (404).
    private func live(_ id: String, in all: inout [String: Session]) throws(ServiceError) -> Session {
        guard let session = all[id] else {
            // Another replica's session: the load balancer sent it to the wrong one.
            if let replicaName, let dot = id.firstIndex(of: "."), id[..<dot] != replicaName {
                throw ServiceError(.misdirectedRequest, "misdirected_request",
                                   "session \(id) belongs to replica \(id[..<dot]), not \(replicaName); route /sessions/<replica>.… to that replica (docs/DEPLOY.md)")
            }
            throw ServiceError.notFound("no session \(id)")
        }
        if session.expired || wallClock() - session.lastActivity > limits.ttlSeconds {
            if !session.expired {
                session.expired = true
                liveCount.subtract(1, ordering: .relaxed)
            }
            throw ServiceError(.gone, "session_expired", "session \(id) expired after \(Int(limits.ttlSeconds)) s without activity")
        }
        return session
    }

    // MARK: Reads

    struct Snapshot: Sendable {
        let id: String
        let loader: ConfiguredLoader
        let params: [(String, JSONValue)]
        let createdAt: Double
        let events: [SessionEvent]
        let viewers: Int
        var now: Double { wallClock() - createdAt }
    }

    func snapshot(_ id: String) throws(ServiceError) -> Snapshot {
        try sessions.withLock { (all: inout [String: Session]) throws(ServiceError) -> Snapshot in
            let s = try live(id, in: &all)
            return Snapshot(id: s.id, loader: s.loader, params: s.params, createdAt: s.createdAt, events: s.events, viewers: s.viewers)
        }
    }

    /// Stream event k at `fps`: computed and encoded once for all viewers.
    /// Nil once the session is gone (deleted or expired).
    func streamEvent(_ id: String, fps: Double, k: Int) -> (bytes: [UInt8], done: Bool)? {
        let key = FrameKey(fps: fps, k: k)
        let found = sessions.withLock { all -> (cached: (bytes: [UInt8], done: Bool)?, loader: ConfiguredLoader?) in
            guard let s = all[id], !s.expired else { return (nil, nil) }
            if let hit = s.frames[key] { return (hit, nil) }
            return (nil, s.loader)
        }
        if let cached = found.cached { return cached }
        guard let loader = found.loader else { return nil }
        let frame = loader.frame(at: Double(k) / fps)
        let event = (ServerSentEvent.event(id: String(k), event: "frame", singleLineData: FrameEncoder.encode(frame)), frame.done)
        sessions.withLock { all in
            guard let s = all[id], s.loader.events == loader.events else { return }
            if s.frames.count >= 64 { s.frames.removeAll(keepingCapacity: true) }
            s.frames[key] = event
        }
        return event
    }

    func addViewer(_ id: String) throws(ServiceError) -> Snapshot {
        try sessions.withLock { (all: inout [String: Session]) throws(ServiceError) -> Snapshot in
            let s = try live(id, in: &all)
            guard s.viewers < limits.maxViewersPerSession else {
                throw ServiceError(.serviceUnavailable, "too_many_viewers", "a session has at most \(limits.maxViewersPerSession) viewers")
            }
            s.viewers += 1
            s.lastActivity = max(s.lastActivity, wallClock())
            return Snapshot(id: s.id, loader: s.loader, params: s.params, createdAt: s.createdAt, events: s.events, viewers: s.viewers)
        }
    }

    func removeViewer(_ id: String) {
        sessions.withLock { all in if let s = all[id] { s.viewers = max(0, s.viewers - 1) } }
    }

    // MARK: Journal replay and compaction

    private func restore(from journal: Journal) throws(JournalError) {
        let replay = try journal.replay()
        if let reason = replay.discardReason {
            logger.log(.warning, "journal tail discarded", [("reason", .string(reason)), ("bytes", .int(replay.discardedBytes)), ("path", .string(journal.path))])
        }
        var all: [String: Session] = [:]
        var skipped = 0
        for payload in replay.payloads {
            guard let record = try? JSONValue.parse(payload), Record.apply(record, to: &all, catalog: catalog) else {
                skipped += 1
                continue
            }
        }
        if skipped > 0 { logger.log(.warning, "journal records skipped", [("count", .int(skipped))]) }
        let now = wallClock()
        let live = all.filter { now - $0.value.lastActivity <= limits.ttlSeconds }
        sessions.withLock { $0 = live }
        liveCount.store(live.count, ordering: .relaxed)
        let payloads = Record.rebuilding(live.values.map(\.image))
        if payloads.count != replay.payloads.count || replay.discardedBytes > 0 {
            try journal.rewrite(payloads)
        }
        logger.log(.info, "sessions restored", [("sessions", .int(live.count)), ("expired", .int(all.count - live.count)), ("records", .int(replay.payloads.count))])
    }

    /// Replaces the journal with the live sessions (on the journal's queue):
    /// images copied under the lock, together with the records waiting to be
    /// written, which they already hold; encoded outside it.
    private func compactJournal() {
        guard let journal else { return }
        let ttl = limits.ttlSeconds
        let before = journal.size
        let logger = logger
        journal.compact({ [self] takeWaiting in
            let images = sessions.withLock { all -> [Image] in
                let now = wallClock()
                takeWaiting()
                return all.values.filter { !$0.expired && now - $0.lastActivity <= ttl }.map(\.image)
            }
            return Record.rebuilding(images)
        }, done: { records, failure in
            if let failure {
                logger.log(.error, "journal compaction failed", [("error", .string(failure.description)), ("bytes", .int(before))])
            } else {
                logger.log(.info, "journal compacted", [("records", .int(records)), ("bytesBefore", .int(before)), ("bytesAfter", .int(journal.size))])
            }
        })
    }

    /// Marks sessions past their time-to-live expired, and forgets those
    /// expired for another full time-to-live.
    private func startSweeper() {
        let interval = max(0.05, min(limits.ttlSeconds / 4, 60))
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "loaderd.sessions"))
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [weak self] in self?.sweep() }
        timer.resume()
        sweeper = timer
    }

    func sweep() {
        let now = wallClock()
        sessions.withLock { all in
            for (id, s) in all {
                let idle = now - s.lastActivity
                if !s.expired && idle > limits.ttlSeconds {
                    s.expired = true
                    liveCount.subtract(1, ordering: .relaxed)
                }
                if idle > 2 * limits.ttlSeconds { all[id] = nil }
            }
        }
    }
}

/// Journal records: JSON objects, one per accepted change.
enum Record {
    /// The records that rebuild `images`: a create and its events each, oldest first.
    static func rebuilding(_ images: [SessionStore.Image]) -> [[UInt8]] {
        var payloads: [[UInt8]] = []
        for image in images.sorted(by: { $0.createdAt < $1.createdAt }) {
            payloads.append(create(image))
            for event in image.events { payloads.append(Record.event(id: image.id, event)) }
        }
        return payloads
    }

    static func create(_ s: SessionStore.Image) -> [UInt8] {
        var w = JSONWriter(capacity: 256)
        w.beginObject()
        w.field("op", "create")
        w.field("id", s.id)
        w.field("token", String(decoding: s.token, as: UTF8.self))
        w.field("loader", s.loader)
        w.key("params")
        writeParams(s.params, &w)
        w.field("createdAt", s.createdAt)
        w.endObject()
        return w.bytes
    }

    static func event(id: String, _ e: SessionEvent) -> [UInt8] {
        var w = JSONWriter(capacity: 96)
        w.beginObject()
        w.field("op", "event")
        w.field("id", id)
        w.field("type", e.kind.rawValue)
        w.field("t", e.t)
        w.endObject()
        return w.bytes
    }

    static func delete(id: String) -> [UInt8] {
        var w = JSONWriter(capacity: 64)
        w.beginObject()
        w.field("op", "delete")
        w.field("id", id)
        w.endObject()
        return w.bytes
    }

    /// Replays one record; false when it does not make sense (skipped).
    static func apply(_ record: JSONValue, to all: inout [String: SessionStore.Session], catalog: LoaderCatalog) -> Bool {
        guard case .string(let op)? = record["op"], case .string(let id)? = record["id"] else { return false }
        switch op {
        case "create":
            guard case .string(let token)? = record["token"], case .string(let name)? = record["loader"],
                  case .number(let createdAt)? = record["createdAt"], let definition = catalog[name],
                  case .object(let params)? = record["params"],
                  let items = try? SessionParams.items(params), let loader = try? definition.configure(items)
            else { return false }
            all[id] = SessionStore.Session(id: id, token: Array(token.utf8), definition: definition, params: params,
                                           createdAt: createdAt, loader: loader)
        case "event":
            guard let s = all[id], case .string(let type)? = record["type"], let kind = SessionEvent.Kind(rawValue: type),
                  case .number(let t)? = record["t"] else { return false }
            s.events.append(SessionEvent(kind: kind, t: t))
            s.loader = s.loader.with(events: s.loaderEvents)
            s.lastActivity = max(s.lastActivity, s.createdAt + t)
        case "delete":
            all[id] = nil
        default:
            return false
        }
        return true
    }

    static func writeParams(_ params: [(String, JSONValue)], _ w: inout JSONWriter) {
        w.beginObject()
        for (name, value) in params {
            w.key(name)
            switch value {
            case .string(let s): w.value(s)
            case .number(let n): w.value(n)
            case .bool(let b): w.value(b)
            default: w.null()
            }
        }
        w.endObject()
    }
}

/// `params` of a session as loader query items: strings and numbers.
enum SessionParams {
    static func items(_ params: [(String, JSONValue)]) throws(ServiceError) -> [(name: String, value: String)] {
        try params.map { (name, value) throws(ServiceError) -> (name: String, value: String) in
            switch value {
            case .string(let s): return (name, s)
            case .number(let n):
                var w = JSONWriter(capacity: 32)
                w.value(n)
                return (name, String(decoding: w.bytes, as: UTF8.self))
            default:
                throw ServiceError.invalid("params.\(name) must be a string or a number")
            }
        }
    }
}

/// `bytes` random bytes from the system's secure source, base64url without padding.
func randomToken(bytes count: Int) -> String {
    var generator = SystemRandomNumberGenerator()
    var bytes = [UInt8]()
    while bytes.count < count {
        var word = generator.next()
        for _ in 0..<8 where bytes.count < count {
            bytes.append(UInt8(truncatingIfNeeded: word))
            word >>= 8
        }
    }
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    var out = [UInt8]()
    var i = 0
    while i < bytes.count {
        let chunk = bytes[i..<min(i + 3, bytes.count)]
        var n: UInt32 = 0
        for (j, b) in chunk.enumerated() { n |= UInt32(b) << (16 - 8 * UInt32(j)) }
        let chars = chunk.count + 1
        for j in 0..<chars { out.append(alphabet[Int((n >> (18 - 6 * UInt32(j))) & 63)]) }
        i += 3
    }
    return String(decoding: out, as: UTF8.self)
}

/// Compares secrets in time that does not depend on where they differ.
func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for i in 0..<a.count { difference |= a[i] ^ b[i] }
    return difference == 0
}

import HTTPServer
