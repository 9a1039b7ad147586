import EventLoop
import HTTPServer
import LoaderEngine
import LoaderSessions
import Synchronization

/// The HTTP API of loaderd: the glue between the frame engine and the
/// server. Every request passes the middleware (`pipeline`), then the
/// router, which calls the handler of its entry in `endpoints`.
public final class LoaderService: HTTPResponder, Sendable {
    /// The version, in `/version`, `/openapi.json` and `--version` (the
    /// changelog and the image's label are kept in step by tests).
    public static let version = "0.1.0"

    public let configuration: ServiceConfiguration
    public let catalog: LoaderCatalog
    public let metrics = Metrics()
    public let logger: Logger
    public let sessions: any SessionStore
    /// The middleware and the router, composed once (`makePipeline`).
    let pipeline: Pipeline<Middleware>
    let catalogJSON: [UInt8]
    /// `GET /loaders?family=…`, one body per family.
    let familyJSON: [String: [UInt8]]
    let entryJSON: [String: [UInt8]]
    /// Built after start-up, off its path (about 4 ms).
    let openAPIJSON: Prepared<[UInt8]>
    let ready = Atomic<Bool>(true)
    /// Animated SVGs by loader and query (each costs thousands of frames).
    let animations = Mutex(AnimationCache())
    /// Peers whose `X-Forwarded-For` names the client (`trustedProxies`).
    let trustedProxies: [AddressRange]
    /// The latest frame of each shared-clock stream, for every loop.
    let sharedClockFrames = SharedClockFrames()
    /// Previews, export builds and costly batches, off the loops.
    let heavyWork: HeavyWork
    /// Streams open, by client address and in all.
    let streamAdmission: StreamAdmission
    /// `POST /sessions` by client address, without `sessionCreateKey`.
    let sessionCreation: RateLimiter
    /// Watched sessions' stream frames, each made once for every viewer.
    let sessionFrameCache = SessionFrameCache()
    /// Set once before the server starts; locked, as every loop reads it.
    private let attached = Mutex(Attached())
    private struct Attached { weak var server: HTTPServer? }
    var server: HTTPServer? { attached.withLock { $0.server } }

    /// `sessions` defaults to an in-memory store with the configured limits.
    public init(configuration: ServiceConfiguration, catalog: LoaderCatalog = .standard, logger: Logger? = nil,
                sessions: (any SessionStore)? = nil) {
        self.configuration = configuration
        self.catalog = catalog
        let logger = logger ?? Logger(level: configuration.logLevel)
        self.logger = logger
        self.sessions = sessions ?? LocalSessionStore(inMemory: configuration.sessionLimits, catalog: catalog,
                                                      replicaName: configuration.replicaName, logger: logger)
        // Checked when the configuration was read: every entry parses.
        let trustedProxies = configuration.trustedProxies.compactMap(AddressRange.init)
        self.trustedProxies = trustedProxies
        let heavyWorkers = configuration.heavyWorkers > 0 ? configuration.heavyWorkers : HTTPServerConfiguration.cores
        // One client never holds every worker: with two or more, one is
        // always left for the others (2 cores: one place a client).
        heavyWork = HeavyWork(perClient: min(configuration.maxHeavyRequestsPerClient, max(1, heavyWorkers - 1)),
                              waitingPerClient: configuration.maxHeavyWaitingPerClient,
                              workers: heavyWorkers,
                              maxWait: configuration.heavyWaitSeconds)
        let streamAdmission = StreamAdmission(perClient: configuration.maxStreamsPerClient, total: configuration.maxStreams)
        self.streamAdmission = streamAdmission
        sessionCreation = RateLimiter(rate: configuration.sessionCreateRate, burst: configuration.sessionCreateBurst)
        catalogJSON = catalog.json(extra: { loader, w in Self.writeLinks(loader.name, &w) })
        familyJSON = Dictionary(uniqueKeysWithValues: catalog.families.map { family in
            (family, catalog.json(only: { $0.family == family }, extra: { loader, w in Self.writeLinks(loader.name, &w) }))
        })
        entryJSON = Dictionary(uniqueKeysWithValues: catalog.loaders.map { loader in
            (loader.name, loader.json { Self.writeLinks(loader.name, &$0) })
        })
        let context = OpenAPI.Context(catalog: catalog, configuration: configuration)
        openAPIJSON = Prepared { OpenAPI.document(Self.endpoints, context) }
        pipeline = Self.makePipeline(configuration: configuration, logger: logger, metrics: metrics,
                                     trustedProxies: trustedProxies, streamAdmission: streamAdmission)
    }

    /// The pipeline's steps, outermost first; the router is last.
    typealias Middleware = Chain<Chain<Chain<Chain<Chain<Chain<Chain<AccessLogMiddleware, DrainMiddleware>, AnswerCacheMiddleware>,
                                                         GzipMiddleware>, CORSMiddleware>, ErrorsAsJSONMiddleware>, PreflightMiddleware>,
                                 StreamLimitsMiddleware>

    static func makePipeline(configuration: ServiceConfiguration, logger: Logger, metrics: Metrics,
                             trustedProxies: [AddressRange], streamAdmission: StreamAdmission) -> Pipeline<Middleware> {
        let routing = Routing(endpoints)
        let cors = CORSPolicy(allowedOrigins: configuration.corsAllowedOrigins)
        return Pipeline(routing: routing) {
            AccessLogMiddleware(metrics: metrics, logger: logger, enabled: configuration.accessLog, trustedProxies: trustedProxies)
            DrainMiddleware(router: routing.router, cors: cors)
            AnswerCacheMiddleware()
            GzipMiddleware(bodies: GzipBodies())
            CORSMiddleware(policy: cors)
            ErrorsAsJSONMiddleware(logger: logger)
            PreflightMiddleware(router: routing.router, cors: cors)
            StreamLimitsMiddleware(admission: streamAdmission, trustedProxies: trustedProxies)
        }
    }

    /// Connects the service to the server that runs it (metrics, readiness).
    public func attach(to server: HTTPServer) { attached.withLock { $0.server = server } }

    /// Readiness off: `/readyz` answers 503 (shutting down), a moment
    /// before the server's drain begins.
    public func markNotReady() { ready.store(false, ordering: .relaxed) }
    /// Whether `/readyz` answers 200 now.
    public var isReady: Bool { readiness(shuttingDown: false).isReady }

    // MARK: HTTPResponder

    public func makeLoopStorage(for loop: EventLoop) -> AnyObject? {
        LoopCaches(loop: loop, accessLog: configuration.accessLog && logger.enabled(.info) ? logger.makeAccessLog() : nil, metrics: metrics.makeShard())
    }

    public func respond(to request: HTTPRequest, context: RequestContext) -> HTTPResponse {
        var r = ServiceRequest(http: request, origin: request.headers["origin"], context: context, caches: context.storage(as: LoopCaches.self), start: monotonicNanoseconds())
        do {
            return try pipeline.respond(&r, service: self)
        } catch {
            // errorsAsJSON answers every error; this is its backstop.
            return ServiceError.internalError.response
        }
    }

    public func errorResponse(status: HTTPStatus, message: String) -> HTTPResponse {
        ServiceError(status, ServiceError.code(for: status), message).response
    }
}
