/// Animated GIFs, written here: one palette of at most 256 colours for
/// the whole loop (median cut over every frame's colours, weighted by how
/// often each shows), LZW-coded frames, a loop that plays for ever.
public enum GIF {
    /// A frame's pixels as palette indices, and how long it shows in
    /// hundredths of a second.
    public struct Frame: Sendable {
        public var indices: [UInt8]
        public var delay: Int
        public init(indices: [UInt8], delay: Int) { self.indices = indices; self.delay = delay }
    }

    /// The palette (RGB triples) and whether index `transparent` is clear.
    public struct Palette: Sendable {
        public var colors: [(UInt8, UInt8, UInt8)]
        public var transparent: Int?
        /// The nearest palette entry of each colour asked before.
        var nearest: [UInt32: UInt8] = [:]
        /// The colour asked last and its entry: neighbouring pixels mostly share one.
        var last: (rgb: UInt32, index: UInt8)? = nil

        /// Finds the nearest entries of these colours ahead, so that copies
        /// of the palette (one for each thread) all look them up.
        public mutating func learn(_ rgbs: some Sequence<UInt32>) {
            for rgb in rgbs { _ = lookUp(rgb) }
        }

        /// The index of `rgb` (0xRRGGBB), or the transparent one for nil.
        public mutating func index(_ rgb: UInt32?) -> UInt8 {
            guard let rgb else { return UInt8(transparent ?? 0) }
            if let last, last.rgb == rgb { return last.index }
            let found = lookUp(rgb)
            last = (rgb, found)
            return found
        }

        mutating func lookUp(_ rgb: UInt32) -> UInt8 {
            if let i = nearest[rgb] { return i }
            let r = Int(rgb >> 16), g = Int(rgb >> 8 & 0xFF), b = Int(rgb & 0xFF)
            var best = 0, bestDistance = Int.max
            for (i, c) in colors.enumerated() where i != transparent {
                let dr = r - Int(c.0), dg = g - Int(c.1), db = b - Int(c.2)
                let d = dr * dr + dg * dg + db * db
                if d < bestDistance { best = i; bestDistance = d }
            }
            nearest[rgb] = UInt8(best)
            return UInt8(best)
        }
    }

    /// A palette for colours shown `counts` times each (0xRRGGBB), with a
    /// transparent entry when `transparency`: median cut, each box split at
    /// the weighted median of its widest channel, each entry its box's
    /// weighted mean.
    public static func palette(_ counts: [UInt32: Int], transparency: Bool) -> Palette {
        let room = transparency ? 255 : 256
        // In colour order, and split in a total order: the same counts give
        // the same palette whatever order the dictionary keeps them in (it
        // differs between processes, and replicas must agree on the bytes).
        var boxes: [[(UInt32, Int)]] = [counts.map { ($0.key, $0.value) }.sorted { $0.0 < $1.0 }]
        func channel(_ c: UInt32, _ k: Int) -> Int { Int(c >> UInt32(16 - 8 * k) & 0xFF) }
        func widest(_ box: [(UInt32, Int)]) -> (channel: Int, range: Int) {
            var best = (0, -1)
            for k in 0..<3 {
                var lo = 255, hi = 0
                for (c, _) in box { let v = channel(c, k); lo = min(lo, v); hi = max(hi, v) }
                if hi - lo > best.1 { best = (k, hi - lo) }
            }
            return best
        }
        while boxes.count < room {
            // The box with the widest channel, weighted by its pixels.
            var pick = -1, score = 0
            for (i, box) in boxes.enumerated() where box.count > 1 {
                let w = widest(box), pixels = box.reduce(0) { $0 + $1.1 }
                let s = w.range * max(1, Int(Double(pixels).squareRoot()))
                if s > score { pick = i; score = s }
            }
            guard pick >= 0 else { break }
            let k = widest(boxes[pick]).channel
            let sorted = boxes[pick].sorted { (channel($0.0, k), $0.0) < (channel($1.0, k), $1.0) }
            let total = sorted.reduce(0) { $0 + $1.1 }
            var running = 0, cut = 1
            for (i, entry) in sorted.enumerated() {
                running += entry.1
                if running * 2 >= total { cut = min(max(i + 1, 1), sorted.count - 1); break }
            }
            boxes[pick] = Array(sorted[..<cut])
            boxes.append(Array(sorted[cut...]))
        }
        var colors: [(UInt8, UInt8, UInt8)] = boxes.filter { !$0.isEmpty }.map { box in
            let total = Double(box.reduce(0) { $0 + $1.1 })
            var sum = (0.0, 0.0, 0.0)
            for (c, n) in box {
                sum.0 += Double(channel(c, 0) * n); sum.1 += Double(channel(c, 1) * n); sum.2 += Double(channel(c, 2) * n)
            }
            return (UInt8((sum.0 / total).rounded()), UInt8((sum.1 / total).rounded()), UInt8((sum.2 / total).rounded()))
        }
        if colors.isEmpty { colors = [(0, 0, 0)] }
        var transparent: Int? = nil
        if transparency { transparent = colors.count; colors.append((0, 0, 0)) }
        return Palette(colors: colors, transparent: transparent)
    }

