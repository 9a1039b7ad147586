import HTTPServer
import LoaderEngine

extension LoaderService {
    /// A multiplexed stream carries at most this many loaders.
    static let maxMultiplexedLoaders = 64

    /// `GET /streams?loader=typing&loader=switch%3Fcount%3D5`: one event
    /// stream with the frames of several loaders, so that a page holds one
    /// connection however many loaders it shows. Each `loader` value is a
    /// loader's name, optionally with `?` and its parameters (and, on the
    /// stream's own clock, its events) as a query. Every tick k sends one
    /// `frame` event per loader, `{"index":i,"frame":{…}}` with i the
    /// loader's place in the query; the tick's last event carries `id: k`,
    /// so one `Last-Event-ID` resumes all of them after a whole tick.
    func multiplexedStream(_ request: HTTPRequest, _ caches: LoopCaches) throws -> HTTPResponse {
        let query: FrameQuery
        do { query = try FrameQuery(items: request.query, grammar: .multiplexed) } catch { throw ServiceError(error) }
        let references = query.references
        if let stream = query.stream, stream != "sse" { throw ServiceError.invalid("stream must be sse") }
        guard !references.isEmpty, references.count <= Self.maxMultiplexedLoaders else {
            throw ServiceError.invalid("loader must be given 1 to \(Self.maxMultiplexedLoaders) times: a name, or a name, ? and its parameters")
        }
        try Negotiation.requireEventStream(request)
        let clock = try StreamClock(query.clock)
        let fps = try query.fps(default: Double(configuration.streamDefaultFps))
        let frameCount = try Self.streamFrameCount(query.duration, fps: fps)
        var t0 = 0.0
        if query.t != nil {
            if case .shared = clock { throw ServiceError.invalid("t does not apply with clock=shared: the shared clock's time is the Unix epoch folded into each loader's loop") }
            do { t0 = try query.time("t") ?? 0 } catch { throw ServiceError(error) }
        }
        var loaders: [MultiplexedLoader] = []
        for (index, reference) in references.enumerated() {
            let (name, items) = try Self.loaderReference(reference, index)
            guard let definition = catalog[name] else {
                throw ServiceError.invalid("loader \(index): \(unknownLoader(name).message)")
            }
            let loader: ConfiguredLoader
            do { loader = try caches.loaders.loader(definition, items).loader } catch { throw ServiceError.invalid("loader \(index): \(error)") }
            switch clock {
            case .stream: loaders.append(.stream(loader))
            case .shared:
                if loader.events != LoaderEvents() { throw ServiceError.invalid("loader \(index): stop, finish and progress do not apply with clock=shared") }
                do { loaders.append(.shared(try SteadyLoop(definition, configured: loader, parameters: items))) } catch { throw ServiceError.invalid("loader \(index): \(error)") }
            }
        }
        var cost = 0
        for loader in loaders {
            switch loader {
            case .stream(let l): cost += l.frameCost
            case .shared(let steady): cost += steady.loader.frameCost
            }
        }
        try checkStreamWork(cost, fps: fps)
        let startK = Self.resumeAfter(request)
        if case .stream = clock, let frameCount, startK >= frameCount {
            return HTTPResponse(status: .noContent, headers: ["Cache-Control": "no-store"])
        }
        let caches = caches.bound
        return HTTPResponse(status: .ok, headers: Self.eventStreamHeaders) { [self, loaders, t0] writer in
            let source = MultiplexSource(loaders, t0: t0, fps: fps, viewers: caches.value.sharedClockViewers, shared: sharedClockFrames)
            startStream(writer, frames: source, on: clock, fps: fps, resumeAfter: startK, frameCount: frameCount, tickers: caches.value.streamTickers)
        }
    }

    /// `switch?count=5&color=%23f00` → ("switch", [count=5, color=#f00]).
    static func loaderReference(_ reference: String, _ index: Int) throws -> (String, [(name: String, value: String)]) {
        guard let mark = reference.firstIndex(of: "?") else { return (reference, []) }
        guard let items = HTTPRequest.queryItems(String(reference[reference.index(after: mark)...])) else {
            throw ServiceError.invalid("loader \(index): invalid percent-encoding in its parameters")
        }
        return (String(reference[..<mark]), items)
    }
}

extension FrameQuery.Grammar {
    /// `/streams`: the stream's own values and `loader`, repeated; a
    /// loader's parameters go in its `loader` value, not beside it.
    static let multiplexed = FrameQuery.Grammar(
        own: ["t", "fps", "duration", "clock", "stream"], references: "loader",
        unknown: "a multiplexed stream takes loader (repeated), t, fps, duration, clock and stream; a loader's own parameters go in its loader value (loader=switch%3Fcount%3D5)")

    /// A session's frames: its clock is the session's, so only `t` (a
    /// frame), `fps` and `stream`; each is checked where it stands, and
    /// `stream=sse` may repeat.
    static let session = FrameQuery.Grammar(
        own: ["t", "fps", "stream"], unknown: "a session's frames take t, fps and stream",
        repeatable: ["stream"], checksInOrder: true)
}
