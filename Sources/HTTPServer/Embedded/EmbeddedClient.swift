import CLinux
import Glibc

/// The client end of an embedded connection, in memory: what the test
/// writes waits here for the connection's `read`, and what the connection
/// sends lands here. It answers the connection's system calls as a socket
/// would (`EAGAIN` when there is nothing to read or no room, 0 after the
/// client's FIN, `EPIPE` once it is gone), and reports readiness as epoll
/// would, level-triggered, so `Connection` runs unchanged.
public final class EmbeddedClient {
    /// Bytes written by the test, not yet read by the connection.
    private var inbound: [UInt8] = []
    private var inboundHead = 0
    /// The client shut its writing side (FIN): reads end after `inbound`.
    public private(set) var hasShutWrite = false
    /// The client is gone (closed or reset).
    public private(set) var isClosed = false
    /// Everything the server has sent.
    public private(set) var received: [UInt8] = []
    /// The server closed the connection (the client would read EOF).
    public private(set) var serverClosed = false
    /// While false the client reads nothing: the connection's sends find no
    /// room and its output queues, as with a client that stopped reading.
    public var reading = true
    /// The client goes away during the connection's next send, which fails
    /// (as a reset found by `send`).
    public var closesOnNextWrite = false
    /// The epoll events the connection asked for; nil while unregistered.
    var interest: UInt32?
    unowned let server: EmbeddedServer

    init(server: EmbeddedServer) {
        self.server = server
    }

    public var text: String { String(decoding: received, as: UTF8.self) }

    // MARK: The test's side

    /// Sends bytes to the server and lets it take them.
    public func write(_ bytes: [UInt8]) {
        precondition(!hasShutWrite && !isClosed, "written after the client stopped writing")
        inbound += bytes
        server.run()
    }

    public func write(_ text: String) { write(Array(text.utf8)) }

    /// Half-closes: the server reads EOF after what was written.
    public func shutdownWrite() {
        hasShutWrite = true
        server.run()
    }

    /// The client goes away.
    public func close() {
        isClosed = true
        server.run()
    }

    // MARK: The connection's side (its system calls)

    /// `read(2)`: bytes, 0 at EOF, or -1 with `EAGAIN`.
    func read(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        if isClosed { errno = ECONNRESET; return -1 }
        let waiting = inbound.count - inboundHead
        if waiting == 0 {
            if hasShutWrite { return 0 }
            errno = EAGAIN
            return -1
        }
        let n = min(waiting, buffer.count)
        inbound.withUnsafeBufferPointer { source in
            _ = UnsafeMutableBufferPointer(rebasing: buffer[0..<n]).initialize(from: source[inboundHead..<inboundHead + n])
        }
        inboundHead += n
        if inboundHead == inbound.count {
            inbound.removeAll(keepingCapacity: true)
            inboundHead = 0
        }
        return n
    }

    /// `send(2)` of one buffer: all of it, or -1 with `EAGAIN` or `EPIPE`.
    func send(_ bytes: UnsafeRawBufferPointer) -> Int {
        if let refused = refusal() { errno = refused; return -1 }
        received.append(contentsOf: bytes)
        return bytes.count
    }

    /// `sendmsg(2)` over `iov`.
    func send(_ iov: UnsafeBufferPointer<iovec>) -> Int {
        if let refused = refusal() { errno = refused; return -1 }
        var total = 0
        for v in iov where v.iov_len > 0 {
            received.append(contentsOf: UnsafeRawBufferPointer(start: v.iov_base, count: v.iov_len))
            total += v.iov_len
        }
        return total
    }

    private func refusal() -> Int32? {
        if closesOnNextWrite {
            closesOnNextWrite = false
            isClosed = true
        }
        if isClosed { return EPIPE }
        return reading ? nil : EAGAIN
    }

    /// The server closed its end.
    func serverClosedConnection() {
        serverClosed = true
        interest = nil
    }

    /// The events epoll would report now (level-triggered).
    var readyEvents: UInt32 {
        guard let interest else { return 0 }
        if isClosed { return CLINUX_EPOLLHUP | CLINUX_EPOLLERR }
        var events: UInt32 = 0
        if interest & CLINUX_EPOLLIN != 0 {
            if inbound.count > inboundHead { events |= CLINUX_EPOLLIN }
            if hasShutWrite { events |= CLINUX_EPOLLIN | CLINUX_EPOLLRDHUP }
        }
        if interest & CLINUX_EPOLLOUT != 0 && reading { events |= CLINUX_EPOLLOUT }
        return events
    }
}
