/// How many of something (heavy requests, streams) each client address
/// holds now, and all of them together. Entries go when they reach 0.
struct CountsByClient {
    private var counts: [String: Int] = [:]
    private(set) var total = 0

    /// One more for `client`, unless it holds `limit` already.
    mutating func take(_ client: String, limit: Int) -> Bool {
        let n = counts[client, default: 0]
        guard n < limit else { return false }
        counts[client] = n + 1
        total += 1
        return true
    }

    mutating func give(_ client: String) {
        let n = counts[client, default: 1] - 1
        counts[client] = n > 0 ? n : nil
        total -= 1
    }
}
