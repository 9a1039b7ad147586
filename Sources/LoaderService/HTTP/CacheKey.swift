/// A cache key made of strings, kept apart as a list, so that two different
/// lists never make the same key. Joining decoded query values with `&` and
/// `=` did not hold: `label=a%26speed%3D2` and `label=a&speed=2` made one
/// key, and the first answer served the second.
struct CacheKey: Hashable, Sendable {
    private var parts: [String]

    init(_ parts: String...) { self.parts = parts }

    mutating func append(_ part: String) { parts.append(part) }

    /// One string for the key, each part with its length first.
    var text: String { parts.map { "\($0.utf8.count):\($0)" }.joined() }
}
