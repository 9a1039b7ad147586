import HTTPServer
import LoaderEngine
import Synchronization

/// The HTTP API of loaderd: the glue between the frame engine and the server.
/// Every answer passes through `respond`, which adds CORS headers, counts it
/// for `/metrics` and logs it.
public final class LoaderService: HTTPResponder, @unchecked Sendable {
    public let configuration: ServiceConfiguration
    public let catalog: LoaderCatalog
    public let metrics = Metrics()
    public let logger: Logger
    public let sessions: SessionStore
    let router: Router<Route>
    let catalogJSON: [UInt8]
    let entryJSON: [String: [UInt8]]
    let openAPIJSON: [UInt8]
    private let ready = Atomic<Bool>(true)
    /// Per event loop, touched only on that loop: the shared stream frame cache.
    let streamCaches: [StreamFrameCache]
    /// Per event loop: answers that never change, and configured loaders.
    let responseCaches: [ResponseCache]
    let loaderCaches: [LoaderCache]
    /// Animated SVGs by loader and query (each costs thousands of frames).
    let animations = Mutex(AnimationCache())
    /// Set once before the server starts.
    private(set) weak var server: HTTPServer?

    /// The routes, named as in `/metrics` and the OpenAPI document.
    enum Route: String, Sendable {
        case catalog = "/loaders"
        case loader = "/loaders/{name}"
        case frames = "/loaders/{name}/frames"
        case frameSVG = "/loaders/{name}/frames.svg"
        case animationSVG = "/loaders/{name}/animation.svg"
        case demo = "/"
        case healthz = "/healthz"
        case readyz = "/readyz"
        case metrics = "/metrics"
        case openapi = "/openapi.json"
        case sessions = "/sessions"
        case session = "/sessions/{id}"
        case sessionFrames = "/sessions/{id}/frames"
        case sessionEvents = "/sessions/{id}/events"
    }

    /// `sessions` defaults to an in-memory store with the configured limits.
    public init(configuration: ServiceConfiguration, catalog: LoaderCatalog = .standard, logger: Logger? = nil,
                sessions: SessionStore? = nil, eventLoops: Int) {
        self.configuration = configuration
        self.catalog = catalog
        let logger = logger ?? Logger(level: configuration.logLevel)
        self.logger = logger
        // An in-memory store opens no file: it cannot fail.
        self.sessions = sessions ?? (try! SessionStore(limits: configuration.sessionLimits, catalog: catalog, dataDirectory: nil,
                                                        replicaName: configuration.replicaName, logger: logger))
        var router = Router<Route>()
        router.add(.GET, "/loaders", .catalog)
        router.add(.GET, "/loaders/:name", .loader)
        router.add(.GET, "/loaders/:name/frames", .frames)
        router.add(.GET, "/loaders/:name/frames.svg", .frameSVG)
        router.add(.GET, "/loaders/:name/animation.svg", .animationSVG)
        router.add(.GET, "/", .demo)
        router.add(.GET, "/healthz", .healthz)
        router.add(.GET, "/readyz", .readyz)
        router.add(.GET, "/metrics", .metrics)
        router.add(.GET, "/openapi.json", .openapi)
        router.add(.POST, "/sessions", .sessions)
        router.add(.GET, "/sessions/:id", .session)
        router.add(.DELETE, "/sessions/:id", .session)
        router.add(.GET, "/sessions/:id/frames", .sessionFrames)
        router.add(.POST, "/sessions/:id/events", .sessionEvents)
        self.router = router
        catalogJSON = catalog.json()
        entryJSON = Dictionary(uniqueKeysWithValues: catalog.loaders.map { ($0.name, $0.json()) })
        openAPIJSON = OpenAPI.document(catalog: catalog, configuration: configuration)
        streamCaches = (0..<max(1, eventLoops)).map { _ in StreamFrameCache() }
        responseCaches = (0..<max(1, eventLoops)).map { _ in ResponseCache() }
        loaderCaches = (0..<max(1, eventLoops)).map { _ in LoaderCache() }
    }

    /// Connects the service to the server that runs it (metrics, readiness).
    public func attach(to server: HTTPServer) { self.server = server }

    /// Readiness off: `/readyz` answers 503 (shutting down).
    public func markNotReady() { ready.store(false, ordering: .relaxed) }
    public var isReady: Bool { ready.load(ordering: .relaxed) && !(server?.isShuttingDown ?? false) }

    // MARK: HTTPResponder

