import EventLoop
import HTTPServer
import LoaderEngine
import Synchronization

extension LoaderService {
    /// An export of a loader: one frame, or one loop.
    func serve(_ export: any LoaderExport, _ definition: LoaderDefinition, _ request: HTTPRequest, peer: SocketAddress?) throws -> HTTPResponse {
        if let export = export as? any FrameExport { return try frame(export, definition, request, peer: peer) }
        return try loop(export, definition, request, peer: peer)
    }

    /// `GET /loaders/{name}/frames.svg` (and `Accept: image/svg+xml` on
    /// `/frames`): one frame at `t` (default 0), with the loader's events.
    func frame(_ export: any FrameExport, _ definition: LoaderDefinition, _ request: HTTPRequest,
               peer: SocketAddress? = nil) throws -> HTTPResponse {
        let options = try exportOptions(export, request)
        let query = try FrameQuery(definition, items: export.options.isEmpty ? request.query : request.query.filter { !export.takes($0.name) }) {
            Negotiation.wantsEventStream(request)
        }
        for name in FrameQuery.ownNames where name != "t" && query[name] != nil {
            throw ServiceError.invalid("\(name) does not apply to a picture of one frame")
        }
        let loader: ConfiguredLoader
        do { loader = try definition.configure(query.loaderItems) } catch { throw ServiceError(error) }
        let explicit = try query.time("t")
        let freshness: Caching.Freshness = explicit != nil ? .immutable : .revalidate
        let work = try export.work(loader, duration: 0, options: options)
        guard work > 0 else {
            let body = try built(export, definition) { () throws(ExportFailure) in
                try export.write(loader.frame(at: explicit ?? 0), background: loader.background, options: options)
            }
            return try picture(body, request, freshness: freshness, mediaType: export.mediaType, contentType: export.contentType)
        }
        // Pixels: off the event loop, in the client's share of heavy work.
        guard work <= configuration.maxWorkPerRequest else {
            throw ServiceError(.badRequest, "too_costly", "this picture would cost \(work) units of work; maxWorkPerRequest is \(configuration.maxWorkPerRequest) (docs/LOADERS.md)")
        }
        guard Negotiation.accepts(request, export.mediaType) else { throw ServiceError.notAcceptable(export.mediaType) }
        let ifNoneMatch = request.headers["if-none-match"]
        return runHeavy(for: ClientAddress.key(request, peer: peer, trusted: trustedProxies)) { [self] _ in
            let body = try built(export, definition) { () throws(ExportFailure) in
                try export.write(loader.frame(at: explicit ?? 0), background: loader.background, options: options)
            }
            return LoaderService.cacheable(body, contentType: export.contentType, freshness: freshness, ifNoneMatch: ifNoneMatch)
        }
    }

    /// The export's own query names, checked and parsed: the one place
    /// they are read from the query.
    func exportOptions(_ export: any LoaderExport, _ request: HTTPRequest) throws(ServiceError) -> PictureOptions {
        var options = PictureOptions()
        guard !export.options.isEmpty else { return options }
        var given: [String] = []
        for item in request.query {
            guard let option = export.options.first(where: { $0.name == item.name }) else { continue }
            guard !given.contains(item.name) else { throw ServiceError.invalid("\(item.name) is given more than once") }
            if let problem = option.parse(item.value, &options) { throw ServiceError.invalid(problem) }
            given.append(item.name)
        }
        return options
    }

    /// The bytes `write` makes. A build that fails after its checks passed
    /// is the service's fault: logged, and a 500 that names the export,
    /// never an empty answer.
    func built(_ export: any LoaderExport, _ definition: LoaderDefinition,
               _ write: () throws(ExportFailure) -> [UInt8]) throws(ServiceError) -> [UInt8] {
        do {
            return try write()
        } catch {
            logger.log(.error, "export failed", [("export", .string(export.file)), ("loader", .string(definition.name)), ("reason", .string(error.reason))])
            throw ServiceError(.internalServerError, "export_failed", "\(export.file) of \(definition.name) could not be built; the server logged why")
        }
    }

