import HTTPServer

extension LoaderService {
    /// The catalogue (the loaders, one loader) and the service's own: health,
    /// metrics, the OpenAPI document, the version.
    static let catalogEndpoints: [Endpoint] = [
        Endpoint(.GET, "/loaders", document: OpenAPI.listLoaders) { s, r in try s.catalogList(r) },
        Endpoint(.GET, "/loaders/{name}", document: OpenAPI.getLoader) { s, r in try s.catalogEntry(r) },
        Endpoint(.GET, "/healthz", document: OpenAPI.healthz) { s, r in try s.healthz(r) },
        Endpoint(.GET, "/readyz", document: OpenAPI.readyz) { s, r in try s.readyz(r) },
        Endpoint(.GET, "/metrics", offers: ["text/plain"], document: OpenAPI.metrics) { s, _ in s.metricsText() },
        Endpoint(.GET, "/openapi.json", document: OpenAPI.openAPI) { s, r in try s.json(s.openAPIJSON.get(), r.http, .maxAge(seconds: 300)) },
        Endpoint(.GET, "/version", document: { _ in
            [OpenAPI.operation("/version", "get", id: "getVersion", summary: "The service's name and version.", responses: OpenAPI.answers([
                ("200", "Name and version.", #"{"type":"object","required":["name","version"],"properties":{"name":{"type":"string"},"version":{"type":"string"}}}"#),
                OpenAPI.notModified,
            ], refusing: [.queryGiven, .acceptsNoJSON]))]
        }) { s, r in
            try s.requireNoQuery(r.http)
            return try s.json(Array(#"{"name":"loaderd","version":"\#(LoaderService.version)"}"#.utf8), r.http, .revalidate)
        },
    ]
}
