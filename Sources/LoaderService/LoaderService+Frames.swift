import HTTPServer
import LoaderEngine

extension LoaderService {
    /// Query names the frames endpoint takes besides the loader's own.
    static let frameQueryNames: Set<String> = ["t", "from", "to", "fps", "stream", "duration", "clock"]
    /// Those a stream uses: a loader parameter of one of these names is
    /// `loader.<name>` in a stream.
    static let streamQueryNames: Set<String> = ["t", "fps", "stream", "duration", "clock"]
    /// A batch answers at most this many frames, and at most
    /// `maxBatchBytes`; past either, a `next` link continues it.
    static let maxBatchFrames = 10_000
    /// A page, not a whole answer: the next page is made when the client
    /// asks for it, so a client that does not read holds at most this.
    static let maxBatchBytes = 8 << 20

    /// The frames query, split: the endpoint's own values and the loader's.
    ///
    /// One name is shared: a stream's `duration` is its length, while the
    /// switch loader has a `duration` parameter (its period). In a stream
    /// `duration` is the stream's; in a single frame or a batch it is the
    /// loader's. In a stream `loader.<name>` names a loader parameter whose
    /// name the stream uses (`loader.duration=2` sets the switch's period);
    /// elsewhere the plain name does, and the prefix is refused, as the
    /// OpenAPI document says.
    struct FramesQuery {
        var values = OwnValues()
        var loaderItems: [(name: String, value: String)] = []
        /// Whether the request asks for a live stream (`stream=sse` or
        /// `Accept: text/event-stream`).
        let streaming: Bool

        init(_ request: HTTPRequest, _ definition: LoaderDefinition) throws {
            // Asked only for the names whose meaning depends on it.
            func streaming() -> Bool { request.queryValue("stream") == "sse" || Negotiation.wantsEventStream(request) }
            for item in request.query {
                if item.name.hasPrefix("loader.") {
                    let name = String(item.name.dropFirst("loader.".count))
                    guard streaming(), LoaderService.streamQueryNames.contains(name), definition.hasParameter(named: name) else {
                        throw ServiceError(.badRequest, "unknown_parameter",
                                           "unknown parameter \(quoted(item.name)); loader.<name> names a loader parameter that a stream's own \(quoted(name)) would hide, elsewhere write \(quoted(name))")
                    }
                    loaderItems.append((name, item.value))
                } else if item.name == "duration" && definition.hasParameter(named: "duration") && !streaming() {
                    loaderItems.append(item)
                } else if try !values.take(item.name, item.value) {
                    loaderItems.append(item)
                }
            }
            self.streaming = values.stream == "sse" || Negotiation.wantsEventStream(request)
        }

        func time(_ name: String) throws -> Double? {
            guard let text = values[name] else { return nil }
            do { return try TimeValue.parse(name, text) } catch { throw ServiceError(error) }
        }

        func fps(default value: Double) throws -> Double {
            guard let text = values.fps else { return value }
            return try LoaderService.fps(text)
        }
    }

