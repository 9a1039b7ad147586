import EventLoop
import Glibc

/// An IP address, IPv4 kept as IPv4-mapped IPv6 (`::ffff:a.b.c.d`), so that
/// one comparison serves both families.
public struct IPAddress: Sendable, Hashable {
    var bytes: (UInt64, UInt64)  // network order, as 16 bytes
    public let isV4: Bool

    /// `192.0.2.1`, `2001:db8::1`, `[2001:db8::1]`; nil for anything else.
    public init?(_ text: some StringProtocol) {
        var t = String(text)
        if t.hasPrefix("[") && t.hasSuffix("]") { t = String(t.dropFirst().dropLast()) }
        var a4 = in_addr()
        if inet_pton(AF_INET, t, &a4) == 1 {
            self.init(v4: a4)
            return
        }
        var a6 = in6_addr()
        guard inet_pton(AF_INET6, t, &a6) == 1 else { return nil }
        self.init(v6: a6)
    }

    init(v4: in_addr) {
        var raw = [UInt8](repeating: 0, count: 16)
        raw[10] = 0xFF
        raw[11] = 0xFF
        withUnsafeBytes(of: v4) { for i in 0..<4 { raw[12 + i] = $0[i] } }
        bytes = raw.withUnsafeBytes { ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) }
        isV4 = true
    }

    init(v6: in6_addr) {
        bytes = withUnsafeBytes(of: v6) { ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) }
        // An IPv4-mapped IPv6 address is the IPv4 address.
        isV4 = bytes.0 == 0 && UInt64(bigEndian: bytes.1) >> 32 == 0xFFFF
    }

    public init(_ address: SocketAddress) {
        switch address.storage {
        case .v4(let a): self.init(v4: a.sin_addr)
        case .v6(let a): self.init(v6: a.sin6_addr)
        }
    }

    public static func == (a: IPAddress, b: IPAddress) -> Bool { a.bytes == b.bytes }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.0)
        hasher.combine(bytes.1)
    }

    /// The 128 bits as two host-order halves.
    var high: UInt64 { UInt64(bigEndian: bytes.0) }
    var low: UInt64 { UInt64(bigEndian: bytes.1) }
}

/// An address or a CIDR range: `10.0.0.0/8`, `192.0.2.7`, `fd00::/8`, `::1`.
public struct AddressRange: Sendable, Equatable, CustomStringConvertible {
    let base: IPAddress
    /// Leading bits that must match, out of 128 (an IPv4 prefix + 96).
    let bits: Int
    public let description: String

    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, let base = IPAddress(parts[0]) else { return nil }
        let width = parts[0].contains(":") ? 128 : 32
        var prefix = width
        if parts.count == 2 {
            guard let n = Int(parts[1]), parts[1].allSatisfy(\.isASCII), n >= 0, n <= width else { return nil }
            prefix = n
        }
        self.base = base
        bits = prefix + (width == 32 ? 96 : 0)
        description = text
    }

    public func contains(_ address: IPAddress) -> Bool {
        func masked(_ value: UInt64, _ keep: Int) -> UInt64 {
            keep <= 0 ? 0 : keep >= 64 ? value : value & ~(UInt64.max >> UInt64(keep))
        }
        return masked(address.high, bits) == masked(base.high, bits)
            && masked(address.low, bits - 64) == masked(base.low, bits - 64)
    }
}

extension SocketAddress {
    /// The address's text (`127.0.0.1`, `::1`) appended without a String.
    public func appendHost(to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN) + 1) { buffer in
            buffer[0] = 0
            switch storage {
            case .v4(var a): _ = inet_ntop(AF_INET, &a.sin_addr, buffer.baseAddress, socklen_t(buffer.count))
            case .v6(var a): _ = inet_ntop(AF_INET6, &a.sin6_addr, buffer.baseAddress, socklen_t(buffer.count))
            }
            var i = 0
            while i < buffer.count && buffer[i] != 0 {
                out.append(UInt8(bitPattern: buffer[i]))
                i += 1
            }
        }
    }
}
