import Dispatch
import HTTPServer
import LoaderEngine

extension LoaderService {
    /// Definitions up to this size are parsed on the event loop; larger ones
    /// (up to the 1 MiB limit) on a worker thread, so that no loop waits.
    static let inlinePreviewBytes = 16 << 10

    /// `POST /loaders/preview`: the frames of the definition in the body,
    /// without installing it — one frame, a batch or a stream, as
    /// `GET /loaders/{name}/frames` answers them. A bad definition is a 400
    /// that names its path.
    func preview(_ request: HTTPRequest) throws -> HTTPResponse {
        try Negotiation.requireJSONBody(request, "a loader definition, application/json")
        guard request.body.count > Self.inlinePreviewBytes else { return try previewFrames(request) }
        return .deferred { [self] promise in
            DispatchQueue.global().async { [self] in
                do {
                    promise.succeed(try previewFrames(request))
                } catch let error as ServiceError {
                    promise.succeed(error.response)
                } catch {
                    promise.succeed(ServiceError(.badRequest, "invalid_definition", "\(error)").response)
                }
            }
        }
    }

    private func previewFrames(_ request: HTTPRequest) throws -> HTTPResponse {
        if request.queryValue("clock") == "shared" {
            throw ServiceError.invalid("clock=shared is for installed loaders, whose frames every viewer shares; a preview streams on its own clock")
        }
        let definition: LoaderDefinition
        do { definition = try LoaderDefinition(definition: request.body) } catch { throw ServiceError(error) }
        // Caches of its own: a preview shares no frames with another of the same name.
        var response = try frames(definition, request, LoopCaches())
        response.headers.replace("Cache-Control", "no-store")
        return response
    }
}
