#if canImport(Glibc)
import Glibc
#endif
import Testing
import LoaderEngine
import Codecs
@testable import Raster

/// The rasteriser against areas known from geometry.
struct RasteriserTests {
    func coverage(_ r: Rasteriser) -> [Double] {
        (0..<(r.width * r.height)).map { Double(r.color[4 * $0 + 3]) }
    }

    @Test func anAxisAlignedRectCoversExactlyItsOverlap() {
        // A 3.3 × 2.6 rect centred at (4.15, 3.05): each pixel's coverage is
        // the overlap of [2.5, 5.8] × [1.75, 4.35] with the pixel's square.
        var r = Rasteriser(width: 8, height: 6, scale: 1, background: nil)
        var e = Element(id: ElementID("r"), shape: .rect, x: 4.15, y: 3.05, diameter: 0, scale: 1, opacity: 1, color: RGBColor(rgb: 0xFFFFFF))
        e.width = 3.3; e.height = 2.6
        r.draw(e)
        let got = coverage(r)
        for y in 0..<6 {
            for x in 0..<8 {
                let ox = max(0, min(Double(x + 1), 5.8) - max(Double(x), 2.5))
                let oy = max(0, min(Double(y + 1), 4.35) - max(Double(y), 1.75))
                #expect(abs(got[y * 8 + x] - ox * oy) < 1e-5, "pixel \(x), \(y)")
            }
        }
    }

    @Test func shapesCoverTheirAreas() {
        // Total coverage is the shape's area (inside the image): circles,
        // a turned square, a ring and its half, a segment.
        func total(_ e: Element, size: Int = 64) -> Double {
            var r = Rasteriser(width: size, height: size, scale: 1, background: nil)
            r.draw(e)
            return coverage(r).reduce(0, +)
        }
        func element(_ shape: Shape, diameter: Double = 0) -> Element {
            Element(id: ElementID("e"), shape: shape, x: 31.7, y: 32.2, diameter: diameter, scale: 1, opacity: 1, color: RGBColor(rgb: 0))
        }
        #expect(abs(total(element(.circle, diameter: 40)) - .pi * 400) < 0.05)
        var square = element(.rect)
        square.width = 20; square.height = 20; square.rotation = 0.3
        #expect(abs(total(square) - 400) < 1e-3)
        var rounded = square
        rounded.cornerRadius = 5                                   // four quarter circles less than the corners
        #expect(abs(total(rounded) - (400 - (4 - .pi) * 25)) < 0.05)
        var ring = element(.ring, diameter: 40)
        ring.lineWidth = 6
        #expect(abs(total(ring) - .pi * (23 * 23 - 17 * 17)) < 0.05)
        ring.strokeStart = 0.125; ring.strokeEnd = 0.625               // half, butt ends
        #expect(abs(total(ring) - .pi * (23 * 23 - 17 * 17) / 2) < 0.05)
        ring.lineCap = .round                                          // two half discs more
        #expect(abs(total(ring) - (.pi * (23 * 23 - 17 * 17) / 2 + .pi * 9)) < 0.05)
        var segment = element(.segment, diameter: 40)
        segment.arc = 2 * .pi / 3                                      // r²/2 (θ − sin θ)
        #expect(abs(total(segment) - 200 * (2 * .pi / 3 - sin(2 * .pi / 3))) < 0.05)
        var triangle = element(.triangle)
        triangle.width = 24; triangle.height = 18; triangle.rotation = 0.7   // base × height / 2
        #expect(abs(total(triangle) - 216) < 1e-3)
        // Half outside the image: only the inside counts.
        var edge = element(.rect)
        edge.x = 0; edge.width = 10; edge.height = 10
        #expect(abs(total(edge) - 50) < 1e-4)
    }

    @Test func anUprightTriangleCoversItsRows() {
        // Apex (8, 2), base from (2, 14) to (14, 14): at height y the row
        // spans 8 ∓ (y − 2) / 2.
        var r = Rasteriser(width: 16, height: 16, scale: 1, background: nil)
        var e = Element(id: ElementID("t"), shape: .triangle, x: 8, y: 8, diameter: 0, scale: 1, opacity: 1, color: RGBColor(rgb: 0xFFFFFF))
        e.width = 12; e.height = 12
        r.draw(e)
        let expected = trueCoverage(size: 16) { y in y < 2 || y > 14 ? nil : (8 - (y - 2) / 2, 8 + (y - 2) / 2) }
        #expect(worst(coverage(r), expected) < 0.003, "worst pixel \(worst(coverage(r), expected))")
    }

    /// Each pixel's area inside a shape whose rows are one span each
    /// (`span(y)`: its left and right at height y, nil outside it),
    /// integrated over 400 heights a pixel.
    func trueCoverage(size: Int, _ span: (Double) -> (Double, Double)?) -> [Double] {
        var area = [Double](repeating: 0, count: size * size)
        for j in 0..<size {
            for k in 0..<400 {
                guard let (lo, hi) = span(Double(j) + (Double(k) + 0.5) / 400) else { continue }
                for i in 0..<size { area[j * size + i] += max(0, min(Double(i + 1), hi) - max(Double(i), lo)) / 400 }
            }
        }
        return area
    }

