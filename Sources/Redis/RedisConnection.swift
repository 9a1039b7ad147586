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
/// With a `sentinel`, it connects to the primary the Sentinels name, checks
/// with `ROLE` that it is the primary before any command goes out, and
/// follows it: told that the primary moved, or answered `READONLY` or
/// `LOADING`, or its connection lost, it asks the Sentinels again.
///
/// A subscriber connection (with `onMessage`) also takes the messages of
/// the channels it subscribes to. Subscribe to one channel a command, so
/// that each command has one reply; subscriptions end with the connection,
/// and `onConnect` is the place to make them again.
// unchecked: all but `connected` is touched only on `loop`; `send` from elsewhere goes through `execute`.
public final class RedisConnection: Selectable, @unchecked Sendable {
    public typealias Reply = @Sendable (Result<RESPValue, RedisError>) -> Void
    public typealias Message = @Sendable (_ channel: String, _ payload: [UInt8]) -> Void

    public let loop: EventLoop
    public let url: RedisURL
    private let parser = RESPParser()
    /// How far the reply at the start of `input` has been measured.
    private var progress = RESPParser.Progress()
    private let commandTimeout: UInt64
    private let sentinel: RedisSentinel?
    /// Where it is connected, or connecting to.
    private var address: RedisAddress?
    /// Counts connection attempts: an answer from the Sentinel for an
    /// attempt given up is not this one's.
    private var attempt = 0

    private enum State {
        /// Waiting to (re)connect; commands fail at once.
        case waiting
        /// Locating the primary, resolving the name or connecting; commands queue.
        case connecting(since: UInt64)
        /// Connected, the handshake (AUTH, SELECT, then PING or ROLE) sent;
        /// commands queue until it is answered.
        case handshaking
        /// Answered: commands go out as they come.
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
    /// Writes waiting for the WAIT in flight (`confirmReplicated`).
    private var replicated: [@Sendable (Bool) -> Void]?
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
    /// or down with the reason; while down, again with the reason each
    /// attempt to connect failed.
    public typealias StateChange = @Sendable (_ up: Bool, _ reason: String) -> Void
    private let onStateChange: StateChange?

    /// Connects on `loop` (at once, and again whenever the connection is
    /// lost); `onConnect` runs on the loop each time it is up.
    /// With a `sentinel`, `url` gives the user, password and database, and
    /// the Sentinels the host and port.
    public init(url: RedisURL, loop: EventLoop, commandTimeout seconds: Double = 1, sentinel: RedisSentinel? = nil,
                onConnect: (@Sendable () -> Void)? = nil, onMessage: Message? = nil, onStateChange: StateChange? = nil) {
        self.url = url
        self.loop = loop
        self.sentinel = sentinel
        self.onStateChange = onStateChange
        commandTimeout = UInt64(seconds * 1e9)
        self.onConnect = onConnect
        self.onMessage = onMessage
        sentinel?.follow { [weak self] primary in
            guard let self else { return }
            self.loop.execute { self.moved(to: primary) }
        }
        loop.execute { [self] in connect() }
    }

    /// What it connects to, for messages: the URL, or the primary and where it is.
    private var target: String {
        guard let sentinel else { return url.description }
        return "the primary \(sentinel.url.primaryName)" + (address.map { " at \($0)" } ?? "")
    }

    /// Whether the socket is connected (handshaking or ready).
    private var isOpen: Bool {
        switch state {
        case .handshaking, .ready: return true
        default: return false
        }
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

    /// Once the writes this connection has had answered are on `replicas`
    /// replicas (Redis's WAIT, up to `milliseconds`), `done` says whether
    /// they are. Call it on the loop, from a write's reply. A WAIT not yet
    /// answered was sent after that write (replies come in order), so it
    /// covers it too: writes answered meanwhile share it, and the
    /// connection, which WAIT holds up, waits once at a time, not once a
    /// write.
    public func confirmReplicated(_ replicas: Int, milliseconds: Int, _ done: @escaping @Sendable (Bool) -> Void) {
        loop.assertInLoop()
        if replicated != nil {
            replicated?.append(done)
            return
        }
        replicated = [done]
        enqueue(RESP.command(["WAIT", String(replicas), String(milliseconds)])) { [self] result in
            let waiting = replicated ?? []
            replicated = nil
            var confirmed = false
            if case .success(.integer(let n)) = result { confirmed = n >= replicas }
            for done in waiting { done(confirmed) }
        }
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
        case .connecting, .handshaking:
            queued.append((command, reply))
        case .waiting:
            reply(.failure(.unavailable("not connected to \(target); reconnecting")))
        case .closed:
            reply(.failure(.unavailable("the connection to \(target) is closed")))
        }
    }

