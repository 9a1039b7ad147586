import HTTPServer

extension LoaderService {
    /// The end of the pipeline: the endpoint whose method and path match
    /// answers; 404 for a path no endpoint has, 405 (with `Allow`) for a
    /// method it does not take.
    func route(_ r: inout ServiceRequest) throws -> HTTPResponse {
        switch router.match(method: r.http.method, path: r.http.pathSegments) {
        case .found(let endpoint, let parameters):
            r.route = endpoint.path
            r.offers = endpoint.offers
            r.parameters = parameters
            return try endpoint.handler(self, r)
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
