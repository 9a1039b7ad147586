import LoaderEngine

extension OpenAPI {
    /// What a loader's paths describe: a built-in loader at its own paths
    /// (each takes parameters of its own), or every loader written as a
    /// definition together at `/loaders/{name}/…`, their names listed, since
    /// they all take the same parameters and events. Forty classics are then
    /// one set of operations, not forty.
    struct Subject {
        /// `Typing`, or `Definition`: names its operations and query schemas.
        let type: String
        /// `/loaders/typing`, or `/loaders/{name}`.
        let path: String
        let names: [String]
        /// Whose parameters and events the operations list.
        let loader: LoaderDefinition

        var shared: Bool { path.contains("{name}") }
        /// How a summary names it.
        var label: String { shared ? "a loader written as a definition" : loader.name }
        /// Where its parameters are listed.
        var entry: String { shared ? "GET /loaders/{name}" : "GET /loaders/\(loader.name)" }
    }

    static func subjects(_ catalog: LoaderCatalog) -> [Subject] {
        var list = catalog.loaders.filter { $0.document == nil }.map {
            Subject(type: typeName($0), path: "/loaders/\($0.name)", names: [$0.name], loader: $0)
        }
        let defined = catalog.loaders.filter { $0.document != nil }
        if let first = defined.first {
            list.append(Subject(type: "Definition", path: "/loaders/{name}", names: defined.map(\.name), loader: first))
        }
        return list
    }

    /// A shared path's `name`: the loaders it serves.
    static func subjectParameters(_ w: inout JSONWriter, _ s: Subject) {
        guard s.shared else { return }
        nameParameter(&w, s.names, "A loader written as a definition")
    }
}
