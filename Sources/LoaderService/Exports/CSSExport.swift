import LoaderEngine
import LoaderFormats

/// `animation.css`: a loop as CSS keyframes and rules, with a
/// `prefers-reduced-motion` block of the `motion=reduced` loop.
struct CSSExport: LoopExport {
    let file = "animation.css"
    let title = "CSS"
    let mediaType = "text/css"
    let needsReducedLoop = true
    let operationName = "AnimationCSS"
    func summary(_ label: String, loop: String) -> String {
        "CSS for \(label): @keyframes per element and their rules, from the engine: \(loop); custom properties --ld-color (currentColor, the page's text colour, unless color is given), --ld-speed and --ld-scale on the container; a prefers-reduced-motion block equal to motion=reduced. The markup is animation.html's."
    }
    func write(_ loop: SampledLoop, reduced: SampledLoop?, options: PictureOptions) -> [UInt8] {
        Array(CSSWriter(name: loop.loader.name, normal: loop, reduced: reduced ?? loop, colorGiven: options.colorGiven).css().utf8)
    }
}
