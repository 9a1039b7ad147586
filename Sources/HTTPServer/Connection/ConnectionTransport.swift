import CLinux
import EventLoop
import Glibc

/// How a connection's bytes move, as SwiftNIO keeps its socket channel and
/// its `EmbeddedChannel` apart: a socket in the loop's epoll set, or an
/// embedded client in memory (`EmbeddedServer`). `Connection` calls these
/// and never asks which it has; each answers as the system call would
/// (-1 with `errno`), so the connection's logic is one for both.
/// An enum, not a protocol: a switch per call, no existential on the hot path.
enum ConnectionTransport {
    /// The registration is nil only until `register` (it needs the connection).
    case socket(fd: Int32, registration: Registration?)
    case embedded(EmbeddedClient)

    /// Starts delivering readiness for `events` to `handler`.
    mutating func register(_ handler: Selectable, on loop: EventLoop, events: UInt32) throws {
        switch self {
        case .socket(let fd, _): self = .socket(fd: fd, registration: try loop.register(fd, handler, events: events))
        case .embedded(let client): client.interest = events
        }
    }

    /// `read(2)`: bytes, 0 at EOF, or -1 with `errno`.
    func read(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        switch self {
        case .socket(let fd, _): return Glibc.read(fd, buffer.baseAddress, buffer.count)
        case .embedded(let client): return client.read(into: buffer)
        }
    }

    /// `send(2)` of one buffer: bytes written, or -1 with `errno`.
    func send(_ bytes: UnsafeRawBufferPointer) -> Int {
        switch self {
        case .socket(let fd, _): return Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
        case .embedded(let client): return client.send(bytes)
        }
    }

    /// One `sendmsg(2)` over `iov`: bytes written, 0 when there is no room, -1 on error.
    func send(gathering iov: UnsafeMutableBufferPointer<iovec>) -> Int {
        switch self {
        case .socket(let fd, _):
            var message = msghdr()
            message.msg_iov = iov.baseAddress
            message.msg_iovlen = iov.count
            while true {
                let n = sendmsg(fd, &message, Int32(MSG_NOSIGNAL))
                if n >= 0 { return n }
                let e = errno
                if e == EINTR { continue }
                if e == EAGAIN || e == EWOULDBLOCK { return 0 }
                return -1
            }
        case .embedded(let client):
            let n = client.send(UnsafeBufferPointer(iov))
            return n >= 0 ? n : errno == EAGAIN ? 0 : -1
        }
    }

    /// The epoll events the connection wants from now on.
    func setInterest(_ events: UInt32, on loop: EventLoop) {
        switch self {
        case .socket(_, let registration): if let registration { loop.modify(registration, events: events) }
        case .embedded(let client): client.interest = events
        }
    }

    /// Whether bytes wait unread (a request the client has just sent).
    /// An embedded client's bytes are read as soon as they are written.
    var hasUnreadBytes: Bool {
        switch self {
        case .socket(let fd, _):
            var byte: UInt8 = 0
            return recv(fd, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT)) > 0
        case .embedded:
            return false
        }
    }

    /// A stream's send buffer: small, so that a client that stops reading
    /// is seen by the queue's watermarks, not hidden in the kernel.
    func setStreamSendBuffer(bytes: Int) {
        guard case .socket(let fd, _) = self else { return }
        Socket.setOption(fd, SOL_SOCKET, SO_SNDBUF, Int32(bytes))
    }

    /// Whether it can shut its sending side and linger (a socket can; an
    /// embedded client closes at once).
    var canLinger: Bool {
        if case .socket = self { return true } else { return false }
    }

    /// Shuts the sending side (FIN), reading on.
    func shutdownWrite() {
        guard case .socket(let fd, _) = self else { return }
        Glibc.shutdown(fd, Int32(SHUT_WR))
    }

    /// Leaves the loop and closes.
    func close(on loop: EventLoop) {
        switch self {
        case .socket(let fd, let registration):
            if let registration { loop.deregister(registration) }
            Glibc.close(fd)
        case .embedded(let client):
            client.serverClosedConnection()
        }
    }
}
