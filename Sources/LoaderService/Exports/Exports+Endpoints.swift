import HTTPServer

extension LoaderService {
    /// Pictures of a loader: one endpoint per export, `/loaders/{name}/<file>`.
    static let exportEndpoints: [Endpoint] = exports.map { export in
        Endpoint(.GET, "/loaders/{name}/\(export.file)", offers: [export.mediaType], document: { OpenAPI.export(export, $0) }) { s, r in
            try s.serve(export, s.definition(r[parameter: "name"]), r.http, peer: r.context.peer)
        }
    }
}
