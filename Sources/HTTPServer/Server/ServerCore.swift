import CLinux
import EventLoop
import Synchronization

/// What every connection shares: configuration, the responder, counters.
final class ServerCore: Sendable {
    let configuration: HTTPServerConfiguration
    let responder: any HTTPResponder
    let maxBufferedRequestBytes: Int
    private let shuttingDown = Atomic<Bool>(false)
    /// The drain (`HTTPServer.shutdown`): loops that have yet to count
    /// their connections, and the connections open when it began that are
    /// still open. Newcomers are not counted: they cannot prolong it.
    let drainLoopsPending = Atomic<Int>(0)
    let drainRemaining = Atomic<Int>(0)
    /// The listeners are being closed: nothing is accepted any more.
    private let acceptingEnded = Atomic<Bool>(false)
    let openConnections = Atomic<Int>(0)
    let openStreams = Atomic<Int>(0)
    let requestsServed = Atomic<Int>(0)
    /// Idle connections closed to admit newcomers; newcomers refused.
    let evictedIdle = Atomic<Int>(0)
    let refusedFull = Atomic<Int>(0)
    let refusedPerAddress = Atomic<Int>(0)
    /// Open connections by peer address, for `maxConnectionsPerAddress`
    /// (exempt peers are not counted). Taken once per accept and per close.
    private let addressCounts = Mutex<[IPAddress: Int]>([:])
    let perAddressLimit: Int
    /// Episodes of failing `accept`: the flag is the fast path of every
    /// successful accept, the rest is touched only while it is set.
    let acceptFailing = Atomic<Bool>(false)
    let acceptFailures = Mutex(AcceptFailures())

    struct AcceptFailures {
        var byReason: [String: Int] = [:]
        var episodes = 0
        var inEpisode = false
        var episodeStart: UInt64 = 0
        var episodeFailures = 0
    }
    /// Per loop: its connections and its Date header (touched only on that loop).
    let loopStates: [LoopState]

    // unchecked: all but the atomics is touched only on its own loop (connections, scratch, caches).
    final class LoopState: @unchecked Sendable {
        var connections: [ObjectIdentifier: Connection] = [:]
        /// Where every connection of the loop reads (one read at a time).
        let scratch: UnsafeMutableBufferPointer<UInt8>
        var date = HTTPDateCache()
        var listenerRegistrations: [Registration] = []
        /// The responder's state for this loop (its caches).
        var responderStorage: AnyObject?
        /// The last request parsed on this loop, by its bytes.
        var lastRequest = RepeatedRequest()
        /// Output queued on this loop's connections; published (a plain
        /// store, read by any loop) for the server-wide total.
        var queuedOutput = 0 {
            didSet { publishedQueuedOutput.store(queuedOutput, ordering: .relaxed) }
        }
        let publishedQueuedOutput = Atomic<Int>(0)
        /// The loop's connections waiting between requests, longest idle
        /// first (each joins at the tail when it becomes idle): those a
        /// newcomer may take the place of when the table is full.
        private(set) var idleHead: Connection?
        private var idleTail: Connection?
        /// When the head became idle (`.max`: none), for the accepting loop
        /// to find the loop whose idle connection is oldest.
        let oldestIdleSince = Atomic<UInt64>(.max)
        /// Loop 0's only: when it last gave memory back, and the most
        /// connections seen since (`releaseMemoryAfterDrops`).
        var lastTrim: UInt64 = 0
        var peakSinceTrim = 0

        func appendIdle(_ c: Connection, now: UInt64) {
            guard !c.isIdleListed else { return }
            c.isIdleListed = true
            c.idleSince = now
            c.idlePrevious = idleTail
            if let tail = idleTail {
                tail.idleNext = c
            } else {
                idleHead = c
                oldestIdleSince.store(now, ordering: .relaxed)
            }
            idleTail = c
        }

        func removeIdle(_ c: Connection) {
            guard c.isIdleListed else { return }
            c.isIdleListed = false
            if let previous = c.idlePrevious {
                previous.idleNext = c.idleNext
            } else {
                idleHead = c.idleNext
                oldestIdleSince.store(idleHead?.idleSince ?? .max, ordering: .relaxed)
            }
            if let next = c.idleNext { next.idlePrevious = c.idlePrevious } else { idleTail = c.idlePrevious }
            c.idleNext = nil
            c.idlePrevious = nil
        }

