import LoaderEngine

/// One way of serving a loader as a file at `/loaders/{name}/<file>`: a
/// loop (from `SampledLoop`) or one frame, written in one format. The list
/// `LoaderService.exports` drives the routes, `/openapi.json`, caching,
/// `GET /loaders/{name}`'s links and the demo page's downloads: adding an
/// export is a type like these and a line in that list.
protocol LoaderExport: Sendable {
    /// The last segment of its path (`animation.svg`).
    var file: String { get }
    /// What the demo page calls it (`Animated SVG`).
    var title: String { get }
    /// As `Accept` names it (`image/svg+xml`).
    var mediaType: String { get }
    /// What it is made of: a loop of the loader, or one frame at `t` (given
    /// by the kind it is: `FrameExport`, `LoopExport`, `FramesExport`).
    var source: ExportSource { get }
    /// Query names it takes besides the loader's parameters and `from`
    /// (or `t` and the events).
    var options: [ExportOption] { get }
    /// Whether it also needs the loop with `motion=reduced` (CSS's media query).
    var needsReducedLoop: Bool { get }
    /// `/openapi.json`: the operation id's last part (`AnimationSVG`), and
    /// the summary for a subject (`label` names it, `loop` says what loops).
    var operationName: String { get }
    func summary(_ label: String, loop: String) -> String
    /// The 200 answer's schema.
    var schema: String { get }
    /// Whether it is built off the event loop (and may be refused as
    /// heavy work is: 429, 503).
    var heavy: Bool { get }

    /// Refuses what would cost too much before any work starts, and says
    /// how much work it takes besides sampling a loop (in frame-cost units,
    /// docs/LOADERS.md): 0 for an answer light enough to make on the event
    /// loop. `duration` is the loop's (0 for one frame).
    func work(_ loader: ConfiguredLoader, duration: Double, options: PictureOptions) throws(ServiceError) -> Int
}

// Each kind of export has its one `write`, with no default: a type that
// forgets it does not compile, where a default once answered an empty 200.

/// An export of one frame at `t`.
protocol FrameExport: LoaderExport {
    func write(_ frame: Frame, background: RGBColor?, options: PictureOptions) throws(ExportFailure) -> [UInt8]
}

/// An export of a loop sampled from the engine (`reduced` when `needsReducedLoop`).
protocol LoopExport: LoaderExport {
    func write(_ loop: SampledLoop, reduced: SampledLoop?, options: PictureOptions) throws(ExportFailure) -> [UInt8]
}

/// An export of the loop's frames: `duration` seconds of `loader` from `start`.
protocol FramesExport: LoaderExport {
    func write(_ loader: ConfiguredLoader, start: Double, duration: Double, background: RGBColor?,
               options: PictureOptions) throws(ExportFailure) -> [UInt8]
}

/// Why a build that passed its checks made no bytes: answered as a 500
/// that names the export, and logged with this reason.
struct ExportFailure: Error {
    let reason: String
}

enum ExportSource {
    /// A loop from `from` (default: once every element has started).
    case loop
    /// The loop's frames at a frame rate, from `from`.
    case frames
    /// One frame at `t`, with the loader's events.
    case frame
}

/// A query name an export takes of its own.
struct ExportOption: Sendable {
    let name: String
    let summary: String
    let schema: String
    /// Checks a value and keeps it in the options; the message of a refusal.
    let parse: @Sendable (String, inout PictureOptions) -> String?
}

/// A request's export options, parsed and checked once from its query and
/// passed down as numbers and colours (never as text again).
struct PictureOptions: Sendable {
    /// Pixels a point, when asked (or sized by the service).
    var dpr: Double?
    /// Frames a second, when asked (or sized by the service).
    var fps: Double?
    /// GIF's colour to blend edges against.
    var matte: RGBColor?
    /// HTML's container label.
    var label: String?
    /// Whether the loader's `color` is in the query (CSS and HTML paint in
    /// the page's colour otherwise).
    var colorGiven = false
}

extension LoaderExport {
    /// Text types carry their charset.
    var contentType: String { mediaType.hasPrefix("text/") ? mediaType + "; charset=utf-8" : mediaType }
    var options: [ExportOption] { [] }
    var needsReducedLoop: Bool { false }
    var schema: String { #"{"type":"string"}"# }
    var heavy: Bool { source != .frame }
    func work(_ loader: ConfiguredLoader, duration: Double, options: PictureOptions) throws(ServiceError) -> Int { 0 }
    /// Whether `name` is one of its own query names.
    func takes(_ name: String) -> Bool { options.contains { $0.name == name } }
}

extension FrameExport { var source: ExportSource { .frame } }
extension LoopExport { var source: ExportSource { .loop } }
extension FramesExport { var source: ExportSource { .frames } }

extension LoaderService {
    /// Every export, in the order links and `/openapi.json` list them.
    static let exports: [any LoaderExport] = [
        SVGFrameExport(),
        PNGFrameExport(),
        AnimatedPNGExport(),
        GIFExport(),
        SVGAnimationExport(),
        LottieExport(),
        CSSExport(),
        HTMLExport(),
    ]
}
