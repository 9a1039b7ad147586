import HTTPServer
import LoaderEngine

extension LoaderService {
    /// `GET /client.js`, and `GET /client.js?v=<version>`: the versioned
    /// address never changes what it holds, so browsers keep it for a year;
    /// the plain one is kept five minutes and then revalidated by its ETag.
    func clientScript(_ request: HTTPRequest) throws -> HTTPResponse {
        var freshness = Caching.Freshness.maxAge(seconds: 300)
        for item in request.query {
            guard item.name == "v" else {
                throw ServiceError(.badRequest, "unknown_parameter", "unknown parameter \(quoted(item.name)); /client.js takes only v, the service's version")
            }
            guard item.value == Self.version else {
                throw ServiceError.notFound("this service serves client.js version \(Self.version), not \(quoted(item.value))")
            }
            freshness = .immutable
        }
        return Self.cacheable(ClientScript.body, contentType: "text/javascript; charset=utf-8", freshness: freshness,
                              ifNoneMatch: request.headers["if-none-match"])
    }
}
