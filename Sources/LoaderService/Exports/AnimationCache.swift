import LoaderEngine

/// Built animations by query, bounded in count and bytes (one can be a few
/// MiB): emptied when either bound would be passed.
struct AnimationCache {
    static let maxCount = 64
    static let maxBytes = 32 << 20
    /// An answer's body and its ETag (hashed once, when built), and for a
    /// picture of frames its `Loader-Frame-Rate`.
    struct Entry {
        var body: [UInt8]
        var etag: String
        var frameRate: String? = nil
    }
    private var entries: [CacheKey: Entry] = [:]
    private var bytes = 0

    subscript(key: CacheKey) -> Entry? {
        get { entries[key] }
        set {
            guard let newValue, entries[key] == nil else { return }
            if entries.count >= Self.maxCount || bytes + newValue.body.count > Self.maxBytes {
                entries.removeAll()
                bytes = 0
            }
            guard newValue.body.count <= Self.maxBytes else { return }
            entries[key] = newValue
            bytes += newValue.body.count
        }
    }
}
