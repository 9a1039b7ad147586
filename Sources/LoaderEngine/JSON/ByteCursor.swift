/// A write position in memory the caller has sized beforehand (see each
/// writer's byte bound). No bounds checks: callers reserve first.
@usableFromInline
struct ByteCursor {
    @usableFromInline var p: UnsafeMutablePointer<UInt8>

    @inlinable init(_ p: UnsafeMutablePointer<UInt8>) { self.p = p }

    @inlinable @inline(__always) mutating func write(_ byte: UInt8) {
        p.pointee = byte
        p += 1
    }

    /// Inlined at each call so the copy of a constant has a constant length.
    @inlinable @inline(__always) mutating func write(_ text: StaticString) {
        let n = text.utf8CodeUnitCount
        p.update(from: text.utf8Start, count: n)
        p += n
    }

    @inlinable mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        p.update(from: base, count: bytes.count)
        p += bytes.count
    }

    /// Decimal digits of `v`, most significant first.
    @inlinable mutating func write(_ v: UInt64) {
        write(v, digitCount: decimalDigitCount(v))
    }

    /// The `n` decimal digits of `v` (`n == decimalDigitCount(v)`).
    @inlinable mutating func write(_ v: UInt64, digitCount n: Int) {
        var end = p + n
        var rest = v
        // Eight digits at a time, in 32-bit arithmetic with independent
        // halves, so the divisions do not form one long chain.
        while rest >= 100_000_000 {
            let low = UInt32(truncatingIfNeeded: rest % 100_000_000)
            rest /= 100_000_000
            end -= 8
            writeEight(low, at: end)
        }
        var small = UInt32(truncatingIfNeeded: rest)
        let pairs = digitPairs.utf8Start
        while small >= 100 {
            let pair = Int(small % 100) &* 2
            small /= 100
            end -= 2
            end[0] = pairs[pair]
            end[1] = pairs[pair &+ 1]
        }
        if small >= 10 {
            let pair = Int(small) &* 2
            end -= 2
            end[0] = pairs[pair]
            end[1] = pairs[pair &+ 1]
        } else {
            end -= 1
            end[0] = UInt8(truncatingIfNeeded: small) &+ UInt8(ascii: "0")
        }
        p += n
    }

    /// Exactly eight digits of `v < 10^8` at `out`.
    @inlinable func writeEight(_ v: UInt32, at out: UnsafeMutablePointer<UInt8>) {
        let pairs = digitPairs.utf8Start
        let high = v / 10_000, low = v &- high &* 10_000
        let a = Int(high / 100), b = Int(high % 100), c = Int(low / 100), d = Int(low % 100)
        out[0] = pairs[a &* 2]; out[1] = pairs[a &* 2 &+ 1]
        out[2] = pairs[b &* 2]; out[3] = pairs[b &* 2 &+ 1]
        out[4] = pairs[c &* 2]; out[5] = pairs[c &* 2 &+ 1]
        out[6] = pairs[d &* 2]; out[7] = pairs[d &* 2 &+ 1]
    }

    /// The decimal digits of `v` (`count` of them) with a `.` after the first
    /// `pointAfter` (`0 < pointAfter < count`).
    @inlinable mutating func writeDigits(_ v: UInt64, count: Int, pointAfter: Int) {
        let start = p
        write(v, digitCount: count)
        // Move the fraction digits one place right (overlapping: a memmove).
        UnsafeMutableRawPointer(start + pointAfter + 1)
            .copyMemory(from: start + pointAfter, byteCount: count - pointAfter)
        start[pointAfter] = UInt8(ascii: ".")
        p += 1
    }

    @inlinable mutating func write(_ v: Int) {
        if v < 0 {
            write(UInt8(ascii: "-"))
            write(v.magnitude.toUInt64)
        } else {
            write(UInt64(v))
        }
    }

    /// `#RRGGBB`.
    @inlinable mutating func write(_ color: RGBColor) {
        write(UInt8(ascii: "#"))
        var shift: UInt32 = 20
        for _ in 0..<6 {
            write(hexDigitText.utf8Start[Int((color.rgb >> shift) & 0xF)])
            shift &-= 4
        }
    }

    /// The string's UTF-8 bytes, escaped for a JSON string (quotes not included).
    /// Needs up to `6 * utf8.count` bytes.
    @inlinable mutating func writeEscaped(_ text: String) {
        // Ids and names are plain ASCII: one copy.
        let copied: Bool? = text.utf8.withContiguousStorageIfAvailable { utf8 in
            for byte in utf8 where byte < 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                return false
            }
            write(UnsafeBufferPointer(rebasing: utf8[...]))
            return true
        }
        if copied == true { return }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): write("\\\"")
            case UInt8(ascii: "\\"): write("\\\\")
            case UInt8(ascii: "\n"): write("\\n")
            case UInt8(ascii: "\r"): write("\\r")
            case UInt8(ascii: "\t"): write("\\t")
            case 0..<0x20, 0x7F:
                write("\\u00")
                write(hexDigitText.utf8Start[Int(byte >> 4)])
                write(hexDigitText.utf8Start[Int(byte & 0xF)])
            default: write(byte)
            }
        }
    }
}

extension UInt {
    @inlinable var toUInt64: UInt64 { UInt64(self) }
}

/// Number of decimal digits of `v` (1 for 0).
@inlinable
func decimalDigitCount(_ v: UInt64) -> Int {
    // log10 from the bit length (1233/4096 ≈ log10 2), then one correction.
    if v == 0 { return 1 }
    let guess = ((64 &- v.leadingZeroBitCount) &* 1233) >> 12
    return guess &+ (v >= powersOfTen64[guess] ? 1 : 0)
}

/// 10^k for k in 0...19, as a literal so it lives in read-only data.
@usableFromInline let powersOfTen64: [UInt64] = [
    1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
    10_000_000_000, 100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000,
    1_000_000_000_000_000, 10_000_000_000_000_000, 100_000_000_000_000_000,
    1_000_000_000_000_000_000, 10_000_000_000_000_000_000,
]

/// "00", "01", … "99" back to back.
@usableFromInline let digitPairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

@usableFromInline let hexDigitText: StaticString = "0123456789ABCDEF"
