import LoaderEngine
import Codecs
import LoaderFormats
import Raster

/// `animation.png`: the loop as an animated PNG (APNG), full alpha, at
/// `fps` frames a second (default 30) and `dpr` pixels a point (default 1).
struct AnimatedPNGExport: FramesExport {
    let file = "animation.png"
    let title = "Animated PNG"
    let mediaType = "image/png"
    let operationName = "AnimationPNG"
    let options = [PictureSize.dprOption(default: FrameTimes.defaultDPR), FrameTimes.fpsOption(max: 60)]
    func summary(_ label: String, loop: String) -> String {
        "An animated PNG (APNG: 8-bit RGBA, or 8-bit indices into a palette with alphas where it holds at most 256 colours) of \(label): \(loop), at fps frames a second (default 30; without fps, fewer where a long or large loop would pass a limit: the Loader-Frame-Rate header says the rate drawn) and dpr pixels a point (default 1, the canvas); frames that repeat are one longer frame. Loops for ever. At most \(FrameTimes.maxPixelFrames) pixels over all its frames."
    }
    func work(_ loader: ConfiguredLoader, duration: Double, options: PictureOptions) throws(ServiceError) -> Int {
        let size = try PictureSize(loader, options)
        return size.work(frames: try FrameTimes(duration: duration, options: options, size: size).count)
    }
    func write(_ loader: ConfiguredLoader, start: Double, duration: Double, background: RGBColor?, options: PictureOptions) throws(ExportFailure) -> [UInt8] {
        let (_, times) = try FrameTimes.checked(loader, duration: duration, options: options)
        var frames: [(image: RGBAImage, delay: (UInt16, UInt16))] = []
        let scale = PictureSize.dpr(options)
        let images = concurrentMap(times.count) { i in
            Rasteriser.image(loader.frame(at: start + times.time(i)), scale: scale, background: background)
        }
        for (image, delay) in zip(images, times.delays(unitsPerSecond: 1000)) {
            if let last = frames.last, last.image == image {
                frames[frames.count - 1].delay.0 += UInt16(delay)
            } else {
                frames.append((image, (UInt16(delay), 1000)))
            }
        }
        return PNG.encodeAnimation(frames)
    }
}

/// When a loop's frames are drawn: `count` frames evenly over its length,
/// as near `fps` a second as divides it evenly, and each frame's delay in
/// whole units, rounded so that the delays add up to the loop's length.
struct FrameTimes {
    /// Pixels times frames, at most: what one animation may draw.
    static let maxPixelFrames = 12_000_000

    static func fpsOption(max: Int) -> ExportOption {
        ExportOption(name: "fps", summary: "Frames a second: 1 to \(max) (default 30, fewer where a long or large loop would pass a limit).",
                     schema: #"{"type":"number","minimum":1,"maximum":\#(max)}"#) { value, options in
            guard let v = Double(value), v.isFinite, (1...Double(max)).contains(v) else { return "fps must be a number from 1 to \(max)" }
            options.fps = v
            return nil
        }
    }

    let duration: Double
    let count: Int

    init(duration: Double, options: PictureOptions, size: PictureSize) throws(ServiceError) {
        self.duration = duration
        count = Self.count(duration, options)
        guard count * size.width * size.height <= Self.maxPixelFrames else {
            throw ServiceError(.badRequest, "too_large",
                               "the animation would be \(count) frames of \(size.width) × \(size.height) pixels; at most \(Self.maxPixelFrames) pixels in all (a lower fps, dpr or scale)")
        }
    }

    static func count(_ duration: Double, _ options: PictureOptions) -> Int {
        max(1, Int((duration * (options.fps ?? defaultFPS)).rounded()))
    }

    /// The size and the frames of a build whose `work` was checked: a
    /// failure here is the service's own (a 500 naming the export).
    static func checked(_ loader: ConfiguredLoader, duration: Double, options: PictureOptions) throws(ExportFailure) -> (PictureSize, FrameTimes) {
        do {
            let size = try PictureSize(loader, options)
            return (size, try FrameTimes(duration: duration, options: options, size: size))
        } catch {
            throw ExportFailure(reason: error.message)
        }
    }

    /// Frames a second unless asked: the same for APNG and GIF.
    static let defaultFPS = 30.0
    /// Pixels a point unless asked: the canvas's own size, as an `<img>`
    /// of the SVG or the CSS lays out.
    static let defaultDPR = 1.0

    /// Without `fps`, the most bytes an animation should weigh: one
    /// heavier is drawn again with fewer frames (`lighter`).
    static let maxDefaultBytes = 300_000

    /// The options with `dpr` and `fps` given, sized once by the service
    /// for the check and the build alike. `dpr` is 1 unless asked, never
    /// lowered: a picture is never smaller than the canvas. `fps` is 30
    /// unless asked; where a long or large loop would pass
    /// `maxPixelFrames`, or its `work` (of the options) `maxWork`, the
    /// frames are fewer instead (as many as fit, at least one), and `fps`
    /// is their count over the loop's length. An `fps` or `dpr` asked is
    /// kept, and past a limit refused.
    static func sized(_ loader: ConfiguredLoader, duration: Double, _ options: PictureOptions, maxWork: Int,
                      work: (_ options: PictureOptions) throws(ServiceError) -> Int) -> PictureOptions {
        var sized = options
        if sized.dpr == nil { sized.dpr = defaultDPR }
        guard options.fps == nil, duration > 0 else { return sized }
        sized.fps = defaultFPS
        guard let size = try? PictureSize(loader, sized) else { return sized }
        var frames = min(count(duration, sized), max(1, maxPixelFrames / max(size.width * size.height, 1)))
        // Work grows as the frames: one step lands at or under the limit,
        // a second where rounding left it over.
        for _ in 0..<3 {
            sized.fps = Double(frames) / duration
            guard frames > 1, let cost = try? work(sized), cost > maxWork else { break }
            frames = max(1, min(frames - 1, Int(Double(frames) * Double(maxWork) / Double(cost))))
        }
        return sized
    }

    /// After a build of `bytes` without `fps` asked: where it weighs more
    /// than `maxDefaultBytes`, the options with fewer frames, in
    /// proportion and a tenth under, to build again (the service does
    /// while all its builds' work stays within `maxWorkPerRequest`).
    static func lighter(_ options: PictureOptions, bytes: Int, duration: Double) -> PictureOptions? {
        let frames = count(duration, options)
        guard bytes > maxDefaultBytes, frames > 1, duration > 0 else { return nil }
        var lighter = options
        let fewer = max(1, min(frames - 1, Int(Double(frames) * 0.9 * Double(maxDefaultBytes) / Double(bytes))))
        lighter.fps = Double(fewer) / duration
        return lighter
    }

    /// The `Loader-Frame-Rate` header's value: the frames over the loop's
    /// length, to two decimals (`30`, `11.25`).
    static func rate(duration: Double, _ options: PictureOptions) -> String {
        guard duration > 0 else { return "0" }
        return SVG.fixed(Double(count(duration, options)) / duration, decimals: 2)
    }

    /// Frame i's time from the loop's start.
    func time(_ i: Int) -> Double { duration * Double(i) / Double(count) }

    /// Each frame's delay in units (1,000 a second: ms; 100: GIF's
    /// hundredths), rounded where the running total falls: they add up to
    /// the loop's length in units exactly.
    func delays(unitsPerSecond: Double) -> [Int] {
        let total = duration * unitsPerSecond
        return (0..<count).map { i in
            Int((total * Double(i + 1) / Double(count)).rounded()) - Int((total * Double(i) / Double(count)).rounded())
        }
    }
}
