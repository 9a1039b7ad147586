import CLinux
import Dispatch
import EventLoop
import Glibc
import Synchronization

/// An HTTP/1.1 server: listeners, a fixed set of epoll event loops, and
/// connections spread over them. No thread per connection.
public final class HTTPServer: Sendable {
    public let configuration: HTTPServerConfiguration
    let core: ServerCore
    public let loops: [EventLoop]
    /// Changed only by `start` and `shutdown`; locked, since metrics and
    /// tests ask for the addresses from any thread.
    private let lifecycle = Mutex(Lifecycle())

    private struct Lifecycle {
        var listeners: [Listener] = []
        /// The loops run (`start` got that far): only then can they be
        /// asked to do anything at shutdown.
        var loopsStarted = false
    }
    private var listeners: [Listener] { lifecycle.withLock { $0.listeners } }

    public init(configuration: HTTPServerConfiguration, responder: any HTTPResponder) throws {
        self.configuration = configuration
        core = ServerCore(configuration: configuration, responder: responder)
        loops = try (0..<configuration.eventLoops).map { try EventLoop(index: $0) }
        for loop in loops { core.loopStates[loop.index].responderStorage = responder.makeLoopStorage(for: loop) }
    }

    /// The addresses actually bound (with the port chosen when 0 was asked).
    public var addresses: [SocketAddress] { listeners.map(\.address) }

    /// The first bound port.
    public var port: Int { listeners.first?.address.port ?? 0 }

    public var openConnections: Int { core.openConnections.load(ordering: .relaxed) }
    public var openStreams: Int { core.openStreams.load(ordering: .relaxed) }
    public var requestsServed: Int { core.requestsServed.load(ordering: .relaxed) }
    public var isShuttingDown: Bool { core.isShuttingDown }
    /// Output queued for all clients together, in bytes (any thread).
    public var bufferedOutputBytes: Int { core.queuedOutput }
    /// Whether that is above `maxBufferedBytes`: new heavy answers wait.
    public var isOverBufferCap: Bool { core.queuedOutput > configuration.maxBufferedBytes }

    /// Binds, starts the loops, and begins accepting.
    public func start() throws {
        Socket.raiseOpenFileLimit()
        var port = configuration.port
        for host in configuration.hosts {
            let listener = try Listener(address: try SocketAddress(host: host, port: port), backlog: configuration.backlog, server: self)
            if port == 0 { port = listener.address.port }  // every host on the same port
            lifecycle.withLock { $0.listeners.append(listener) }
        }
        for loop in loops {
            core.attach(to: loop)
            try loop.start()
        }
        lifecycle.withLock { $0.loopsStarted = true }
        for loop in loops {
            let listeners = self.listeners
            let state = core.loopStates[loop.index]
            loop.execute { [loop] in
                for l in listeners {
                    if let r = try? loop.register(l.fd, l, events: CLINUX_EPOLLIN | CLINUX_EPOLLEXCLUSIVE) {
                        state.listenerRegistrations.append(r)
                    }
                }
            }
        }
    }

