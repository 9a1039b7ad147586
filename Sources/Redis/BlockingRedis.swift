import EventLoop
import Glibc

/// A connection to a Redis server or Sentinel for the Sentinel's own work,
/// which runs on threads of its own, never on a loop: every step waits in
/// `poll` until a deadline, so nothing waits longer than it was given.
final class BlockingRedis {
    let address: RedisAddress
    private var fd: Int32 = -1
    private var input: [UInt8] = []
    /// Where the next reply in `input` begins.
    private var start = 0
    private var scratch = [UInt8](repeating: 0, count: 16 * 1024)
    private var progress = RESPParser.Progress()
    /// What a Sentinel or a ROLE answers is a few short strings: a reply
    /// this big is not one, and is refused before it is buffered whole.
    private let parser = RESPParser(limits: {
        var limits = RESPLimits()
        limits.maxBulkBytes = 64 * 1024
        limits.maxArrayCount = 4096
        return limits
    }())

    /// At most this much is held of replies not yet whole.
    static let maxBuffered = 1 << 20

    private init(_ address: RedisAddress) { self.address = address }

    deinit { if fd >= 0 { close(fd) } }

    /// Connected to `address` by `deadline` (monotonic nanoseconds).
    static func connect(_ address: RedisAddress, by deadline: UInt64) throws(RedisError) -> BlockingRedis {
        let connection = BlockingRedis(address)
        guard let socketAddress = (try? SocketAddress(host: address.host, port: address.port)) ?? RedisConnection.resolve(address.host, address.port) else {
            throw .unavailable("cannot resolve \(address.host)")
        }
        let s = socket(socketAddress.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard s >= 0 else { throw .unavailable("socket: \(String(cString: strerror(errno)))") }
        connection.fd = s
        var one: Int32 = 1
        setsockopt(s, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        if !socketAddress.connect(s) {
            guard errno == EINPROGRESS else { throw .unavailable("connect: \(String(cString: strerror(errno)))") }
            try connection.wait(Int16(POLLOUT), by: deadline, doing: "connecting")
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(s, SOL_SOCKET, SO_ERROR, &error, &length)
            guard error == 0 else { throw .unavailable("connect: \(String(cString: strerror(error)))") }
        }
        return connection
    }

    /// Sends `commands` and reads one reply each, all by `deadline`; error
    /// replies are among the values (`.error`), for the caller to read.
    static func exchange(_ address: RedisAddress, _ commands: [[String]], by deadline: UInt64) throws(RedisError) -> [RESPValue] {
        let connection = try connect(address, by: deadline)
        try connection.send(commands, by: deadline)
        var replies: [RESPValue] = []
        while replies.count < commands.count {
            guard let reply = try connection.receive(by: deadline) else { throw .unavailable("no reply within the timeout") }
            replies.append(reply)
        }
        return replies
    }

    func send(_ commands: [[String]], by deadline: UInt64) throws(RedisError) {
        var output = commands.flatMap(RESP.command)
        while !output.isEmpty {
            let n = output.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 {
                output.removeFirst(n)
            } else if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                try wait(Int16(POLLOUT), by: deadline, doing: "sending")
            } else {
                throw .unavailable("send: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// The next reply, or nil if none came by `deadline` (the connection
    /// is still usable: a subscriber waits for messages this way). Replies
    /// are taken from `input` at `start`; the bytes before are dropped once
    /// they are half of it, so a stream of messages costs its length.
    func receive(by deadline: UInt64) throws(RedisError) -> RESPValue? {
        while true {
            let next: (value: RESPValue, consumed: Int)?
            do {
                next = try input.withUnsafeBufferPointer { (b) throws(RESPError) in
                    try parser.next(UnsafeBufferPointer(rebasing: b[start...]), resuming: &progress)
                }
            } catch {
                throw .unavailable("a broken reply: \(error)")
            }
            if let (value, consumed) = next {
                start += consumed
                if start == input.count {
                    input.removeAll(keepingCapacity: true)
                    start = 0
                } else if start > input.count / 2 {
                    input.removeFirst(start)
                    start = 0
                }
                return value
            }
            do {
                try wait(Int16(POLLIN), by: deadline, doing: "waiting for a reply")
            } catch {
                return nil
            }
            let n = scratch.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                input.append(contentsOf: scratch[0..<n])
                guard input.count - start <= Self.maxBuffered else { throw .unavailable("a reply of more than \(Self.maxBuffered) bytes") }
            } else if n == 0 {
                throw .unavailable("the server closed the connection")
            } else if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
                throw .unavailable("read: \(String(cString: strerror(errno)))")
            }
        }
    }

    private func wait(_ events: Int16, by deadline: UInt64, doing what: String) throws(RedisError) {
        while true {
            let now = monotonicNanoseconds()
            guard now < deadline else { throw .unavailable("no answer within the timeout while \(what)") }
            var p = pollfd(fd: fd, events: events, revents: 0)
            let ms = Int32(min((deadline - now + 999_999) / 1_000_000, 60_000))
            let n = poll(&p, 1, ms)
            if n > 0 { return }
            if n < 0 && errno != EINTR { throw .unavailable("poll: \(String(cString: strerror(errno)))") }
        }
    }
}
