import LoaderEngine

/// `frames.svg`: one frame as SVG on the loader's background; the viewBox
/// holds every element.
struct SVGFrameExport: LoaderExport {
    let file = "frames.svg"
    let title = "SVG frame"
    let mediaType = "image/svg+xml"
    let source = ExportSource.frame
    let operationName = "FrameSVG"
    func summary(_ label: String, loop: String) -> String {
        "One \(label) frame as SVG on the loader's background; the viewBox holds every element."
    }
    func write(_ frame: Frame, background: RGBColor?, options: [String: String]) -> [UInt8] { SVG.frame(frame, background: background) }
}
