import LoaderEngine
import LoaderFormats

/// `frames.svg`: one frame as SVG on the loader's background, the size of
/// the canvas; what reaches past it shows (`overflow="visible"`).
struct SVGFrameExport: FrameExport {
    let file = "frames.svg"
    let title = "SVG frame"
    let mediaType = "image/svg+xml"
    let operationName = "FrameSVG"
    func summary(_ label: String, loop: String) -> String {
        "One \(label) frame as SVG on the loader's background: width, height and viewBox are the canvas, and elements that reach past it stay visible (overflow=\"visible\")."
    }
    func write(_ frame: Frame, background: RGBColor?, options: PictureOptions) -> [UInt8] { SVG.frame(frame, background: background) }
}
