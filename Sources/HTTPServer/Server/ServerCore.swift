import CLinux
import EventLoop
import Synchronization

/// What every connection shares: configuration, the responder, counters.
final class ServerCore: @unchecked Sendable {
    let configuration: HTTPServerConfiguration
    let responder: any HTTPResponder
    let maxBufferedRequestBytes: Int
    private let shuttingDown = Atomic<Bool>(false)
    let openConnections = Atomic<Int>(0)
    let openStreams = Atomic<Int>(0)
    let requestsServed = Atomic<Int>(0)
    /// Per loop: its connections and its Date header (touched only on that loop).
    let loopStates: [LoopState]

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
            if loop.index == 0 { releaseMemoryAfterDrops(now: now) }
        }
        loop.onStop = {
            for connection in Array(state.connections.values) { connection.close() }
        }
    }

    var isShuttingDown: Bool { shuttingDown.load(ordering: .acquiring) }
    func beginShutdown() { shuttingDown.store(true, ordering: .releasing) }

    func respond(_ request: HTTPRequest, _ context: RequestContext) -> HTTPResponse {
        responder.respond(to: request, context: context)
    }

    func errorResponse(_ status: HTTPStatus, _ message: String) -> HTTPResponse {
        responder.errorResponse(status: status, message: message)
    }

    func date(_ loop: EventLoop) -> [UInt8] { loopStates[loop.index].date.bytes }

    func connectionOpened(_ c: Connection) {
        loopStates[c.loop.index].connections[ObjectIdentifier(c)] = c
    }

    func connectionClosed(_ c: Connection) {
        loopStates[c.loop.index].connections[ObjectIdentifier(c)] = nil
        openConnections.subtract(1, ordering: .relaxed)
    }

    /// Gives freed heap back to the system (glibc keeps it otherwise) once
    /// many connections have closed: after a burst, RSS returns to where it
    /// was. At most every 2 s, from loop 0's tick.
    private var lastTrim: UInt64 = 0
    /// The most connections seen since the last trim (a drop spread over
    /// several ticks still counts).
    private var peakSinceTrim = 0
    func releaseMemoryAfterDrops(now: UInt64) {
        let open = openConnections.load(ordering: .relaxed)
        peakSinceTrim = max(peakSinceTrim, open)
        guard now &- lastTrim > 2_000_000_000, peakSinceTrim - open >= 64 else { return }
        _ = clinux_malloc_trim()
        peakSinceTrim = open
        lastTrim = now
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
