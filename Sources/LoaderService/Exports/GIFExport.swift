import LoaderEngine
import Codecs
import Raster

/// `animation.gif`: the loop as an animated GIF that loops for ever: one
/// palette for the loop, transparent where nothing is drawn (unless the
/// loader has a background), edges blended against `matte` when given;
/// delays in hundredths of a second that add up to the loop's length.
struct GIFExport: FramesExport {
    let file = "animation.gif"
    let title = "Animated GIF"
    let mediaType = "image/gif"
    let operationName = "AnimationGIF"
    let options = [
        PictureSize.dprOption(default: FrameTimes.defaultDPR), FrameTimes.fpsOption(max: 50),
        ExportOption(name: "matte", summary: "A colour (#RRGGBB) to blend partly covered pixels against, for a page of that colour; without it a pixel at least half covered shows its colour, and the rest is transparent.",
                     schema: #"{"type":"string","pattern":"^#?[0-9A-Fa-f]{6}$"}"#) { value, options in
            guard let matte = RGBColor(parsing: value) else { return "matte must be a colour, #RRGGBB" }
            options.matte = matte
            return nil
        },
    ]
    func summary(_ label: String, loop: String) -> String {
        "An animated GIF of \(label): \(loop), at fps frames a second (default 30, at most 50: browsers slow faster GIFs; without fps, fewer where a long or large loop would pass a limit: the Loader-Frame-Rate header says the rate drawn) and dpr pixels a point (default 1, the canvas); one palette of at most 256 colours; frames that repeat are one longer frame. Loops for ever. At most \(FrameTimes.maxPixelFrames) pixels over all its frames."
    }
    /// Frames drawn for the palette are kept for writing up to this many
    /// pixels in all (16 MB); a longer loop's are drawn again.
    static let keptPixels = 4_000_000

    func work(_ loader: ConfiguredLoader, duration: Double, options: PictureOptions) throws(ServiceError) -> Int {
        let size = try PictureSize(loader, options)
        // Each frame is drawn twice (once for the palette, once to write) where they are not kept.
        return 2 * size.work(frames: try FrameTimes(duration: duration, options: options, size: size).count)
    }
    func write(_ loader: ConfiguredLoader, start: Double, duration: Double, background: RGBColor?, options: PictureOptions) throws(ExportFailure) -> [UInt8] {
        let (size, times) = try FrameTimes.checked(loader, duration: duration, options: options)
        let scale = PictureSize.dpr(options)
        let matte = options.matte
        /// A pixel as a GIF shows it: a colour, or nothing (nil).
        @Sendable func shown(_ px: ArraySlice<UInt8>) -> UInt32? {
            let i = px.startIndex
            let a = Int(px[i + 3])
            if background != nil || a == 255 { return UInt32(px[i]) << 16 | UInt32(px[i + 1]) << 8 | UInt32(px[i + 2]) }
            guard a > 0 else { return nil }
            if let matte {
                let blend = { (c: UInt8, m: UInt32) in UInt32((Double(c) * Double(a) + Double(m) * Double(255 - a)) / 255 + 0.5) }
                return blend(px[i], matte.rgb >> 16) << 16 | blend(px[i + 1], matte.rgb >> 8 & 0xFF) << 8 | blend(px[i + 2], matte.rgb & 0xFF)
            }
            return a >= 128 ? UInt32(px[i]) << 16 | UInt32(px[i + 1]) << 8 | UInt32(px[i + 2]) : nil
        }
        @Sendable func image(_ i: Int) -> RGBAImage { Rasteriser.image(loader.frame(at: start + times.time(i)), scale: scale, background: background) }
        // The palette from every frame's colours (counted a run of one colour
        // at a time), then the frames in it. The frames drawn for the palette
        // are kept for the second pass when they fit in `keptPixels`. Frames
        // are drawn, counted and put in the palette apart from each other.
        let keep = times.count * size.width * size.height <= Self.keptPixels
        let kept: [RGBAImage] = keep ? concurrentMap(times.count, image) : []
        let perFrame = concurrentMap(times.count) { i in
            let px = keep ? kept[i].pixels : image(i).pixels
            var counts: [UInt32: Int] = [:]
            var transparency = false
            var run: (color: UInt32?, count: Int) = (nil, 0)
            for p in stride(from: 0, to: px.count, by: 4) {
                let c = shown(px[p..<(p + 4)])
                if c == run.color { run.count += 1; continue }
                if let color = run.color { counts[color, default: 0] += run.count } else if run.count > 0 { transparency = true }
                run = (c, 1)
            }
            if let color = run.color { counts[color, default: 0] += run.count } else if run.count > 0 { transparency = true }
            return (counts: counts, transparency: transparency)
        }
        var counts: [UInt32: Int] = [:]
        for frame in perFrame { counts.merge(frame.counts, uniquingKeysWith: +) }
        // A transparent entry also where nothing is clear: later frames keep what stays with it.
        var palette = GIF.palette(counts, transparency: times.count > 1 || perFrame.contains { $0.transparency })
        palette.learn(counts.keys)
        let indexed = concurrentMap(times.count) { [palette] i in
            let px = keep ? kept[i].pixels : image(i).pixels
            var palette = palette   // its cache of the last colour is each frame's own
            var indices = [UInt8](repeating: 0, count: px.count / 4)
            for p in stride(from: 0, to: px.count, by: 4) { indices[p / 4] = palette.index(shown(px[p..<(p + 4)])) }
            return indices
        }
        var frames: [GIF.Frame] = []
        for (indices, delay) in zip(indexed, times.delays(unitsPerSecond: 100)) {
            if let last = frames.last, last.indices == indices {
                frames[frames.count - 1].delay += delay
            } else {
                frames.append(GIF.Frame(indices: indices, delay: delay))
            }
        }
        return GIF.encode(width: size.width, height: size.height, palette: palette, frames: frames)
    }
}