    /// `GET /loaders/{name}/frames`: one frame, a batch, or a live stream.
    /// `peer` says whose share of heavy work a costly batch takes; a
    /// request already off the loop, in heavy `job` (a preview), computes it
    /// where it is.
    func frames(_ definition: LoaderDefinition, _ request: HTTPRequest, _ caches: LoopCaches, peer: SocketAddress? = nil,
                in job: HeavyJob? = nil) throws -> HTTPResponse {
        let query = try FramesQuery(request, definition)
        if let stream = query.values.stream, stream != "sse" {
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
        if query.values.clock != nil { throw ServiceError.invalid("clock applies to streams (Accept: text/event-stream or stream=sse)") }
        if query.values.from != nil || query.values.to != nil {
            return try batch(configured.loader, query, request, in: job) { [self] in
                ClientAddress.key(request, peer: peer, trusted: trustedProxies)
            }
        }
        if query.values.fps != nil || query.values.duration != nil {
            let name = query.values.fps != nil ? "fps" : "duration"
            throw ServiceError.invalid("\(name) applies to batches (from, to) and streams (Accept: text/event-stream or stream=sse)")
        }
        let explicit = try query.time("t")
        let loader = configured.loader
        guard job == nil && configured.frameCost > HeavyWork.inlineUnits else { return try frame(loader, at: explicit, request) }
        return runHeavy(for: ClientAddress.key(request, peer: peer, trusted: trustedProxies)) { [self] _ in
            try frame(loader, at: explicit, request)
        }
    }

    /// One frame as JSON: at `t`, cacheable for ever, or at 0 when none is given.
    private func frame(_ loader: ConfiguredLoader, at t: Double?, _ request: HTTPRequest) throws -> HTTPResponse {
        try json(FrameEncoder.encode(loader.frame(at: t ?? 0)), request,
                 cacheControl: t != nil ? "public, max-age=31536000, immutable" : "no-cache")
    }

    /// Frames at `from + k/fps` for k = 0, 1, … while ≤ `to` (1e-9 slack);
    /// none when `to` is before `from`. A batch past `maxBatchFrames`,
    /// `maxBatchBytes` or `maxWorkPerRequest` (its frames times the loader's
    /// frame cost) answers the frames that fit and a `next` link (a field
    /// and `Link: <…>; rel="next"`) to the same batch from the following
    /// frame on. One that costs more than about a millisecond is computed
    /// off the loop, in `client`'s share of heavy work (or in `job`, when the
    /// request is already off the loop), and stops if its client leaves.
    func batch(_ loader: ConfiguredLoader, _ query: FramesQuery, _ request: HTTPRequest, in job: HeavyJob?,
               client: () -> String) throws -> HTTPResponse {
        if query.values.t != nil { throw ServiceError.invalid("t cannot be combined with from and to; a batch starts at from") }
        if query.values.duration != nil { throw ServiceError.invalid("duration applies to streams only") }
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
        guard sent < count else { return try json(body, request, cacheControl: "public, max-age=31536000, immutable") }
        let next = Self.target(request, replacing: "from", with: JSONWriter.number(from + Double(sent) / fps))
        body.removeLast()  // the closing brace: `next` goes before it
        var w = JSONWriter(capacity: next.utf8.count + 16)
        w.value(next)
        body.append(contentsOf: #","next":"#.utf8)
        body.append(contentsOf: w.bytes)
        body.append(UInt8(ascii: "}"))
        var response = try json(body, request, cacheControl: "public, max-age=31536000, immutable")
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

/// The frames endpoint's own query values (`frameQueryNames`), by name:
/// stored fields, so a request makes no dictionary.
struct OwnValues {
    private(set) var t, from, to, fps, stream, duration, clock: String?

    subscript(name: String) -> String? {
        switch name {
        case "t": t
        case "from": from
        case "to": to
        case "fps": fps
        case "stream": stream
        case "duration": duration
        case "clock": clock
        default: nil
        }
    }

    /// Keeps `value` when `name` is one of the endpoint's own names (false
    /// when it is not); a name given twice is a 400.
    mutating func take(_ name: String, _ value: String) throws -> Bool {
        func keep(_ slot: inout String?) throws {
            guard slot == nil else { throw ServiceError.invalid("\(name) is given more than once") }
            slot = value
        }
        switch name {
        case "t": try keep(&t)
        case "from": try keep(&from)
        case "to": try keep(&to)
        case "fps": try keep(&fps)
        case "stream": try keep(&stream)
        case "duration": try keep(&duration)
        case "clock": try keep(&clock)
        default: return false
        }
        return true
    }
}

extension LoaderService {
    /// Frames per second of a batch or stream: 1…120.
    static func fps(_ text: String) throws -> Double {
        guard let fps = Double(text), fps.isFinite, fps >= 1, fps <= 120, isPlainNumber(text) else {
            throw ServiceError.invalid("fps must be a number from 1 to 120")
        }
        return fps
    }
}

/// A plain decimal (the engine's grammar: no hex, inf or nan).
func isPlainNumber(_ text: String) -> Bool {
    !text.isEmpty && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x65 || $0 == 0x45 || $0 == 0x2B || $0 == 0x2D }
}
