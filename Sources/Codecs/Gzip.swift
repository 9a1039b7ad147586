/// gzip (RFC 1952): the DEFLATE data of `Deflate.deflate` between a
/// 10-byte header and CRC-32 and length trailer. How the service answers a
/// client whose `Accept-Encoding` takes gzip.
public enum Gzip {
    /// One gzip member holding `data`. The header names no file and no
    /// time (MTIME 0: the same bytes give the same answer, and its ETag),
    /// and Unix as the system, as gzip writes it on Linux.
    public static func compress(_ data: [UInt8]) -> [UInt8] {
        let deflated = Deflate.deflate(data)
        var out = [UInt8]()
        out.reserveCapacity(deflated.count + 18)
        // ID1 ID2, CM = 8 (deflate), FLG = 0, MTIME = 0, XFL = 0, OS = 3 (Unix).
        out += [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3]
        out += deflated
        let crc = Checksum.crc32(data)
        // ISIZE is the length modulo 2^32 (RFC 1952 §2.3.1).
        let size = UInt32(truncatingIfNeeded: data.count)
        for word in [crc, size] {
            for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: word >> UInt32(shift))) }
        }
        return out
    }
}