    /// Called on a loop when a listener is readable.
    func accept(from listener: Listener) {
        guard let loop = loops.first(where: { $0.inLoop }) else { return }
        for _ in 0..<64 {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    clinux_accept4(listener.fd, $0, &length, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
                }
            }
            if fd < 0 {
                let e = errno
                switch e {
                case EAGAIN, EWOULDBLOCK:
                    return
                case EINTR, ECONNABORTED, EPROTO, EPERM, ENETDOWN, ENOPROTOOPT, EHOSTDOWN, ENONET, EHOSTUNREACH, EOPNOTSUPP, ENETUNREACH:
                    continue  // that one connection's trouble (accept(2) says to retry)
                default:
                    // Out of descriptors or memory (or worse): the listener
                    // stays readable, so retrying now would spin. Pause.
                    pauseAccepting(listener, on: loop, errno: e)
                    return
                }
            }
            if let event = core.acceptSucceeded(now: loop.now) { configuration.onAcceptEvent?(event) }
            // While draining too: a newcomer is answered (the responder
            // decides what it gets), never left in the backlog unanswered.
            admit(fd, peer: SocketAddress.from(storage), on: loop)
        }
    }

    /// Admits a new connection within its address's share and the table:
    /// a full table makes room by closing the connection idle longest, on
    /// whichever loop holds it; with none idle, the newcomer is refused.
    func admit(_ fd: Int32, peer: SocketAddress?, on loop: EventLoop) {
        // The address first: a newcomer over its share takes no one's place.
        var counted: IPAddress?
        if let peer {
            let address = IPAddress(peer)
            if !core.isExempt(address) {
                guard core.reserve(address) else {
                    core.refusedPerAddress.add(1, ordering: .relaxed)
                    return refuse(fd, .tooManyRequests, "too many connections from this address; try again later", on: loop)
                }
                counted = address
            }
        }
        let count = core.openConnections.add(1, ordering: .relaxed).newValue
        guard count > configuration.maxConnections else { return openConnection(fd, peer: peer, counted: counted, on: loop) }
        // The count stays raised while room is made: the closed connection's
        // decrement is the newcomer's room.
        guard let index = core.loopWithOldestIdle() else { return refuseFull(fd, counted: counted, on: loop) }
        if index == loop.index {
            guard core.evictIdle(on: loop) else { return refuseFull(fd, counted: counted, on: loop) }
            return openConnection(fd, peer: peer, counted: counted, on: loop)
        }
        // Another loop holds it: the newcomer is handed over and lives there.
        let other = loops[index]
        other.execute { [self, counted] in
            if core.hasEndedAccepting {
                Glibc.close(fd)
                return undo(counted)
            }
            guard core.evictIdle(on: other) else { return refuseFull(fd, counted: counted, on: other) }
            openConnection(fd, peer: peer, counted: counted, on: other)
        }
    }

    private func openConnection(_ fd: Int32, peer: SocketAddress?, counted: IPAddress?, on loop: EventLoop) {
        Socket.setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
        do {
            let connection = try Connection(fd: fd, loop: loop, server: core, peer: peer)
            connection.countedAddress = counted
            core.connectionOpened(connection)
        } catch {
            Glibc.close(fd)
            undo(counted)
        }
    }

    /// Uncounts a newcomer that is not admitted.
    private func undo(_ counted: IPAddress?) {
        core.openConnections.subtract(1, ordering: .relaxed)
        if let counted { core.release(counted) }
    }

    private func refuseFull(_ fd: Int32, counted: IPAddress?, on loop: EventLoop) {
        // Uncounted before the client can see the refusal.
        undo(counted)
        core.refusedFull.add(1, ordering: .relaxed)
        refuse(fd, .serviceUnavailable, "too many connections; try again later", on: loop)
    }

    /// A refused connection: its answer right away, then close (never a hang).
    private func refuse(_ fd: Int32, _ status: HTTPStatus, _ message: String, on loop: EventLoop) {
        var response = core.errorResponse(status, message)
        response.headers.replace("Retry-After", "1")
        var body: [UInt8] = []
        if case .bytes(let b) = response.body { body = b }
        var bytes = ResponseHead.encode(status: response.status, headers: response.headers, version: .http1_1,
                                        date: core.date(loop), contentLength: body.count,
                                        keepAlive: false, serverName: configuration.serverName)
        bytes += body
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
        Glibc.shutdown(fd, Int32(SHUT_WR))
        Glibc.close(fd)
    }

    /// `accept` failed for want of descriptors or memory: this loop stops
    /// watching `listener` for `acceptBackoff`, serving its connections
    /// meanwhile, then watches it again (and pauses again if it still
    /// fails: one failed call per back-off, not a spin). Loop thread only.
    private func pauseAccepting(_ listener: Listener, on loop: EventLoop, errno e: Int32) {
        if let event = core.acceptFailed(reason: Self.errnoName(e), now: loop.now) { configuration.onAcceptEvent?(event) }
        let state = core.loopStates[loop.index]
        guard let i = state.listenerRegistrations.firstIndex(where: { $0.fd == listener.fd }) else { return }
        loop.deregister(state.listenerRegistrations.remove(at: i))
        let backoff = configuration.acceptBackoff
        func rearm() {
            loop.schedule(afterNanoseconds: backoff) { [self] in
                guard !core.hasEndedAccepting else { return }
                // EPOLLEXCLUSIVE cannot be modified, only added anew.
                guard let r = try? loop.register(listener.fd, listener, events: CLINUX_EPOLLIN | CLINUX_EPOLLEXCLUSIVE) else { return rearm() }
                state.listenerRegistrations.append(r)
            }
        }
        rearm()
    }

    static func errnoName(_ e: Int32) -> String {
        switch e {
        case EMFILE: return "EMFILE"
        case ENFILE: return "ENFILE"
        case ENOBUFS: return "ENOBUFS"
        case ENOMEM: return "ENOMEM"
        default: return "other"
        }
    }

    /// Open connections from `address` (0 for an exempt one, which is not counted).
    public func openConnections(from address: IPAddress) -> Int { core.openConnections(from: address) }

    /// What `/metrics` shows of admission and accepting.
    public var connectionStatistics: ConnectionStatistics {
        let (addresses, most) = core.addressSummary()
        let failures = core.acceptFailures.withLock { f in
            (f.byReason.sorted { $0.key < $1.key }.map { (reason: $0.key, count: $0.value) }, f.episodes, f.inEpisode)
        }
        return ConnectionStatistics(evictedIdle: core.evictedIdle.load(ordering: .relaxed),
                                    refusedFull: core.refusedFull.load(ordering: .relaxed),
                                    refusedPerAddress: core.refusedPerAddress.load(ordering: .relaxed),
                                    addresses: addresses, mostFromOneAddress: most,
                                    acceptFailures: failures.0, acceptFailureEpisodes: failures.1, acceptPaused: failures.2)
    }

    /// Graceful shutdown, a drain that leaves no one waiting: newcomers
    /// are still accepted and answered at once (what they get is the
    /// responder's choice: `RequestContext.isShuttingDown`), every answer
    /// closes its connection, in-flight requests finish and streams send a
    /// last message. The drain ends when the connections open at its start
    /// are closed, or at the deadline, whichever is first: newcomers never
    /// prolong it. Then the listeners close (a connection still in the
    /// backlog is reset, a later one refused), whatever is left is closed,
    /// and the loops stop. Blocks until done; call it off the loops.
    public func shutdown(gracePeriod nanoseconds: UInt64 = 10_000_000_000) {
        guard !core.isShuttingDown else { return }
        guard lifecycle.withLock({ $0.loopsStarted }) else {
            core.beginShutdown()
            for l in lifecycle.withLock({ $0.listeners.take() }) { Glibc.close(l.fd) }
            return
        }
        let deadline = monotonicNanoseconds() &+ nanoseconds
        // Counted before the flag is raised: the wait below cannot find
        // the drain over before every loop has counted.
        core.drainLoopsPending.store(loops.count, ordering: .releasing)
        core.beginShutdown()
        for loop in loops {
            let state = core.loopStates[loop.index]
            loop.execute { [core] in
                let open = state.connections.values.filter { !$0.arrivedWhileShuttingDown }
                for connection in open { connection.countedInDrain = true }
                core.drainRemaining.add(open.count, ordering: .releasing)
                core.drainLoopsPending.subtract(1, ordering: .releasing)
                for connection in open { connection.beginShutdown() }
            }
        }
        while !core.isDrained && monotonicNanoseconds() < deadline {
            usleep(2_000)
        }
        closeListeners()
        for loop in loops { loop.stop() }
        for loop in loops { loop.join() }
    }

    /// Stops every loop watching the listeners, then closes them (only
    /// then: a loop must not accept from a descriptor closed and reused).
    private func closeListeners() {
        core.endAccepting()
        let done = DispatchSemaphore(value: 0)
        for loop in loops {
            let state = core.loopStates[loop.index]
            loop.execute { [loop] in
                for r in state.listenerRegistrations { loop.deregister(r) }
                state.listenerRegistrations.removeAll()
                done.signal()
            }
        }
        for _ in loops { done.wait() }
        for l in lifecycle.withLock({ $0.listeners.take() }) { Glibc.close(l.fd) }
    }
}

