import HTTPServer

extension LoaderService {
    /// `GET /healthz`: the process answers.
    func healthz(_ r: ServiceRequest) throws -> HTTPResponse {
        try json(Array(#"{"status":"ok"}"#.utf8), r.http, cacheControl: "no-store")
    }

    /// `GET /readyz`: 503 once shutting down, so balancers stop sending.
    func readyz(_ r: ServiceRequest) throws -> HTTPResponse {
        guard isReady else { throw ServiceError(.serviceUnavailable, "not_ready", "shutting down") }
        return try json(Array(#"{"status":"ready"}"#.utf8), r.http, cacheControl: "no-store")
    }

    /// `GET /metrics`: Prometheus text.
    func metricsText() -> HTTPResponse {
        let body = metrics.text(openConnections: server?.openConnections ?? 0, openStreams: server?.openStreams ?? 0,
                                sessions: sessions)
        return HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8", "Cache-Control": "no-store"], body: body)
    }
}
