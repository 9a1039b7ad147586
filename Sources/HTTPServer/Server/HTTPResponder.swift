/// Answers requests. Called on the connection's event loop: return quickly;
/// use `HTTPResponse.deferred` for anything slow.
public protocol HTTPResponder: Sendable {
    func respond(to request: HTTPRequest, context: RequestContext) -> HTTPResponse

    /// The answer to a request the server itself refuses (malformed, too
    /// large, too slow, too many connections). Plain text unless overridden.
    func errorResponse(status: HTTPStatus, message: String) -> HTTPResponse
}

extension HTTPResponder {
    public func errorResponse(status: HTTPStatus, message: String) -> HTTPResponse {
        .text(status, message)
    }
}
