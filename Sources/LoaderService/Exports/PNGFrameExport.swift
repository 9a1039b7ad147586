import LoaderEngine
import Codecs
import LoaderFormats
import Raster

/// `frames.png`: one frame as a PNG, at the canvas size times `dpr` pixels
/// (1 to 4, default 2), on the loader's background or transparent.
struct PNGFrameExport: FrameExport {
    let file = "frames.png"
    let title = "PNG frame"
    let mediaType = "image/png"
    let operationName = "FramePNG"
    let heavy = true
    let options = [PictureSize.dprOption(default: 2)]
    func summary(_ label: String, loop: String) -> String {
        "One \(label) frame as a PNG of the canvas × dpr pixels (8-bit RGBA; each pixel's coverage computed from the shapes' geometry), on the loader's background or transparent. At most \(PictureSize.maxPixels) pixels."
    }
    func work(_ loader: ConfiguredLoader, duration: Double, options: PictureOptions) throws(ServiceError) -> Int {
        try PictureSize(loader, options).work(frames: 1)
    }
    func write(_ frame: Frame, background: RGBColor?, options: PictureOptions) -> [UInt8] {
        PNG.encode(Rasteriser.image(frame, scale: PictureSize.dpr(options), background: background))
    }
}

/// The size of a picture made of pixels, checked before any is drawn.
struct PictureSize {
    /// The most pixels one picture (one frame) may have.
    static let maxPixels = 2_000_000

    /// `dpr`, 1 to 4: 2 unless asked for `frames.png`, 1 for the animations.
    static func dprOption(default value: Double) -> ExportOption {
        ExportOption(
            name: "dpr", summary: "Pixels per point: 1 to 4 (default \(SVG.n(value))).",
            schema: #"{"type":"number","minimum":1,"maximum":4}"#) { value, options in
                guard let v = Double(value), v.isFinite, (1...4).contains(v) else { return "dpr must be a number from 1 to 4" }
                options.dpr = v
                return nil
            }
    }

    static func dpr(_ options: PictureOptions) -> Double { options.dpr ?? 2 }

    let width: Int, height: Int
    let frameCost: Int

    /// Drawing `frames` frames and encoding them: per frame, its cost, and
    /// as much again per 24 pixels (an element's cells can cover them all,
    /// and compositing one measures about 3.5 ns a pixel, a unit about
    /// 80 ns), and a unit per 4 pixels drawn and encoded (measured: about
    /// 20 ns a pixel).
    func work(frames: Int) -> Int {
        let pixels = width * height
        let (w, overflow) = frames.multipliedReportingOverflow(by: frameCost * (1 + pixels / 24) + pixels / 4)
        return overflow ? .max : max(1, w)
    }

    init(_ loader: ConfiguredLoader, _ options: PictureOptions) throws(ServiceError) {
        let scale = Self.dpr(options)
        width = Rasteriser.pixels(loader.width, scale)
        height = Rasteriser.pixels(loader.height, scale)
        let pixels = width * height
        guard loader.width * scale * loader.height * scale <= Double(Self.maxPixels) * 1.01, pixels <= Self.maxPixels else {
            throw ServiceError(.badRequest, "too_large",
                               "the picture would be \(width) × \(height) pixels; at most \(Self.maxPixels) pixels (a smaller dpr or scale)")
        }
        frameCost = max(1, loader.frameCost)
    }
}
