import HTTPServer
import LoaderEngine
import Synchronization

/// The HTTP API of loaderd: the glue between the frame engine and the
/// server. Every request passes the middleware of `pipeline`, then the
/// router, which calls the handler of its entry in `endpoints`.
public final class LoaderService: HTTPResponder, @unchecked Sendable {
    public let configuration: ServiceConfiguration
    public let catalog: LoaderCatalog
    public let metrics = Metrics()
    public let logger: Logger
    public let sessions: any SessionStore
    let router: Router<Endpoint>
    let catalogJSON: [UInt8]
    let entryJSON: [String: [UInt8]]
    let openAPIJSON: [UInt8]
    private let ready = Atomic<Bool>(true)
    /// Animated SVGs by loader and query (each costs thousands of frames).
    let animations = Mutex(AnimationCache())
    /// Set once before the server starts.
    private(set) weak var server: HTTPServer?

    /// The steps every request passes, outermost first; the router is last.
    static let pipeline: [Middleware] = [
        { try $0.accessLog(&$1, $2) },
        { try $0.answerCache(&$1, $2) },
        { try $0.cors(&$1, $2) },
        { $0.errorsAsJSON(&$1, $2) },
        { try $0.preflight(&$1, $2) },
    ]

    /// `sessions` defaults to an in-memory store with the configured limits.
    public init(configuration: ServiceConfiguration, catalog: LoaderCatalog = .standard, logger: Logger? = nil,
                sessions: (any SessionStore)? = nil) {
        self.configuration = configuration
        self.catalog = catalog
        let logger = logger ?? Logger(level: configuration.logLevel)
        self.logger = logger
        // An in-memory store opens no file: it cannot fail.
        self.sessions = sessions ?? (try! LocalSessionStore(limits: configuration.sessionLimits, catalog: catalog, dataDirectory: nil,
                                                        replicaName: configuration.replicaName, logger: logger))
        var router = Router<Endpoint>()
        for endpoint in Self.endpoints { router.add(endpoint.method, endpoint.path, endpoint) }
        self.router = router
        catalogJSON = catalog.json()
        entryJSON = Dictionary(uniqueKeysWithValues: catalog.loaders.map { ($0.name, $0.json()) })
        openAPIJSON = OpenAPI.document(Self.endpoints, OpenAPI.Context(catalog: catalog, configuration: configuration))
    }

    /// Connects the service to the server that runs it (metrics, readiness).
    public func attach(to server: HTTPServer) { self.server = server }

    /// Readiness off: `/readyz` answers 503 (shutting down).
    public func markNotReady() { ready.store(false, ordering: .relaxed) }
    public var isReady: Bool { ready.load(ordering: .relaxed) && !(server?.isShuttingDown ?? false) }

    // MARK: HTTPResponder

    public func makeLoopStorage(for loop: EventLoop) -> AnyObject? { LoopCaches() }

    public func respond(to request: HTTPRequest, context: RequestContext) -> HTTPResponse {
        var r = ServiceRequest(http: request, context: context, caches: context.storage(as: LoopCaches.self), start: monotonicNanoseconds())
        do {
            return try run(0, &r)
        } catch {
            // errorsAsJSON answers every error; this is its backstop.
            return ServiceError(.internalServerError, "internal_error", "internal error").response
        }
    }

    /// Step `index` of the pipeline, then the rest; past the last, the router.
    private func run(_ index: Int, _ r: inout ServiceRequest) throws -> HTTPResponse {
        guard index < Self.pipeline.count else { return try route(&r) }
        return try Self.pipeline[index](self, &r) { r in try run(index + 1, &r) }
    }

    public func errorResponse(status: HTTPStatus, message: String) -> HTTPResponse {
        ServiceError(status, ServiceError.code(for: status), message).response
    }
}
