/// Writes doubles as the shortest decimal text that reads back as the same
/// double, choosing the closest such text when several are equally short
/// (the same digits as `Double.description`), as a JSON number: `0.6`, `20`,
/// `-0.125`, `1e-05`.
///
/// Integers below 1e15 are written as integers. Other values from 2^-10 to
/// 1e15 (everything a loader frame holds in practice) take an exact
/// fixed-width path: the value and the two halfway points to its neighbours
/// are scaled by a power of ten in 128-bit integer arithmetic, then digits are
/// removed while the interval still holds a shorter decimal (Ryu's digit loop,
/// Ulf Adams 2018, without its tables since the range allows exact products).
/// Anything else falls back to `Double.description`.
enum ShortestDouble {
    /// Upper bound on the bytes `write` produces:
    /// `-2.2250738585072014e-308` is 24.
    static let maxLength = 24

    static func write(_ value: Double, to cursor: inout ByteCursor) {
        guard value.isFinite else {
            cursor.write("null")  // JSON has no text for infinities or NaN.
            return
        }
        var v = value
        if v.sign == .minus {
            cursor.write(UInt8(ascii: "-"))
            v = -v
        }
        if v < 1e15 {
            if v.rounded(.towardZero) == v {
                cursor.write(UInt64(v))
                return
            }
            if v >= 0x1p-10 {
                writeFraction(v, to: &cursor)
                return
            }
        }
        var text = v.description
        text.withUTF8 { utf8 in
            // "1000000000000000.0" → "1000000000000000"
            let integral = utf8.count > 2 && utf8[utf8.count - 2] == UInt8(ascii: ".") && utf8[utf8.count - 1] == UInt8(ascii: "0")
            cursor.write(UnsafeBufferPointer(rebasing: utf8[..<(integral ? utf8.count - 2 : utf8.count)]))
        }
    }

    /// `v` positive, not an integer, in [2^-10, 1e15).
    static func writeFraction(_ v: Double, to cursor: inout ByteCursor) {
        let bits = v.bitPattern
        let fraction = bits & ((1 << 52) - 1)
        let biased = Int((bits >> 52) & 0x7FF)
        let m2 = (1 << 52) | fraction
        // v = m2 * 2^e2; the interval of values that read back as v is
        // [mm, mv + 2] * 2^(e2-2) around mv * 2^(e2-2), inclusive when m2 is even.
        let e2 = biased - 1075
        let acceptBounds = m2 & 1 == 0
        let mv = m2 << 2
        let mm = mv - (fraction != 0 || biased <= 1 ? 2 : 1)
        let shift = 2 - e2  // 3 ... 64 in this range
        // Scale by 10^k with 10^k / 2^shift in [10, 100): two digits beyond
        // the interval's width, as Ryu keeps.
        let k = (shift * 78913) >> 18 + 2  // floor(shift * log10(2)) + 2
        let scale = k < 20 ? UInt128(powersOfTen64[k]) : UInt128(powersOfTen64[19]) &* UInt128(powersOfTen64[k - 19])
        let lowMask = (UInt128(1) << shift) &- 1
        let pv = UInt128(mv) &* scale
        let pp = pv &+ (scale << 1)
        let pm = pv &- UInt128(mv - mm) &* scale
        var vr = UInt64(truncatingIfNeeded: pv >> shift)
        var vp = UInt64(truncatingIfNeeded: pp >> shift)
        var vm = UInt64(truncatingIfNeeded: pm >> shift)
        var vrIsTrailingZeros = pv & lowMask == 0
        var vmIsTrailingZeros = acceptBounds && pm & lowMask == 0
        if !acceptBounds && pp & lowMask == 0 { vp -= 1 }
        var removed = 0
        var output: UInt64
        if vmIsTrailingZeros || vrIsTrailingZeros {
            // Rare: an end of the interval or the value itself is exact at
            // this scale, so ties and inclusive bounds need tracking.
            var lastRemovedDigit: UInt64 = 0
            while vp / 10 > vm / 10 {
                vmIsTrailingZeros = vmIsTrailingZeros && vm % 10 == 0
                vrIsTrailingZeros = vrIsTrailingZeros && lastRemovedDigit == 0
                lastRemovedDigit = vr % 10
                vr /= 10; vp /= 10; vm /= 10
                removed += 1
            }
            if vmIsTrailingZeros {
                while vm % 10 == 0 {
                    vrIsTrailingZeros = vrIsTrailingZeros && lastRemovedDigit == 0
                    lastRemovedDigit = vr % 10
                    vr /= 10; vp /= 10; vm /= 10
                    removed += 1
                }
            }
            if vrIsTrailingZeros && lastRemovedDigit == 5 && vr % 2 == 0 {
                lastRemovedDigit = 4  // exactly halfway: round to even
            }
            let outside = vr == vm && (!acceptBounds || !vmIsTrailingZeros)
            output = vr + (outside || lastRemovedDigit >= 5 ? 1 : 0)
        } else {
            // Common: remove digits in chunks, remembering only whether the
            // removed part rounds up.
            var roundUp = false
            while vp / 100_000_000 > vm / 100_000_000 {
                let q = vr / 100_000_000
                roundUp = vr - q * 100_000_000 >= 50_000_000
                vr = q; vp /= 100_000_000; vm /= 100_000_000
                removed += 8
            }
            if vp / 10_000 > vm / 10_000 {
                let q = vr / 10_000
                roundUp = vr - q * 10_000 >= 5_000
                vr = q; vp /= 10_000; vm /= 10_000
                removed += 4
            }
            while vp / 100 > vm / 100 {
                let q = vr / 100
                roundUp = vr - q * 100 >= 50
                vr = q; vp /= 100; vm /= 100
                removed += 2
            }
            if vp / 10 > vm / 10 {
                let q = vr / 10
                roundUp = vr - q * 10 >= 5
                vr = q; vp /= 10; vm /= 10
                removed += 1
            }
            output = vr + (vr == vm || roundUp ? 1 : 0)
        }
        writeDecimal(output, exponent: removed - k, to: &cursor)
    }

    /// Writes `digits * 10^exponent` in positional notation.
    static func writeDecimal(_ digits: UInt64, exponent: Int, to cursor: inout ByteCursor) {
        if exponent >= 0 {
            cursor.write(digits)
            for _ in 0..<exponent { cursor.write(UInt8(ascii: "0")) }
            return
        }
        let count = decimalDigitCount(digits)
        let point = count + exponent  // digits before the decimal point
        if point > 0 {
            cursor.writeDigits(digits, count: count, pointAfter: point)
        } else {
            cursor.write("0.")
            for _ in 0..<(-point) { cursor.write(UInt8(ascii: "0")) }
            cursor.write(digits, digitCount: count)
        }
    }
}
