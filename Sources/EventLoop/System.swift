import Glibc

/// Nanoseconds on the monotonic clock.
@inline(__always)
public func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}

/// An error from a system call, with its errno.
public struct SystemError: Error, CustomStringConvertible, Sendable {
    public let call: String
    public let errno: Int32
    public init(_ call: String, errno: Int32 = Glibc.errno) {
        self.call = call
        self.errno = errno
    }
    public var description: String { "\(call): \(String(cString: strerror(errno)))" }
}

/// A numeric IPv4 or IPv6 socket address.
public struct SocketAddress: Sendable, CustomStringConvertible {
    package enum Storage: Sendable { case v4(sockaddr_in), v6(sockaddr_in6) }
    package let storage: Storage

    /// `127.0.0.1`, `0.0.0.0`, `::1`, `::` (numeric only: no name lookups);
    /// `localhost` means 127.0.0.1.
    public init(host: String, port: Int) throws {
        let h = host == "localhost" ? "127.0.0.1" : host
        var a4 = sockaddr_in()
        if inet_pton(AF_INET, h, &a4.sin_addr) == 1 {
            a4.sin_family = sa_family_t(AF_INET)
            a4.sin_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
            storage = .v4(a4)
            return
        }
        var a6 = sockaddr_in6()
        let bare = h.hasPrefix("[") && h.hasSuffix("]") ? String(h.dropFirst().dropLast()) : h
        if inet_pton(AF_INET6, bare, &a6.sin6_addr) == 1 {
            a6.sin6_family = sa_family_t(AF_INET6)
            a6.sin6_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
            storage = .v6(a6)
            return
        }
        throw SystemError("inet_pton(\(host))", errno: EINVAL)
    }

    package init(_ storage: Storage) { self.storage = storage }

    /// Connects a blocking socket to this address.
    public func connect(_ fd: Int32) -> Bool {
        withSockAddr { Glibc.connect(fd, $0, $1) } == 0
    }

    public var family: Int32 {
        switch storage { case .v4: return AF_INET; case .v6: return AF_INET6 }
    }

    public var port: Int {
        switch storage {
        case .v4(let a): return Int(UInt16(bigEndian: a.sin_port))
        case .v6(let a): return Int(UInt16(bigEndian: a.sin6_port))
        }
    }

    public var host: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch storage {
        case .v4(var a): inet_ntop(AF_INET, &a.sin_addr, &buffer, socklen_t(buffer.count))
        case .v6(var a): inet_ntop(AF_INET6, &a.sin6_addr, &buffer, socklen_t(buffer.count))
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public var description: String {
        switch storage {
        case .v4: return "\(host):\(port)"
        case .v6: return "[\(host)]:\(port)"
        }
    }

    package func withSockAddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        switch storage {
        case .v4(var a):
            return withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        case .v6(var a):
            return withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) } }
        }
    }

    /// The local address a socket is bound to.
    package static func local(of fd: Int32) -> SocketAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) == 0 }
        }
        guard ok else { return nil }
        return from(storage)
    }

    package static func from(_ storage: sockaddr_storage) -> SocketAddress? {
        var s = storage
        switch Int32(s.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &s) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { SocketAddress(.v4($0.pointee)) } }
        case AF_INET6:
            return withUnsafePointer(to: &s) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { SocketAddress(.v6($0.pointee)) } }
        default:
            return nil
        }
    }
}
