import CLinux
import Dispatch
import EventLoop
import Glibc
import Synchronization

/// One connection to Redis on one of the server's event loops: non-blocking,
/// pipelined (commands go out as they come; replies are matched in order),
/// and reconnecting by itself with backoff (50 ms doubling to 1 s).
///
/// While it is not connected a command is failed at once with
/// `.unavailable`, never held: a caller answers 503 instead of waiting.
/// Commands sent while the first connection is being made wait for it, up
/// to `connectTimeout`. A command unanswered for `commandTimeout` (a Redis
/// that stopped, or a network that went silent) fails with every other one
/// pending, and the connection is made anew. Replies are delivered on the
/// loop's thread.
///
/// A subscriber connection (with `onMessage`) also takes the messages of
/// the channels it subscribes to. Subscribe to one channel a command, so
/// that each command has one reply; subscriptions end with the connection,
/// and `onConnect` is the place to make them again.
public final class RedisConnection: Selectable, @unchecked Sendable {
    public typealias Reply = @Sendable (Result<RESPValue, RedisError>) -> Void
    public typealias Message = @Sendable (_ channel: String, _ payload: [UInt8]) -> Void

    public let loop: EventLoop
    public let url: RedisURL
    private let parser = RESPParser()
    /// How far the reply at the start of `input` has been measured.
    private var progress = RESPParser.Progress()
    private let connectTimeout: UInt64 = 1_000_000_000
    private let commandTimeout: UInt64

    private enum State {
        /// Waiting to (re)connect; commands fail at once.
        case waiting
        /// Resolving the name or connecting; commands queue.
        case connecting(since: UInt64)
        /// Connected, the handshake (AUTH, SELECT) sent ahead of everything else.
        case ready
        case closed
    }
    private var state = State.waiting
    private var fd: Int32 = -1
    private var registration: Registration?
    private var output: [UInt8] = []
    private var input: [UInt8] = []
    /// Where reads land (one buffer for the connection's life).
    private var scratch = [UInt8](repeating: 0, count: 64 * 1024)
    /// Callbacks of the commands sent, in order, with when each was sent;
    /// nil for the handshake's own.
    private var replies: [(reply: Reply?, sent: UInt64)] = []
    private var repliesHead = 0
    /// Commands that came while connecting.
    private var queued: [([UInt8], Reply)] = []
    private var backoff: UInt64 = 50_000_000
    private var timer: TimerHandle?
    /// Armed while replies are awaited: fires when the oldest is due.
    private var watchdog: TimerHandle?
    /// Up: Redis has answered since the connection was made (a stopped
    /// Redis still completes TCP handshakes; it never answers).
    private let connected = Atomic<Bool>(false)

    private let onConnect: (@Sendable () -> Void)?
    private let onMessage: Message?
    /// Called on the loop when `isConnected` changes: up (Redis answered),
    /// or down with the reason.
    public typealias StateChange = @Sendable (_ up: Bool, _ reason: String) -> Void
    private let onStateChange: StateChange?

    /// Connects on `loop` (at once, and again whenever the connection is
    /// lost); `onConnect` runs on the loop each time it is up.
    public init(url: RedisURL, loop: EventLoop, commandTimeout seconds: Double = 1, onConnect: (@Sendable () -> Void)? = nil,
                onMessage: Message? = nil, onStateChange: StateChange? = nil) {
        self.url = url
        self.loop = loop
        self.onStateChange = onStateChange
        commandTimeout = UInt64(seconds * 1e9)
        self.onConnect = onConnect
        self.onMessage = onMessage
        loop.execute { [self] in connect() }
    }

    /// Whether the connection is up now (any thread).
    public var isConnected: Bool { connected.load(ordering: .relaxed) }

    /// Sends one command (any thread); `reply` runs on the loop with its reply.
    public func send(_ parts: [String], reply: @escaping Reply) {
        send(bytes: RESP.command(parts), reply: reply)
    }

    public func send(bytes command: [UInt8], reply: @escaping Reply) {
        if loop.inLoop { enqueue(command, reply) } else { loop.execute { [self] in enqueue(command, reply) } }
    }