    private func connect() {
        loop.assertInLoop()
        guard case .waiting = state else { return }
        state = .connecting(since: loop.now)
        attempt += 1
        // Until answered: commands queued meanwhile wait no longer than one would for its reply.
        timer = loop.schedule(afterNanoseconds: commandTimeout) { [self] in
            switch state {
            case .connecting where sentinel != nil && address == nil:
                // Still waiting for the Sentinels: say what they said last.
                let said = sentinel?.failure.map { ": \($0)" } ?? " (still asking them)"
                disconnect("the Sentinels named no primary within \(commandTimeout / 1_000_000) ms\(said)")
            case .connecting, .handshaking: disconnect("no connection within \(commandTimeout / 1_000_000) ms")
            default: break
            }
        }
        guard let sentinel else { return connect(to: RedisAddress(host: url.host, port: url.port)) }
        let attempt = attempt
        sentinel.locate { [self] result in
            loop.execute { [self] in
                guard case .connecting = state, self.attempt == attempt else { return }
                switch result {
                case .success(let primary): connect(to: primary)
                case .failure(let error): disconnect(error.message)
                }
            }
        }
    }

    private func connect(to address: RedisAddress) {
        self.address = address
        if let numeric = try? SocketAddress(host: address.host, port: address.port) {
            open(numeric)
            return
        }
        // A name: getaddrinfo blocks, so it runs off the loop.
        let attempt = attempt
        DispatchQueue.global().async { [self] in
            let resolved = Self.resolve(address.host, address.port)
            loop.execute { [self] in
                guard case .connecting = state, self.attempt == attempt else { return }
                guard let resolved else { return disconnect("cannot resolve \(address.host)") }
                open(resolved)
            }
        }
    }

    /// The Sentinels name a new primary: a connection elsewhere is dropped
    /// and made anew there.
    private func moved(to primary: RedisAddress) {
        guard isOpen, let address, address != primary else { return }
        disconnect("the primary moved from \(address) to \(primary)")
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

    /// The socket is connected (or failed): the handshake first; what
    /// queued goes out once it is answered.
    private func established() {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
        guard error == 0 else { return disconnect("connect: \(String(cString: strerror(error)))") }
        state = .handshaking
        if let password = url.password {
            output += RESP.command(url.user.map { ["AUTH", $0, password] } ?? ["AUTH", password])
            expectReply(nil)
        }
        if url.database != 0 {
            output += RESP.command(["SELECT", String(url.database)])
            expectReply(nil)
        }
        // Its answer says Redis is up (`connected`), and with a Sentinel
        // that this is the primary (it may have been demoted since it was named).
        output += RESP.command([sentinel == nil ? "PING" : "ROLE"])
        expectReply { [self] result in
            guard case .handshaking = state else { return }
            if sentinel != nil, case .success(let value) = result, let role = RedisRole(value), !role.isPrimary {
                return disconnect("\(target) is a \(role.name), not the primary")
            }
            guard case .success = result else { return disconnect("the handshake failed") }
            answered()
        }
        flush()
    }

    /// The handshake is answered: what queued goes out, and what comes next as it comes.
    private func answered() {
        timer?.cancel()
        state = .ready
        backoff = 50_000_000
        if !connected.load(ordering: .relaxed) {
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
        guard isOpen, !output.isEmpty else { return }
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
        while isOpen {
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
                guard let reply else { return disconnect("the handshake failed: \(message.prefix(200))") }
                let error = RedisErrorReply(message)
                // A replica, or a server still loading its data, did not run the
                // command: it fails as one not sent, and the primary is looked for again.
                if error.kind == .notPrimary {
                    reply(.failure(.unavailable("\(target) answered \(error.word)")))
                    // (The reply may have dropped the connection itself.)
                    return isOpen ? disconnect("\(target) answered \(error.word)") : ()
                }
                reply(.failure(.reply(error)))
            } else {
                reply?(.success(value))
            }
        }
        // A callback may have sent, found the connection gone and dropped
        // it: its input went with it (and the loop above ended there).
        guard isOpen else { return }
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
        let wasUp = connected.exchange(false, ordering: .relaxed)
        var attempting = false
        if case .connecting = state { attempting = true }
        if case .handshaking = state { attempting = true }
        // Down, or still down: each attempt that fails says why.
        if wasUp || attempting { onStateChange?(false, reason) }
        let target = target
        // A Sentinel is asked again: the primary may have moved.
        if let address, let sentinel { sentinel.lost(address) }
        if sentinel != nil { address = nil }
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
        for reply in failed { reply(.failure(.unavailable("\(reason) (\(target))"))) }
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
            guard isOpen, repliesHead < replies.count else { return }
            if loop.now &- replies[repliesHead].sent >= commandTimeout {
                disconnect("no reply within \(commandTimeout / 1_000_000) ms")
            } else {
                armWatchdog()
            }
        }
    }



    static func resolve(_ host: String, _ port: Int) -> SocketAddress? {
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
