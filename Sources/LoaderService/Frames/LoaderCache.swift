import LoaderEngine

/// Configured loaders by name and parameters, per event loop: building a
/// loader's layer tree costs more than computing one of its frames. A hit
/// hands out its entry (one reference), not a copy of the loader's fields.
/// Loop thread only; cleared when full.
final class LoaderCache {
    final class Entry {
        let loader: ConfiguredLoader
        /// Its frame's cost, found once (a parameter lookup by name).
        let frameCost: Int
        init(_ loader: ConfiguredLoader) {
            self.loader = loader
            frameCost = loader.frameCost
        }
    }

    private var loaders: [CacheKey: Entry] = [:]
    /// Requests come in runs for one loader: compare before hashing.
    private var lastKey = CacheKey()
    private var last: Entry?
    static let capacity = 256

    func loader(_ definition: LoaderDefinition, _ items: [(name: String, value: String)]) throws(ParameterError) -> Entry {
        var key = CacheKey(definition.name)
        for item in items {
            key.append(item.name)
            key.append(item.value)
        }
        if let last, key == lastKey { return last }
        let entry: Entry
        if let hit = loaders[key] {
            entry = hit
        } else {
            entry = Entry(try definition.configure(items))
            if loaders.count >= Self.capacity { loaders.removeAll(keepingCapacity: true) }
            loaders[key] = entry
        }
        lastKey = key
        last = entry
        return entry
    }
}
