import LoaderEngine
import Raster

/// `animation.png`: the loop as an animated PNG (APNG), full alpha, at
/// `fps` frames a second (default 50) and `dpr` pixels a point.
struct AnimatedPNGExport: LoaderExport {
    let file = "animation.png"
    let title = "Animated PNG"
    let mediaType = "image/png"
    let source = ExportSource.frames
    let operationName = "AnimationPNG"
    let options = [PictureSize.dprOption, FrameTimes.fpsOption(max: 60)]
    func summary(_ label: String, loop: String) -> String {
        "An animated PNG (APNG, 8-bit RGBA) of \(label): \(loop), at fps frames a second (default 50) and dpr pixels a point (default 2, lowered to fit a long or large loop within the limit); frames that repeat are one longer frame. Loops for ever. At most \(FrameTimes.maxPixelFrames) pixels over all its frames."
    }
    func work(_ loader: ConfiguredLoader, duration: Double, options: [String: String]) throws -> Int {
        let size = try PictureSize(loader, options)
        return size.work(frames: try FrameTimes(duration: duration, options: options, size: size).count)
    }
    func write(_ loader: ConfiguredLoader, start: Double, duration: Double, background: RGBColor?, options: [String: String]) -> [UInt8] {
        guard let size = try? PictureSize(loader, options),
              let times = try? FrameTimes(duration: duration, options: options, size: size) else { return [] }
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
        ExportOption(name: "fps", summary: "Frames a second: 1 to \(max) (default 50).",
                     schema: #"{"type":"number","minimum":1,"maximum":\#(max)}"#) { value in
            guard let v = Double(value), v.isFinite, (1...Double(max)).contains(v) else { return "fps must be a number from 1 to \(max)" }
            return nil
        }
    }

    let duration: Double
    let count: Int

    init(duration: Double, options: [String: String], size: PictureSize) throws {
        self.duration = duration
        count = Self.count(duration, options)
        guard count * size.width * size.height <= Self.maxPixelFrames else {
            throw ServiceError(.badRequest, "too_large",
                               "the animation would be \(count) frames of \(size.width) × \(size.height) pixels; at most \(Self.maxPixelFrames) pixels in all (a lower fps, dpr or scale)")
        }
    }

    static func count(_ duration: Double, _ options: [String: String]) -> Int {
        max(1, Int((duration * (options["fps"].flatMap(Double.init) ?? 50)).rounded()))
    }

    /// The options with `dpr` given: 2 unless asked, lowered (to no less
    /// than 0.5) where a long or large loop would pass `maxPixelFrames`, or
    /// its `work` (of the options) `maxWork`. The service sizes them once,
    /// for the check and the build alike.
    static func sized(_ loader: ConfiguredLoader, duration: Double, _ options: [String: String], maxWork: Int,
                      work: (_ options: [String: String]) throws -> Int) -> [String: String] {
        guard options["dpr"] == nil else { return options }
        let frames = Double(count(duration, options))
        let fit = (Double(maxPixelFrames) / (frames * max(loader.width * loader.height, 1))).squareRoot() * 0.98
        var dpr = min(2, max(0.5, (fit * 100).rounded(.down) / 100))
        var sized = options
        // Work grows about as the pixels, as dpr squared (less the frames'
        // own cost): each step lands at or just under the limit.
        for _ in 0..<4 {
            sized["dpr"] = String(dpr)
            guard dpr > 0.5, let cost = try? work(sized), cost > maxWork else { break }
            dpr = max(0.5, ((dpr * (Double(maxWork) / Double(cost)).squareRoot() * 0.98) * 100).rounded(.down) / 100)
        }
        return sized
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
