import LoaderEngine
import LoaderFormats

/// `animation.json`: a loop as a Lottie document, for lottie-web,
/// lottie-ios, lottie-android and rlottie.
struct LottieExport: LoopExport {
    let file = "animation.json"
    let title = "Lottie"
    let mediaType = "application/json"
    let operationName = "AnimationLottie"
    let schema = #"{"type":"object","required":["ver","fr","ip","op","w","h","layers"]}"#
    func summary(_ label: String, loop: String) -> String {
        "A Lottie document (Lottie specification 1.0, \"ver\": 10000) of \(label) sampled from the engine: \(loop); frame f shows the engine's frame at from + f/fr. Plays in lottie-web, lottie-ios, lottie-android and rlottie."
    }
    func write(_ loop: SampledLoop, reduced: SampledLoop?, options: PictureOptions) -> [UInt8] { Lottie.document(loop) }
}