    /// The file: `width` × `height`, the palette, the frames, looping for ever.
    /// With a transparent entry, each frame after the first is the rectangle
    /// of what changed on the canvas, pixels that stay written as the
    /// transparent index (kept, and long runs of one code for LZW); a frame
    /// before one that clears pixels is disposed of (its rectangle, grown
    /// to hold them, cleared) and the rest kept. Without one, every frame
    /// is whole.
    public static func encode(width: Int, height: Int, palette: Palette, frames: [Frame]) -> [UInt8] {
        var bits = 1
        while 1 << bits < palette.colors.count { bits += 1 }
        var out = Array("GIF89a".utf8)
        out += le16(width) + le16(height)
        out += [0xF0 | UInt8(bits - 1), 0, 0]              // a global table of 2^bits colours, 8-bit colour
        for i in 0..<(1 << bits) {
            let c = i < palette.colors.count ? palette.colors[i] : (0, 0, 0)
            out += [c.0, c.1, c.2]
        }
        // NETSCAPE2.0: loop for ever.
        out += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
        let minimum = max(2, bits)
        let parts = palette.transparent.map { deltas(width: width, height: height, clear: UInt8($0), frames: frames) }
            ?? frames.map { Part(box: Box(x: 0, y: 0, width: width, height: height), indices: $0.indices, dispose: false) }
        let compressed = concurrentMap(parts.count) { i in lzw(parts[i].indices, minimumCodeSize: minimum) }
        for (i, data) in compressed.enumerated() {
            let part = parts[i]
            // Graphic control: disposal 1 keeps the frame, 2 clears its rectangle.
            let disposal: UInt8 = part.dispose ? 2 : 1
            out += [0x21, 0xF9, 4, disposal << 2 | (palette.transparent != nil ? 1 : 0)]
            out += le16(frames[i].delay) + [UInt8(palette.transparent ?? 0), 0]
            out += [0x2C] + le16(part.box.x) + le16(part.box.y) + le16(part.box.width) + le16(part.box.height) + [0]
            out.append(UInt8(minimum))
            var start = 0
            while start < data.count {
                let end = min(start + 255, data.count)
                out.append(UInt8(end - start))
                out += data[start..<end]
                start = end
            }
            out.append(0)
        }
        out.append(0x3B)
        return out
    }

    struct Box {
        var x: Int, y: Int, width: Int, height: Int
        var isEmpty: Bool { width <= 0 || height <= 0 }
        func union(_ o: Box) -> Box {
            if isEmpty { return o }
            if o.isEmpty { return self }
            let x0 = min(x, o.x), y0 = min(y, o.y)
            return Box(x: x0, y: y0, width: max(x + width, o.x + o.width) - x0, height: max(y + height, o.y + o.height) - y0)
        }
    }

    /// A frame as written: its rectangle, its indices there, and whether
    /// its rectangle is cleared after it shows.
    struct Part {
        var box: Box
        var indices: [UInt8]
        var dispose: Bool
    }

