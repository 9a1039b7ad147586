/// FNV-1a, 64 bits, over 8-byte words and then the tail bytes: a quick hash
/// where only equality matters (entity tags, the answer cache's keys).
enum FNV1a {
    static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325

    static func hash(_ raw: UnsafeRawBufferPointer, seed: UInt64 = offsetBasis) -> UInt64 {
        var hash = seed
        let words = raw.count / 8
        for i in 0..<words {
            hash ^= raw.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)
            hash = hash &* 0x100_0000_01b3
        }
        for i in (words * 8)..<raw.count {
            hash ^= UInt64(raw[i])
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }

    /// A string's UTF-8 bytes, then its length (so that two strings hashed
    /// one after the other cannot pass for another split of the same bytes).
    static func hash(_ text: String, seed: UInt64 = offsetBasis) -> UInt64 {
        var text = text
        let bytes = text.withUTF8 { Self.hash(UnsafeRawBufferPointer($0), seed: seed) }
        return (bytes ^ UInt64(text.utf8.count)) &* 0x100_0000_01b3
    }
}
