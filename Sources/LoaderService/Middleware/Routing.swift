import HTTPServer

/// The end of the pipeline: the endpoint whose method and path match
/// answers; 404 for a path no endpoint has, 405 (with `Allow`) for a
/// method it does not take.
struct Routing: Sendable {
    let router: Router<Endpoint>

    init(_ endpoints: [Endpoint]) {
        var router = Router<Endpoint>()
        for endpoint in endpoints { router.add(endpoint.method, endpoint.path, endpoint) }
        self.router = router
    }

    func respond(_ r: inout ServiceRequest, service: LoaderService) throws -> HTTPResponse {
        switch router.match(method: r.http.method, path: r.http.pathSegments) {
        case .found(let endpoint, let parameters):
            r.route = endpoint.path
            r.offers = endpoint.offers
            r.parameters = parameters
            return try endpoint.handler(service, r)
        case .notFound:
            throw ServiceError.notFound("no resource at \(r.http.path)")
        case .methodNotAllowed(let allowed):
            let list = allowed.map(\.rawValue).joined(separator: ", ")
            var e = ServiceError(.methodNotAllowed, "method_not_allowed", "\(r.http.method) is not allowed here; allowed: \(list)")
            e.headers.add("Allow", list)
            throw e
        }
    }
}
