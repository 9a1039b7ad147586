import HTTPServer

/// While the server drains (SIGTERM), every request is answered at once
/// with 503 `shutting_down`, `Retry-After` and (the server's part)
/// `Connection: close`, so a client or proxy goes to another replica
/// instead of waiting for this one to exit. The probes still answer:
/// `/healthz` 200 (the process is alive: no restart) and `/readyz` 503
/// (out of rotation). Work admitted before the drain finishes as it would
/// have.
struct DrainMiddleware: ServiceMiddleware {
    /// To count a refused request under the route it would have had.
    let router: Router<Endpoint>
    /// The refusal carries the CORS headers any answer would.
    let cors: CORSPolicy

    @inline(__always)
    func handle(_ r: inout ServiceRequest, next: ServiceNext) throws -> HTTPResponse {
        guard r.context.isShuttingDown else { return try next(&r) }
        let path = r.http.path
        if path == "/healthz" || path == "/readyz" { return try next(&r) }
        // Counted in /metrics under the route it would have had.
        if case .found(let endpoint, _) = router.match(method: r.http.method, path: r.http.pathSegments) { r.route = endpoint.path }
        var response = ServiceError.shuttingDown.response
        if let origin = r.origin { cors.apply(&response, origin: origin) }
        return response
    }
}

extension ServiceError {
    /// A request that comes while the server drains. One second: by then
    /// a balancer has another replica to send it to.
    static let shuttingDown = ServiceError(.serviceUnavailable, "shutting_down",
                                           "this server is shutting down; try again shortly").retryAfter(seconds: 1)
}
