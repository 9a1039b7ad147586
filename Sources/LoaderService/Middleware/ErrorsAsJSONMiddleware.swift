import HTTPServer

/// Every error thrown further in becomes its JSON answer
/// (`{"error":{status, code, message}}`); anything unexpected is a 500,
/// and logged.
struct ErrorsAsJSONMiddleware: ServiceMiddleware {
    let logger: Logger

    @inline(__always)
    func handle(_ r: inout ServiceRequest, next: ServiceNext) -> HTTPResponse {
        do {
            return try next(&r)
        } catch {
            let refusal = ServiceError(answering: error).offering(r.offers)
            if refusal.status == .internalServerError { logger.log(.error, "unexpected error", [("error", .string("\(error)"))]) }
            return refusal.response
        }
    }
}
