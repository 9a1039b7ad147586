import EventLoop
import HTTPServer
import LoaderEngine
import Synchronization

extension LoaderService {
    /// An export of a loader: one frame, or one loop.
    func serve(_ export: any LoaderExport, _ definition: LoaderDefinition, _ request: HTTPRequest, peer: SocketAddress?) throws -> HTTPResponse {
        switch export.source {
        case .frame: return try frame(export, definition, request, peer: peer)
        case .loop, .frames: return try loop(export, definition, request, peer: peer)
        }
    }

    /// `GET /loaders/{name}/frames.svg` (and `Accept: image/svg+xml` on
    /// `/frames`): one frame at `t` (default 0), with the loader's events.
    func frame(_ export: any LoaderExport, _ definition: LoaderDefinition, _ request: HTTPRequest,
               peer: SocketAddress? = nil) throws -> HTTPResponse {
        let options = try exportOptions(export, request)
        let query = try FrameQuery(definition, items: request.query.filter { options[$0.name] == nil }) { Negotiation.wantsEventStream(request) }
        for name in FrameQuery.ownNames where name != "t" && query[name] != nil {
            throw ServiceError.invalid("\(name) does not apply to a picture of one frame")
        }
        let loader: ConfiguredLoader
        do { loader = try definition.configure(query.loaderItems) } catch { throw ServiceError(error) }
        let explicit = try query.time("t")
        let freshness: Caching.Freshness = explicit != nil ? .immutable : .revalidate
        let work = try export.work(loader, duration: 0, options: options)
        guard work > 0 else {
            return try picture(export.write(loader.frame(at: explicit ?? 0), background: loader.background, options: options), request,
                               freshness: freshness, mediaType: export.mediaType, contentType: export.contentType)
        }
        // Pixels: off the event loop, in the client's share of heavy work.
        guard work <= configuration.maxWorkPerRequest else {
            throw ServiceError(.badRequest, "too_costly", "this picture would cost \(work) units of work; maxWorkPerRequest is \(configuration.maxWorkPerRequest) (docs/LOADERS.md)")
        }
        guard Negotiation.accepts(request, export.mediaType) else { throw ServiceError.notAcceptable(export.mediaType) }
        let ifNoneMatch = request.headers["if-none-match"]
        return runHeavy(for: ClientAddress.key(request, peer: peer, trusted: trustedProxies)) { _ in
            let body = export.write(loader.frame(at: explicit ?? 0), background: loader.background, options: options)
            return LoaderService.cacheable(body, contentType: export.contentType, freshness: freshness, ifNoneMatch: ifNoneMatch)
        }
    }

    /// The export's own query names, checked.
    func exportOptions(_ export: any LoaderExport, _ request: HTTPRequest) throws -> [String: String] {
        var options: [String: String] = [:]
        for item in request.query {
            guard let option = export.options.first(where: { $0.name == item.name }) else { continue }
            guard options[item.name] == nil else { throw ServiceError.invalid("\(item.name) is given more than once") }
            if let problem = option.check(item.value) { throw ServiceError.invalid(problem) }
            options[item.name] = item.value
        }
        return options
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
        for item in request.query where options[item.name] == nil
                && (FrameQuery.ownNames.contains(item.name) || definition.events.contains(where: { $0.name == item.name })) {
            if item.name == "duration" && definition.hasParameter(named: "duration") { continue }
            if item.name == "from" && from == nil {
                do { from = try TimeValue.parse("from", item.value) } catch { throw ServiceError(error) }
                continue
            }
            throw ServiceError.invalid(item.name == "from" ? "from is given more than once"
                                       : "\(quoted(item.name)) does not apply to an animation; it takes the loader's parameters and from")
        }
        let items = request.query.filter { item in item.name != "from" && !export.options.contains { $0.name == item.name } }
        let key = export.file + ":" + definition.name + "?" + request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        if let cached = animations.withLock({ $0[key] }) {
            var response = try picture(cached.body, request, freshness: .maxAge(seconds: 86400), mediaType: export.mediaType, contentType: export.contentType)
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
        if export.source == .frames {
            // The loop's frames at a frame rate: its length first (cheap), then the work checked.
            let steady: SteadyLoop
            do { steady = try SteadyLoop(definition, parameters: items) } catch { throw ServiceError(error) }
            let fpsAsked = options["fps"] != nil
            let options = FrameTimes.sized(steady.loader, duration: steady.duration, options, maxWork: configuration.maxWorkPerRequest) {
                try export.work(steady.loader, duration: steady.duration, options: $0)
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
                    body = export.write(steady.loader, start: from ?? steady.start, duration: steady.duration,
                                        background: loader.background, options: options)
                    guard !fpsAsked, let lighter = FrameTimes.lighter(options, bytes: body.count, duration: steady.duration),
                          let cost = try? export.work(steady.loader, duration: steady.duration, options: lighter),
                          spent + cost <= configuration.maxWorkPerRequest else { break }
                    options = lighter
                    spent += cost
                }
                // The frame rate drawn, lowered or not: a header, kept with the body.
                let rate = FrameTimes.rate(duration: steady.duration, options)
                animations.withLock { $0[key] = AnimationCache.Entry(body: body, frameRate: rate) }
                var response = LoaderService.cacheable(body, contentType: export.contentType, freshness: .maxAge(seconds: 86400), ifNoneMatch: ifNoneMatch)
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
        // The loader's `color` when the query gives it (CSS and HTML paint
        // in the page's colour otherwise); no export takes an option of that name.
        var loopOptions = options
        if let color = items.first(where: { $0.name == "color" }) { loopOptions["color"] = color.value }
        // Not stopped when its client leaves: a built animation is kept for the next to ask.
        return runHeavy(for: client) { [self, from, options = loopOptions] _ in
            guard let loop = try? SampledLoop.loop(for: definition, parameters: items, from: from),
                  let reduced = export.needsReducedLoop
                    ? try? SampledLoop.loop(for: definition, parameters: items.filter { $0.name != "motion" } + [("motion", "reduced")], from: from)
                    : loop
            else {
                return ServiceError.invalid("the animation's parameters are not valid").response
            }
            let body = export.write(loop, reduced: export.needsReducedLoop ? reduced : nil, options: options)
            animations.withLock { $0[key] = AnimationCache.Entry(body: body) }
            return LoaderService.cacheable(body, contentType: export.contentType, freshness: .maxAge(seconds: 86400), ifNoneMatch: ifNoneMatch)
        }
    }

    /// `animation.png` and `animation.gif`: the frames a second drawn (the
    /// frames over the loop's length, two decimals), whether `fps` was
    /// asked, defaulted, or lowered to fit the limits.
    static let frameRateHeader = "Loader-Frame-Rate"

    private func picture(_ body: [UInt8], _ request: HTTPRequest, freshness: Caching.Freshness, mediaType: String = "image/svg+xml",
                         contentType: String = "image/svg+xml") throws -> HTTPResponse {
        guard Negotiation.accepts(request, mediaType) else {
            throw ServiceError.notAcceptable(mediaType)
        }
        return Self.cacheable(body, contentType: contentType, freshness: freshness, ifNoneMatch: request.headers["if-none-match"])
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
