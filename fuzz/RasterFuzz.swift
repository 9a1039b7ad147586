// libFuzzer target: pictures made of pixels. Any input becomes a small
// canvas and a few elements of every shape (positions, sizes, turns, trims
// and opacities from the bytes, extremes included); they are drawn, and
// what the encoders write is decoded by a decoder written here (an inflate
// after RFC 1951, PNG's filters, APNG's frame rectangles and GIF's LZW) and
// compared, byte for byte, with what was drawn (for APNG, that frame and one
// with every element moved). The input's own bytes also go through DEFLATE and back. Nothing
// may crash, hang or leak, and every coverage stays within 0…255.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRaster(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: min(count, 4096)))
    // DEFLATE of the input itself.
    guard let back = Inflate.zlib(Deflate.zlib(bytes)), back == bytes else { fatalError("deflate did not round trip \(bytes.count) bytes") }
    var cursor = bytes.makeIterator()
    func byte() -> UInt8 { cursor.next() ?? 0 }
    func number(_ range: ClosedRange<Double>) -> Double {
        switch byte() {
        case 255: return 1e9
        case 254: return -1e9
        case 253: return 1e-12
        case let b: return range.lowerBound + (range.upperBound - range.lowerBound) * Double(b) / 252
        }
    }
    let width = Double(1 + byte() % 48), height = Double(1 + byte() % 48), scale = [1.0, 1.5, 2, 3][Int(byte() % 4)]
    var elements: [Element] = []
    for i in 0..<Int(byte() % 6) {
        let shape = [Shape.circle, .rect, .ring, .segment][Int(byte() % 4)]
        var e = Element(id: ElementID("e", index: i), shape: shape, x: number(-20...70), y: number(-20...70), diameter: number(0...80),
                        scale: number(0...3), opacity: number(0...1), color: RGBColor(rgb: UInt32(byte()) << 16 | UInt32(byte()) << 8 | UInt32(byte())))
        e.rotation = number(-10...10)
        e.width = number(0...80); e.height = number(0...80); e.cornerRadius = number(0...40)
        e.lineWidth = number(0...30); e.strokeStart = number(0...1); e.strokeEnd = number(0...1)
        e.lineCap = byte() % 2 == 0 ? .butt : .round
        e.arc = number(0...6.3)
        elements.append(e)
    }
    let background: RGBColor? = byte() % 2 == 0 ? nil : RGBColor(rgb: 0x336699)
    let frame = Frame(loader: "fuzz", t: 0, width: width, height: height, done: false, elements: elements)
    let image = Rasteriser.image(frame, scale: scale, background: background)
    guard image.width == Rasteriser.pixels(width, scale), image.height == Rasteriser.pixels(height, scale) else { fatalError("image size") }
    // PNG: the IDAT inflated and unfiltered is the image.
    guard let decoded = PNGReader.pixels(PNG.encode(image)), decoded == image.pixels else { fatalError("PNG did not round trip") }
    // APNG: the same frame, then one with every element moved by the input: each
    // frame's rectangle inflated, unfiltered and laid at its offset gives both.
    let moved = Frame(loader: "fuzz", t: 0, width: width, height: height, done: false, elements: elements.map { e in
        var e = e; e.x += number(-8...8); e.y += number(-8...8); e.opacity = number(0...1); return e
    })
    let second = Rasteriser.image(moved, scale: scale, background: background)
    if second != image {
        guard let shown = PNGReader.frames(PNG.encodeAnimation([(image, (1, 10)), (second, (1, 10))])),
              shown == [image.pixels, second.pixels] else { fatalError("APNG did not round trip") }
    }
    // GIF's LZW: the indices come back.
    let indices = image.pixels.enumerated().compactMap { $0.offset % 4 == 0 ? $0.element : nil }
    guard LZW.decode(GIF.lzw(indices, minimumCodeSize: 8), minimumCodeSize: 8) == indices else { fatalError("LZW did not round trip") }
    return 0
}

/// An inflate after RFC 1951 (the way zlib's puff reads it): stored, fixed
/// and dynamic blocks, canonical codes decoded bit by bit.
enum Inflate {
    static func zlib(_ data: [UInt8]) -> [UInt8]? {
        guard data.count >= 6 else { return nil }
        var r = Reader(data: data, position: 2)
        return r.inflate()
    }

    struct Code { var count = [Int](repeating: 0, count: 16); var symbol: [Int] = [] }

