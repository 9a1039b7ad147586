/// A cache key made of strings, each written with its length first, so
/// that two different lists never make the same key. Joining decoded query
/// values with `&` and `=` did not hold: `label=a%26speed%3D2` and
/// `label=a&speed=2` made one key, and the first answer served the second.
struct CacheKey: Hashable, Sendable {
    private(set) var text = ""

    init(_ parts: String...) { for part in parts { append(part) } }

    mutating func append(_ part: String) {
        text += String(part.utf8.count)
        text += ":"
        text += part
    }
}
