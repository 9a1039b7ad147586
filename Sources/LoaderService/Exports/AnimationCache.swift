import LoaderEngine

/// Built animations by query, bounded in count and bytes (one can be a few
/// MiB): emptied when either bound would be passed.
struct AnimationCache {
    static let maxCount = 64
    static let maxBytes = 32 << 20
    private var entries: [String: [UInt8]] = [:]
    private var bytes = 0

    subscript(key: String) -> [UInt8]? {
        get { entries[key] }
        set {
            guard let newValue, entries[key] == nil else { return }
            if entries.count >= Self.maxCount || bytes + newValue.count > Self.maxBytes {
                entries.removeAll()
                bytes = 0
            }
            guard newValue.count <= Self.maxBytes else { return }
            entries[key] = newValue
            bytes += newValue.count
        }
    }
}
