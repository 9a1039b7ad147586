import CLinux
import EventLoop
import Glibc

/// An HTTP/1.1 server: listeners, a fixed set of epoll event loops, and
/// connections spread over them. No thread per connection.
public final class HTTPServer: @unchecked Sendable {
    public let configuration: HTTPServerConfiguration
    let core: ServerCore
    public let loops: [EventLoop]
    private var listeners: [Listener] = []
    private var nextLoop = 0

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
            listeners.append(listener)
        }
        for loop in loops {
            core.attach(to: loop)
            try loop.start()
        }
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
                // EAGAIN: nothing more. EMFILE/ENFILE: out of descriptors; the
                // backlog keeps them until some close.
                return
            }
            if core.isShuttingDown {
                Glibc.close(fd)
                continue
            }
            let open = core.openConnections.add(1, ordering: .relaxed).newValue
            if open > configuration.maxConnections {
                // Uncounted before the client can see the refusal.
                core.openConnections.subtract(1, ordering: .relaxed)
                refuse(fd)
                continue
            }
            Socket.setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
            do {
                let connection = try Connection(fd: fd, loop: loop, server: core, peer: SocketAddress.from(storage))
                core.connectionOpened(connection)
            } catch {
                Glibc.close(fd)
                core.openConnections.subtract(1, ordering: .relaxed)
            }
        }
    }

    /// Too many connections: a 503 right away, then close (never a hang).
    private func refuse(_ fd: Int32) {
        var response = core.errorResponse(.serviceUnavailable, "too many connections; try again later")
        response.headers.replace("Retry-After", "1")
        var body: [UInt8] = []
        if case .bytes(let b) = response.body { body = b }
        var bytes = ResponseHead.encode(status: response.status, headers: response.headers, version: .http1_1,
                                        date: core.loopStates[0].date.bytes, contentLength: body.count,
                                        keepAlive: false, serverName: configuration.serverName)
        bytes += body
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
        Glibc.shutdown(fd, Int32(SHUT_WR))
        Glibc.close(fd)
    }

    /// Graceful shutdown: stop accepting, let in-flight requests finish and
    /// streams send a last message, then close whatever is left at the
    /// deadline and stop the loops. Blocks until done; call it off the loops.
    public func shutdown(gracePeriod nanoseconds: UInt64 = 10_000_000_000) {
        guard !core.isShuttingDown else { return }
        core.beginShutdown()
        for loop in loops {
            let state = core.loopStates[loop.index]
            loop.execute { [loop] in
                for r in state.listenerRegistrations { loop.deregister(r) }
                state.listenerRegistrations.removeAll()
                for connection in Array(state.connections.values) { connection.beginShutdown() }
            }
        }
        let deadline = monotonicNanoseconds() &+ nanoseconds
        while core.openConnections.load(ordering: .relaxed) > 0 && monotonicNanoseconds() < deadline {
            usleep(2_000)
        }
        for loop in loops { loop.stop() }
        for loop in loops { loop.join() }
        for l in listeners { Glibc.close(l.fd) }
        listeners.removeAll()
    }
}
