#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import Codecs

/// The encoders against published check values. (Decoders no one here
/// wrote, Python's zlib, Pillow and pngcheck, read what they write in
/// Tests/system/pictures_test.py.)
struct ChecksumTests {
    @Test func crc32AndAdler32CheckValues() {
        // The check values every CRC-32 and Adler-32 implementation publishes.
        #expect(Checksum.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(Checksum.crc32([UInt8]()) == 0)
        #expect(Checksum.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
        #expect(Checksum.adler32([]) == 1)
        // Continuing a CRC is the CRC of the whole.
        #expect(Checksum.crc32(Array("456789".utf8), continuing: Checksum.crc32(Array("123".utf8))) == 0xCBF4_3926)
        // 5,552-byte stretches: no overflow on a long run of 0xFF.
        let ones = [UInt8](repeating: 0xFF, count: 100_000)
        var a: UInt64 = 1, b: UInt64 = 0
        for byte in ones { a = (a + UInt64(byte)) % 65521; b = (b + a) % 65521 }
        #expect(Checksum.adler32(ones) == UInt32(b << 16 | a))
    }
}

struct HuffmanTests {
    @Test func canonicalCodesAreRFC1951s() {
        // RFC 1951 3.2.2's example: lengths (3, 3, 3, 3, 3, 2, 4, 4) give
        // 010, 011, 100, 101, 110, 00, 1110, 1111.
        #expect(Huffman.codes([3, 3, 3, 3, 3, 2, 4, 4]) == [0b010, 0b011, 0b100, 0b101, 0b110, 0b00, 0b1110, 0b1111])
    }

    @Test func lengthsAreLimitedAndComplete() {
        // Fibonacci counts make the deepest optimal code; 15 bits at most.
        var counts = [1, 1]
        while counts.count < 40 { counts.append(counts[counts.count - 1] + counts[counts.count - 2]) }
        let lengths = Huffman.lengths(counts, limit: 15)
        #expect(lengths.max()! <= 15)
        // Kraft: a complete prefix code sums to exactly 1.
        let kraft = lengths.reduce(0.0) { $0 + pow(2, -Double($1)) }
        #expect(abs(kraft - 1) < 1e-12)
        #expect(Huffman.lengths([0, 5, 0], limit: 15) == [0, 1, 0])
    }
}

struct PNGTests {
    @Test func aPNGIsItsChunks() {
        let image = RGBAImage(width: 3, height: 2, pixels: [UInt8](repeating: 7, count: 24))
        let png = PNG.encode(image)
        #expect(Array(png[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        // IHDR: length 13, then width 3, height 2, 8-bit RGBA.
        #expect(Array(png[8..<16]) == [0, 0, 0, 13] + Array("IHDR".utf8))
        #expect(Array(png[16..<29]) == [0, 0, 0, 3, 0, 0, 0, 2, 8, 6, 0, 0, 0])
        #expect(Array(png.suffix(12)) == [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82])   // IEND's well-known CRC
    }

