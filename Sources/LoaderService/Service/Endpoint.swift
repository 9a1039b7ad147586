import EventLoop
import HTTPServer
import LoaderEngine

/// One endpoint, declared once: its method, path pattern, handler and
/// OpenAPI operations. The router, the route labels of `/metrics` and the
/// log, and `/openapi.json` are all derived from the table of these
/// (`LoaderService.endpoints`).
struct Endpoint: Sendable {
    typealias Handler = @Sendable (LoaderService, ServiceRequest) throws -> HTTPResponse
    typealias Document = @Sendable (OpenAPI.Context) -> [OpenAPI.Operation]

    let method: HTTPMethod
    /// `/loaders/{name}/frames`: matched by the router with `{name}` as a
    /// parameter, and the route's label in `/metrics` and the access log.
    let path: String
    let handler: Handler
    /// The operations this endpoint shows in `/openapi.json`: usually one;
    /// one per loader where each loader takes its own parameters.
    let document: Document

    init(_ method: HTTPMethod, _ path: String, document: @escaping Document, _ handler: @escaping Handler) {
        self.method = method
        self.path = path
        self.handler = handler
        self.document = document
    }
}

/// A request as the middleware and handlers see it.
struct ServiceRequest {
    let http: HTTPRequest
    let context: RequestContext
    /// This loop's caches (made by `makeLoopStorage`, handed back by the server).
    let caches: LoopCaches
    /// When the service began answering (monotonic ns).
    let start: UInt64
    /// The values of the path's `{name}` segments, set by the router.
    var parameters = RouteParameters()
    /// The label of the matched route (`/loaders/{name}/frames`), set by the
    /// router or the answer cache; `unmatched` when none matched.
    var route = "unmatched"

    subscript(parameter name: String) -> String { parameters[name] ?? "" }
}

extension LoaderService {
    /// What runs after a middleware: the rest of the pipeline. A middleware
    /// is a method `(inout ServiceRequest, Next) throws -> HTTPResponse` that
    /// may answer itself, or call `next` and change what it answers.
    /// Deferred answers are changed through `HTTPResponse.map`, so they pass
    /// every step as immediate ones do. (`next` is not escaping: running the
    /// pipeline allocates nothing.)
    typealias Next = (inout ServiceRequest) throws -> HTTPResponse
}

/// Per event loop, touched only on that loop (`bound` hands them to a
/// closure that runs there later): caches the server keeps for the service
/// (`HTTPResponder.makeLoopStorage`).
final class LoopCaches {
    /// Answers that never change, by target and `Accept`.
    let responses = ResponseCache()
    /// Configured loaders by name and parameters.
    let loaders = LoaderCache()
    /// Encoded stream events shared by the loop's streams.
    let streams = StreamFrameCache()
    /// The loop's streams of frames, one ticker per fps and phase.
    let streamTickers = StreamTickers()
    /// The loop's session viewers' frames, by session and fps.
    let sessionViewers = SessionViewers()
    /// The loop's shared-clock frames, by loader and fps.
    let sharedClockViewers = SharedClockViewers()
    /// The loop's access log lines (nil when the access log is off).
    let accessLog: AccessLogBuffer?
    /// The loop's counts for `/metrics`.
    let metrics: Metrics.Shard

    /// The loop they belong to.
    let loop: EventLoop

    init(loop: EventLoop, accessLog: AccessLogBuffer? = nil, metrics: Metrics.Shard = Metrics.Shard()) {
        self.loop = loop
        self.accessLog = accessLog
        self.metrics = metrics
    }

    /// These caches, for a closure that runs on their loop later (a stream's start).
    var bound: LoopBound<LoopCaches> { LoopBound(self, loop: loop) }
}
