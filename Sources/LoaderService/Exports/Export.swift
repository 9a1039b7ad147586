import LoaderEngine

extension LoaderService {
    /// A loop of a loader, written as an export.
    enum Export: String {
        /// `animation.svg`: a self-contained SVG (SMIL).
        case svg
        /// `animation.json`: a Lottie document.
        case lottie
        /// `animation.css`: keyframes and rules.
        case css
        /// `animation.html`: the CSS and its markup, to paste into a page.
        case html

        /// The media type, as `Accept` names it.
        var mediaType: String {
            switch self {
            case .svg: return "image/svg+xml"
            case .lottie: return "application/json"
            case .css: return "text/css"
            case .html: return "text/html"
            }
        }

        var contentType: String { self == .css || self == .html ? mediaType + "; charset=utf-8" : mediaType }

        /// Query names this export takes besides the loader's and `from`.
        var ownQueryNames: Set<String> { self == .html ? ["label"] : [] }

        func body(_ definition: LoaderDefinition, _ items: [(name: String, value: String)], from: Double?, label: String?) throws -> [UInt8] {
            let loop = try SVGAnimation.loop(for: definition, parameters: items, from: from)
            switch self {
            case .svg: return loop.svg
            case .lottie: return Lottie.document(loop)
            case .css, .html:
                let reduced = try SVGAnimation.loop(for: definition, parameters: items.filter { $0.name != "motion" } + [("motion", "reduced")], from: from)
                let export = CSSExport(name: definition.name, normal: loop, reduced: reduced)
                return Array((self == .css ? export.css() : export.html(label: label ?? "Loading")).utf8)
            }
        }
    }
}
