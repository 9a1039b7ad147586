import HTTPServer
import LoaderEngine
import LoaderSessions

/// An error answered as `{"error":{"status":…,"code":…,"message":…}}`.
public struct ServiceError: Error, Sendable {
    public let status: HTTPStatus
    public let code: String
    public let message: String
    /// Extra headers (`Allow` on 405).
    public var headers: HTTPResponseHeaders = [:]
    /// Where in a request body the problem is (a JSON path), when known.
    public var path: String?

    public init(_ status: HTTPStatus, _ code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    public init(_ error: ParameterError) {
        self.init(.badRequest, error.code.rawValue, error.message)
    }

    /// A loader definition that cannot be used: 400 with its path.
    init(_ error: DefinitionError) {
        self.init(.badRequest, "invalid_definition", error.description)
        path = error.path
    }

    static func invalid(_ message: String) -> ServiceError { ServiceError(.badRequest, "invalid_parameter", message) }

    /// 500, for what no refusal explains (the one place it is built).
    static let internalError = ServiceError(.internalServerError, "internal_error", "internal error")

    /// Any error thrown while answering, as its refusal: the service's and
    /// the engine's own, and a 500 for anything else.
    init(answering error: any Error) {
        switch error {
        case let error as ServiceError: self = error
        case let error as ParameterError: self.init(error)
        case let error as DefinitionError: self.init(error)
        case let error as SessionError: self.init(error)
        default: self = .internalError
        }
    }

    /// The same refusal, telling the client when to try again.
    func retryAfter(seconds: Int) -> ServiceError {
        var error = self
        error.headers.replace("Retry-After", String(seconds))
        return error
    }
    static func notFound(_ message: String) -> ServiceError { ServiceError(.notFound, "not_found", message) }
    /// 406: the answer would be `mediaType`, which the request's `Accept`
    /// excludes. The path's own list replaces it on the way out (`offering`).
    static func notAcceptable(_ mediaType: String) -> ServiceError {
        ServiceError(.notAcceptable, "not_acceptable", "this answer is \(mediaType); the Accept header excludes it")
    }

    /// A 406 that names everything the path offers, so a client learns what
    /// to ask for (a path may answer JSON, an event stream and SVG); any
    /// other refusal unchanged.
    func offering(_ offers: [String]) -> ServiceError {
        guard status == .notAcceptable, !offers.isEmpty else { return self }
        let list = offers.count == 1 ? offers[0] : offers.dropLast().joined(separator: ", ") + " or " + offers.last!
        var error = ServiceError(.notAcceptable, "not_acceptable", "this path answers \(list); the Accept header excludes what this request would get")
        error.headers = headers
        error.path = path
        return error
    }

    /// The code for a status the server itself answers.
    static func code(for status: HTTPStatus) -> String {
        switch status.code {
        case 400: return "bad_request"
        case 404: return "not_found"
        case 405: return "method_not_allowed"
        case 406: return "not_acceptable"
        case 408: return "request_timeout"
        case 413: return "content_too_large"
        case 414: return "uri_too_long"
        case 417: return "expectation_failed"
        case 429: return "too_many_requests"
        case 431: return "header_fields_too_large"
        case 501: return "not_implemented"
        case 503: return "service_unavailable"
        case 505: return "http_version_not_supported"
        default: return "error"
        }
    }

    var response: HTTPResponse {
        var w = JSONWriter(capacity: 128 + message.utf8.count)
        w.beginObject()
        w.key("error")
        w.beginObject()
        w.field("status", status.code)
        w.field("code", code)
        w.field("message", message)
        if let path { w.field("path", path) }
        w.endObject()
        w.endObject()
        var headers = headers
        headers.replace("Content-Type", "application/json")
        headers.replace("Cache-Control", "no-store")
        return HTTPResponse(status: status, headers: headers, body: w.bytes)
    }
}
