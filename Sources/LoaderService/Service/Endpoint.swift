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
    /// The media types its answers come in, named by a 406 when `Accept`
    /// excludes the one a request would get.
    let offers: [String]

    init(_ method: HTTPMethod, _ path: String, offers: [String] = ["application/json"], document: @escaping Document,
         _ handler: @escaping Handler) {
        self.method = method
        self.path = path
        self.offers = offers
        self.handler = handler
        self.document = document
    }
}

/// A request as the middleware and handlers see it.
struct ServiceRequest {
    let http: HTTPRequest
    /// Its `Origin`, looked up once for the answer cache, CORS and the drain.
    let origin: String?
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
    /// What the matched endpoint offers (`Endpoint.offers`), set by the router.
    var offers: [String] = []

    subscript(parameter name: String) -> String { parameters[name] ?? "" }
}
