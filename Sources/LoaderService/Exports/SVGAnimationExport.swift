import LoaderEngine
import LoaderFormats

/// `animation.svg`: a loop as a self-contained animated SVG (SMIL), which
/// loops in an `<img>` with no JavaScript.
struct SVGAnimationExport: LoopExport {
    let file = "animation.svg"
    let title = "Animated SVG"
    let mediaType = "image/svg+xml"
    let operationName = "AnimationSVG"
    func summary(_ label: String, loop: String) -> String {
        "A self-contained animated SVG (SMIL) of \(label) sampled from the engine: \(loop); loops in an <img>. Width, height and viewBox are the canvas; elements that reach past it stay visible (overflow=\"visible\")."
    }
    func write(_ loop: SampledLoop, reduced: SampledLoop?, options: PictureOptions) -> [UInt8] { SVG.animation(loop) }
}