    /// Closes for good: pending commands fail.
    public func close() {
        loop.execute { [self] in
            disconnect("closed")
            state = .closed
            timer?.cancel()
        }
    }

    // MARK: Loop thread

    private func enqueue(_ command: [UInt8], _ reply: @escaping Reply) {
        loop.assertInLoop()
        switch state {
        case .ready:
            expectReply(reply)
            output.append(contentsOf: command)
            flush()
        case .connecting:
            queued.append((command, reply))
        case .waiting:
            reply(.failure(.unavailable("not connected to \(url); reconnecting")))
        case .closed:
            reply(.failure(.unavailable("the connection to \(url) is closed")))
        }
    }

    private func connect() {
        loop.assertInLoop()
        guard case .waiting = state else { return }
        state = .connecting(since: loop.now)
        timer = loop.schedule(afterNanoseconds: connectTimeout) { [self] in
            if case .connecting = state { disconnect("no connection within \(connectTimeout / 1_000_000) ms") }
        }
        if let address = try? SocketAddress(host: url.host, port: url.port) {
            open(address)
            return
        }
        // A name: getaddrinfo blocks, so it runs off the loop.
        let (host, port) = (url.host, url.port)
        DispatchQueue.global().async { [self] in
            let address = Self.resolve(host, port)
            loop.execute { [self] in
                guard case .connecting = state else { return }
                guard let address else { return disconnect("cannot resolve \(host)") }
                open(address)
            }
        }
    }

    private func open(_ address: SocketAddress) {
        let s = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard s >= 0 else { return disconnect("socket: \(String(cString: strerror(errno)))") }
        fd = s
        var one: Int32 = 1
        setsockopt(s, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        if !address.connect(s) && errno != EINPROGRESS {
            return disconnect("connect: \(String(cString: strerror(errno)))")
        }
        do {
            registration = try loop.register(s, self, events: CLINUX_EPOLLIN | CLINUX_EPOLLOUT | CLINUX_EPOLLRDHUP)
        } catch {
            disconnect("cannot watch the socket: \(error)")
        }
    }

    package func handle(events: UInt32) {
        loop.assertInLoop()
        if case .connecting = state, events & CLINUX_EPOLLOUT != 0 { established() }
        if events & (CLINUX_EPOLLERR | CLINUX_EPOLLHUP) != 0 { return disconnect("connection lost") }
        if events & CLINUX_EPOLLOUT != 0 { flush() }
        if events & (CLINUX_EPOLLIN | CLINUX_EPOLLRDHUP) != 0 { readAvailable() }
    }

    /// The socket is connected (or failed): handshake first, then what queued.
    private func established() {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
        guard error == 0 else { return disconnect("connect: \(String(cString: strerror(error)))") }
        timer?.cancel()
        state = .ready
        backoff = 50_000_000
        if let password = url.password {
            output += RESP.command(url.user.map { ["AUTH", $0, password] } ?? ["AUTH", password])
            expectReply(nil)
        }
        if url.database != 0 {
            output += RESP.command(["SELECT", String(url.database)])
            expectReply(nil)
        }
        // The first answer says Redis is up (`connected`), not the handshake.
        output += RESP.command(["PING"])
        expectReply { [self] result in
            guard case .success = result, !connected.load(ordering: .relaxed) else { return }
            connected.store(true, ordering: .relaxed)
            onStateChange?(true, "answered")
        }
        let waiting = queued
        queued = []
        for (command, reply) in waiting {
            expectReply(reply)
            output.append(contentsOf: command)
        }
        flush()
        onConnect?()
    }

    private func flush() {
        guard case .ready = state, !output.isEmpty else { return }
        let n = output.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if n > 0 {
            output.removeFirst(n)
        } else if n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
            return disconnect("send: \(String(cString: strerror(errno)))")
        }
        if let registration {
            loop.modify(registration, events: CLINUX_EPOLLIN | CLINUX_EPOLLRDHUP | (output.isEmpty ? 0 : CLINUX_EPOLLOUT))
        }
    }

