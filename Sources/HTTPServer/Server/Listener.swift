import CLinux
import EventLoop
import Glibc

/// A listening socket, watched by every loop (EPOLLEXCLUSIVE: the kernel
/// wakes one loop per new connection).
/// Used only on the loops (registration, accept) after `start`.
final class Listener: Selectable, Sendable {
    let fd: Int32
    let address: SocketAddress
    unowned let server: HTTPServer

    init(address: SocketAddress, backlog: Int32, server: HTTPServer) throws {
        self.server = server
        let fd = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemError("socket") }
        self.fd = fd
        Socket.setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
        if address.family == AF_INET6 { Socket.setOption(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, 1) }
        let bound = address.withSockAddr { bind(fd, $0, $1) }
        guard bound == 0 else {
            let error = SystemError("bind(\(address))")
            Glibc.close(fd)
            throw error
        }
        guard listen(fd, backlog) == 0 else {
            let error = SystemError("listen")
            Glibc.close(fd)
            throw error
        }
        self.address = SocketAddress.local(of: fd) ?? address
    }

    /// Accepts what is waiting (up to a batch, to stay fair to other sockets).
    func handle(events: UInt32) {
        server.accept(from: self)
    }
}