    /// `GET /loaders/{name}/animation.svg`, `.json`, `.css`, `.html`: one
    /// loop of the loader from `from` (default: once every element has
    /// started), in the export's format. Built off the event loop, in
    /// the client's share of heavy work, cached by query. The build's work
    /// is bounded before it starts: the loader's frame cost times the most
    /// frames a loop samples is at most `maxWorkPerRequest`.
    func loop(_ export: any LoaderExport, _ definition: LoaderDefinition, _ request: HTTPRequest, peer: SocketAddress?) throws -> HTTPResponse {
        var from: Double?
        let options = try exportOptions(export, request)
        for item in request.query where !export.takes(item.name)
                && (FrameQuery.ownNames.contains(item.name) || definition.events.contains(where: { $0.name == item.name })) {
            if item.name == "duration" && definition.hasParameter(named: "duration") { continue }
            if item.name == "from" && from == nil {
                do { from = try TimeValue.parse("from", item.value) } catch { throw ServiceError(error) }
                continue
            }
            throw ServiceError.invalid(item.name == "from" ? "from is given more than once"
                                       : "\(quoted(item.name)) does not apply to an animation; it takes the loader's parameters and from")
        }
        let items = request.query.filter { item in item.name != "from" && !export.takes(item.name) }
        let key = request.query.reduce(into: CacheKey(export.file, definition.name)) { key, item in
            key.append(item.name)
            key.append(item.value)
        }
        if let cached = animations.withLock({ $0[key] }) {
            var response = try picture(cached.body, request, freshness: .maxAge(seconds: 86400), mediaType: export.mediaType,
                                       contentType: export.contentType, etag: cached.etag)
            if let rate = cached.frameRate { response.headers.add(Self.frameRateHeader, rate) }
            return response
        }
        // Check the parameters now (a 400 at once), build the loop off the
        // event loop: sampling takes thousands of frames.
        let loader: ConfiguredLoader
        do { loader = try definition.configure(items) } catch { throw ServiceError(error) }
        guard Negotiation.accepts(request, export.mediaType) else {
            throw ServiceError.notAcceptable(export.mediaType)
        }
        let ifNoneMatch = request.headers["if-none-match"]
        let client = ClientAddress.key(request, peer: peer, trusted: trustedProxies)
        if let export = export as? any FramesExport {
            // The loop's frames at a frame rate: its length first (cheap, from the loader
            // configured above), then the work checked.
            let steady: SteadyLoop
            do { steady = try SteadyLoop(definition, configured: loader, parameters: items) } catch { throw ServiceError(error) }
            let fpsAsked = options.fps != nil
            let options = FrameTimes.sized(steady.loader, duration: steady.duration, options, maxWork: configuration.maxWorkPerRequest) { (sized) throws(ServiceError) in
                try export.work(steady.loader, duration: steady.duration, options: sized)
            }
            let work = try export.work(steady.loader, duration: steady.duration, options: options)
            guard work <= configuration.maxWorkPerRequest else {
                throw ServiceError(.badRequest, "too_costly",
                                   "this animation would cost \(work) units of work; maxWorkPerRequest is \(configuration.maxWorkPerRequest) (docs/LOADERS.md)")
            }
            return runHeavy(for: client) { [self, from, options] _ in
                // Without fps, one past its weight is drawn again with fewer
                // frames, while all the drawing stays within maxWorkPerRequest.
                var options = options, body: [UInt8] = [], spent = work
                while true {
                    body = try built(export, definition) { () throws(ExportFailure) in
                        try export.write(steady.loader, start: from ?? steady.start, duration: steady.duration,
                                         background: loader.background, options: options)
                    }
                    guard !fpsAsked, let lighter = FrameTimes.lighter(options, bytes: body.count, duration: steady.duration),
                          let cost = try? export.work(steady.loader, duration: steady.duration, options: lighter),
                          spent + cost <= configuration.maxWorkPerRequest else { break }
                    options = lighter
                    spent += cost
                }
                // The frame rate drawn, lowered or not: a header, kept with the body.
                let rate = FrameTimes.rate(duration: steady.duration, options)
                // Its ETag is kept with it: a hit (one over the answer cache's 64 KiB) hashes nothing.
                let etag = ETag.strong(body)
                animations.withLock { $0[key] = AnimationCache.Entry(body: body, etag: etag, frameRate: rate) }
                var response = LoaderService.cacheable(body, contentType: export.contentType, freshness: .maxAge(seconds: 86400),
                                                       ifNoneMatch: ifNoneMatch, etag: etag)
                response.headers.add(Self.frameRateHeader, rate)
                return response
            }
        }
        // An export that needs the reduced-motion loop builds it too.
        let frames = SampledLoop.maxFrames * (export.needsReducedLoop ? 2 : 1)
        let (work, overflow) = loader.frameCost.multipliedReportingOverflow(by: frames)
        guard !overflow, work <= configuration.maxWorkPerRequest else {
            throw ServiceError(.badRequest, "too_costly",
                               "a frame of this loader costs \(loader.frameCost) units and a loop samples up to \(frames) frames; maxWorkPerRequest is \(configuration.maxWorkPerRequest) (docs/LOADERS.md)")
        }
        guard let export = export as? any LoopExport else {
            _ = try built(export, definition) { () throws(ExportFailure) in throw ExportFailure(reason: "it is not an export of a loop") }
            throw ServiceError.internalError  // not reached: `built` has thrown
        }
        // The loader's `color` when the query gives it (CSS and HTML paint
        // in the page's colour otherwise); no export takes an option of that name.
        var loopOptions = options
        loopOptions.colorGiven = items.contains { $0.name == "color" }
        // Not stopped when its client leaves: a built animation is kept for the next to ask.
        return runHeavy(for: client) { [self, from, options = loopOptions] _ in
            let body = try built(export, definition) { () throws(ExportFailure) in
                // The loop of the loader configured above (configured again
                // only for the reduced one). Its parameters passed the checks
                // on the loop, so a failure here is the server's: a 500 that
                // names the export, and a log line, never a 400.
                let loop: SampledLoop, reduced: SampledLoop?
                do {
                    loop = SampledLoop.loop(try SteadyLoop(definition, configured: loader, parameters: items), from: from)
                    reduced = export.needsReducedLoop
                        ? try SampledLoop.loop(for: definition, parameters: items.filter { $0.name != "motion" } + [("motion", "reduced")], from: from)
                        : nil
                } catch {
                    throw ExportFailure(reason: "its loop could not be sampled: \(error)")
                }
                return try export.write(loop, reduced: reduced, options: options)
            }
            let etag = ETag.strong(body)
            animations.withLock { $0[key] = AnimationCache.Entry(body: body, etag: etag) }
            return LoaderService.cacheable(body, contentType: export.contentType, freshness: .maxAge(seconds: 86400), ifNoneMatch: ifNoneMatch, etag: etag)
        }
    }

