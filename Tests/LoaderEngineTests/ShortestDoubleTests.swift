import Testing
@testable import LoaderEngine

/// The number writer must give the same digits as `Double.description`
/// (shortest round-trip, closest), in JSON's notation.
struct ShortestDoubleTests {
    func text(_ v: Double) -> String {
        var w = JSONWriter()
        w.value(v)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// `Double.description` rewritten without a trailing `.0`.
    func expected(_ v: Double) -> String {
        let d = v.description
        return d.hasSuffix(".0") ? String(d.dropLast(2)) : d
    }

    @Test func knownValues() {
        #expect(text(0) == "0")
        #expect(text(-0.0) == "-0")
        #expect(text(20) == "20")
        #expect(text(0.6) == "0.6")
        #expect(text(8.25) == "8.25")
        #expect(text(1.3333333333333333) == "1.3333333333333333")
        #expect(text(0.9199999999999999) == "0.9199999999999999")
        #expect(text(-0.22542485937368895) == "-0.22542485937368895")
        #expect(text(0.1 + 0.2) == "0.30000000000000004")
        #expect(text(0.001) == "0.001")
        #expect(text(1e-5) == "1e-05")
        #expect(text(123456789012345.6) == "123456789012345.6")
        #expect(text(1e15) == "1000000000000000")
        #expect(text(1e16) == "1e+16")
        #expect(text(4e15 + 0.5) == "4000000000000000.5")
        #expect(text(.infinity) == "null")
        #expect(text(.nan) == "null")
        #expect(text(.leastNonzeroMagnitude) == "5e-324")
        #expect(text(.greatestFiniteMagnitude) == "1.7976931348623157e+308")
    }

    @Test func randomBitPatternsInTheFastRange() {
        var rng = SplitMix64(seed: 42)
        var checked = 0
        while checked < 200_000 {
            let v = Double(bitPattern: rng.next() & 0x7FFF_FFFF_FFFF_FFFF)
            guard v >= 0x1p-10, v < 1e15 else { continue }
            checked += 1
            let got = text(v)
            if got != expected(v) {
                Issue.record("\(v.bitPattern): \(got) != \(expected(v))")
                return
            }
        }
        #expect(checked == 200_000)
    }

    @Test func shortDecimalsAndFrameLikeValues() {
        var mismatches = [String]()
        for i in 0..<100_000 {
            for v in [Double(i) / 1000, Double(i) / 7, Double(i) * 0.1, 1 - Double(i) * 1e-5, Double(i) / 3 + 0.5] {
                let got = text(v)
                if got != expected(v) { mismatches.append("\(got) != \(expected(v))") }
                #expect(Double(got) == v || (v == 0 && got == "0"))
            }
            if mismatches.count > 5 { break }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    @Test func boundariesAndPowersOfTwo() {
        var values = [Double]()
        for e in -10..<50 {
            let p = Double(sign: .plus, exponent: e, significand: 1)
            values += [p, p.nextUp, p.nextDown, p.nextUp.nextUp]
        }
        for v in values where v.isFinite {
            #expect(text(v) == expected(v), "\(v.bitPattern)")
            #expect(text(-v) == "-" + expected(v))
        }
    }
}

/// A small deterministic generator for reproducible random inputs.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