extension Array {
    /// The elements, leaving the array empty.
    fileprivate mutating func take() -> Self {
        defer { removeAll() }
        return self
    }
}

/// Admission and accepting, for `/metrics`.
public struct ConnectionStatistics: Sendable {
    /// Idle connections closed to admit newcomers into a full table.
    public var evictedIdle = 0
    /// Newcomers refused: the table full with none idle (503), their
    /// address over its share (429).
    public var refusedFull = 0
    public var refusedPerAddress = 0
    /// Peer addresses with open connections (exempt ones not counted), and
    /// the most connections one of them has open.
    public var addresses = 0
    public var mostFromOneAddress = 0
    /// Failed accepts by reason (`EMFILE`, `ENFILE`, `ENOBUFS`, `ENOMEM`,
    /// `other`), the episodes they came in, and whether one goes on now.
    public var acceptFailures: [(reason: String, count: Int)] = []
    public var acceptFailureEpisodes = 0
    public var acceptPaused = false

    public init() {}

    init(evictedIdle: Int, refusedFull: Int, refusedPerAddress: Int, addresses: Int, mostFromOneAddress: Int,
         acceptFailures: [(reason: String, count: Int)], acceptFailureEpisodes: Int, acceptPaused: Bool) {
        self.evictedIdle = evictedIdle
        self.refusedFull = refusedFull
        self.refusedPerAddress = refusedPerAddress
        self.addresses = addresses
        self.mostFromOneAddress = mostFromOneAddress
        self.acceptFailures = acceptFailures
        self.acceptFailureEpisodes = acceptFailureEpisodes
        self.acceptPaused = acceptPaused
    }
}