    /// `animation.png` and `animation.gif`: the frames a second drawn (the
    /// frames over the loop's length, two decimals), whether `fps` was
    /// asked, defaulted, or lowered to fit the limits.
    static let frameRateHeader = "Loader-Frame-Rate"

    private func picture(_ body: [UInt8], _ request: HTTPRequest, freshness: Caching.Freshness, mediaType: String = "image/svg+xml",
                         contentType: String = "image/svg+xml", etag: String? = nil) throws -> HTTPResponse {
        guard Negotiation.accepts(request, mediaType) else {
            throw ServiceError.notAcceptable(mediaType)
        }
        return Self.cacheable(body, contentType: contentType, freshness: freshness, ifNoneMatch: request.headers["if-none-match"], etag: etag)
    }

    /// Whether the client asks for SVG rather than JSON on `/frames`: SVG
    /// named, and JSON not named or weighed less; or SVG taken (by a
    /// wildcard) where JSON is refused (`application/json;q=0, */*`). An
    /// event stream named goes first: that is what EventSource sends.
    static func prefersSVG(_ request: HTTPRequest) -> Bool {
        let accept = request.accept
        let svg = accept.quality("image/svg+xml"), json = accept.quality("application/json")
        guard svg > 0, !accept.names("text/event-stream") else { return false }
        if accept.names("image/svg+xml") { return !accept.names("application/json") || svg > json }
        return json == 0
    }
}
