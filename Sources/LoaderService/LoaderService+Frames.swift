import HTTPServer
import LoaderEngine

extension LoaderService {
    /// Query names the frames endpoint takes besides the loader's own.
    static let frameQueryNames: Set<String> = ["t", "from", "to", "fps", "stream", "duration"]
    static let maxBatchFrames = 10_000
    /// A batch larger than this is refused rather than built.
    static let maxBatchBytes = 64 << 20

    /// The frames query, split: the endpoint's own values and the loader's.
    ///
    /// One name is shared: a stream's `duration` is its length, while the
    /// switch loader has a `duration` parameter (its period). In a stream
    /// `duration` is the stream's; in a single frame or a batch it is the
    /// loader's. `loader.<name>` always names a loader parameter or event
    /// (`loader.duration=2` sets the switch's period in a stream).
    struct FramesQuery {
        var values: [String: String] = [:]
        var loaderItems: [(name: String, value: String)] = []

        init(_ request: HTTPRequest, _ definition: LoaderDefinition) throws {
            let streaming = request.queryValue("stream") == "sse" || Negotiation.wantsEventStream(request)
            let loaderTakesDuration = definition.parameters.contains { $0.name == "duration" }
            for item in request.query {
                if item.name.hasPrefix("loader.") {
                    loaderItems.append((String(item.name.dropFirst("loader.".count)), item.value))
                } else if LoaderService.frameQueryNames.contains(item.name)
                            && !(item.name == "duration" && !streaming && loaderTakesDuration) {
                    guard values[item.name] == nil else { throw ServiceError.invalid("\(item.name) is given more than once") }
                    values[item.name] = item.value
                } else {
                    loaderItems.append(item)
                }
            }
        }

        func time(_ name: String) throws -> Double? {
            guard let text = values[name] else { return nil }
            do { return try TimeValue.parse(name, text) } catch { throw ServiceError(error) }
        }

        func fps(default value: Double) throws -> Double {
            guard let text = values["fps"] else { return value }
            return try LoaderService.fps(text)
        }
    }

    /// `GET /loaders/{name}/frames`: one frame, a batch, or a live stream.
    func frames(_ definition: LoaderDefinition, _ request: HTTPRequest, _ caches: LoopCaches) throws -> HTTPResponse {
        let query = try FramesQuery(request, definition)
        if let stream = query.values["stream"], stream != "sse" {
            throw ServiceError.invalid("stream must be sse")
        }
        let wantsStream = query.values["stream"] == "sse" || Negotiation.wantsEventStream(request)
        let loader: ConfiguredLoader
        do {
            loader = try caches.loaders.loader(definition, query.loaderItems)
        } catch {
            throw ServiceError(error)
        }

        if wantsStream {
            return try stream(loader, query, request, caches)
        }
        try Negotiation.requireJSON(request)
        if query.values["from"] != nil || query.values["to"] != nil {
            return try batch(loader, query, request)
        }
        if query.values["fps"] != nil || query.values["duration"] != nil {
            let name = query.values["fps"] != nil ? "fps" : "duration"
            throw ServiceError.invalid("\(name) applies to batches (from, to) and streams (Accept: text/event-stream or stream=sse)")
        }
        let explicit = try query.time("t")
        let t = explicit ?? 0
        return try json(FrameEncoder.encode(loader.frame(at: t)), request,
                        cacheControl: explicit != nil ? "public, max-age=31536000, immutable" : "no-cache")
    }

    /// Frames at `from + k/fps` for k = 0, 1, … while ≤ `to` (1e-9 slack).
    func batch(_ loader: ConfiguredLoader, _ query: FramesQuery, _ request: HTTPRequest) throws -> HTTPResponse {
        if query.values["t"] != nil { throw ServiceError.invalid("t cannot be combined with from and to; a batch starts at from") }
        if query.values["duration"] != nil { throw ServiceError.invalid("duration applies to streams only") }
        guard let to = try query.time("to") else { throw ServiceError.invalid("to is required for a batch (frames from `from` to `to`)") }
        let from = try query.time("from") ?? 0
        guard to >= from else { throw ServiceError.invalid("to must be >= from") }
        let fps = try query.fps(default: Double(configuration.streamDefaultFps))
        let span = (to - from) * fps
        guard span < Double(Self.maxBatchFrames) else {
            throw ServiceError.invalid("a batch has at most \(Self.maxBatchFrames) frames; from, to and fps ask for more")
        }
        let count = Int((span + 1e-9).rounded(.down)) + 1
        guard count <= Self.maxBatchFrames else {
            throw ServiceError.invalid("a batch has at most \(Self.maxBatchFrames) frames; from, to and fps ask for \(count)")
        }
        var renderer = FrameRenderer(loader)
        let times = (0..<count).lazy.map { from + Double($0) / fps }
        guard let body = renderer.encodedBatch(times: times, fps: fps, count: count, maxBytes: Self.maxBatchBytes) else {
            throw ServiceError.invalid("a batch is at most \(Self.maxBatchBytes >> 20) MiB of JSON; ask for fewer frames (from, to, fps)")
        }
        return try json(body, request, cacheControl: "public, max-age=31536000, immutable")
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
