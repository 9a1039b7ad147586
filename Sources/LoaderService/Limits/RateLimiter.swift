import Synchronization

/// Token buckets by client address: each address may take `burst` at once,
/// then `rate` a second. Bounded: past `maxAddresses` buckets, those that
/// have refilled (as good as new) are forgotten, and if none has, all are.
final class RateLimiter: Sendable {
    struct Bucket {
        var tokens: Double
        var updated: Double
    }

    let rate: Double
    let burst: Double
    let maxAddresses: Int
    private let buckets = Mutex<[String: Bucket]>([:])

    init(rate: Double, burst: Int, maxAddresses: Int = 100_000) {
        self.rate = rate
        self.burst = Double(burst)
        self.maxAddresses = maxAddresses
    }

    /// Takes a token for `client` at `now` (seconds on any steady clock):
    /// nil when taken, else the seconds until one will be there.
    func take(_ client: String, now: Double) -> Double? {
        buckets.withLock { buckets in
            var bucket = buckets[client] ?? Bucket(tokens: burst, updated: now)
            bucket.tokens = min(burst, bucket.tokens + max(0, now - bucket.updated) * rate)
            bucket.updated = now
            guard bucket.tokens >= 1 else {
                buckets[client] = bucket
                return (1 - bucket.tokens) / rate
            }
            bucket.tokens -= 1
            if buckets[client] == nil && buckets.count >= maxAddresses {
                buckets = buckets.filter { $0.value.tokens + (now - $0.value.updated) * rate < burst }
                if buckets.count >= maxAddresses { buckets.removeAll() }
            }
            buckets[client] = bucket
            return nil
        }
    }
}