        init(scratchSize: Int) {
            scratch = .allocate(capacity: scratchSize)
            scratch.initialize(repeating: 0)
        }

        deinit { scratch.deallocate() }
    }

    init(configuration: HTTPServerConfiguration, responder: any HTTPResponder) {
        self.configuration = configuration
        self.responder = responder
        let l = configuration.limits
        maxBufferedRequestBytes = l.maxRequestLineBytes + l.maxHeaderBytes + l.maxBodyBytes + 64 * 1024
        loopStates = (0..<configuration.eventLoops).map { _ in LoopState(scratchSize: max(configuration.readBufferSize, 64 * 1024)) }
        perAddressLimit = configuration.effectiveMaxConnectionsPerAddress
    }

    /// Gives `loop` its share of the server's upkeep: each tick refreshes
    /// the Date header and enforces timeouts and the output cap, on the
    /// loop's own clock (an embedded loop's is the test's).
    func attach(to loop: EventLoop) {
        let state = loopStates[loop.index]
        state.date.refresh()
        let c = configuration
        loop.tickInterval = max(5_000_000, min(1_000_000_000, min(c.headerTimeout, c.idleTimeout, c.streamStallTimeout) / 4))
        loop.onTick = { [self] in
            state.date.refresh()
            let now = loop.now
            for connection in Array(state.connections.values) { connection.checkTimeouts(now: now) }
            shedStalledClients(on: loop, now: now)
            if loop.index == 0 { releaseMemoryAfterDrops(state, now: now) }
        }
        loop.onStop = {
            for connection in Array(state.connections.values) { connection.close() }
        }
    }

    var isShuttingDown: Bool { shuttingDown.load(ordering: .acquiring) }
    func beginShutdown() { shuttingDown.store(true, ordering: .releasing) }
    var hasEndedAccepting: Bool { acceptingEnded.load(ordering: .acquiring) }
    func endAccepting() { acceptingEnded.store(true, ordering: .releasing) }
    /// Whether the drain waits for nothing more.
    var isDrained: Bool { drainLoopsPending.load(ordering: .acquiring) == 0 && drainRemaining.load(ordering: .acquiring) == 0 }

    func respond(_ request: HTTPRequest, _ context: RequestContext) -> HTTPResponse {
        responder.respond(to: request, context: context)
    }

    func errorResponse(_ status: HTTPStatus, _ message: String) -> HTTPResponse {
        responder.errorResponse(status: status, message: message)
    }

    func date(_ loop: EventLoop) -> [UInt8] { loopStates[loop.index].date.bytes }

    func connectionOpened(_ c: Connection) {
        let state = loopStates[c.loop.index]
        state.connections[ObjectIdentifier(c)] = c
        // Waiting for its first request is waiting between requests.
        state.appendIdle(c, now: c.loop.wakeTime)
    }

    /// Every way a connection ends comes here (`Connection.close`): reset,
    /// timeout, half-close, error, eviction, shutdown.
    func connectionClosed(_ c: Connection) {
        let state = loopStates[c.loop.index]
        state.removeIdle(c)
        state.connections[ObjectIdentifier(c)] = nil
        if let address = c.countedAddress {
            c.countedAddress = nil
            release(address)
        }
        if c.countedInDrain {
            c.countedInDrain = false
            drainRemaining.subtract(1, ordering: .releasing)
        }
        openConnections.subtract(1, ordering: .relaxed)
    }

    // MARK: Connections per address

    func isExempt(_ address: IPAddress) -> Bool {
        configuration.perAddressExempt.contains { $0.contains(address) }
    }

    /// Counts a connection from `address`, unless it has its share already.
    func reserve(_ address: IPAddress) -> Bool {
        addressCounts.withLock { counts in
            let n = counts[address, default: 0]
            guard n < perAddressLimit else { return false }
            counts[address] = n + 1
            return true
        }
    }

    func release(_ address: IPAddress) {
        addressCounts.withLock { counts in
            guard let n = counts[address] else { return }
            counts[address] = n > 1 ? n - 1 : nil
        }
    }