    /// A later APNG frame is the rectangle that changed: two pixels of a 7 × 5
    /// image changed, at (2, 1) and (4, 3), give the rectangle from (2, 1) to
    /// (4, 3), written at that offset with those pixels.
    @Test func aLaterFrameIsTheRectangleThatChanged() {
        let before = RGBAImage(width: 7, height: 5, pixels: [UInt8](repeating: 0, count: 7 * 5 * 4))
        var after = before
        for (x, y) in [(2, 1), (4, 3)] { after.pixels[(y * 7 + x) * 4] = 200; after.pixels[(y * 7 + x) * 4 + 3] = 255 }
        let box = PNG.changed(from: before, to: after)
        #expect(box.x == 2 && box.y == 1 && box.width == 3 && box.height == 3)
        let part = after.cropped(box)
        #expect(part.width == 3 && part.height == 3)
        #expect(Array(part.pixels[0..<4]) == [200, 0, 0, 255] && Array(part.pixels[32..<36]) == [200, 0, 0, 255])
        #expect(part.pixels.enumerated().allSatisfy { ($0.offset == 0 || $0.offset == 3 || $0.offset == 32 || $0.offset == 35) == ($0.element != 0) })

        // The second fcTL: sequence 1, width 3, height 3, x 2, y 1.
        let apng = PNG.encodeAnimation([(before, (10, 1000)), (after, (10, 1000))])
        var fcTLs: [[UInt8]] = []
        var at = 8
        while at + 8 <= apng.count {
            let length = Int(apng[at]) << 24 | Int(apng[at + 1]) << 16 | Int(apng[at + 2]) << 8 | Int(apng[at + 3])
            if Array(apng[(at + 4)..<(at + 8)]) == Array("fcTL".utf8) { fcTLs.append(Array(apng[(at + 8)..<(at + 8 + length)])) }
            at += 12 + length
        }
        #expect(fcTLs.count == 2)
        #expect(Array(fcTLs[1][0..<20]) == [0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1])
        #expect(Array(fcTLs[1][24..<26]) == [0, 0])   // dispose none, blend source
    }

    /// The chunks of an APNG by type, in order.
    func chunks(_ png: [UInt8]) -> [(type: String, data: [UInt8])] {
        var found: [(String, [UInt8])] = [], at = 8
        while at + 8 <= png.count {
            let length = Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3])
            found.append((String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self), Array(png[(at + 8)..<(at + 8 + length)])))
            at += 12 + length
        }
        return found
    }

    /// Frames of at most 256 colours are written with a palette (colour
    /// type 3): PLTE holds each colour, tRNS its alpha, sorted; past 256
    /// colours the frames stay RGBA (colour type 6).
    @Test func fewColoursAreAPalette() {
        let few = RGBAImage(width: 4, height: 1, pixels: [0, 0, 0, 0, 98, 0, 238, 128, 98, 0, 238, 255, 98, 0, 238, 128])
        var other = few
        other.pixels[0..<4] = [98, 0, 238, 64]
        let paletted = chunks(PNG.encodeAnimation([(few, (1, 10)), (other, (1, 10))]))
        #expect(paletted.map(\.type) == ["IHDR", "PLTE", "tRNS", "acTL", "fcTL", "IDAT", "fcTL", "fdAT", "IEND"])
        #expect(paletted[0].data[8...9] == [8, 3])
        #expect(paletted[1].data == [0, 0, 0, 98, 0, 238, 98, 0, 238, 98, 0, 238])
        #expect(paletted[2].data == [0, 64, 128, 255])
        var many = RGBAImage(width: 257, height: 1, pixels: [UInt8](repeating: 255, count: 257 * 4))
        for x in 0..<257 { many.pixels[4 * x] = UInt8(x % 256); many.pixels[4 * x + 1] = UInt8(x / 256) }
        let rgba = chunks(PNG.encodeAnimation([(many, (1, 10))]))
        #expect(rgba.map(\.type) == ["IHDR", "acTL", "fcTL", "IDAT", "IEND"] && rgba[0].data[8...9] == [8, 6])
    }
}

struct GIFPaletteTests {
    /// Replicas must agree on a GIF's bytes (its ETag is made from them), and
    /// a dictionary's order differs between processes: the same colour
    /// counts, kept in two orders, give the same palette.
    @Test func thePaletteDoesNotDependOnTheCountsOrder() {
        var seed: UInt32 = 12345
        var entries: [(UInt32, Int)] = []
        for _ in 0..<3000 {
            seed = seed &* 1_103_515_245 &+ 12345
            // Few reds and greens, so that cuts meet many equal values.
            let rgb = (seed >> 8) % 6 << 16 | (seed >> 12) % 7 << 8 | (seed >> 16) & 0xFF
            entries.append((rgb, Int(seed >> 20) % 50 + 1))
        }
        var small = [UInt32: Int](), large = [UInt32: Int](minimumCapacity: 65536)
        for (rgb, n) in entries { small[rgb, default: 0] += n }
        for (rgb, n) in entries.reversed() { large[rgb, default: 0] += n }
        #expect(small == large)
        #expect(Array(small.keys) != Array(large.keys))   // the orders do differ
        for transparency in [false, true] {
            let a = GIF.palette(small, transparency: transparency), b = GIF.palette(large, transparency: transparency)
            let rgb = { (p: GIF.Palette) in p.colors.map { UInt32($0.0) << 16 | UInt32($0.1) << 8 | UInt32($0.2) } }
            #expect(a.colors.count == 256)   // 255 and the transparent entry, or 256
            #expect(rgb(a) == rgb(b) && a.transparent == b.transparent)
        }
    }
}