    private func readAvailable() {
        while case .ready = state {
            let n = scratch.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                input.append(contentsOf: scratch[0..<n])
                deliver()
                if n < scratch.count { return }
            } else if n == 0 {
                return disconnect("the server closed the connection")
            } else {
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return }
                return disconnect("read: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Hands each whole reply in `input` to its command's callback, in order.
    private func deliver() {
        var start = 0
        while start < input.count {
            let next: (value: RESPValue, consumed: Int)?
            do {
                next = try input.withUnsafeBufferPointer { (b) throws(RESPError) in try parser.next(UnsafeBufferPointer(rebasing: b[start...]), resuming: &progress) }
            } catch {
                return disconnect("a broken reply: \(error)")
            }
            guard let (value, consumed) = next else { break }
            start += consumed
            // A published message is no command's reply.
            if let onMessage, case .array(let parts?) = value, parts.count == 3, parts[0].string == "message",
               let channel = parts[1].string, case .bulk(let payload?) = parts[2] {
                onMessage(channel, payload)
                continue
            }
            guard repliesHead < replies.count else { return disconnect("a reply no command asked for") }
            let reply = replies[repliesHead].reply
            replies[repliesHead].reply = nil
            repliesHead += 1
            if repliesHead == replies.count { replies.removeAll(keepingCapacity: true); repliesHead = 0 }
            if case .error(let message) = value {
                // The handshake's own failure (a wrong password) is the connection's.
                guard let reply else { return disconnect("the handshake failed: \(message)") }
                reply(.failure(.reply(message)))
            } else {
                reply?(.success(value))
            }
        }
        // A callback may have sent, found the connection gone and dropped
        // it: its input went with it (and the loop above ended there).
        guard case .ready = state else { return }
        if start > 0 { input.removeFirst(start) }
    }

    /// Drops the connection: every command without its reply fails, and a
    /// new connection is tried after the backoff.
    private func disconnect(_ reason: String) {
        loop.assertInLoop()
        if let registration { loop.deregister(registration) }
        registration = nil
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
        if connected.exchange(false, ordering: .relaxed) { onStateChange?(false, reason) }
        let failed = replies[repliesHead...].compactMap(\.reply) + queued.map(\.1)
        watchdog?.cancel()
        watchdog = nil
        replies = []
        repliesHead = 0
        queued = []
        output = []
        input = []
        progress = RESPParser.Progress()
        if case .closed = state { return }
        state = .waiting
        for reply in failed { reply(.failure(.unavailable("\(reason) (\(url))"))) }
        timer?.cancel()
        timer = loop.schedule(afterNanoseconds: backoff) { [self] in connect() }
        backoff = min(backoff * 2, 1_000_000_000)
    }

    /// Awaits a reply to a command about to go out; the watchdog is armed
    /// for the oldest reply awaited.
    private func expectReply(_ reply: Reply?) {
        replies.append((reply, loop.now))
        if watchdog == nil { armWatchdog() }
    }

    private func armWatchdog() {
        guard repliesHead < replies.count else { return }
        let due = replies[repliesHead].sent &+ commandTimeout
        watchdog = loop.schedule(afterNanoseconds: due > loop.now ? due - loop.now : 0) { [self] in
            watchdog = nil
            guard case .ready = state, repliesHead < replies.count else { return }
            if loop.now &- replies[repliesHead].sent >= commandTimeout {
                disconnect("no reply within \(commandTimeout / 1_000_000) ms")
            } else {
                armWatchdog()
            }
        }
    }

    private static func resolve(_ host: String, _ port: Int) -> SocketAddress? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &result) == 0, let first = result else { return nil }
        defer { freeaddrinfo(result) }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = first.pointee.ai_family
        if family == AF_INET {
            first.pointee.ai_addr.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { var a = $0.pointee.sin_addr; _ = inet_ntop(AF_INET, &a, &text, socklen_t(text.count)) }
        } else if family == AF_INET6 {
            first.pointee.ai_addr.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { var a = $0.pointee.sin6_addr; _ = inet_ntop(AF_INET6, &a, &text, socklen_t(text.count)) }
        } else {
            return nil
        }
        return try? SocketAddress(host: text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }, port: port)
    }
}
