/// DEFLATE (RFC 1951) and its zlib wrapping (RFC 1950), written here: LZ77
/// matches found through hash chains over a 32 KiB window, then each block
/// of up to 16,384 symbols sent in whichever is smallest of its own
/// Huffman codes, the fixed codes, or stored bytes. The work is bounded by
/// the input: each position looks at most `maxChain` earlier ones.
public enum Deflate {
    static let window = 32768
    static let maxChain = 48
    static let minMatch = 3, maxMatch = 258
    /// Matches up to this long have every position hashed.
    static let maxInsert = 32
    static let blockSymbols = 16384

    /// A zlib stream of `data`: a 32 KiB window, the deflated bytes, Adler-32.
    public static func zlib(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x9C]          // deflate, 32 KiB window, default level; (0x789C % 31 == 0)
        out += deflate(data)
        let adler = Checksum.adler32(data)
        out += [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
        return out
    }

    /// Raw DEFLATE of `data`.
    public static func deflate(_ data: [UInt8]) -> [UInt8] {
        var bits = BitWriter(capacity: data.count / 2 + 64)
        var symbols: [UInt32] = []            // a literal byte, or 1 << 31 | length << 16 | distance
        symbols.reserveCapacity(min(blockSymbols, data.count + 1))
        // The chains as raw memory: no exclusivity checks on each look.
        let head = UnsafeMutablePointer<Int32>.allocate(capacity: 1 << 15)
        head.initialize(repeating: -1, count: 1 << 15)
        // Uninitialised: a position's entry is written when it is inserted,
        // before any chain can lead to it, so a small input (a frame of
        // 1 KB, gzip'd for a browser) pays for no more than it uses.
        let prev = UnsafeMutablePointer<Int32>.allocate(capacity: min(window, max(data.count, 1)))
        defer { head.deallocate(); prev.deallocate() }
        var blockStart = 0
        var i = 0
        data.withUnsafeBufferPointer { p in
            let n = p.count
            func hash(_ at: Int) -> Int {
                (Int(p[at]) << 10 ^ Int(p[at + 1]) << 5 ^ Int(p[at + 2])) & 0x7FFF
            }
            func insert(_ at: Int) {
                guard at + 2 < n else { return }
                let h = hash(at)
                prev[at & (window - 1)] = head[h]
                head[h] = Int32(at)
            }
            while i < n {
                var bestLength = 0, bestDistance = 0
                if i + 2 < n {
                    var candidate = Int(head[hash(i)])
                    var chain = maxChain
                    let limit = min(maxMatch, n - i)
                    while candidate >= 0 && i - candidate <= window && chain > 0 {
                        if p[candidate + bestLength] == p[i + bestLength] || bestLength == 0 {
                            var length = 0
                            while length < limit && p[candidate + length] == p[i + length] { length += 1 }
                            if length > bestLength {
                                bestLength = length; bestDistance = i - candidate
                                if length == limit { break }
                            }
                        }
                        let next = Int(prev[candidate & (window - 1)])
                        if next >= candidate { break }      // an entry the window has overwritten
                        candidate = next
                        chain -= 1
                    }
                }
                if bestLength >= minMatch {
                    symbols.append(1 << 31 | UInt32(bestLength) << 16 | UInt32(bestDistance))
                    // A long match (a run of one pixel, mostly) is hashed at its ends only, as zlib's
                    // faster levels do: its middle repeats what its start already offers.
                    if bestLength <= maxInsert {
                        for k in 0..<bestLength { insert(i + k) }
                    } else {
                        for k in 0..<4 { insert(i + k) }
                        for k in (bestLength - 4)..<bestLength { insert(i + k) }
                    }
                    i += bestLength
                } else {
                    symbols.append(UInt32(p[i]))
                    insert(i)
                    i += 1
                }
                if symbols.count == blockSymbols {
                    writeBlock(symbols, raw: p, from: blockStart, to: i, final: i == n, &bits)
                    symbols.removeAll(keepingCapacity: true)
                    blockStart = i
                }
            }
            // The rest; a block that ended the input was already the final one.
            if !symbols.isEmpty || n == 0 {
                writeBlock(symbols, raw: p, from: blockStart, to: n, final: true, &bits)
            }
        }
        bits.align()
        return bits.bytes
    }

    // MARK: Blocks

