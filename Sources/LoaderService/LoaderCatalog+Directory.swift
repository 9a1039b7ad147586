import FoundationEssentials
import LoaderEngine

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
