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
        var end = p + n
        var rest = v
        while rest >= 100 {
            let pair = Int(rest % 100) &* 2
            rest /= 100
            end -= 2
            end[0] = digitPairs[pair]
            end[1] = digitPairs[pair + 1]
        }
        if rest >= 10 {
            let pair = Int(rest) &* 2
            end -= 2
            end[0] = digitPairs[pair]
            end[1] = digitPairs[pair + 1]
        } else {
            end -= 1
            end[0] = UInt8(truncatingIfNeeded: rest) &+ UInt8(ascii: "0")
        }
        p += n
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
            write(hexDigits[Int((color.rgb >> shift) & 0xF)])
            shift &-= 4
        }
    }

    /// The string's UTF-8 bytes, escaped for a JSON string (quotes not included).
    /// Needs up to `6 * utf8.count` bytes.
    @inlinable mutating func writeEscaped(_ text: String) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): write("\\\"")
            case UInt8(ascii: "\\"): write("\\\\")
            case UInt8(ascii: "\n"): write("\\n")
            case UInt8(ascii: "\r"): write("\\r")
            case UInt8(ascii: "\t"): write("\\t")
            case 0..<0x20, 0x7F:
                write("\\u00")
                write(hexDigits[Int(byte >> 4)])
                write(hexDigits[Int(byte & 0xF)])
            default: write(byte)
            }
        }
    }
}

extension UInt {
    @inlinable var toUInt64: UInt64 { UInt64(self) }
}

@inlinable
func decimalDigitCount(_ v: UInt64) -> Int {
    var n = 1
    var rest = v
    while rest >= 10_000 { rest /= 10_000; n += 4 }
    while rest >= 10 { rest /= 10; n += 1 }
    return n
}

@usableFromInline let digitPairs: [UInt8] = {
    var table = [UInt8]()
    table.reserveCapacity(200)
    for i in 0..<100 {
        table.append(UInt8(ascii: "0") + UInt8(i / 10))
        table.append(UInt8(ascii: "0") + UInt8(i % 10))
    }
    return table
}()
