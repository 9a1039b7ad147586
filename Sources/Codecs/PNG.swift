/// PNG files (and animated PNG: APNG's `acTL`, `fcTL`, `fdAT`) of 8-bit RGBA
/// images, written here. Each row takes the filter (None, Sub, Up, Average,
/// Paeth) whose bytes sum smallest as signed values, the usual heuristic.
public enum PNG {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// One image.
    public static func encode(_ image: RGBAImage) -> [UInt8] {
        var out = signature
        chunk("IHDR", header(image.width, image.height), into: &out)
        chunk("IDAT", Deflate.zlib(filtered(image)), into: &out)
        chunk("IEND", [], into: &out)
        return out
    }

    /// An animation that loops for ever: each frame shown `delay` seconds
    /// (as a fraction: numerator and denominator, each below 65,536), the
    /// first also the still image that viewers without APNG show. Where the
    /// frames hold at most 256 colours (RGBA), they are written as indices
    /// into a palette with their alphas (colour type 3, PLTE and tRNS): the
    /// same pixels in a quarter of the bytes.
    public static func encodeAnimation(_ frames: [(image: RGBAImage, delay: (UInt16, UInt16))]) -> [UInt8] {
        precondition(!frames.isEmpty)
        let width = frames[0].image.width, height = frames[0].image.height
        var out = signature
        let palette = Self.palette(frames.map(\.image))
        if let palette {
            chunk("IHDR", be32(UInt32(width)) + be32(UInt32(height)) + [8, 3, 0, 0, 0], into: &out)
            chunk("PLTE", palette.colors.flatMap { [UInt8($0 >> 24), UInt8($0 >> 16 & 0xFF), UInt8($0 >> 8 & 0xFF)] }, into: &out)
            chunk("tRNS", palette.colors.map { UInt8($0 & 0xFF) }, into: &out)
        } else {
            chunk("IHDR", header(width, height), into: &out)
        }
        chunk("acTL", be32(UInt32(frames.count)) + be32(0), into: &out)   // 0 plays: for ever
        // Frame i's chunks are numbered 2i - 1 (fcTL) and 2i (fdAT) after the
        // first frame's fcTL (0) and IDAT; so each frame is written apart.
        let parts = concurrentMap(frames.count) { index in
            let frame = frames[index]
            // The first frame whole; each later one the rectangle that holds
            // what changed since the frame before, replacing what was there
            // (dispose none, blend source).
            let box = index == 0 ? (x: 0, y: 0, width: width, height: height) : changed(from: frames[index - 1].image, to: frame.image)
            let sequence = UInt32(max(0, 2 * index - 1))
            var control = be32(sequence) + be32(UInt32(box.width)) + be32(UInt32(box.height)) + be32(UInt32(box.x)) + be32(UInt32(box.y))
            control += be16(frame.delay.0) + be16(frame.delay.1) + [0, 0]
            var out: [UInt8] = []
            chunk("fcTL", control, into: &out)
            let part = box.width == width && box.height == height ? frame.image : frame.image.cropped(box)
            let data = Deflate.zlib(palette.map { indexed(part, $0) } ?? filtered(part))
            if index == 0 {
                chunk("IDAT", data, into: &out)
            } else {
                chunk("fdAT", be32(sequence + 1) + data, into: &out)
            }
            return out
        }
        for part in parts { out += part }
        chunk("IEND", [], into: &out)
        return out
    }

    /// The colours of the frames (RGBA as 0xRRGGBBAA), sorted, and each
    /// one's index; nil past 256 colours.
    struct Palette: Sendable {
        var colors: [UInt32]
        var index: [UInt32: UInt8]
    }

