/// CRC-32 (ISO 3309, as PNG and gzip use it: reflected, polynomial
/// 0xEDB88320) and Adler-32 (zlib's).
public enum Checksum {
    static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    /// The CRC of `bytes`, continuing from `crc` (the CRC of what came before).
    public static func crc32<C: Collection<UInt8>>(_ bytes: C, continuing crc: UInt32 = 0) -> UInt32 {
        var c = ~crc
        crcTable.withUnsafeBufferPointer { table in
            for b in bytes { c = table[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        }
        return ~c
    }

    /// Adler-32 of `bytes`: sums modulo 65521, reduced every 5,552 bytes
    /// (the most that cannot overflow 32 bits).
    public static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        var i = 0
        bytes.withUnsafeBufferPointer { p in
            while i < p.count {
                let end = min(i + 5552, p.count)
                while i < end { a &+= UInt32(p[i]); b &+= a; i += 1 }
                a %= 65521
                b %= 65521
            }
        }
        return b << 16 | a
    }
}
