import Dispatch
import Glibc
import LoaderEngine
import Synchronization

/// Sessions in this process's memory. Every accepted change is journaled
/// (when a data directory is set) before it is acknowledged. All state is
/// behind one lock; frames are computed outside it.
public final class LocalSessionStore: SessionStore, Sendable {
    public typealias Limits = SessionLimits

    // unchecked: touched only under the store's lock (`sessions`), which holds it.
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

        init(id: String, token: [UInt8], definition: LoaderDefinition, params: [(String, JSONValue)], createdAt: Double, loader: ConfiguredLoader) {
            self.id = id
            self.token = token
            self.definition = definition
            self.params = params
            self.createdAt = createdAt
            self.lastActivity = createdAt
            self.loader = loader
        }

        func snapshot(at now: Double) -> SessionSnapshot {
            SessionSnapshot(id: id, loader: loader, params: params, createdAt: createdAt, events: events, viewers: viewers, now: now - createdAt)
        }

        /// What the journal keeps of it.
        var image: Image {
            Image(id: id, token: token, loader: definition.name, params: params, createdAt: createdAt, events: events)
        }

        var loaderEvents: LoaderEvents { events.loaderEvents }
    }

    /// A session as the journal keeps it (`Record`): a copy, safe outside the lock.
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
    /// Viewers admitted and not yet let go, of every session (one that
    /// ended or expired included, until its viewers' streams close).
    private let viewerCount = Atomic<Int>(0)
    /// Set once at the end of `init`, cancelled in `deinit`.
    private let sweeper = Mutex<(any DispatchSourceTimer)?>(nil)
    let logger: any SessionLogger
    public let clock: WallClock

    /// Opens the store: with a data directory, replays its journal (reading
    /// past damage, see `Journal.replay`) and compacts expired sessions away.
    public init(limits: Limits, catalog: LoaderCatalog, dataDirectory: String?, replicaName: String? = nil, logger: any SessionLogger,
                clock: WallClock = .system) throws(JournalError) {
        self.clock = clock
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

    deinit { sweeper.withLock { $0?.cancel() } }

    public var count: Int { liveCount.load(ordering: .relaxed) }

    // MARK: SessionStore: the operations below, replied to at once, or once
    // their journal records are synced.

    public func create(definition: LoaderDefinition, params: [(String, JSONValue)], loader: ConfiguredLoader,
                       reply: @escaping SessionReply<SessionCreated>) {
        Self.reply(reply) { () throws(SessionError) in try create(definition: definition, params: params, loader: loader) }
    }

    public func post(_ kind: SessionEvent.Kind, to id: String, token: String?, reply: @escaping SessionReply<SessionEvent>) {
        Self.reply(reply) { () throws(SessionError) in try post(kind, to: id, token: token) }
    }

    public func authorize(_ id: String, token: String?, reply: @escaping SessionReply<Void>) {
        Self.reply(reply) { () throws(SessionError) in (try authorize(id, token: token), nil) }
    }

    public func delete(_ id: String, token: String?, reply: @escaping SessionReply<Void>) {
        Self.reply(reply) { () throws(SessionError) in ((), try delete(id, token: token)) }
    }

    public func snapshot(_ id: String, reply: @escaping SessionReply<SessionSnapshot>) {
        Self.reply(reply) { () throws(SessionError) in (try snapshot(id), nil) }
    }

    public func addViewer(_ id: String, reply: @escaping SessionReply<SessionSnapshot>) {
        Self.reply(reply) { () throws(SessionError) in (try addViewer(id), nil) }
    }

    /// Replies with what `operation` gives: at once, or when its ticket says the change is durable.
    private static func reply<T: Sendable>(_ reply: @escaping SessionReply<T>, _ operation: () throws(SessionError) -> (T, WriteTicket?)) {
        let value: T, ticket: WriteTicket?
        do { (value, ticket) = try operation() } catch {
            reply(.failure(error))
            return
        }
        guard let ticket else { return reply(.success(value)) }
        ticket.whenDone { ok in reply(ok ? .success(value) : .failure(.writeFailed)) }
    }

    /// The journal's size, group commits and compactions, when there is one.
    public var metrics: [StoreMetric] {
        let viewers = StoreMetric(name: "loaderd_session_viewers", help: "Viewers of sessions streaming from this replica (maxViewersPerSession bounds each session's).",
                                  kind: .gauge, value: .int(viewerCount.load(ordering: .relaxed)))
        guard let journal else { return [viewers] }
        return [viewers,
            StoreMetric(name: "loaderd_journal_bytes", help: "Size of the session journal.", kind: .gauge, value: .int(journal.size)),
            StoreMetric(name: "loaderd_journal_syncs_total", help: "Group commits of the session journal (one fdatasync each).",
                        kind: .counter, value: .int(journal.syncs.load(ordering: .relaxed))),
            StoreMetric(name: "loaderd_journal_sync_seconds_total", help: "Time spent in those syncs.", kind: .counter,
                        value: .seconds(Double(journal.syncNanoseconds.load(ordering: .relaxed)) / 1e9)),
            StoreMetric(name: "loaderd_journal_compactions_total", help: "Compactions of the session journal while running.",
                        kind: .counter, value: .int(journal.compactions.load(ordering: .relaxed))),
            StoreMetric(name: "loaderd_journal_skipped_records", help: "Journal records skipped at start-up: their checksum failed.",
                        kind: .gauge, value: .int(journal.replayed.skipped)),
            StoreMetric(name: "loaderd_journal_unreadable_bytes", help: "Journal bytes without readable framing at start-up (kept aside).",
                        kind: .gauge, value: .int(journal.replayed.unreadableBytes)),
        ]
    }

    // MARK: Changes

    // The same operations, answered directly (the replies above, and tests).
    // Every change is journaled under the store's lock, so the journal's
    // order is the order of the changes and a compaction's snapshot (taken
    // under the same lock) leaves no change in between. The ticket (nil
    // without a journal) tells when the change is durable.

    func create(definition: LoaderDefinition, params: [(String, JSONValue)], loader: ConfiguredLoader) throws(SessionError) -> (SessionCreated, WriteTicket?) {
        let id = (replicaName.map { "\($0)." } ?? "") + randomToken(bytes: 16)
        let token = randomToken(bytes: 32)
        let now = clock.now()
        let session = Session(id: id, token: Array(token.utf8), definition: definition, params: params, createdAt: now, loader: loader)
        let record = Record.create(session.image)
        let ticket = try sessions.withLock { (all: inout [String: Session]) throws(SessionError) -> WriteTicket? in
            guard liveCount.load(ordering: .relaxed) < limits.maxSessions else { throw .tooManySessions(limit: limits.maxSessions) }
            all[id] = session
            liveCount.add(1, ordering: .relaxed)
            return journal?.append(record)
        }
        return (SessionCreated(id: id, token: token, loader: definition.name, createdAt: now), ticket)
    }

    func post(_ kind: SessionEvent.Kind, to id: String, token: String?) throws(SessionError) -> (SessionEvent, WriteTicket?) {
        try sessions.withLock { (all: inout [String: Session]) throws(SessionError) -> (SessionEvent, WriteTicket?) in
            let session = try authorized(id, token, in: &all)
            let definition = session.definition
            guard definition.accepts(kind) else {
                throw .eventNotAccepted(kind: kind, loader: definition.name, accepted: definition.events.map(\.name))
            }
            let now = clock.now()
            let t = now - session.createdAt
            if session.loader.frame(at: t).done { throw .done }
            if kind != .stop && session.events.contains(where: { $0.kind == .finish }) { throw .finished }
            guard session.events.count < limits.maxEventsPerSession else { throw .tooManyEvents(limit: limits.maxEventsPerSession) }
            let event = SessionEvent(kind: kind, t: t)
            apply(event, to: session, at: now)
            return (event, journal?.append(Record.event(id: id, event)))
        }
    }

    func authorize(_ id: String, token: String?) throws(SessionError) {
        try sessions.withLock { (all: inout [String: Session]) throws(SessionError) -> Void in
            _ = try authorized(id, token, in: &all)
        }
    }

    func delete(_ id: String, token: String?) throws(SessionError) -> WriteTicket? {
        try sessions.withLock { (all: inout [String: Session]) throws(SessionError) -> WriteTicket? in
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
    }

    private func authorized(_ id: String, _ token: String?, in all: inout [String: Session]) throws(SessionError) -> Session {
        let session = try live(id, in: &all)
        guard let token, constantTimeEqual(Array(token.utf8), session.token) else { throw .unauthorized }
        return session
    }

    /// The session if it exists and has neither expired nor been deleted.
    private func live(_ id: String, in all: inout [String: Session]) throws(SessionError) -> Session {
        guard let session = all[id] else {
            // Another replica's session: the load balancer sent it to the wrong one.
            if let replicaName, let dot = id.firstIndex(of: "."), id[..<dot] != replicaName {
                throw .misdirected(id: id, owner: String(id[..<dot]), replica: replicaName)
            }
            throw .notFound(id: id)
        }
        if session.expired || clock.now() - session.lastActivity > limits.ttlSeconds {
            if !session.expired {
                session.expired = true
                liveCount.subtract(1, ordering: .relaxed)
            }
            throw .expired(id: id, ttlSeconds: limits.ttlSeconds)
        }
        return session
    }

    // MARK: Reads

    func snapshot(_ id: String) throws(SessionError) -> SessionSnapshot {
        try sessions.withLock { (all: inout [String: Session]) throws(SessionError) -> SessionSnapshot in
            try live(id, in: &all).snapshot(at: clock.now())
        }
    }

    public func watch(_ id: String) -> SessionWatch {
        sessions.withLock { all in
            guard let s = all[id], !s.expired else { return .ended(reason: "gone") }
            return .live(s.loader)
        }
    }

    func addViewer(_ id: String) throws(SessionError) -> SessionSnapshot {
        try sessions.withLock { (all: inout [String: Session]) throws(SessionError) -> SessionSnapshot in
            let s = try live(id, in: &all)
            guard s.viewers < limits.maxViewersPerSession else { throw .tooManyViewers(limit: limits.maxViewersPerSession) }
            s.viewers += 1
            viewerCount.add(1, ordering: .relaxed)
            let now = clock.now()
            s.lastActivity = max(s.lastActivity, now)
            return s.snapshot(at: now)
        }
    }

    /// Called once for each viewer admitted, however its stream ended.
    public func removeViewer(_ id: String) {
        viewerCount.subtract(1, ordering: .relaxed)
        sessions.withLock { all in if let s = all[id] { s.viewers = max(0, s.viewers - 1) } }
    }

    // MARK: Journal replay and compaction

    /// Replays the journal into the sessions. Damage it read past is logged
    /// (and kept aside by `Journal.replay`); records that do not apply are
    /// counted: an event or delete whose session's create record was lost
    /// has no session to go to (those records are in the kept-aside copy,
    /// which runs from the first damage to the end). The journal is then
    /// rewritten from the live sessions.
    private func restore(from journal: Journal) throws(JournalError) {
        if let leftover = journal.leftoverRemoved {
            logger.log(.warning, "journal compaction leftover removed", [("path", .string(journal.path + ".compact")), ("bytes", .int(leftover))])
        }
        let replay = try journal.replay()
        let f = replay.figures
        if f.tornBytes > 0 {
            logger.log(.warning, "journal torn tail cut", [("bytes", .int(f.tornBytes)), ("path", .string(journal.path))])
        }
        for d in replay.damage {
            logger.log(.warning, "journal damage", [("offset", .int(d.offset)), ("bytes", .int(d.bytes)), ("what", .string(d.kind.rawValue))])
        }
        if let kept = replay.keptAside {
            logger.log(.error, "journal damage read past", [
                ("skippedRecords", .int(f.skipped)), ("repairedRecords", .int(f.repaired)),
                ("unreadableBytes", .int(f.unreadableBytes)), ("unreadableSpans", .int(f.unreadableSpans)),
                ("damageListed", .int(replay.damage.count)),
                ("keptAside", .string(kept.path)), ("keptAsideBytes", .int(kept.bytes)), ("keptAsideFromOffset", .int(kept.from)),
            ])
        }
        var all: [String: Session] = [:]
        var notApplied = 0
        for payload in replay.payloads {
            guard let record = try? JSONValue.parse(payload), Record.apply(record, to: &all, catalog: catalog) else {
                notApplied += 1
                continue
            }
        }
        if notApplied > 0 { logger.log(.warning, "journal records not applied", [("count", .int(notApplied))]) }
        let now = clock.now()
        let live = all.filter { now - $0.value.lastActivity <= limits.ttlSeconds }
        sessions.withLock { $0 = live }
        liveCount.store(live.count, ordering: .relaxed)
        let payloads = Record.rebuilding(live.values.map(\.image))
        if replay.mustRewrite || payloads.count != replay.payloads.count || f.tornBytes > 0 {
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
                let now = clock.now()
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
        // Made inside the lock: the timer is not `Sendable`, so it never leaves it.
        sweeper.withLock { sweeper in
            let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "loaderd.sessions"))
            timer.schedule(deadline: .now() + interval, repeating: interval)
            timer.setEventHandler { [weak self] in self?.sweep() }
            timer.resume()
            sweeper = timer
        }
    }

    func sweep() {
        let now = clock.now()
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
package func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for i in 0..<a.count { difference |= a[i] ^ b[i] }
    return difference == 0
}

extension LocalSessionStore {
    /// A store in memory only: it opens no file, so it cannot fail.
    package convenience init(inMemory limits: Limits, catalog: LoaderCatalog, replicaName: String?, logger: any SessionLogger, clock: WallClock = .system) {
        do {
            try self.init(limits: limits, catalog: catalog, dataDirectory: nil, replicaName: replicaName, logger: logger, clock: clock)
        } catch {
            preconditionFailure("a store without a data directory failed to open: \(error)")
        }
    }
}
