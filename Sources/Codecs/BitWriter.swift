/// Bits written least significant first into bytes, as DEFLATE packs them.
struct BitWriter {
    var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var count = 0

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// The low `n` bits of `value` (n ≤ 32).
    mutating func write(_ value: UInt32, _ n: Int) {
        buffer |= UInt64(value) << UInt64(count)
        count += n
        while count >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            count -= 8
        }
    }

    /// A Huffman code: DEFLATE sends its bits most significant first.
    mutating func write(code: UInt16, length: UInt8) {
        var reversed: UInt32 = 0, c = UInt32(code)
        for _ in 0..<length { reversed = reversed << 1 | (c & 1); c >>= 1 }
        write(reversed, Int(length))
    }

    /// Pads to a whole byte.
    mutating func align() {
        if count > 0 { write(0, 8 - count) }
    }
}
