import FoundationEssentials
import LoaderEngine
import LoaderSessions

extension LoaderCatalog {
    /// The catalogue with every `*.json` definition in `directory`, in
    /// file-name order (other files and hidden ones are left alone). Read
    /// once at start; a bad file stops start-up with its name and path.
    public func adding(directory: String) throws(DefinitionError) -> LoaderCatalog {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
                .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
                .sorted()
        } catch {
            throw DefinitionError(file: directory, path: "", message: "cannot read the directory")
        }
        var files: [(name: String, bytes: [UInt8])] = []
        for name in names {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            if let size = attributes?[.size] as? Int, size > DefinitionLimits.maxBytes {
                throw DefinitionError(file: name, path: "", message: "the file is \(size) bytes; maxBytes is \(DefinitionLimits.maxBytes) (1 MiB)")
            }
            guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else {
                throw DefinitionError(file: name, path: "", message: "cannot read the file")
            }
            files.append((name, Array(data)))
        }
        return try adding(files: files)
    }
}

extension Logger {
    /// The line at start that says which loaders are served and where each
    /// came from: built into the binary, or a file of `loadersDir`.
    public func logCatalog(_ catalog: LoaderCatalog, loadersDir: String?) {
        let builtIn = catalog.loaders.filter { catalog.files[$0.name] == nil }.map(\.name)
        let fromFiles = catalog.loaders.compactMap { l in catalog.files[l.name].map { "\(l.name) (\($0))" } }
        var fields: [(String, LogField)] = [("count", .int(catalog.loaders.count)), ("builtIn", .string(builtIn.joined(separator: " ")))]
        if let loadersDir {
            fields.append(("loadersDir", .string(loadersDir)))
            fields.append(("fromFiles", .string(fromFiles.joined(separator: ", "))))
        }
        log(.info, "loaders", fields)
    }
}
