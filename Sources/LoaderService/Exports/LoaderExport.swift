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
    /// What it is made of: a loop of the loader, or one frame at `t`.
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
    func work(_ loader: ConfiguredLoader, duration: Double, options: [String: String]) throws -> Int

    /// The bytes of a loop (`reduced` when `needsReducedLoop`).
    func write(_ loop: SampledLoop, reduced: SampledLoop?, options: [String: String]) -> [UInt8]
    /// The bytes of one frame.
    func write(_ frame: Frame, background: RGBColor?, options: [String: String]) -> [UInt8]
    /// The bytes of the loop's frames: `duration` seconds of `loader` from `start`.
    func write(_ loader: ConfiguredLoader, start: Double, duration: Double, background: RGBColor?, options: [String: String]) -> [UInt8]
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
    /// Checks a value; the message of a refusal.
    let check: @Sendable (String) -> String?
}

extension LoaderExport {
    /// Text types carry their charset.
    var contentType: String { mediaType.hasPrefix("text/") ? mediaType + "; charset=utf-8" : mediaType }
    var options: [ExportOption] { [] }
    var needsReducedLoop: Bool { false }
    var schema: String { #"{"type":"string"}"# }
    var heavy: Bool { source != .frame }
    func work(_ loader: ConfiguredLoader, duration: Double, options: [String: String]) throws -> Int { 0 }
    func write(_ loader: ConfiguredLoader, start: Double, duration: Double, background: RGBColor?, options: [String: String]) -> [UInt8] { [] }
    func write(_ loop: SampledLoop, reduced: SampledLoop?, options: [String: String]) -> [UInt8] { [] }
    func write(_ frame: Frame, background: RGBColor?, options: [String: String]) -> [UInt8] { [] }
}

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
