import HTTPServer

extension LoaderService {
    /// `GET /healthz`: the process answers.
    func healthz(_ r: ServiceRequest) throws -> HTTPResponse {
        try json(Array(#"{"status":"ok"}"#.utf8), r.http, .noStore)
    }

    /// `GET /readyz`: 503 once shutting down, so balancers stop sending.
    func readyz(_ r: ServiceRequest) throws -> HTTPResponse {
        guard isReady else { throw ServiceError(.serviceUnavailable, "not_ready", "shutting down") }
        return try json(Array(#"{"status":"ready"}"#.utf8), r.http, .noStore)
    }

    /// `GET /metrics`: Prometheus text.
    func metricsText() -> HTTPResponse {
        var body = metrics.text(openConnections: server?.openConnections ?? 0, openStreams: server?.openStreams ?? 0,
                                sessions: sessions, connections: server?.connectionStatistics ?? ConnectionStatistics())
        // The bounds of docs/SECURITY.md an operator watches.
        body += Array("""
            # HELP loaderd_buffered_bytes Output queued for clients and not yet taken by them (maxBufferedBytes bounds it).
            # TYPE loaderd_buffered_bytes gauge
            loaderd_buffered_bytes \(server?.bufferedOutputBytes ?? 0)
            # HELP loaderd_heavy_requests Previews, export builds and costly batches running off the event loops.
            # TYPE loaderd_heavy_requests gauge
            loaderd_heavy_requests \(heavyWork.count)
            # HELP loaderd_heavy_waiting Heavy requests waiting for one of their client's places (maxHeavyWaitingPerClient) or for a worker (heavyWorkers).
            # TYPE loaderd_heavy_waiting gauge
            loaderd_heavy_waiting \(heavyWork.waiting)
            # HELP loaderd_admitted_streams Streams holding a place under maxStreams and maxStreamsPerClient.
            # TYPE loaderd_admitted_streams gauge
            loaderd_admitted_streams \(streamAdmission.count)
            # HELP loaderd_heavy_refused_total Heavy requests refused: their client's places and queue full (429), a wait past heavyWaitSeconds (503), or output over maxBufferedBytes (503).
            # TYPE loaderd_heavy_refused_total counter
            loaderd_heavy_refused_total{reason="buffer_full"} \(heavyWork.refusedBufferFull.load(ordering: .relaxed))
            loaderd_heavy_refused_total{reason="client_busy"} \(heavyWork.refusedClientBusy.load(ordering: .relaxed))
            loaderd_heavy_refused_total{reason="wait_timeout"} \(heavyWork.refusedWaitTimeout.load(ordering: .relaxed))

            """.utf8)
        // The limits themselves, so that a rule or a graph can divide by
        // them instead of repeating the configuration.
        body += Array("""
            # HELP loaderd_max_connections The maxConnections setting: open connections allowed in all.
            # TYPE loaderd_max_connections gauge
            loaderd_max_connections \(configuration.maxConnections)
            # HELP loaderd_max_streams The maxStreams setting: streams allowed open at once in all.
            # TYPE loaderd_max_streams gauge
            loaderd_max_streams \(configuration.maxStreams)
            # HELP loaderd_heavy_workers Heavy requests that run at once (heavyWorkers, or one per core).
            # TYPE loaderd_heavy_workers gauge
            loaderd_heavy_workers \(heavyWork.workerCount)

            """.utf8)
        body += Array(BuildInfo.text(version: LoaderService.version).utf8)
        body += Array(ProcessMetrics.text().utf8)
        return HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8", "Cache-Control": "no-store"], body: body)
    }
}
