import HTTPServer

extension LoaderService {
    /// Middleware: every error thrown further in becomes its JSON answer
    /// (`{"error":{status, code, message}}`); anything unexpected is a 500.
    func errorsAsJSON(_ r: inout ServiceRequest, _ next: Next) -> HTTPResponse {
        do {
            return try next(&r)
        } catch {
            let refusal = ServiceError(answering: error).offering(r.offers)
            if refusal.status == .internalServerError { logger.log(.error, "unexpected error", [("error", .string("\(error)"))]) }
            return refusal.response
        }
    }
}
