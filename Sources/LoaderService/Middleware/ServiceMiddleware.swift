import HTTPServer

/// One step of the service's pipeline, as a value (Hummingbird's
/// `RouterMiddleware`): it may answer itself, or call `next` (the rest of
/// the pipeline) and change what it answers. Deferred answers are changed
/// through `HTTPResponse.map`, so they pass every step as immediate ones
/// do. Each step holds what it needs, so it can be built and tested alone.
protocol ServiceMiddleware: Sendable {
    func handle(_ r: inout ServiceRequest, next: ServiceNext) throws -> HTTPResponse
}

/// The rest of the pipeline after a step. Not escaping: running the
/// pipeline allocates nothing.
typealias ServiceNext = (inout ServiceRequest) throws -> HTTPResponse

/// Two steps, `outer` around `inner`. Generic, not a list of existentials,
/// so that the composed pipeline's calls are direct and specialised. A
/// class: the closure handed to `outer` captures one reference, where a
/// struct copied all the steps inside it, at every level, on every request.
final class Chain<Outer: ServiceMiddleware, Inner: ServiceMiddleware>: ServiceMiddleware {
    let outer: Outer
    let inner: Inner

    init(outer: Outer, inner: Inner) {
        self.outer = outer
        self.inner = inner
    }

    @inline(__always)
    func handle(_ r: inout ServiceRequest, next: ServiceNext) throws -> HTTPResponse {
        try outer.handle(&r) { r in try inner.handle(&r, next: next) }
    }
}

/// Steps listed outermost first, composed into one `Chain`
/// (Hummingbird's `MiddlewareFixedTypeBuilder`).
@resultBuilder
enum MiddlewareBuilder {
    static func buildPartialBlock<M: ServiceMiddleware>(first: M) -> M { first }
    static func buildPartialBlock<A: ServiceMiddleware, B: ServiceMiddleware>(accumulated: A, next: B) -> Chain<A, B> {
        Chain(outer: accumulated, inner: next)
    }
}

/// The service's middleware, composed once at start-up, ending in the
/// router.
struct Pipeline<Middleware: ServiceMiddleware>: Sendable {
    let middleware: Middleware
    let routing: Routing

    init(routing: Routing, @MiddlewareBuilder _ middleware: () -> Middleware) {
        self.routing = routing
        self.middleware = middleware()
    }

    /// `service` is handed to the endpoint's handler; the steps never see it.
    @inline(__always)
    func respond(_ r: inout ServiceRequest, service: LoaderService) throws -> HTTPResponse {
        try middleware.handle(&r) { r in try routing.respond(&r, service: service) }
    }
}