    static func code(_ lengths: [Int]) -> Code {
        var c = Code()
        for l in lengths { c.count[l] += 1 }
        c.count[0] = 0
        var offsets = [Int](repeating: 0, count: 16)
        for l in 1..<15 { offsets[l + 1] = offsets[l] + c.count[l] }
        c.symbol = [Int](repeating: 0, count: lengths.count)
        for (s, l) in lengths.enumerated() where l > 0 { c.symbol[offsets[l]] = s; offsets[l] += 1 }
        return c
    }

    struct Reader {
        let data: [UInt8]
        var position: Int
        var bitBuffer = 0, bitCount = 0

        mutating func bits(_ n: Int) -> Int? {
            while bitCount < n {
                guard position < data.count else { return nil }
                bitBuffer |= Int(data[position]) << bitCount
                position += 1
                bitCount += 8
            }
            let v = bitBuffer & ((1 << n) - 1)
            bitBuffer >>= n
            bitCount -= n
            return v
        }

        mutating func decode(_ c: Code) -> Int? {
            var code = 0, first = 0, index = 0
            for len in 1...15 {
                guard let b = bits(1) else { return nil }
                code |= b
                let n = c.count[len]
                if code - n < first { return c.symbol[index + (code - first)] }
                index += n; first += n; first <<= 1; code <<= 1
            }
            return nil
        }

        mutating func inflate() -> [UInt8]? {
            var out: [UInt8] = []
            var last = false
            while !last {
                guard let f = bits(1), let type = bits(2) else { return nil }
                last = f == 1
                switch type {
                case 0:
                    bitBuffer = 0; bitCount = 0
                    guard position + 4 <= data.count else { return nil }
                    let length = Int(data[position]) | Int(data[position + 1]) << 8
                    guard length ^ 0xFFFF == Int(data[position + 2]) | Int(data[position + 3]) << 8, position + 4 + length <= data.count else { return nil }
                    out += data[(position + 4)..<(position + 4 + length)]
                    position += 4 + length
                case 1:
                    let lit = Inflate.code((0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 })
                    guard codes(lit, Inflate.code([Int](repeating: 5, count: 30)), &out) else { return nil }
                case 2:
                    guard let hlit = bits(5), let hdist = bits(5), let hclen = bits(4) else { return nil }
                    let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
                    var cl = [Int](repeating: 0, count: 19)
                    for i in 0..<(hclen + 4) { guard let v = bits(3) else { return nil }; cl[order[i]] = v }
                    let clCode = Inflate.code(cl)
                    var lengths: [Int] = []
                    while lengths.count < hlit + 257 + hdist + 1 {
                        guard let s = decode(clCode) else { return nil }
                        switch s {
                        case 0..<16: lengths.append(s)
                        case 16: guard let prev = lengths.last, let r = bits(2) else { return nil }; lengths += [Int](repeating: prev, count: 3 + r)
                        case 17: guard let r = bits(3) else { return nil }; lengths += [Int](repeating: 0, count: 3 + r)
                        default: guard let r = bits(7) else { return nil }; lengths += [Int](repeating: 0, count: 11 + r)
                        }
                    }
                    let lit = Inflate.code(Array(lengths[0..<(hlit + 257)]))
                    let dist = Inflate.code(Array(lengths[(hlit + 257)..<(hlit + 257 + hdist + 1)]))
                    guard codes(lit, dist, &out) else { return nil }
                default: return nil
                }
            }
            return out
        }

        mutating func codes(_ lit: Code, _ dist: Code, _ out: inout [UInt8]) -> Bool {
            let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
            let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
            let distBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
            let distExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
            while true {
                guard let s = decode(lit) else { return false }
                if s < 256 { out.append(UInt8(s)); continue }
                if s == 256 { return true }
                let li = s - 257
                guard li < 29, let le = bits(lengthExtra[li]), let d = decode(dist), d < 30, let de = bits(distExtra[d]) else { return false }
                let length = lengthBase[li] + le, distance = distBase[d] + de
                guard distance <= out.count else { return false }
                for _ in 0..<length { out.append(out[out.count - distance]) }
            }
        }
    }
}

/// A PNG's pixels: its IDAT chunks inflated and unfiltered (8-bit RGBA);
/// an APNG's frames, each laid over the one before.
enum PNGReader {
    static func pixels(_ png: [UInt8]) -> [UInt8]? { frames(png)?.last }

