import EventLoop
import HTTPServer
import LoaderEngine

/// Who sent a request, for the access log. Behind a proxy the peer is the
/// proxy; the proxy names the client in `X-Forwarded-For`. That header is
/// believed only from peers in `trustedProxies`: anyone else could forge it.
enum ClientAddress {
    case peer(SocketAddress)
    case forwarded(String)
    case unknown

    /// From a trusted peer, `X-Forwarded-For` is read right to left (each
    /// proxy appends the address it got the request from), past the trusted
    /// proxies: the first address that is not one is the client. Every hop
    /// trusted: the leftmost. A hop that is not an address (the header is
    /// not what a proxy writes): the peer itself.
    static func of(peer: SocketAddress?, forwardedFor: [String], trusted: [AddressRange]) -> ClientAddress {
        guard let peer else { return .unknown }
        guard !trusted.isEmpty, !forwardedFor.isEmpty, isTrusted(IPAddress(peer), trusted) else { return .peer(peer) }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingSpaces }.filter { !$0.isEmpty }
        var client: Substring?
        for hop in hops.reversed() {
            guard let address = IPAddress(hop) else { return .peer(peer) }
            client = hop
            if !isTrusted(address, trusted) { break }
        }
        return client.map { .forwarded(String($0)) } ?? .peer(peer)
    }

    static func isTrusted(_ address: IPAddress, _ trusted: [AddressRange]) -> Bool {
        trusted.contains { $0.contains(address) }
    }

    func append(to out: inout [UInt8]) {
        switch self {
        case .peer(let address): address.appendHost(to: &out)
        case .forwarded(let text): JSONWriter.appendEscaped(text, to: &out)
        case .unknown: out.append(contentsOf: "-".utf8)
        }
    }

    /// The address of the client of `request` from `peer` (a proxy in
    /// `trustedProxies` names it), as text: the key of per-client limits.
    static func key(_ request: HTTPRequest, peer: SocketAddress?, trusted: [AddressRange]) -> String {
        of(peer: peer, forwardedFor: trusted.isEmpty ? [] : request.headers.values("x-forwarded-for"), trusted: trusted).text
    }

    var text: String {
        var out: [UInt8] = []
        append(to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
