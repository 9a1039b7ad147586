/// The loaders the engine knows, by name.
public struct LoaderCatalog: Sendable {
    public let loaders: [LoaderDefinition]
    /// The file each loader added from definition files came from, by name;
    /// the others are built in.
    public let files: [String: String]

    /// Each loader's place by its name and by each of its aliases.
    let index: [String: Int]

    public init(_ loaders: [LoaderDefinition], files: [String: String] = [:]) {
        self.loaders = loaders
        self.files = files
        var index: [String: Int] = [:]
        for (i, loader) in loaders.enumerated() {
            for name in [loader.name] + loader.aliases where index[name] == nil { index[name] = i }
        }
        self.index = index
    }

    /// The three built-in loaders written in Swift, then the classic loaders
    /// written as definitions.
    public static let standard = LoaderCatalog([TypingLoader.definition, SwitchLoader.definition, WebLoader.definition] + ClassicLoaders.definitions)

    /// The loader of this name or alias.
    public subscript(name: String) -> LoaderDefinition? { index[name].map { loaders[$0] } }

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
            // A name or alias may be neither a loader's name nor its alias.
            for (path, name) in [("name", definition.name)] + definition.aliases.map({ ("aliases", $0) }) {
                guard let owner = loaders.first(where: { $0.name == name || $0.aliases.contains(name) }) else { continue }
                let by = origin[owner.name].map { "by \($0)" } ?? "by a built-in loader"
                throw DefinitionError(file: file.name, path: path, message: "\"\(name)\" is taken \(by); choose another name")
            }
            origin[definition.name] = file.name
            loaders.append(definition)
        }
        return LoaderCatalog(loaders, files: origin)
    }
}
