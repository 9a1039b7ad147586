import EventLoop
import HTTPServer
import LoaderEngine

extension LoaderService {
    /// `POST /loaders/preview`: the frames of the definition in the body,
    /// without installing it — one frame, a batch or a stream, as
    /// `GET /loaders/{name}/frames` answers them. A bad definition is a 400
    /// that names its path. Parsing and the first frames run off the event
    /// loop (a definition of a few KiB takes milliseconds to parse), in the
    /// client's share of heavy work.
    func preview(_ request: HTTPRequest, peer: SocketAddress?, on loop: EventLoop, offers: [String]) throws -> HTTPResponse {
        try Negotiation.requireJSONBody(request, "a loader definition, application/json")
        let client = ClientAddress.key(request, peer: peer, trusted: trustedProxies)
        return runHeavy(for: client) { [self] job in
            do { return try previewFrames(request, on: loop, job) } catch { return ServiceError(answering: error).offering(offers).response }
        }
    }

    private func previewFrames(_ request: HTTPRequest, on loop: EventLoop, _ job: HeavyJob) throws -> HTTPResponse {
        if request.queryValue("clock") == "shared" {
            throw ServiceError.invalid("clock=shared is for installed loaders, whose frames every viewer shares; a preview streams on its own clock")
        }
        let definition: LoaderDefinition
        do { definition = try LoaderDefinition(definition: request.body) } catch { throw ServiceError(error) }
        // Caches of its own: a preview shares no frames with another of the same name.
        var response = try frames(definition, request, LoopCaches(loop: loop), in: job)
        // Kept by no cache, still known by its ETag (as before caching was typed).
        if let caching = response.caching {
            response.caching = Caching(.noStore, etag: caching.etag)
        } else {
            response.headers.replace("Cache-Control", "no-store")
        }
        return response
    }
}
