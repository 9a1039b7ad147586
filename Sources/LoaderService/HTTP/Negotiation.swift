import HTTPServer

/// `Accept` handling: what a client says it can take.
enum Negotiation {
    /// Media ranges with q > 0, lower-cased, parameters dropped.
    static func ranges(_ header: String?) -> [String]? {
        guard let header, !header.trimmingSpaces.isEmpty else { return nil }
        var out = [String]()
        for part in header.split(separator: ",") {
            let pieces = part.split(separator: ";").map { $0.trimmingSpaces.lowercased() }
            guard let range = pieces.first, !range.isEmpty else { continue }
            let q = pieces.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if q > 0 { out.append(range) }
        }
        return out
    }

    static func accepts(_ request: HTTPRequest, _ type: String) -> Bool {
        guard let ranges = ranges(request.headers["accept"]) else { return true }
        let major = type.split(separator: "/").first.map(String.init) ?? type
        return ranges.contains { $0 == type || $0 == "*/*" || $0 == major + "/*" }
    }

    /// Whether the client asks for an event stream (what EventSource sends).
    static func wantsEventStream(_ request: HTTPRequest) -> Bool {
        ranges(request.headers["accept"])?.contains("text/event-stream") ?? false
    }

    /// A request body that is not JSON (by its Content-Type, when it has
    /// one) is a 415: "the body must be <what>".
    static func requireJSONBody(_ request: HTTPRequest, _ what: String = "application/json") throws {
        if let type = request.headers["content-type"], !type.lowercased().hasPrefix("application/json") {
            throw ServiceError(.unsupportedMediaType, "unsupported_media_type", "the body must be \(what)")
        }
    }

    static func requireEventStream(_ request: HTTPRequest) throws {
        guard accepts(request, "text/event-stream") else {
            throw ServiceError.notAcceptable("text/event-stream")
        }
    }

    static func requireJSON(_ request: HTTPRequest) throws {
        guard accepts(request, "application/json") else {
            throw ServiceError.notAcceptable("application/json")
        }
    }
}
