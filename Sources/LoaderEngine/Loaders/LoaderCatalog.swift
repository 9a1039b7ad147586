/// The loaders the engine knows, by name.
public struct LoaderCatalog: Sendable {
    public let loaders: [LoaderDefinition]

    public init(_ loaders: [LoaderDefinition]) { self.loaders = loaders }

    /// The three built-in loaders written in Swift, then the classic loaders
    /// written as definitions.
    public static let standard = LoaderCatalog([TypingLoader.definition, SwitchLoader.definition, WebLoader.definition] + ClassicLoaders.definitions)

    public subscript(name: String) -> LoaderDefinition? { loaders.first { $0.name == name } }

    public var names: [String] { loaders.map(\.name) }
}

/// A frame request as it arrives in a query string: `t` (default 0) plus the
/// loader's parameters and events.
public struct FrameQuery: Sendable {
    public let loader: ConfiguredLoader
    public let t: Double

    public init(_ definition: LoaderDefinition, items: [(name: String, value: String)]) throws(ParameterError) {
        var t = 0.0
        var rest = [(name: String, value: String)]()
        var sawTime = false
        for item in items {
            if item.name == "t" {
                guard !sawTime else { throw ParameterError(parameter: "t", message: "t is given more than once") }
                sawTime = true
                t = try TimeValue.parse("t", item.value)
            } else {
                rest.append(item)
            }
        }
        self.loader = try definition.configure(rest)
        self.t = t
    }

    public var frame: Frame { loader.frame(at: t) }
}
