import HTTPServer

/// Which origins may read answers (`corsAllowedOrigins`), and the headers
/// that say so. Credentials are never allowed, so `*` is safe; a listed
/// origin is echoed with `Vary: Origin`.
struct CORSPolicy: Sendable {
    static let allowedHeaders = ["accept", "authorization", "content-type", "if-none-match", "last-event-id"]

    let allowedOrigins: [String]
    /// `*` is listed: any origin, and answers need no `Vary: Origin`.
    let anyOrigin: Bool

    init(allowedOrigins: [String]) {
        self.allowedOrigins = allowedOrigins
        anyOrigin = allowedOrigins.contains("*")
    }

    /// The `Access-Control-Allow-Origin` value for a request's `Origin`, if allowed.
    func allowedOrigin(_ origin: String?) -> String? {
        guard let origin else { return nil }
        if anyOrigin { return "*" }
        return allowedOrigins.contains(origin) ? origin : nil
    }

    /// CORS headers on an actual response to a request with `Origin`.
    func apply(_ response: inout HTTPResponse, origin requested: String) {
        guard let origin = allowedOrigin(requested) else {
            if !anyOrigin { response.headers.add("Vary", "Origin") }
            return
        }
        if response.headers["Access-Control-Allow-Origin"] == nil {
            response.headers.add("Access-Control-Allow-Origin", origin)
            response.headers.add("Access-Control-Expose-Headers", "ETag, Location, Loader-Frame-Rate")
            if origin != "*" { response.headers.add("Vary", "Origin") }
        }
    }
}

/// CORS headers on every answer to a request with `Origin` (deferred ones
/// included, when they come).
struct CORSMiddleware: ServiceMiddleware {
    let policy: CORSPolicy

    @inline(__always)
    func handle(_ r: inout ServiceRequest, next: ServiceNext) throws -> HTTPResponse {
        let response = try next(&r)
        guard let origin = r.origin else { return response }
        return response.map { [policy] final in
            var final = final
            policy.apply(&final, origin: origin)
            return final
        }
    }
}

/// `OPTIONS` is answered here, a CORS preflight or the methods a path
/// takes; other methods go on to the router.
struct PreflightMiddleware: ServiceMiddleware {
    /// The methods each path takes.
    let router: Router<Endpoint>
    let cors: CORSPolicy

    @inline(__always)
    func handle(_ r: inout ServiceRequest, next: ServiceNext) throws -> HTTPResponse {
        guard r.http.method == .OPTIONS else { return try next(&r) }
        r.route = "OPTIONS"
        return try options(r.http, origin: r.origin)
    }

    /// `OPTIONS`: a CORS preflight, or the methods a path takes.
    private func options(_ request: HTTPRequest, origin requestOrigin: String?) throws -> HTTPResponse {
        if request.path == "*" {
            return HTTPResponse(status: .noContent, headers: ["Allow": "GET, HEAD, POST, DELETE, OPTIONS"])
        }
        let allowed = router.allowedMethods(path: request.pathSegments)
        guard !allowed.isEmpty else { throw ServiceError.notFound("no resource at \(request.path)") }
        let methods = (allowed + [.OPTIONS]).map(\.rawValue).joined(separator: ", ")
        var headers: HTTPResponseHeaders = ["Allow": methods]
        if let requested = request.headers["access-control-request-method"], let origin = cors.allowedOrigin(requestOrigin) {
            guard allowed.contains(HTTPMethod(requested)) || requested == "OPTIONS" else {
                throw ServiceError(.methodNotAllowed, "method_not_allowed", "\(requested) is not allowed here; allowed: \(methods)")
            }
            headers.add("Access-Control-Allow-Origin", origin)
            headers.add("Access-Control-Allow-Methods", methods)
            let asked = (request.headers["access-control-request-headers"] ?? "")
                .split(separator: ",").map { $0.trimmingSpaces.lowercased() }.filter { !$0.isEmpty }
            let permitted = asked.filter { CORSPolicy.allowedHeaders.contains($0) }
            headers.add("Access-Control-Allow-Headers", (permitted.isEmpty ? CORSPolicy.allowedHeaders : permitted).joined(separator: ", "))
            headers.add("Access-Control-Max-Age", "600")
            if origin != "*" { headers.add("Vary", "Origin") }
        }
        return HTTPResponse(status: .noContent, headers: headers)
    }
}