    /// An APNG's frames as shown: each frame's rectangle (fcTL: width,
    /// height, x, y; blend source) over the canvas as the frame before left it.
    /// 8-bit RGBA (colour type 6), or 8-bit indices into PLTE with tRNS's
    /// alphas (colour type 3), as RGBA.
    static func frames(_ png: [UInt8]) -> [[UInt8]]? {
        var at = 8, width = 0, height = 0, colorType = 6
        var canvas: [UInt8] = [], shown: [[UInt8]] = [], palette: [[UInt8]] = []
        var box = (w: 0, h: 0, x: 0, y: 0), data: [UInt8] = []
        func be32(_ i: Int) -> Int { Int(png[i]) << 24 | Int(png[i + 1]) << 16 | Int(png[i + 2]) << 8 | Int(png[i + 3]) }
        func finish() -> Bool {
            guard !data.isEmpty else { return true }
            guard let raw = Inflate.zlib(data), let filtered = unfiltered(raw, width: box.w, height: box.h, bytesPerPixel: colorType == 3 ? 1 : 4),
                  box.x + box.w <= width, box.y + box.h <= height else { return false }
            var part = filtered
            if colorType == 3 {
                guard filtered.allSatisfy({ Int($0) < palette.count }) else { return false }
                part = filtered.flatMap { palette[Int($0)] }
            }
            for y in 0..<box.h {
                for x in 0..<(box.w * 4) { canvas[((box.y + y) * width + box.x) * 4 + x] = part[y * box.w * 4 + x] }
            }
            shown.append(canvas)
            data = []
            return true
        }
        while at + 12 <= png.count {
            let length = be32(at), type = String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self)
            let body = Array(png[(at + 8)..<(at + 8 + length)])
            guard Checksum.crc32(body, continuing: Checksum.crc32(Array(type.utf8))) == UInt32(be32(at + 8 + length)) else { return nil }
            switch type {
            case "IHDR":   // a still PNG is one frame of the whole canvas
                width = be32(at + 8); height = be32(at + 12); canvas = [UInt8](repeating: 0, count: width * height * 4)
                box = (width, height, 0, 0)
                colorType = Int(body[9])
                guard body[8] == 8, colorType == 6 || colorType == 3 else { return nil }
            case "PLTE": palette = stride(from: 0, to: body.count - 2, by: 3).map { [body[$0], body[$0 + 1], body[$0 + 2], 255] }
            case "tRNS":
                guard body.count <= palette.count else { return nil }
                for (i, alpha) in body.enumerated() { palette[i][3] = alpha }
            case "fcTL":
                guard finish(), body[24] == 0, body[25] == 0 else { return nil }   // dispose none, blend source
                box = (be32(at + 12), be32(at + 16), be32(at + 20), be32(at + 24))
            case "IDAT": data += body
            case "fdAT": data += body.dropFirst(4)
            default: break
            }
            at += 12 + length
        }
        guard finish() else { return nil }
        return shown
    }

    /// Rows after their filter bytes, unfiltered (8 bits a sample).
    static func unfiltered(_ raw: [UInt8], width: Int, height: Int, bytesPerPixel bpp: Int) -> [UInt8]? {
        guard raw.count == (width * bpp + 1) * height else { return nil }
        let stride = width * bpp
        var out = [UInt8](repeating: 0, count: stride * height)
        for y in 0..<height {
            let filter = raw[y * (stride + 1)]
            for x in 0..<stride {
                let v = Int(raw[y * (stride + 1) + 1 + x])
                let a = x >= bpp ? Int(out[y * stride + x - bpp]) : 0, b = y > 0 ? Int(out[(y - 1) * stride + x]) : 0
                let c = x >= bpp && y > 0 ? Int(out[(y - 1) * stride + x - bpp]) : 0
                let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                let predictor = [0, a, b, (a + b) / 2, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][Int(filter)]
                out[y * stride + x] = UInt8(truncatingIfNeeded: v + predictor)
            }
        }
        return out
    }
}

/// GIF's LZW, decoded.
enum LZW {
    static func decode(_ data: [UInt8], minimumCodeSize: Int) -> [UInt8]? {
        let clear = 1 << minimumCodeSize, end = clear + 1
        var table: [[UInt8]] = (0..<(end + 1)).map { $0 < clear ? [UInt8($0)] : [] }
        var width = minimumCodeSize + 1, position = 0, buffer = 0, count = 0
        var out: [UInt8] = [], previous: [UInt8]? = nil
        while true {
            while count < width {
                guard position < data.count else { return nil }
                buffer |= Int(data[position]) << count; position += 1; count += 8
            }
            let code = buffer & ((1 << width) - 1)
            buffer >>= width; count -= width
            if code == clear {
                table = Array(table[0...end]); width = minimumCodeSize + 1; previous = nil
                continue
            }
            if code == end { return out }
            let entry: [UInt8]
            if code < table.count { entry = table[code] } else if code == table.count, let p = previous { entry = p + [p[0]] } else { return nil }
            out += entry
            if let p = previous, table.count < 4096 { table.append(p + [entry[0]]) }
            previous = entry
            if table.count == 1 << width && width < 12 { width += 1 }
        }
    }
}