    static let lengthBase: [Int] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra: [Int] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase: [Int] = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    static let distanceExtra: [Int] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    /// The length code (0…28, for symbols 257…285) of each length 0…258.
    static let lengthCode: [UInt8] = (0...258).map { length in
        guard length >= 3 else { return 0 }
        var code = 0
        while code + 1 < lengthBase.count && lengthBase[code + 1] <= length { code += 1 }
        return UInt8(code)
    }
    static func distanceCode(_ distance: Int) -> Int {
        // Distances 1…256 looked up directly; beyond, codes change only every 128.
        distance <= 256 ? Int(nearCodes[distance]) : Int(farCodes[(distance - 1) >> 7])
    }
    static func searchedCode(_ distance: Int) -> Int {
        var code = 0
        while code + 1 < distanceBase.count && distanceBase[code + 1] <= distance { code += 1 }
        return code
    }
    static let nearCodes: [UInt8] = (0...256).map { UInt8(searchedCode(max($0, 1))) }
    static let farCodes: [UInt8] = (0..<256).map { UInt8(searchedCode($0 << 7 + 1)) }
    /// The order code-length code lengths are sent in.
    static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
    static let fixedLiteralLengths: [UInt8] = (0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 }
    static let fixedDistanceLengths = [UInt8](repeating: 5, count: 30)

    static func writeBlock(_ symbols: [UInt32], raw: UnsafeBufferPointer<UInt8>, from: Int, to: Int, final: Bool, _ bits: inout BitWriter) {
        var literalCounts = [Int](repeating: 0, count: 286), distanceCounts = [Int](repeating: 0, count: 30)
        var extraBits = 0
        for s in symbols {
            if s & 1 << 31 == 0 { literalCounts[Int(s)] += 1; continue }
            let length = Int(s >> 16 & 0x1FF), distance = Int(s & 0xFFFF)
            let lc = Int(lengthCode[length]), dc = distanceCode(distance)
            literalCounts[257 + lc] += 1
            distanceCounts[dc] += 1
            extraBits += lengthExtra[lc] + distanceExtra[dc]
        }
        literalCounts[256] += 1
        // Complete codes for every decoder: at least two codes in each.
        if literalCounts.filter({ $0 > 0 }).count < 2 { literalCounts[0] = max(literalCounts[0], 1) }
        while distanceCounts.filter({ $0 > 0 }).count < 2 { distanceCounts[distanceCounts.firstIndex(of: 0)!] = 1 }
        let literalLengths = Huffman.lengths(literalCounts, limit: 15)
        let distanceLengths = Huffman.lengths(distanceCounts, limit: 15)

        // The code-length sequence, run-length coded.
        let hlit = max(257, (literalLengths.lastIndex { $0 > 0 } ?? 0) + 1)
        let hdist = max(1, (distanceLengths.lastIndex { $0 > 0 } ?? 0) + 1)
        let runs = runLengths(Array(literalLengths[..<hlit]) + Array(distanceLengths[..<hdist]))
        var clCounts = [Int](repeating: 0, count: 19)
        for (symbol, _) in runs { clCounts[symbol] += 1 }
        let clLengths = Huffman.lengths(clCounts, limit: 7)
        var hclen = 19
        while hclen > 4 && clLengths[codeLengthOrder[hclen - 1]] == 0 { hclen -= 1 }

        func dataBits(_ lit: [UInt8], _ dist: [UInt8]) -> Int {
            var total = extraBits
            for (i, c) in literalCounts.enumerated() where c > 0 { total += c * Int(lit[i]) }
            for (i, c) in distanceCounts.enumerated() where c > 0 { total += c * Int(dist[i]) }
            return total
        }
        var header = 5 + 5 + 4 + 3 * hclen
        for (symbol, _) in runs { header += Int(clLengths[symbol]) + (symbol == 16 ? 2 : symbol == 17 ? 3 : symbol == 18 ? 7 : 0) }
        let dynamicBits = 3 + header + dataBits(literalLengths, distanceLengths)
        let fixedBits = 3 + dataBits(fixedLiteralLengths, fixedDistanceLengths)
        let storedBits = (to - from) * 8 + 40 * max(1, (to - from + 65534) / 65535) + 7

        if storedBits < dynamicBits && storedBits < fixedBits {
            var start = from
            repeat {
                let end = min(start + 65535, to)
                bits.write(final && end == to ? 1 : 0, 1)
                bits.write(0, 2)
                bits.align()
                let length = UInt32(end - start)
                bits.write(length, 16)
                bits.write(~length & 0xFFFF, 16)
                for k in start..<end { bits.write(UInt32(raw[k]), 8) }
                start = end
            } while start < to
            return
        }
        let dynamic = dynamicBits <= fixedBits
        bits.write(final ? 1 : 0, 1)
        bits.write(dynamic ? 2 : 1, 2)
        let lit = dynamic ? literalLengths : fixedLiteralLengths
        let dist = dynamic ? distanceLengths : fixedDistanceLengths
        if dynamic {
            bits.write(UInt32(hlit - 257), 5)
            bits.write(UInt32(hdist - 1), 5)
            bits.write(UInt32(hclen - 4), 4)
            for k in 0..<hclen { bits.write(UInt32(clLengths[codeLengthOrder[k]]), 3) }
            let clCodes = Huffman.codes(clLengths)
            for (symbol, extra) in runs {
                bits.write(code: clCodes[symbol], length: clLengths[symbol])
                switch symbol {
                case 16: bits.write(UInt32(extra), 2)
                case 17: bits.write(UInt32(extra), 3)
                case 18: bits.write(UInt32(extra), 7)
                default: break
                }
            }
        }
        let litCodes = Huffman.codes(lit), distCodes = Huffman.codes(dist)
        for s in symbols {
            if s & 1 << 31 == 0 {
                bits.write(code: litCodes[Int(s)], length: lit[Int(s)])
                continue
            }
            let length = Int(s >> 16 & 0x1FF), distance = Int(s & 0xFFFF)
            let lc = Int(lengthCode[length]), dc = distanceCode(distance)
            bits.write(code: litCodes[257 + lc], length: lit[257 + lc])
            if lengthExtra[lc] > 0 { bits.write(UInt32(length - lengthBase[lc]), lengthExtra[lc]) }
            bits.write(code: distCodes[dc], length: dist[dc])
            if distanceExtra[dc] > 0 { bits.write(UInt32(distance - distanceBase[dc]), distanceExtra[dc]) }
        }
        bits.write(code: litCodes[256], length: lit[256])
    }

