import EventLoop
/// Answers requests. Called on the connection's event loop: return quickly;
/// use `HTTPResponse.deferred` for anything slow.
public protocol HTTPResponder: Sendable {
    func respond(to request: HTTPRequest, context: RequestContext) -> HTTPResponse

    /// The answer to a request the server itself refuses (malformed, too
    /// large, too slow, too many connections). Plain text unless overridden.
    func errorResponse(status: HTTPStatus, message: String) -> HTTPResponse

    /// State the responder keeps per event loop (caches touched only there),
    /// made once for each loop by whoever runs the loops and handed back in
    /// every `RequestContext` of that loop. Nil by default.
    func makeLoopStorage(for loop: EventLoop) -> AnyObject?
}

extension HTTPResponder {
    public func errorResponse(status: HTTPStatus, message: String) -> HTTPResponse {
        .text(status, message)
    }

    public func makeLoopStorage(for loop: EventLoop) -> AnyObject? { nil }
}
