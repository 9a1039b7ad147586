import EventLoop
import HTTPServer
import LoaderEngine

extension LoaderService {
    /// A batch answers at most this many frames, and at most
    /// `maxBatchBytes`; past either, a `next` link continues it.
    static let maxBatchFrames = 10_000
    /// A page, not a whole answer: the next page is made when the client
    /// asks for it, so a client that does not read holds at most this.
    static let maxBatchBytes = 8 << 20

    /// `GET /loaders/{name}/frames`: one frame, a batch, or a live stream.
    /// `peer` says whose share of heavy work a costly batch takes; a
    /// request already off the loop, in heavy `job` (a preview), computes it
    /// where it is.
    func frames(_ definition: LoaderDefinition, _ request: HTTPRequest, _ caches: LoopCaches, peer: SocketAddress? = nil,
                in job: HeavyJob? = nil) throws -> HTTPResponse {
        let query = try FrameQuery(request, definition)
        if let stream = query.stream, stream != "sse" {
            throw ServiceError.invalid("stream must be sse")
        }
        let configured: LoaderCache.Entry
        do {
            configured = try caches.loaders.loader(definition, query.loaderItems)
        } catch {
            throw ServiceError(error)
        }

        if query.streaming {
            return try stream(configured.loader, query, request, caches)
        }
        try Negotiation.requireJSON(request)
        if query.clock != nil { throw ServiceError.invalid("clock applies to streams (Accept: text/event-stream or stream=sse)") }
        if query.from != nil || query.to != nil {
            return try batch(configured.loader, query, request, in: job) { [self] in
                ClientAddress.key(request, peer: peer, trusted: trustedProxies)
            }
        }
        if query.fps != nil || query.duration != nil {
            let name = query.fps != nil ? "fps" : "duration"
            throw ServiceError.invalid("\(name) applies to batches (from, to) and streams (Accept: text/event-stream or stream=sse)")
        }
        let explicit = try query.time("t")
        let loader = configured.loader
        guard job == nil && configured.frameCost > HeavyWork.inlineUnits else { return frame(loader, at: explicit, request) }
        return runHeavy(for: ClientAddress.key(request, peer: peer, trusted: trustedProxies)) { [self] _ in
            frame(loader, at: explicit, request)
        }
    }

    /// One frame as JSON: at `t`, cacheable for ever, or at 0 when none is
    /// given. (`frames` checked `Accept`, as for a batch.)
    private func frame(_ loader: ConfiguredLoader, at t: Double?, _ request: HTTPRequest) -> HTTPResponse {
        Self.acceptedJSON(FrameEncoder.encode(loader.frame(at: t ?? 0)), request,
                          t != nil ? .immutable : .revalidate)
    }

    /// Frames at `from + k/fps` for k = 0, 1, … while ≤ `to` (1e-9 slack);
    /// none when `to` is before `from`. A batch past `maxBatchFrames`,
    /// `maxBatchBytes` or `maxWorkPerRequest` (its frames times the loader's
    /// frame cost) answers the frames that fit and a `next` link (a field
    /// and `Link: <…>; rel="next"`) to the same batch from the following
    /// frame on. One that costs more than about a millisecond is computed
    /// off the loop, in `client`'s share of heavy work (or in `job`, when the
    /// request is already off the loop), and stops if its client leaves.
    func batch(_ loader: ConfiguredLoader, _ query: FrameQuery, _ request: HTTPRequest, in job: HeavyJob?,
               client: () -> String) throws -> HTTPResponse {
        if query.t != nil { throw ServiceError.invalid("t cannot be combined with from and to; a batch starts at from") }
        if query.duration != nil { throw ServiceError.invalid("duration applies to streams only") }
        guard let to = try query.time("to") else { throw ServiceError.invalid("to is required for a batch (frames from `from` to `to`)") }
        let from = try query.time("from") ?? 0
        let fps = try query.fps(default: Double(configuration.streamDefaultFps))
        // Both times are within 0…1e9 and fps within 1…120: no overflow.
        let span = (to - from) * fps
        let count = span < 0 ? 0 : Int((span + 1e-9).rounded(.down)) + 1
        let cost = loader.frameCost
        let asked = min(count, Self.maxBatchFrames, max(1, configuration.maxWorkPerRequest / cost))
        if let job { return try encodedBatch(loader, from: from, fps: fps, asked: asked, count: count, request, job) }
        guard asked * cost > HeavyWork.inlineUnits else {
            return try encodedBatch(loader, from: from, fps: fps, asked: asked, count: count, request)
        }
        return runHeavy(for: client()) { [self] job in
            try encodedBatch(loader, from: from, fps: fps, asked: asked, count: count, request, job)
        }
    }

    /// The first `asked` of the batch's `count` frames, with a `next` link
    /// when that is not all of them; in heavy `job`, no more frames once its
    /// client has left.
    private func encodedBatch(_ loader: ConfiguredLoader, from: Double, fps: Double, asked: Int, count: Int,
                              _ request: HTTPRequest, _ job: HeavyJob? = nil) throws -> HTTPResponse {
        var renderer = FrameRenderer(loader)
        let times = (0..<asked).lazy.map { from + Double($0) / fps }
        // Room is kept for the `next` field (a target is at most 8 KiB).
        let maxBytes = Self.maxBatchBytes - 32 * 1024
        var (body, sent) = if let job {
            renderer.encodedBatch(times: times.prefix { _ in !job.clientLeft }, fps: fps, count: asked, maxBytes: maxBytes)
        } else {
            renderer.encodedBatch(times: times, fps: fps, count: asked, maxBytes: maxBytes)
        }
        if job?.clientLeft == true { return .clientClosedRequest }
        guard sent < count else { return Self.acceptedJSON(body, request, .immutable) }
        let next = Self.target(request, replacing: "from", with: JSONWriter.number(from + Double(sent) / fps))
        body.removeLast()  // the closing brace: `next` goes before it
        var w = JSONWriter(capacity: next.utf8.count + 16)
        w.value(next)
        body.append(contentsOf: #","next":"#.utf8)
        body.append(contentsOf: w.bytes)
        body.append(UInt8(ascii: "}"))
        var response = Self.acceptedJSON(body, request, .immutable)
        response.headers.add("Link", "<\(next)>; rel=\"next\"")
        return response
    }

    /// The request's path and query with one query item's value replaced
    /// (or added), percent-encoded.
    static func target(_ request: HTTPRequest, replacing name: String, with value: String) -> String {
        var items = request.query
        if let i = items.firstIndex(where: { $0.name == name }) { items[i].value = value } else { items.insert((name, value), at: 0) }
        return request.path + "?" + items.map { percentEncoded($0.name) + "=" + percentEncoded($0.value) }.joined(separator: "&")
    }

    /// RFC 3986 unreserved characters as they are, every other byte as %XX.
    static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                out += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 15)]], as: UTF8.self)
            }
        }
        return out
    }
}

extension FrameQuery {
    /// The frames query of `request`: `Accept: text/event-stream` asks
    /// for a stream as `stream=sse` does.
    init(_ request: HTTPRequest, _ definition: LoaderDefinition) throws {
        try self.init(definition, items: request.query) { Negotiation.wantsEventStream(request) }
    }
}
