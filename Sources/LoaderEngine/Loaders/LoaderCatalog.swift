/// The loaders the engine knows, by name.
public struct LoaderCatalog: Sendable {
    public let loaders: [LoaderDefinition]
    /// The file each loader added from definition files came from, by name;
    /// the others are built in.
    public let files: [String: String]

    public init(_ loaders: [LoaderDefinition], files: [String: String] = [:]) {
        self.loaders = loaders
        self.files = files
    }

    /// The three built-in loaders written in Swift, then the classic loaders
    /// written as definitions.
    public static let standard = LoaderCatalog([TypingLoader.definition, SwitchLoader.definition, WebLoader.definition] + ClassicLoaders.definitions)

    public subscript(name: String) -> LoaderDefinition? { loaders.first { $0.name == name } }

    public var names: [String] { loaders.map(\.name) }
}

extension LoaderCatalog {
    /// This catalogue and one loader per definition file, in the order
    /// given. A file that does not parse, or whose name is taken (by a
    /// loader here or an earlier file) or reserved, is refused with the
    /// file's name.
    public func adding(files: [(name: String, bytes: [UInt8])]) throws(DefinitionError) -> LoaderCatalog {
        var loaders = self.loaders
        var origin = self.files
        for file in files {
            let definition: LoaderDefinition
            do {
                definition = try LoaderDefinition(definition: file.bytes)
            } catch {
                var located = error
                located.file = file.name
                throw located
            }
            if loaders.contains(where: { $0.name == definition.name }) {
                let owner = origin[definition.name].map { "by \($0)" } ?? "by a built-in loader"
                throw DefinitionError(file: file.name, path: "name", message: "\"\(definition.name)\" is taken \(owner); choose another name")
            }
            origin[definition.name] = file.name
            loaders.append(definition)
        }
        return LoaderCatalog(loaders, files: origin)
    }
}
