import HTTPServer

/// `Accept` handling: what a client says it can take.
enum Negotiation {
    /// (`Accept` is parsed once per request: `HTTPRequest.accept`.)
    static func accepts(_ request: HTTPRequest, _ type: String) -> Bool { request.accept.accepts(type) }

    /// Whether the client asks for an event stream (what EventSource sends).
    static func wantsEventStream(_ request: HTTPRequest) -> Bool { request.accept.names("text/event-stream") }

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