    /// The rectangle holding every pixel where `test` holds.
    static func bounds(width: Int, height: Int, _ test: (Int) -> Bool) -> Box {
        var minX = width, maxX = -1, minY = height, maxY = -1
        for y in 0..<height {
            let line = y * width
            for x in 0..<width where test(line + x) {
                minX = min(minX, x); maxX = max(maxX, x)
                minY = min(minY, y); maxY = y
            }
        }
        return maxX < 0 ? Box(x: 0, y: 0, width: 0, height: 0) : Box(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    /// The frames as rectangles of change over what the viewer shows. The
    /// first is whole, and the first shown again when the loop restarts
    /// (viewers draw it on a clear canvas). Before frame k + 1, the canvas
    /// is frame k, its rectangle cleared where frame k is disposed of: it
    /// is, exactly where frame k + 1 clears a pixel that frame k shows,
    /// its rectangle grown to hold those pixels (what else it clears,
    /// frame k + 1 draws again).
    static func deltas(width: Int, height: Int, clear: UInt8, frames: [Frame]) -> [Part] {
        let whole = Box(x: 0, y: 0, width: width, height: height)
        guard frames.count > 1 else { return frames.map { Part(box: whole, indices: $0.indices, dispose: false) } }
        // Each frame's rectangle and disposal, in order.
        var boxes = [whole], disposals: [Bool] = []
        for k in 0..<frames.count {
            let shown = frames[k].indices
            if k + 1 < frames.count {
                let next = frames[k + 1].indices
                let cleared = bounds(width: width, height: height) { shown[$0] != clear && next[$0] == clear }
                disposals.append(!cleared.isEmpty)
                if !cleared.isEmpty { boxes[k] = boxes[k].union(cleared) }
                // The canvas after frame k and its disposal.
                var after = shown
                if disposals[k] {
                    let b = boxes[k]
                    for y in b.y..<(b.y + b.height) { for x in b.x..<(b.x + b.width) { after[y * width + x] = clear } }
                }
                var changed = bounds(width: width, height: height) { after[$0] != next[$0] }
                if changed.isEmpty { changed = Box(x: 0, y: 0, width: 1, height: 1) }
                boxes.append(changed)
            } else {
                disposals.append(false)
            }
        }
        // Each frame's indices in its rectangle: what the canvas already
        // shows there is written clear (kept).
        var canvases: [[UInt8]?] = [nil]
        for k in 1..<frames.count {
            var after = frames[k - 1].indices
            if disposals[k - 1] {
                let b = boxes[k - 1]
                for y in b.y..<(b.y + b.height) { for x in b.x..<(b.x + b.width) { after[y * width + x] = clear } }
            }
            canvases.append(after)
        }
        return concurrentMap(frames.count) { [boxes, canvases, disposals] k in
            let b = boxes[k], target = frames[k].indices
            guard let canvas = canvases[k] else { return Part(box: b, indices: target, dispose: disposals[k]) }
            var indices = [UInt8](repeating: clear, count: b.width * b.height)
            for y in 0..<b.height {
                for x in 0..<b.width {
                    let p = (b.y + y) * width + b.x + x
                    if canvas[p] != target[p] { indices[y * b.width + x] = target[p] }
                }
            }
            return Part(box: b, indices: indices, dispose: disposals[k])
        }
    }

    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }

    /// GIF's LZW: codes least significant bit first, growing from
    /// minimumCodeSize + 1 bits to 12, the table cleared when full.
    static func lzw(_ indices: [UInt8], minimumCodeSize: Int) -> [UInt8] {
        let clear = 1 << minimumCodeSize, end = clear + 1
        var bits = BitWriter(capacity: indices.count / 2 + 16)
        var table = CodeTable()                      // (prefix code << 8 | byte) → code
        var next = end + 1, width = minimumCodeSize + 1
        bits.write(UInt32(clear), width)
        guard var prefix = indices.first.map(Int.init) else {
            bits.write(UInt32(end), width)
            bits.align()
            return bits.bytes
        }
        for byte in indices.dropFirst() {
            let key = prefix << 8 | Int(byte)
            if let code = table[key] { prefix = code; continue }
            bits.write(UInt32(prefix), width)
            if next < 4096 {
                table.insert(key, next)
                // The decoder widens a step later than the table grows.
                if next == 1 << width && width < 12 { width += 1 }
                next += 1
            } else {
                bits.write(UInt32(clear), width)
                table.clear()
                next = end + 1
                width = minimumCodeSize + 1
            }
            prefix = Int(byte)
        }
        bits.write(UInt32(prefix), width)
        bits.write(UInt32(end), width)
        bits.align()
        return bits.bytes
    }

    /// LZW's table: at most 4,096 codes in 8,192 slots, open addressing.
    struct CodeTable {
        static let slots = 8192
        var keys = [Int32](repeating: -1, count: slots)
        var codes = [UInt16](repeating: 0, count: slots)

        @inline(__always) static func slot(_ key: Int) -> Int { (key &* 0x9E37_79B1) >> 16 & (slots - 1) }

        subscript(key: Int) -> Int? {
            var i = Self.slot(key)
            while true {
                let k = keys[i]
                if k == Int32(key) { return Int(codes[i]) }
                if k < 0 { return nil }
                i = (i + 1) & (Self.slots - 1)
            }
        }

        mutating func insert(_ key: Int, _ code: Int) {
            var i = Self.slot(key)
            while keys[i] >= 0 { i = (i + 1) & (Self.slots - 1) }
            keys[i] = Int32(key)
            codes[i] = UInt16(code)
        }

        mutating func clear() {
            for i in 0..<Self.slots { keys[i] = -1 }
        }
    }
}
