import Testing
@testable import Redis

/// What a message may show of a Redis URL: never a password, wherever the
/// text put it.
@Suite struct RedactionTests {
    @Test func noPasswordInAnyPlace() {
        let cases: [(String, String)] = [
            ("redis://u:zz9pw@127.0.0.1:1", "redis://***@127.0.0.1:1"),
            ("redis://u:zz9pw@127.0.0.1:1?password=zz9q", "redis://***@127.0.0.1:1?…"),
            ("redis://127.0.0.1:1?password=zz9q", "redis://127.0.0.1:1?…"),
            ("redis://:pa?ss@host:1", "redis://***@host:1"),
            ("redis://host:1?password=a@b", "redis://***@b"),
            ("redis-sentinel://u:pw@h1:1,h2:2/m", "redis-sentinel://***@h1:1,h2:2/m"),
        ]
        for (text, shown) in cases {
            #expect(RedisURL.redacted(text) == shown, "\(text)")
        }
    }
}
