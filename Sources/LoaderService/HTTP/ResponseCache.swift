import HTTPServer
import LoaderEngine

/// Answers that never change (a frame or batch for explicit times, the
/// catalog), kept per event loop by request target, `Accept` and whether
/// gzip is taken, so a repeated
/// request skips parsing its parameters, computing and encoding. An answer is
/// kept the second time its key is asked for: a stream of requests that never
/// repeat (a new `t` each) costs a hash per request, not an entry each and a
/// full cache cleared every thousand. Loop thread only; bounded in entries
/// and body size.
final class ResponseCache {
    struct Key: Hashable {
        let target: String
        let accept: String
        /// Whether the request takes gzip (`AcceptEncoding`).
        let gzip: Bool
        /// FNV-1a over all three, computed once: the dictionary, the set of
        /// keys seen once and `store` all hash this one word, not the strings.
        let digest: UInt64

        init(target: String, accept: String, gzip: Bool = false) {
            self.target = target
            self.accept = accept
            self.gzip = gzip
            // A fixed odd word for gzip, so the two keys of one target differ.
            digest = FNV1a.hash(accept, seed: FNV1a.hash(target)) ^ (gzip ? 0x9E37_79B9_7F4A_7C15 : 0)
        }

        static func == (a: Key, b: Key) -> Bool {
            a.digest == b.digest && a.gzip == b.gzip && a.target == b.target && a.accept == b.accept
        }
        func hash(into hasher: inout Hasher) { hasher.combine(digest) }
    }

    /// A class: a hit hands out one reference, not a copy of each field.
    final class Entry {
        let response: HTTPResponse
        let route: String

        init(response: HTTPResponse, route: String) {
            self.response = response
            self.route = route
        }
    }

    static let capacity = 1024
    static let maxBodyBytes = 64 * 1024
    static let maxBytes = 8 << 20
    private var entries: [Key: Entry] = [:]
    private var bytes = 0
    /// Digests of keys asked for once and not kept, one per slot by their
    /// low bits: a later key in the same slot makes the table forget the
    /// earlier one, which then waits for a second ask again. No hashing and
    /// no clearing, for the one-off requests that fill it.
    private var seen = [UInt64](repeating: 0, count: ResponseCache.seenSlots)
    static let seenSlots = 8192  // a power of two

    func lookup(_ key: Key) -> Entry? { entries[key] }

    func store(_ key: Key, _ response: HTTPResponse, route: String) {
        guard response.status == .ok, case .bytes(let body) = response.body, body.count <= Self.maxBodyBytes else { return }
        let slot = Int(truncatingIfNeeded: key.digest) & (Self.seenSlots - 1)
        guard seen[slot] == key.digest else {
            seen[slot] = key.digest
            return
        }
        seen[slot] = 0
        guard response.caching?.isShared == true else { return }
        if entries.count >= Self.capacity || bytes + body.count > Self.maxBytes {
            entries.removeAll(keepingCapacity: true)
            bytes = 0
        }
        var kept = response
        kept.headers.prepareEncoding()  // sent many times as it is
        entries[key] = Entry(response: kept, route: route)
        bytes += body.count
    }
}
