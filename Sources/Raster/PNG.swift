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
    /// first also the still image that viewers without APNG show.
    public static func encodeAnimation(_ frames: [(image: RGBAImage, delay: (UInt16, UInt16))]) -> [UInt8] {
        precondition(!frames.isEmpty)
        let width = frames[0].image.width, height = frames[0].image.height
        var out = signature
        chunk("IHDR", header(width, height), into: &out)
        chunk("acTL", be32(UInt32(frames.count)) + be32(0), into: &out)   // 0 plays: for ever
        var sequence: UInt32 = 0
        for (index, frame) in frames.enumerated() {
            // The whole canvas each frame, replacing what was there (dispose none, blend source).
            var control = be32(sequence) + be32(UInt32(width)) + be32(UInt32(height)) + be32(0) + be32(0)
            control += be16(frame.delay.0) + be16(frame.delay.1) + [0, 0]
            chunk("fcTL", control, into: &out)
            sequence += 1
            let data = Deflate.zlib(filtered(frame.image))
            if index == 0 {
                chunk("IDAT", data, into: &out)
            } else {
                chunk("fdAT", be32(sequence) + data, into: &out)
                sequence += 1
            }
        }
        chunk("IEND", [], into: &out)
        return out
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
        let stride = image.width * 4
        var out = [UInt8](repeating: 0, count: (stride + 1) * image.height)
        image.pixels.withUnsafeBufferPointer { px in
            out.withUnsafeMutableBufferPointer { o in
                let zero = [UInt8](repeating: 0, count: stride)
                zero.withUnsafeBufferPointer { zeros in
                    for y in 0..<image.height {
                        let row = UnsafeBufferPointer(rebasing: px[(y * stride)..<((y + 1) * stride)])
                        let up = y > 0 ? UnsafeBufferPointer(rebasing: px[((y - 1) * stride)..<(y * stride)]) : zeros
                        // Each filter's byte at x (a: left, b: up, c: up-left).
                        @inline(__always) func filteredByte(_ f: Int, _ x: Int) -> UInt8 {
                            let v = Int(row[x])
                            let a = x >= 4 ? Int(row[x - 4]) : 0, b = Int(up[x]), c = x >= 4 ? Int(up[x - 4]) : 0
                            switch f {
                            case 0: return UInt8(v)
                            case 1: return UInt8(truncatingIfNeeded: v - a)
                            case 2: return UInt8(truncatingIfNeeded: v - b)
                            case 3: return UInt8(truncatingIfNeeded: v - (a + b) / 2)
                            default:
                                let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                                return UInt8(truncatingIfNeeded: v - (pa <= pb && pa <= pc ? a : pb <= pc ? b : c))
                            }
                        }
                        var best = 0, bestSum = Int.max
                        for f in 0..<5 {
                            var sum = 0
                            for x in 0..<stride where sum < bestSum { sum += abs(Int(Int8(bitPattern: filteredByte(f, x)))) }
                            if sum < bestSum { best = f; bestSum = sum }
                        }
                        let base = y * (stride + 1)
                        o[base] = UInt8(best)
                        for x in 0..<stride { o[base + 1 + x] = filteredByte(best, x) }
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
}
