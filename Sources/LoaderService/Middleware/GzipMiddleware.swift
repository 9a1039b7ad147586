import Codecs
import Dispatch
import HTTPServer
import Synchronization

/// gzip for the answers it shrinks: a 200 whose type is text (JSON, HTML,
/// JavaScript, CSS, SVG, plain text; never an event stream or an image of
/// pixels) of at least 1 KiB, sent `Content-Encoding: gzip` when the
/// request's `Accept-Encoding` takes it. Every such answer says
/// `Vary: Accept-Encoding`, gzip or not, so a cache never hands a gzip
/// body to a client that did not ask, and may keep both. The gzip body is another
/// representation: its strong ETag is the identity one with `-gzip`, and
/// `If-None-Match` naming it gives 304. Streams pass untouched.
struct GzipMiddleware: ServiceMiddleware {
    let bodies: GzipBodies

    @inline(__always)
    func handle(_ r: inout ServiceRequest, next: ServiceNext) throws -> HTTPResponse {
        let coding = AcceptEncoding.coding(r.http.headers)
        let ifNoneMatch = r.http.headers["if-none-match"]
        let response = try next(&r)
        switch response.body {
        case .stream:
            return response
        case .deferred:
            // Made off the loop (a worker's export): compressed there too.
            return response.map { [bodies] in bodies.encode($0, coding, ifNoneMatch: ifNoneMatch) }
        case .bytes(let body):
            guard coding == .gzip, body.count > GzipBodies.inlineBytes, GzipBodies.varies(response) else {
                return bodies.encode(response, coding, ifNoneMatch: ifNoneMatch)
            }
            // Kept already: its bytes, found once (a big body's key and comparison are not free).
            if let kept = bodies.kept(body, key: GzipBodies.key(body, etag: response.caching?.etag)) {
                return bodies.encode(response, coding, ifNoneMatch: ifNoneMatch, gzipped: kept)
            }
            // A big body not compressed yet: off the loop, once.
            return .deferred { [bodies] promise in
                bodies.queue.async { promise.succeed(bodies.encode(response, coding, ifNoneMatch: ifNoneMatch)) }
            }
        }
    }
}

/// The gzip bodies made so far, by the identity body's strong ETag (or
/// its hash), so a body is compressed once while it is kept. Bounded in
/// bytes; the oldest go first. Shared by every loop.
final class GzipBodies: Sendable {
    /// Bodies under this are sent as they are: gzip's 18 bytes of framing
    /// and a packet saved at most.
    static let minBytes = 1024
    /// A body over this that is not kept yet is compressed on `queue`, not
    /// on the loop: about 1.5 ms of text at 45 MB/s, the slowest rate
    /// measured (HTML); JSON compresses at about 200 MB/s.
    static let inlineBytes = 64 * 1024
    /// Identity and gzip bytes kept at most.
    let maxBytes: Int
    /// One body at a time: a burst of requests for one big body waits for
    /// its first compression and finds it kept.
    let queue = DispatchQueue(label: "loaderd.gzip")
    private let state: Mutex<State>

    struct Entry {
        let identity: [UInt8]
        let gzip: [UInt8]
        var bytes: Int { identity.count + gzip.count }
    }

    struct State {
        var entries: [String: Entry] = [:]
        /// Keys oldest first, from `first` on.
        var order: [String] = []
        var first = 0
        var bytes = 0
    }

    init(maxBytes: Int = 16 << 20) {
        self.maxBytes = maxBytes
        state = Mutex(State())
    }