    /// Code lengths as the code-length alphabet: 0…15 as themselves, 16
    /// repeats the previous 3–6 times, 17 and 18 give 3–10 and 11–138 zeros.
    static func runLengths(_ lengths: [UInt8]) -> [(symbol: Int, extra: Int)] {
        var out: [(Int, Int)] = []
        var i = 0
        while i < lengths.count {
            let value = lengths[i]
            var run = 1
            while i + run < lengths.count && lengths[i + run] == value { run += 1 }
            i += run
            if value == 0 {
                while run >= 11 { let r = min(run, 138); out.append((18, r - 11)); run -= r }
                if run >= 3 { out.append((17, run - 3)); run = 0 }
                while run > 0 { out.append((0, 0)); run -= 1 }
            } else {
                out.append((Int(value), 0)); run -= 1
                while run >= 3 { let r = min(run, 6); out.append((16, r - 3)); run -= r }
                while run > 0 { out.append((Int(value), 0)); run -= 1 }
            }
        }
        return out
    }
}

/// Huffman code lengths and canonical codes.
enum Huffman {
    /// Lengths of a Huffman code for these counts, none longer than
    /// `limit`: where the optimal code is deeper, the counts are halved
    /// (a used symbol stays used) until it is not.
    static func lengths(_ counts: [Int], limit: Int) -> [UInt8] {
        var counts = counts
        while true {
            let lengths = optimal(counts)
            if Int(lengths.max() ?? 0) <= limit { return lengths }
            counts = counts.map { $0 == 0 ? 0 : ($0 + 1) / 2 }
        }
    }

    /// The depths of an optimal code (two-queue Huffman construction).
    static func optimal(_ counts: [Int]) -> [UInt8] {
        var lengths = [UInt8](repeating: 0, count: counts.count)
        let used = counts.indices.filter { counts[$0] > 0 }.sorted { (counts[$0], $0) < (counts[$1], $1) }
        if used.count == 1 { lengths[used[0]] = 1 }
        guard used.count > 1 else { return lengths }
        // Nodes: leaves first, then merged nodes in the order made.
        var weight = used.map { counts[$0] }
        var parent = [Int](repeating: -1, count: 2 * used.count - 1)
        var leaf = 0, inner = used.count
        func takeLightest() -> Int {
            if leaf < used.count && (inner >= weight.count || weight[leaf] <= weight[inner]) { leaf += 1; return leaf - 1 }
            inner += 1
            return inner - 1
        }
        while weight.count < 2 * used.count - 1 {
            let a = takeLightest(), b = takeLightest()
            parent[a] = weight.count; parent[b] = weight.count
            weight.append(weight[a] + weight[b])
        }
        var depth = [Int](repeating: 0, count: weight.count)
        for node in stride(from: weight.count - 2, through: 0, by: -1) { depth[node] = depth[parent[node]] + 1 }
        for (k, symbol) in used.enumerated() { lengths[symbol] = UInt8(depth[k]) }
        return lengths
    }

    /// Canonical codes for these lengths (RFC 1951 3.2.2).
    static func codes(_ lengths: [UInt8]) -> [UInt16] {
        var count = [Int](repeating: 0, count: 16)
        for l in lengths where l > 0 { count[Int(l)] += 1 }
        var next = [Int](repeating: 0, count: 16)
        var code = 0
        for bits in 1..<16 {
            code = (code + count[bits - 1]) << 1
            next[bits] = code
        }
        return lengths.map { l in
            guard l > 0 else { return 0 }
            defer { next[Int(l)] += 1 }
            return UInt16(next[Int(l)])
        }
    }
}