    static func palette(_ images: [RGBAImage]) -> Palette? {
        var seen = Set<UInt32>()
        for image in images {
            let found: Bool = image.pixels.withUnsafeBytes { p in
                var last: UInt32? = nil
                for i in 0..<(image.width * image.height) {
                    let c = UInt32(bigEndian: p.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self))
                    if c == last { continue }
                    last = c
                    if seen.insert(c).inserted && seen.count > 256 { return false }
                }
                return true
            }
            if !found { return nil }
        }
        let colors = seen.sorted()
        return Palette(colors: colors, index: Dictionary(uniqueKeysWithValues: colors.enumerated().map { ($1, UInt8($0)) }))
    }

    /// The rows as palette indices, each after filter type 0 (None: the
    /// filters that predict from neighbours rarely help indices).
    static func indexed(_ image: RGBAImage, _ palette: Palette) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: (image.width + 1) * image.height)
        image.pixels.withUnsafeBytes { p in
            var last: (UInt32, UInt8)? = nil
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let c = UInt32(bigEndian: p.loadUnaligned(fromByteOffset: 4 * (y * image.width + x), as: UInt32.self))
                    let i: UInt8
                    if let last, last.0 == c { i = last.1 } else { i = palette.index[c] ?? 0; last = (c, i) }
                    out[y * (image.width + 1) + 1 + x] = i
                }
            }
        }
        return out
    }

    /// The smallest rectangle outside which `a` and `b` are the same (at
    /// least one pixel: identical frames were merged before).
    static func changed(from a: RGBAImage, to b: RGBAImage) -> (x: Int, y: Int, width: Int, height: Int) {
        let w = a.width, h = a.height
        var minX = w, maxX = -1, minY = h, maxY = -1
        a.pixels.withUnsafeBytes { pa in
            b.pixels.withUnsafeBytes { pb in
                // A pixel's four bytes read as one word, the arrays' memory left bound to bytes.
                @inline(__always) func ra(_ i: Int) -> UInt32 { pa.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self) }
                @inline(__always) func rb(_ i: Int) -> UInt32 { pb.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self) }
                for y in 0..<h {
                    let line = y * w
                    var x = 0
                    while x < w && ra(line + x) == rb(line + x) { x += 1 }
                    guard x < w else { continue }
                    var right = w - 1
                    while ra(line + right) == rb(line + right) { right -= 1 }
                    minX = min(minX, x); maxX = max(maxX, right)
                    minY = min(minY, y); maxY = y
                }
            }
        }
        guard maxX >= 0 else { return (0, 0, 1, 1) }
        return (minX, minY, maxX - minX + 1, maxY - minY + 1)
    }

    static func header(_ width: Int, _ height: Int) -> [UInt8] {
        be32(UInt32(width)) + be32(UInt32(height)) + [8, 6, 0, 0, 0]   // 8-bit RGBA, deflate, adaptive filters, no interlace
    }

    static func chunk(_ type: String, _ data: [UInt8], into out: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        out += be32(UInt32(data.count))
        out += typeBytes
        out += data
        out += be32(Checksum.crc32(data, continuing: Checksum.crc32(typeBytes)))
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }

    /// The rows, each after its filter-type byte.
    static func filtered(_ image: RGBAImage) -> [UInt8] {
        let stride = image.width * 4, rows = image.height
        var out = [UInt8](repeating: 0, count: (stride + 1) * rows)
        // Each filter's row, written once; the one whose bytes sum smallest is kept.
        var scratch = [UInt8](repeating: 0, count: 5 * stride)
        let zero = [UInt8](repeating: 0, count: stride)
        image.pixels.withUnsafeBufferPointer { px in
            zero.withUnsafeBufferPointer { zeros in
                scratch.withUnsafeMutableBufferPointer { f in
                    out.withUnsafeMutableBufferPointer { o in
                        for y in 0..<rows {
                            let row = px.baseAddress! + y * stride
                            let up = y > 0 ? px.baseAddress! + (y - 1) * stride : zeros.baseAddress!
                            // Sums of the filtered bytes as signed values' magnitudes.
                            var s0: UInt32 = 0, s1: UInt32 = 0, s2: UInt32 = 0, s3: UInt32 = 0, s4: UInt32 = 0
                            let fNone = f.baseAddress!, fSub = fNone + stride, fUp = fSub + stride, fAverage = fUp + stride, fPaeth = fAverage + stride
                            @inline(__always) func filter(_ x: Int, _ v: UInt8, _ a: UInt8, _ b: UInt8, _ c: UInt8) {
                                // Paeth's predictor: of a, b and c, the nearest to a + b − c (ties: a, then b).
                                let ia = Int16(a), ib = Int16(b), ic = Int16(c)
                                let pa = abs(ib - ic), pb = abs(ia - ic), pc = abs(ia + ib - 2 * ic)
                                let predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                                let sub = v &- a, upF = v &- b, average = v &- UInt8((UInt16(a) + UInt16(b)) >> 1), paeth = v &- predictor
                                fNone[x] = v; fSub[x] = sub; fUp[x] = upF; fAverage[x] = average; fPaeth[x] = paeth
                                s0 &+= UInt32(Int8(bitPattern: v).magnitude); s1 &+= UInt32(Int8(bitPattern: sub).magnitude)
                                s2 &+= UInt32(Int8(bitPattern: upF).magnitude); s3 &+= UInt32(Int8(bitPattern: average).magnitude)
                                s4 &+= UInt32(Int8(bitPattern: paeth).magnitude)
                            }
                            for x in 0..<min(4, stride) { filter(x, row[x], 0, up[x], 0) }
                            for x in 4..<max(stride, 4) { filter(x, row[x], row[x - 4], up[x], up[x - 4]) }
                            let sums = (s0, s1, s2, s3, s4)
                            var best = 0, bestSum = sums.0
                            if sums.1 < bestSum { best = 1; bestSum = sums.1 }
                            if sums.2 < bestSum { best = 2; bestSum = sums.2 }
                            if sums.3 < bestSum { best = 3; bestSum = sums.3 }
                            if sums.4 < bestSum { best = 4; bestSum = sums.4 }
                            let base = y * (stride + 1)
                            o[base] = UInt8(best)
                            (o.baseAddress! + base + 1).update(from: f.baseAddress! + best * stride, count: stride)
                        }
                    }
                }
            }
        }
        return out
    }
}

/// An image of 8-bit RGBA pixels, not premultiplied, rows top to bottom.
public struct RGBAImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 4)
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The pixels of a rectangle within the image.
    func cropped(_ box: (x: Int, y: Int, width: Int, height: Int)) -> RGBAImage {
        var out = [UInt8]()
        out.reserveCapacity(box.width * box.height * 4)
        for y in box.y..<(box.y + box.height) {
            let start = ((y * width) + box.x) * 4
            out += pixels[start..<(start + box.width * 4)]
        }
        return RGBAImage(width: box.width, height: box.height, pixels: out)
    }
}
