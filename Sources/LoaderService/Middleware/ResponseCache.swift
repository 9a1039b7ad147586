import HTTPServer

/// Answers that never change (a frame or batch for explicit times, the
/// catalog), kept per event loop by request target and `Accept`, so a repeated
/// request skips parsing its parameters, computing and encoding. An answer is
/// kept the second time its key is asked for: a stream of requests that never
/// repeat (a new `t` each) costs a hash per request, not an entry each and a
/// full cache cleared every thousand. Loop thread only; bounded in entries
/// and body size.
final class ResponseCache: @unchecked Sendable {
    struct Key: Hashable {
        let target: String
        let accept: String
    }

    /// A class: a hit hands out one reference, not a copy of each field.
    final class Entry {
        let response: HTTPResponse
        let etag: String
        let route: String

        init(response: HTTPResponse, etag: String, route: String) {
            self.response = response
            self.etag = etag
            self.route = route
        }
    }

    static let capacity = 1024
    static let maxBodyBytes = 64 * 1024
    static let maxBytes = 8 << 20
    private var entries: [Key: Entry] = [:]
    private var bytes = 0
    /// Hashes of keys asked for once and not kept (cleared when full).
    private var seen = Set<Int>()
    static let seenCapacity = 8192

    func lookup(_ key: Key) -> Entry? { entries[key] }

    func store(_ key: Key, _ response: HTTPResponse, route: String) {
        guard response.status == .ok, case .bytes(let body) = response.body, body.count <= Self.maxBodyBytes else { return }
        let hash = key.hashValue
        guard seen.remove(hash) != nil else {
            if seen.count >= Self.seenCapacity { seen.removeAll(keepingCapacity: true) }
            seen.insert(hash)
            return
        }
        guard let cacheControl = response.headers["Cache-Control"], cacheControl.hasSuffix("immutable") || cacheControl.hasPrefix("public"),
              let etag = response.headers["ETag"]
        else { return }
        if entries.count >= Self.capacity || bytes + body.count > Self.maxBytes {
            entries.removeAll(keepingCapacity: true)
            bytes = 0
        }
        entries[key] = Entry(response: response, etag: etag, route: route)
        bytes += body.count
    }
}

/// Configured loaders by name and parameters, per event loop: building a
/// loader's layer tree costs more than computing one of its frames. Loop
/// thread only; cleared when full.
final class LoaderCache: @unchecked Sendable {
    private var loaders: [String: ConfiguredLoader] = [:]
    static let capacity = 256

    func loader(_ definition: LoaderDefinition, _ items: [(name: String, value: String)]) throws(ParameterError) -> ConfiguredLoader {
        var key = definition.name
        for item in items {
            key += "&"
            key += item.name
            key += "="
            key += item.value
        }
        if let hit = loaders[key] { return hit }
        let loader = try definition.configure(items)
        if loaders.count >= Self.capacity { loaders.removeAll(keepingCapacity: true) }
        loaders[key] = loader
        return loader
    }
}

import LoaderEngine