    /// Whether `type` is text that gzip shrinks.
    static func compressible(_ contentType: String) -> Bool {
        let type = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingSpaces.lowercased() } ?? ""
        if type.hasPrefix("text/") { return type != "text/event-stream" }
        switch type {
        case "application/json", "application/javascript", "application/xml", "image/svg+xml": return true
        default: return type.hasSuffix("+json") || type.hasSuffix("+xml")
        }
    }

    /// Whether `response` is one this step changes, and so one whose answer
    /// (and its 304) says `Vary: Accept-Encoding`, gzip'd or not: a
    /// compressible 200 of `minBytes` or more.
    static func varies(_ response: HTTPResponse) -> Bool {
        guard case .bytes(let body) = response.body, body.count >= minBytes, response.status == .ok,
              response.headers["Content-Encoding"] == nil, let type = response.headers["Content-Type"] else { return false }
        return compressible(type)
    }

    /// A body's key among the kept: its strong ETag, or its hash.
    static func key(_ body: [UInt8], etag: String?) -> String { etag ?? ETag.strong(body) }

    /// The kept gzip bytes of `body`, when `key` names the same bytes:
    /// equal bytes, not only an equal key, so a hash that collides never
    /// sends one body's bytes for another's.
    func kept(_ body: [UInt8], key: String) -> [UInt8]? {
        state.withLock { state in state.entries[key].flatMap { $0.identity == body ? $0.gzip : nil } }
    }

    func has(_ body: [UInt8], etag: String?) -> Bool { kept(body, key: Self.key(body, etag: etag)) != nil }

    /// `response` in `coding`, with `Vary` where it could have been gzip;
    /// `gzipped`, the body's gzip bytes when the caller has them.
    func encode(_ response: HTTPResponse, _ coding: ContentCoding, ifNoneMatch: String?, gzipped: [UInt8]? = nil) -> HTTPResponse {
        guard Self.varies(response), case .bytes(let body) = response.body else { return response }
        var out = response
        Self.addVary(&out.headers)
        guard coding == .gzip else { return out }
        out.body = .bytes(gzipped ?? gzip(body, etag: response.caching?.etag))
        out.headers.add("Content-Encoding", "gzip")
        guard let caching = response.caching else { return out }
        let tag = ETag.gzip(caching.etag)
        out.caching = Caching(caching.freshness, etag: tag)
        return ETag.matches(ifNoneMatch, tag) ? Self.notModified(out) : out
    }

    /// A 304 for a gzip answer: its validators and `Vary`, no body.
    static func notModified(_ response: HTTPResponse) -> HTTPResponse {
        var r = LoaderService.notModified(response)
        r.headers.remove("Content-Encoding")
        return r
    }

    /// `Accept-Encoding` added to the answer's `Vary` (one field: CORS may
    /// have written `Origin` there).
    static func addVary(_ headers: inout HTTPResponseHeaders) {
        guard let vary = headers["Vary"] else {
            headers.add("Vary", "Accept-Encoding")
            return
        }
        let names = vary.split(separator: ",").map { $0.trimmingSpaces.lowercased() }
        guard !names.contains("accept-encoding"), !names.contains("*") else { return }
        headers.replace("Vary", vary + ", Accept-Encoding")
    }

    /// The gzip bytes of `body`: kept ones when its key names the same
    /// bytes, else compressed now and kept.
    func gzip(_ body: [UInt8], etag: String?) -> [UInt8] {
        let key = Self.key(body, etag: etag)
        if let kept = kept(body, key: key) { return kept }
        let compressed = Gzip.compress(body)
        let entry = Entry(identity: body, gzip: compressed)
        guard entry.bytes <= maxBytes / 4 else { return compressed }
        state.withLock { state in
            if let old = state.entries[key] { state.bytes -= old.bytes } else { state.order.append(key) }
            state.entries[key] = entry
            state.bytes += entry.bytes
            while state.bytes > maxBytes, state.first < state.order.count {
                let oldest = state.order[state.first]
                state.first += 1
                if let gone = state.entries.removeValue(forKey: oldest) { state.bytes -= gone.bytes }
            }
            // The list of keys gone is dropped once it is half the list.
            if state.first > 64 && state.first * 2 > state.order.count {
                state.order.removeFirst(state.first)
                state.first = 0
            }
        }
        return compressed
    }

    /// Bytes kept now (for tests).
    var keptBytes: Int { state.withLock { $0.bytes } }
}
