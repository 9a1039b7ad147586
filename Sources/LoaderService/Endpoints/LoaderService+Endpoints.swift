import HTTPServer

extension LoaderService {
    /// Every endpoint of the API, each declared once. A new endpoint is one
    /// entry here: the router, the route labels of `/metrics` and the log,
    /// and `/openapi.json` follow from it.
    static let endpoints: [Endpoint] = [
        Endpoint(.GET, "/loaders", document: OpenAPI.listLoaders) { s, r in try s.catalogList(r) },
        Endpoint(.GET, "/loaders/{name}", document: OpenAPI.getLoader) { s, r in try s.catalogEntry(r) },
        Endpoint(.GET, "/loaders/{name}/frames", document: OpenAPI.getFrames) { s, r in
            let definition = try s.definition(r[parameter: "name"])
            if LoaderService.prefersSVG(r.http) { return try s.frameSVG(definition, r.http) }
            return try s.frames(definition, r.http, r.caches, peer: r.context.peer)
        },
        Endpoint(.GET, "/loaders/{name}/frames.svg", document: OpenAPI.getFrameSVG) { s, r in
            try s.frameSVG(s.definition(r[parameter: "name"]), r.http)
        },
        Endpoint(.GET, "/loaders/{name}/animation.svg", document: OpenAPI.getAnimationSVG) { s, r in
            try s.animation(s.definition(r[parameter: "name"]), r.http, .svg, peer: r.context.peer)
        },
        Endpoint(.GET, "/loaders/{name}/animation.json", document: OpenAPI.getAnimationLottie) { s, r in
            try s.animation(s.definition(r[parameter: "name"]), r.http, .lottie, peer: r.context.peer)
        },
        Endpoint(.GET, "/loaders/{name}/animation.css", document: OpenAPI.getAnimationCSS) { s, r in
            try s.animation(s.definition(r[parameter: "name"]), r.http, .css, peer: r.context.peer)
        },
        Endpoint(.GET, "/loaders/{name}/animation.html", document: OpenAPI.getAnimationHTML) { s, r in
            try s.animation(s.definition(r[parameter: "name"]), r.http, .html, peer: r.context.peer)
        },
        Endpoint(.GET, "/streams", document: OpenAPI.multiplexedStream) { s, r in try s.multiplexedStream(r.http, r.caches) },
        Endpoint(.POST, "/loaders/preview", document: OpenAPI.previewLoader) { s, r in try s.preview(r.http, peer: r.context.peer) },
        Endpoint(.GET, "/", document: OpenAPI.demoPage) { _, r in DemoPage.response(r.http) },
        Endpoint(.GET, "/healthz", document: OpenAPI.healthz) { s, r in try s.healthz(r) },
        Endpoint(.GET, "/readyz", document: OpenAPI.readyz) { s, r in try s.readyz(r) },
        Endpoint(.GET, "/metrics", document: OpenAPI.metrics) { s, _ in s.metricsText() },
        Endpoint(.GET, "/openapi.json", document: OpenAPI.openAPI) { s, r in try s.json(s.openAPIJSON, r.http, cacheControl: "public, max-age=300") },
        Endpoint(.GET, "/version", document: { _ in
            [OpenAPI.operation("/version", "get", id: "getVersion", summary: "The service's name and version.", responses: [
                ("200", "Name and version.", #"{"type":"object","required":["name","version"],"properties":{"name":{"type":"string"},"version":{"type":"string"}}}"#),
                ("304", "Not modified (If-None-Match).", nil),
                ("400", "A query parameter was given; this resource takes none.", OpenAPI.ref("Error")),
                ("406", "The Accept header excludes application/json.", OpenAPI.ref("Error")),
            ])]
        }) { s, r in
            try s.requireNoQuery(r.http)
            return try s.json(Array(#"{"name":"loaderd","version":"\#(LoaderService.version)"}"#.utf8), r.http, cacheControl: "no-cache")
        },
        Endpoint(.POST, "/sessions", document: OpenAPI.createSession) { s, r in try s.createSession(r.http, peer: r.context.peer) },
        Endpoint(.GET, "/sessions/{id}", document: OpenAPI.getSession) { s, r in try s.sessionState(r[parameter: "id"], r.http) },
        Endpoint(.DELETE, "/sessions/{id}", document: OpenAPI.deleteSession) { s, r in try s.deleteSession(r[parameter: "id"], r.http) },
        Endpoint(.GET, "/sessions/{id}/frames", document: OpenAPI.getSessionFrames) { s, r in try s.sessionFrames(r[parameter: "id"], r.http, r.caches) },
        Endpoint(.POST, "/sessions/{id}/events", document: OpenAPI.postSessionEvent) { s, r in
            try s.postSessionEvent(r[parameter: "id"], r.http)
        },
    ]
}
