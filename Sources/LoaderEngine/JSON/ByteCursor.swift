/// A write position in memory the caller has sized beforehand (see each
/// writer's byte bound). No bounds checks: callers reserve first.
@usableFromInline
struct ByteCursor {
    @usableFromInline var p: UnsafeMutablePointer<UInt8>

    @inlinable init(_ p: UnsafeMutablePointer<UInt8>) { self.p = p }

    @inlinable mutating func write(_ byte: UInt8) {
        p.pointee = byte
        p += 1
    }

    @inlinable mutating func write(_ text: StaticString) {
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
        let n = decimalDigitCount(v)
        writeDigits(v, count: n, pointAfter: n)
    }

    /// The `count` decimal digits of `v` (exactly that many), with a `.`
    /// after the first `pointAfter` of them when `pointAfter < count`.
    /// Written back to front in pairs.
    @inlinable mutating func writeDigits(_ v: UInt64, count: Int, pointAfter: Int) {
        let hasPoint = pointAfter < count
        var end = p + count + (hasPoint ? 1 : 0)
        p = end
        var rest = v
        var remaining = count
        let pairs = digitPairs.utf8Start
        // Digits after the point, then the point.
        if hasPoint {
            var fraction = count - pointAfter
            while fraction >= 2 {
                let pair = Int(truncatingIfNeeded: rest % 100) &* 2
                rest /= 100
                end -= 2
                end[0] = pairs[pair]
                end[1] = pairs[pair &+ 1]
                fraction -= 2
            }
            if fraction == 1 {
                end -= 1
                end[0] = UInt8(truncatingIfNeeded: rest % 10) &+ UInt8(ascii: "0")
                rest /= 10
            }
            end -= 1
            end[0] = UInt8(ascii: ".")
            remaining = pointAfter
        }
        while remaining >= 2 {
            let pair = Int(truncatingIfNeeded: rest % 100) &* 2
            rest /= 100
            end -= 2
            end[0] = pairs[pair]
            end[1] = pairs[pair &+ 1]
            remaining -= 2
        }
        if remaining == 1 {
            end -= 1
            end[0] = UInt8(truncatingIfNeeded: rest % 10) &+ UInt8(ascii: "0")
        }
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
