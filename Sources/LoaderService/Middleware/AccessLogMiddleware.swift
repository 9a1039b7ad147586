import EventLoop
import HTTPServer
import LoaderSessions

/// Counts every answer for `/metrics` under its route and writes the
/// access log line. A deferred answer is counted when it comes, with its
/// own status and the whole time taken.
struct AccessLogMiddleware: ServiceMiddleware {
    /// Off the loop, its shared shard; on it, the loop's (`LoopCaches`).
    let metrics: Metrics
    let logger: Logger
    /// `accessLog` in the configuration.
    let enabled: Bool
    /// Peers whose `X-Forwarded-For` names the client.
    let trustedProxies: [AddressRange]

    @inline(__always)
    func handle(_ r: inout ServiceRequest, next: ServiceNext) throws -> HTTPResponse {
        let response = try next(&r)
        guard case .deferred = response.body else {
            record(r.http, response, route: r.route, start: r.start, peer: r.context.peer, loop: r.caches)
            return response
        }
        let (request, route, start, peer) = (r.http, r.route, r.start, r.context.peer)
        return response.map { [self] final in
            record(request, final, route: route, start: start, peer: peer, loop: nil)
            return final
        }
    }

    /// On the loop, into the loop's metrics shard and log buffer; a deferred
    /// answer, on the thread that completes it, through the shared ones.
    private func record(_ request: HTTPRequest, _ response: HTTPResponse, route: String, start: UInt64, peer: SocketAddress?, loop: LoopCaches?) {
        let elapsed = monotonicNanoseconds() &- start
        (loop?.metrics ?? metrics.offLoopShard).record(route: route, method: request.method.rawValue, status: response.status.code, seconds: Double(elapsed) / 1e9)
        guard enabled, logger.enabled(.info) else { return }
        var bytes = 0
        if case .bytes(let body) = response.body { bytes = body.count }
        let client = ClientAddress.of(peer: peer, forwardedFor: trustedProxies.isEmpty ? [] : request.headers.values("x-forwarded-for"),
                                      trusted: trustedProxies)
        let traceID = TraceParent.traceID(request)
        if let log = loop?.accessLog {
            log.record(client: client, method: request.method.rawValue, path: request.path, status: response.status.code, bytes: bytes,
                       microseconds: Int(elapsed / 1000), traceID: traceID)
            return
        }
        var fields: [(String, LogField)] = [
            ("client", .string(client.text)), ("method", .string(request.method.rawValue)), ("path", .string(request.path)),
            ("status", .int(response.status.code)), ("bytes", .int(bytes)), ("us", .int(Int(elapsed / 1000))),
        ]
        if let traceID { fields.append(("traceId", .string(String(traceID)))) }
        logger.log(.info, "request", fields)
    }
}
