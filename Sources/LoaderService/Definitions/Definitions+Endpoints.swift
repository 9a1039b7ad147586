import HTTPServer

extension LoaderService {
    /// Loaders as data: the frames of a definition in the body.
    static let definitionEndpoints: [Endpoint] = [
        Endpoint(.POST, "/loaders/preview", offers: ["application/json", "text/event-stream"], document: OpenAPI.previewLoader) { s, r in
            try s.preview(r.http, peer: r.context.peer, on: r.context.loop, offers: r.offers)
        },
    ]
}
