import HTTPServer

extension LoaderService {
    /// Frames: one, a batch, or a stream, of one loader or several.
    static let frameEndpoints: [Endpoint] = [
        Endpoint(.GET, "/loaders/{name}/frames", offers: ["application/json", "text/event-stream", "image/svg+xml"], document: OpenAPI.getFrames) { s, r in
            let definition = try s.definition(r[parameter: "name"])
            if LoaderService.prefersSVG(r.http) { return try s.frame(SVGFrameExport(), definition, r.http) }
            return try s.frames(definition, r.http, r.caches, peer: r.context.peer)
        },
        Endpoint(.GET, "/streams", offers: ["text/event-stream"], document: OpenAPI.multiplexedStream) { s, r in try s.multiplexedStream(r.http, r.caches) },
    ]
}