    public func respond(to request: HTTPRequest, context: RequestContext) -> HTTPResponse {
        let start = monotonicNanoseconds()
        // A repeated request for an answer that never changes: no parsing,
        // computing or encoding.
        let cache = responseCaches[context.loop.index % responseCaches.count]
        let key = (request.method == .GET || request.method == .HEAD) && request.headers["origin"] == nil
            ? ResponseCache.Key(target: request.target, accept: request.headers["accept"] ?? "") : nil
        if let key, let hit = cache.lookup(key) {
            let response = ETag.matches(request.headers["if-none-match"], hit.etag) ? Self.notModified(hit.response) : hit.response
            finish(request, response, route: hit.route, start: start)
            return response
        }
        var routeName = "unmatched"
        var response: HTTPResponse
        do {
            if request.method == .OPTIONS {
                routeName = "OPTIONS"
                response = try options(request)
            } else {
                switch router.match(method: request.method, path: request.pathSegments) {
                case .found(let route, let parameters):
                    routeName = route.rawValue
                    response = try handle(route, request, parameters, context)
                case .notFound:
                    throw ServiceError.notFound("no resource at \(request.path)")
                case .methodNotAllowed(let allowed):
                    var e = ServiceError(.methodNotAllowed, "method_not_allowed",
                                         "\(request.method) is not allowed here; allowed: \(allowed.map(\.rawValue).joined(separator: ", "))")
                    e.headers.add("Allow", allowed.map(\.rawValue).joined(separator: ", "))
                    throw e
                }
            }
        } catch let error as ServiceError {
            response = error.response
        } catch {
            response = ServiceError(.internalServerError, "internal_error", "internal error").response
        }
        if case .deferred(let begin) = response.body {
            // Headers, metrics and the log line go on the answer when it
            // comes, not on this placeholder.
            let route = routeName
            response.body = .deferred { [self] promise in
                begin(promise.mapping { [self] final in
                    var final = final
                    applyCORS(&final, request)
                    finish(request, final, route: route, start: start)
                    return final
                })
            }
            return response
        }
        applyCORS(&response, request)
        if let key { cache.store(key, response, route: routeName) }
        finish(request, response, route: routeName, start: start)
        return response
    }

    public func errorResponse(status: HTTPStatus, message: String) -> HTTPResponse {
        ServiceError(status, ServiceError.code(for: status), message).response
    }

