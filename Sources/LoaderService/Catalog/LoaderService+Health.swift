import HTTPServer
import LoaderEngine

extension LoaderService {
    /// `GET /healthz`: the process answers.
    func healthz(_ r: ServiceRequest) throws -> HTTPResponse {
        try json(Array(#"{"status":"ok"}"#.utf8), r.http, .noStore)
    }

    /// `GET /readyz`: whether to send this replica work, and which parts
    /// are unavailable (`unavailable`, each with a reason): the service
    /// while it shuts down, the session store while it cannot be reached.
    /// Only the first always makes it 503: without the store, frames,
    /// exports and streams still work, and a Redis shared by every replica
    /// would otherwise take them all out of rotation at once, a partial
    /// outage made whole. `readinessFollowsSessionStore` makes it 503 too.
    func readyz(_ r: ServiceRequest) throws -> HTTPResponse {
        try Negotiation.requireJSON(r.http)
        let readiness = readiness(shuttingDown: r.context.isShuttingDown)
        var w = JSONWriter(capacity: 256)
        w.beginObject()
        if !readiness.isReady {
            // The service's error shape too, for clients that read only that.
            w.key("error")
            w.beginObject()
            w.field("status", 503)
            w.field("code", "not_ready")
            w.field("message", "not ready: " + readiness.unavailable.map { "\($0.part): \($0.reason)" }.joined(separator: "; "))
            w.endObject()
        }
        w.field("status", readiness.isReady ? "ready" : "not_ready")
        w.key("unavailable")
        w.beginArray()
        for (part, reason) in readiness.unavailable {
            w.beginObject()
            w.field("part", part)
            w.field("reason", reason)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return HTTPResponse(status: readiness.isReady ? .ok : .serviceUnavailable,
                            headers: ["Content-Type": "application/json", "Cache-Control": "no-store"], body: w.bytes)
    }

    /// What `/readyz` says now; `shuttingDown`: the server drains.
    func readiness(shuttingDown: Bool) -> (isReady: Bool, unavailable: [(part: String, reason: String)]) {
        var unavailable: [(part: String, reason: String)] = []
        let stopping = shuttingDown || !ready.load(ordering: .relaxed) || (server?.isShuttingDown ?? false)
        if stopping { unavailable.append(("service", "shutting down")) }
        // Why not is for the log ("session store unavailable"): an answer
        // anyone may ask for names no address of the store.
        let store = sessions.isAvailable
        if !store { unavailable.append(("session_store", "cannot be reached")) }
        return (!stopping && (store || !configuration.readinessFollowsSessionStore), unavailable)
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
