import EventLoop
import HTTPServer

/// A stream answer (immediate or deferred) takes a place in `admission`
/// for its client until it ends, or is refused (429 past
/// `maxStreamsPerClient`, 503 past `maxStreams`).
struct StreamLimitsMiddleware: ServiceMiddleware {
    /// Shared with `/metrics`, which shows its count.
    let admission: StreamAdmission
    /// Peers whose `X-Forwarded-For` names the client.
    let trustedProxies: [AddressRange]

    @inline(__always)
    func handle(_ r: inout ServiceRequest, next: ServiceNext) throws -> HTTPResponse {
        let response = try next(&r)
        // Most answers are neither: they pass untouched, at no cost.
        switch response.body {
        case .stream: return admitted(response, r.http, r.context.peer)
        case .deferred:
            let (request, peer) = (r.http, r.context.peer)
            return response.map { [self] final in admitted(final, request, peer) }
        default: return response
        }
    }

    private func admitted(_ response: HTTPResponse, _ request: HTTPRequest, _ peer: SocketAddress?) -> HTTPResponse {
        guard case .stream = response.body else { return response }
        let client = ClientAddress.key(request, peer: peer, trusted: trustedProxies)
        if let refusal = admission.admit(client) { return refusal.response }
        return response.holding(StreamHold { [admission] in admission.release(client) })
    }
}