    private func handle(_ route: Route, _ request: HTTPRequest, _ parameters: RouteParameters, _ context: RequestContext) throws -> HTTPResponse {
        switch route {
        case .catalog:
            try requireNoQuery(request)
            return try json(catalogJSON, request, cacheControl: "public, max-age=300")
        case .loader:
            try requireNoQuery(request)
            guard let name = parameters["name"], let entry = entryJSON[name] else {
                throw unknownLoader(parameters["name"] ?? "")
            }
            return try json(entry, request, cacheControl: "public, max-age=300")
        case .frames, .frameSVG, .animationSVG:
            guard let name = parameters["name"], let definition = catalog[name] else {
                throw unknownLoader(parameters["name"] ?? "")
            }
            if route == .animationSVG { return try animationSVG(definition, request) }
            if route == .frameSVG || Self.prefersSVG(request) { return try frameSVG(definition, request) }
            return try frames(definition, request, context)
        case .demo:
            return DemoPage.response(request)
        case .healthz:
            return try json(Array(#"{"status":"ok"}"#.utf8), request, cacheControl: "no-store")
        case .readyz:
            guard isReady else { throw ServiceError(.serviceUnavailable, "not_ready", "shutting down") }
            return try json(Array(#"{"status":"ready"}"#.utf8), request, cacheControl: "no-store")
        case .metrics:
            let body = metrics.text(openConnections: server?.openConnections ?? 0, openStreams: server?.openStreams ?? 0,
                                    sessions: sessions.count, journal: sessions.journal)
            return HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8", "Cache-Control": "no-store"], body: body)
        case .openapi:
            return try json(openAPIJSON, request, cacheControl: "public, max-age=300")
        case .sessions:
            return try createSession(request)
        case .session:
            let id = parameters["id"] ?? ""
            return request.method == .DELETE ? try deleteSession(id, request) : try sessionState(id, request)
        case .sessionFrames:
            return try sessionFrames(parameters["id"] ?? "", request)
        case .sessionEvents:
            return try postSessionEvent(parameters["id"] ?? "", request)
        }
    }

    func unknownLoader(_ name: String) -> ServiceError {
        .notFound("no loader named \(name); loaders: \(catalog.names.joined(separator: ", "))")
    }

    func requireNoQuery(_ request: HTTPRequest) throws {
        if let first = request.query.first {
            throw ServiceError(.badRequest, "unknown_parameter", "unknown parameter \(first.name); this resource takes none")
        }
    }

    /// A JSON body with a strong ETag; `If-None-Match` gives 304.
    func json(_ body: [UInt8], _ request: HTTPRequest, cacheControl: String) throws -> HTTPResponse {
        try Negotiation.requireJSON(request)
        return Self.cacheable(body, contentType: "application/json", cacheControl: cacheControl, ifNoneMatch: request.headers["if-none-match"])
    }

    /// A body with a strong ETag, or 304 when `If-None-Match` names it.
    static func cacheable(_ body: [UInt8], contentType: String, cacheControl: String, ifNoneMatch: String?) -> HTTPResponse {
        let etag = ETag.strong(body)
        let response = HTTPResponse(status: .ok, headers: ["Content-Type": contentType, "Cache-Control": cacheControl, "ETag": etag], body: body)
        return ETag.matches(ifNoneMatch, etag) ? notModified(response) : response
    }

    /// The 304 for a cacheable answer: its validators, no body.
    static func notModified(_ response: HTTPResponse) -> HTTPResponse {
        var r = response
        r.headers.remove("Content-Type")
        r.body = .bytes([])
        r.status = .notModified
        return r
    }

    // MARK: Logging and metrics

    private func finish(_ request: HTTPRequest, _ response: HTTPResponse, route: String, start: UInt64) {
        let elapsed = monotonicNanoseconds() &- start
        metrics.record(route: route, status: response.status.code, seconds: Double(elapsed) / 1e9)
        guard configuration.accessLog, logger.enabled(.info) else { return }
        var bytes = 0
        if case .bytes(let body) = response.body { bytes = body.count }
        logger.log(.info, "request", [
            ("method", .string(request.method.rawValue)), ("path", .string(request.path)),
            ("status", .int(response.status.code)), ("bytes", .int(bytes)), ("us", .int(Int(elapsed / 1000))),
        ])
    }
}

/// Strong entity tags from the body bytes (FNV-1a, 64 bits).
enum ETag {
    static func strong(_ body: [UInt8]) -> String {
        // FNV-1a over 8-byte words, then the tail bytes; a final mix spreads
        // the high bits. Only equality matters: same bytes, same tag.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        body.withUnsafeBytes { raw in
            let words = raw.count / 8
            for i in 0..<words {
                hash ^= raw.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)
                hash = hash &* 0x100_0000_01b3
            }
            for i in (words * 8)..<raw.count {
                hash ^= UInt64(raw[i])
                hash = hash &* 0x100_0000_01b3
            }
        }
        hash ^= hash >> 29
        hash = hash &* 0xbf58_476d_1ce4_e5b9
        hash ^= hash >> 32
        let hex = String(hash, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }

    /// `If-None-Match` (weak comparison, RFC 9110 §13.1.2): `*` or a listed tag.
    static func matches(_ header: String?, _ etag: String) -> Bool {
        guard let header else { return false }
        if header.trimmingSpaces == "*" { return true }
        for part in header.split(separator: ",") {
            var tag = String(part.trimmingSpaces)
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            if tag == etag { return true }
        }
        return false
    }
}

/// `Accept` handling: what a client says it can take.
enum Negotiation {
    /// Media ranges with q > 0, lower-cased, parameters dropped.
    static func ranges(_ header: String?) -> [String]? {
        guard let header, !header.trimmingSpaces.isEmpty else { return nil }
        var out = [String]()
        for part in header.split(separator: ",") {
            let pieces = part.split(separator: ";").map { $0.trimmingSpaces.lowercased() }
            guard let range = pieces.first, !range.isEmpty else { continue }
            let q = pieces.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if q > 0 { out.append(range) }
        }
        return out
    }

    static func accepts(_ request: HTTPRequest, _ type: String) -> Bool {
        guard let ranges = ranges(request.headers["accept"]) else { return true }
        let major = type.split(separator: "/").first.map(String.init) ?? type
        return ranges.contains { $0 == type || $0 == "*/*" || $0 == major + "/*" }
    }

    /// Whether the client asks for an event stream (what EventSource sends).
    static func wantsEventStream(_ request: HTTPRequest) -> Bool {
        ranges(request.headers["accept"])?.contains("text/event-stream") ?? false
    }

    static func requireJSON(_ request: HTTPRequest) throws {
        guard accepts(request, "application/json") else {
            throw ServiceError(.notAcceptable, "not_acceptable", "this resource is application/json; the Accept header excludes it")
        }
    }
}