struct GIFDeltaTests {
    /// A viewer's canvas through the frames as written (each drawn in its
    /// rectangle, the clear index keeping what is there, then its
    /// rectangle cleared where it is disposed of) shows every frame
    /// exactly: dots that move, appear, vanish and come back, on nothing.
    @Test func theRectanglesOfChangeShowEveryFrame() {
        let w = 23, h = 17, clear: UInt8 = 9
        var seed: UInt32 = 7
        var frames: [GIF.Frame] = []
        for k in 0..<40 {
            var indices = [UInt8](repeating: clear, count: w * h)
            for d in 0..<3 where (k + d) % 5 != 0 {       // each dot gone one frame in five
                seed = seed &* 1_103_515_245 &+ 12345
                let cx = (k * (d + 1) + Int(seed >> 16) % 3) % w, cy = (d * 5 + k / 3) % h
                for y in max(0, cy - 2)...min(h - 1, cy + 2) { for x in max(0, cx - 2)...min(w - 1, cx + 2) { indices[y * w + x] = UInt8(d + k % 2) } }
            }
            frames.append(GIF.Frame(indices: indices, delay: 2))
        }
        let parts = GIF.deltas(width: w, height: h, clear: clear, frames: frames)
        #expect(parts[0].box.width == w && parts[0].box.height == h)
        var canvas = [UInt8](repeating: clear, count: w * h)
        for (k, part) in parts.enumerated() {
            let b = part.box
            #expect(part.indices.count == b.width * b.height && b.x + b.width <= w && b.y + b.height <= h)
            for y in 0..<b.height { for x in 0..<b.width where part.indices[y * b.width + x] != clear { canvas[(b.y + y) * w + b.x + x] = part.indices[y * b.width + x] } }
            #expect(canvas == frames[k].indices, "frame \(k)")
            if part.dispose { for y in b.y..<(b.y + b.height) { for x in b.x..<(b.x + b.width) { canvas[y * w + x] = clear } } }
        }
        // Later frames are smaller than the picture.
        #expect(parts.dropFirst().map { $0.box.width * $0.box.height }.reduce(0, +) < (parts.count - 1) * w * h)
    }
}

/// gzip's framing against RFC 1952's layout (Python's gzip module reads
/// whole answers in Tests/system/gzip_test.py).
struct GzipTests {
    @Test func aMemberIsHeaderDeflateCRCAndSize() {
        let text = Array("123456789".utf8)
        let member = Gzip.compress(text)
        // ID1 ID2, CM 8, no flags, MTIME 0, XFL 0, OS 3.
        #expect(Array(member.prefix(10)) == [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3])
        // Trailer: the published CRC-32 check value of "123456789" and ISIZE 9, little-endian.
        #expect(Array(member.suffix(8)) == [0x26, 0x39, 0xF4, 0xCB, 9, 0, 0, 0])
        #expect(Array(member[10..<(member.count - 8)]) == Deflate.deflate(text))
    }

    @Test func anEmptyBodyIsAnEmptyMember() {
        let member = Gzip.compress([])
        // CRC-32 of nothing is 0, and so is its length.
        #expect(Array(member.suffix(8)) == [0, 0, 0, 0, 0, 0, 0, 0])
        #expect(member.count > 18)
    }
}