    /// The span of a disc of radius r about (cx, cy) at height y.
    func discSpan(_ cx: Double, _ cy: Double, _ r: Double) -> (Double) -> (Double, Double)? {
        { y in
            let dy = y - cy
            guard dy * dy < r * r else { return nil }
            let half = (r * r - dy * dy).squareRoot()
            return (cx - half, cx + half)
        }
    }

    func worst(_ got: [Double], _ want: [Double]) -> Double { zip(got, want).map { abs($0 - $1) }.max()! }

    /// A circle far larger than the picture is flattened finely only near
    /// the picture: each pixel still has the area of the true circle in it.
    @Test func aCircleFarLargerThanThePictureCoversWhatTheTrueOneDoes() {
        let size = 12, radius = 100_000.0
        for (cx, cy) in [(6.3, 3.4 + radius), (-radius + 5.2, 6.0), (6.0, 6.0 - radius - 40), (6.0, 6.0)] {
            var r = Rasteriser(width: size, height: size, scale: 1, background: nil)
            r.draw(Element(id: ElementID("c"), shape: .circle, x: cx, y: cy, diameter: 2 * radius, scale: 1, opacity: 1,
                           color: RGBColor(rgb: 0)))
            let off = worst(coverage(r), trueCoverage(size: size, discSpan(cx, cy, radius)))
            #expect(off < 0.003, "centre (\(cx), \(cy)): worst pixel \(off) from the true area")
        }
    }

    /// A rect's corners and a stroke's round ends are arcs too: one far
    /// larger than the picture covers what the true shape does.
    @Test func cornersAndCapsFarLargerThanThePictureCoverWhatTheTrueOnesDo() {
        let size = 12, radius = 100_000.0
        // A rect 3 radii wide and 2 high, corners of one radius, its top right corner's arc across the picture.
        let (w, h) = (3 * radius, 2 * radius)
        let (cx, cy) = (6.3 - w / 2 + radius - radius * sin(0.7), 5.4 + h / 2 - radius + radius * cos(0.7))
        var rect = Element(id: ElementID("r"), shape: .rect, x: cx, y: cy, diameter: 0, scale: 1, opacity: 1, color: RGBColor(rgb: 0))
        rect.width = w; rect.height = h; rect.cornerRadius = radius
        var r = Rasteriser(width: size, height: size, scale: 1, background: nil)
        r.draw(rect)
        let want = trueCoverage(size: size) { y in
            let dy = abs(y - cy)
            guard dy < h / 2 else { return nil }
            // Within a corner's band the side is a quarter circle in.
            let inset = dy > h / 2 - radius ? radius - (radius * radius - pow(dy - (h / 2 - radius), 2)).squareRoot() : 0
            return (cx - w / 2 + inset, cx + w / 2 - inset)
        }
        #expect(worst(coverage(r), want) < 0.003, "rounded corner: worst pixel \(worst(coverage(r), want))")
        // A ring of no radius trimmed to a sliver, its ends round: two half discs of half its line width, one disc.
        var ring = Element(id: ElementID("g"), shape: .ring, x: 5.7, y: 6.2 + radius, diameter: 0, scale: 1, opacity: 1, color: RGBColor(rgb: 0))
        ring.lineWidth = 2 * radius; ring.strokeStart = 0; ring.strokeEnd = 1e-12; ring.lineCap = .round
        var c = Rasteriser(width: size, height: size, scale: 1, background: nil)
        c.draw(ring)
        let disc = trueCoverage(size: size, discSpan(5.7, 6.2 + radius, radius))
        #expect(worst(coverage(c), disc) < 0.003, "round ends: worst pixel \(worst(coverage(c), disc))")
    }

    @Test func compositingIsSourceOverInSRGB() {
        // 50 % red over opaque blue: (0.5, 0, 0.5) in sRGB values, as browsers blend.
        var r = Rasteriser(width: 4, height: 4, scale: 1, background: RGBColor(rgb: 0x0000FF))
        var e = Element(id: ElementID("r"), shape: .rect, x: 2, y: 2, diameter: 0, scale: 1, opacity: 0.5, color: RGBColor(rgb: 0xFF0000))
        e.width = 4; e.height = 4
        r.draw(e)
        let px = r.image.pixels
        #expect(Array(px[0..<4]) == [128, 0, 128, 255] || Array(px[0..<4]) == [127, 0, 128, 255])
        // On nothing: the colour itself at half alpha (not premultiplied).
        var clear = Rasteriser(width: 4, height: 4, scale: 2, background: nil)
        e.x = 1; e.y = 1; e.width = 2; e.height = 2
        clear.draw(e)
        #expect(Array(clear.image.pixels[0..<4]) == [255, 0, 0, 128])
    }
}
