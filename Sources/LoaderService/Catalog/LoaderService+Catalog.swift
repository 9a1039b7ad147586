import HTTPServer
import LoaderEngine

extension LoaderService {
    /// `GET /loaders`: every loader with its parameters, events and period;
    /// `?family=SpinKit`: those of one family.
    func catalogList(_ r: ServiceRequest) throws -> HTTPResponse {
        var family: String? = nil
        for item in r.http.query {
            guard item.name == "family" else {
                throw ServiceError(.badRequest, "unknown_parameter", "unknown parameter \(quoted(item.name)); /loaders takes only family")
            }
            guard family == nil else { throw ServiceError.invalid("family is given more than once") }
            family = item.value
        }
        guard let family else { return try json(catalogJSON, r.http, .maxAge(seconds: 300)) }
        guard let body = familyJSON[family] else {
            throw ServiceError.invalid("no family \(quoted(family)); the families are \(catalog.families.joined(separator: ", "))")
        }
        return try json(body, r.http, .maxAge(seconds: 300))
    }

    /// `GET /loaders/{name}`: one catalog entry.
    func catalogEntry(_ r: ServiceRequest) throws -> HTTPResponse {
        try requireNoQuery(r.http)
        let name = r[parameter: "name"]
        guard let entry = catalog[name].flatMap({ entryJSON[$0.name] }) else { throw unknownLoader(name) }
        return try json(entry, r.http, .maxAge(seconds: 300))
    }

    /// A loader's `links`: what the endpoint table serves of it, each
    /// `GET /loaders/{name}/…` by its last segment (so a new export is a new
    /// link), its live stream, and itself.
    static func writeLinks(_ name: String, _ w: inout JSONWriter) {
        w.key("links")
        w.beginObject()
        w.field("self", "/loaders/\(name)")
        for endpoint in endpoints where endpoint.method == .GET && endpoint.path.hasPrefix("/loaders/{name}/") {
            let rest = endpoint.path.dropFirst("/loaders/{name}/".count)
            w.field(String(rest), "/loaders/\(name)/\(rest)")
            if rest == "frames" { w.field("stream", "/loaders/\(name)/frames?stream=sse") }
        }
        w.endObject()
    }

    /// The loader named in a path, or the 404 that lists the others.
    func definition(_ name: String) throws -> LoaderDefinition {
        guard let definition = catalog[name] else { throw unknownLoader(name) }
        return definition
    }

    func unknownLoader(_ name: String) -> ServiceError {
        .notFound("no loader named \(quoted(name)); nearest: \(nearest(name, in: catalog.names).joined(separator: ", ")) (GET /loaders lists all \(catalog.names.count))")
    }

    func requireNoQuery(_ request: HTTPRequest) throws {
        if let first = request.query.first {
            throw ServiceError(.badRequest, "unknown_parameter", "unknown parameter \(first.name); this resource takes none")
        }
    }
}
