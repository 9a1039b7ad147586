import HTTPServer

/// Strong entity tags from the body bytes (FNV-1a, 64 bits).
enum ETag {
    static func strong(_ body: [UInt8]) -> String {
        // FNV-1a; a final mix spreads the high bits. Only equality matters:
        // same bytes, same tag.
        var hash = body.withUnsafeBytes { FNV1a.hash($0) }
        hash ^= hash >> 29
        hash = hash &* 0xbf58_476d_1ce4_e5b9
        hash ^= hash >> 32
        // `"` and 16 hex digits and `"`, written in place.
        return String(unsafeUninitializedCapacity: 18) { out in
            let digits: StaticString = "0123456789abcdef"
            out[0] = UInt8(ascii: "\"")
            for i in 0..<16 { out[1 + i] = digits.utf8Start[Int(hash >> (60 - 4 * UInt64(i)) & 15)] }
            out[17] = UInt8(ascii: "\"")
            return 18
        }
    }

    /// The strong tag of a body's gzip representation: another
    /// representation, so another tag (`"…-gzip"`), known from the
    /// identity one without hashing the compressed bytes.
    static func gzip(_ etag: String) -> String {
        guard etag.hasSuffix("\"") else { return etag + "-gzip" }
        return String(etag.dropLast()) + "-gzip\""
    }

    /// The identity representation's tag, for the tag of a gzip one.
    static func identity(ofGzip etag: String) -> String? {
        guard etag.hasSuffix("-gzip\"") else { return nil }
        return String(etag.dropLast(6)) + "\""
    }

    /// `If-None-Match` (weak comparison, RFC 9110 §13.1.2): `*` or a listed tag.
    static func matches(_ header: String?, _ etag: String) -> Bool {
        guard let header else { return false }
        if header.trimmingSpaces == "*" { return true }
        for part in header.split(separator: ",") {
            var tag = String(part.trimmingSpaces)
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            if tag == etag { return true }
        }
        return false
    }
}
