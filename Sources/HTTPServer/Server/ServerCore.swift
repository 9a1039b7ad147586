import CLinux
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

    func requestCompleted() { requestsServed.add(1, ordering: .relaxed) }
    func streamOpened() { openStreams.add(1, ordering: .relaxed) }
    func streamClosed() { openStreams.subtract(1, ordering: .relaxed) }
}