    func openConnections(from address: IPAddress) -> Int {
        addressCounts.withLock { $0[address, default: 0] }
    }

    /// Addresses with open connections, and the most one of them has.
    func addressSummary() -> (addresses: Int, most: Int) {
        addressCounts.withLock { ($0.count, $0.values.max() ?? 0) }
    }

    // MARK: Idle eviction

    /// The loop whose longest-idle connection has waited longest, if any waits.
    func loopWithOldestIdle() -> Int? {
        var best: Int?, oldest = UInt64.max
        for (i, state) in loopStates.enumerated() {
            let since = state.oldestIdleSince.load(ordering: .relaxed)
            if since < oldest { (best, oldest) = (i, since) }
        }
        return best
    }

    /// Closes the connection of `loop` idle longest, to admit a newcomer.
    /// One whose request has just arrived unread is not idle: it leaves the
    /// list and the next is tried (a few at most). Loop thread only.
    func evictIdle(on loop: EventLoop) -> Bool {
        let state = loopStates[loop.index]
        for _ in 0..<8 {
            guard let oldest = state.idleHead else { return false }
            if oldest.closeIfIdle() {
                evictedIdle.add(1, ordering: .relaxed)
                return true
            }
        }
        return false
    }

    // MARK: Accept failures

    /// Counts a failed accept; the event to report if it begins an episode.
    func acceptFailed(reason: String, now: UInt64) -> AcceptEvent? {
        acceptFailing.store(true, ordering: .relaxed)
        return acceptFailures.withLock { f in
            f.byReason[reason, default: 0] += 1
            f.episodeFailures += 1
            guard !f.inEpisode else { return nil }
            f.inEpisode = true
            f.episodes += 1
            f.episodeStart = now
            return .failing(reason: reason, openConnections: openConnections.load(ordering: .relaxed))
        }
    }

    /// An accept worked: the event to report if it ends an episode.
    func acceptSucceeded(now: UInt64) -> AcceptEvent? {
        guard acceptFailing.load(ordering: .relaxed) else { return nil }
        acceptFailing.store(false, ordering: .relaxed)
        return acceptFailures.withLock { f in
            guard f.inEpisode else { return nil }
            f.inEpisode = false
            defer { f.episodeFailures = 0 }
            return .recovered(failures: f.episodeFailures, nanoseconds: now &- f.episodeStart)
        }
    }

    /// Gives freed heap back to the system (glibc keeps it otherwise) once
    /// many connections have closed: after a burst, RSS returns to where it
    /// was. At most every 2 s, from loop 0's tick, with loop 0's state.
    /// The peak is the most connections seen since the last trim (a drop
    /// spread over several ticks still counts).
    func releaseMemoryAfterDrops(_ state: LoopState, now: UInt64) {
        let open = openConnections.load(ordering: .relaxed)
        state.peakSinceTrim = max(state.peakSinceTrim, open)
        guard now &- state.lastTrim > 2_000_000_000, state.peakSinceTrim - open >= 64 else { return }
        _ = clinux_malloc_trim()
        state.peakSinceTrim = open
        state.lastTrim = now
    }

    /// Output queued for every client, over all loops (any thread).
    var queuedOutput: Int { loopStates.reduce(0) { $0 + $1.publishedQueuedOutput.load(ordering: .relaxed) } }

    /// Over `maxBufferedBytes`: this loop drops its clients that read
    /// nothing for `sheddingStall`, most queued first, until the total is
    /// under the cap again. Called from the loop's tick.
    func shedStalledClients(on loop: EventLoop, now: UInt64) {
        var excess = queuedOutput - configuration.maxBufferedBytes
        guard excess > 0 else { return }
        let state = loopStates[loop.index]
        let stalled = state.connections.values
            .filter { $0.queuedBytes > 0 && now &- $0.lastWriteProgressTime > configuration.sheddingStall }
            .sorted { $0.queuedBytes > $1.queuedBytes }
        for connection in stalled where excess > 0 {
            excess -= connection.queuedBytes
            connection.close()
        }
    }

    func requestCompleted() { requestsServed.add(1, ordering: .relaxed) }
    func streamOpened() { openStreams.add(1, ordering: .relaxed) }
    func streamClosed() { openStreams.subtract(1, ordering: .relaxed) }
}
