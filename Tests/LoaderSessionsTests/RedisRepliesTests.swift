import Redis
import Testing
@testable import LoaderSessions

/// The session scripts' replies read into values at the store's edge.
/// The shapes are those the scripts return (RedisScripts: `read` answers
/// HMGET's seven fields and XRANGE's entries; Redis sends numbers in a
/// hash or a stream as bulk strings).
struct RedisRepliesTests {
    func bulk(_ s: String) -> RESPValue { .bulk(Array(s.utf8)) }

    @Test func aReadReplyIsItsFieldsAndEvents() throws {
        let hash: RESPValue = .array([bulk("web"), bulk(#"{"speed":2}"#), bulk("1700000000.5"), bulk("3"), bulk("x"), bulk("0"), bulk("2")])
        let entries: RESPValue = .array([
            .array([bulk("1700000000500-0"), .array([bulk("type"), bulk("progress"), bulk("t"), bulk("0.25")])]),
            // Of another shape: skipped, as before.
            .array([bulk("not-an-id"), .array([bulk("type"), bulk("finish"), bulk("t"), bulk("1")])]),
            .array([bulk("1700000000600-1"), .array([bulk("t"), bulk("1.5"), bulk("type"), bulk("finish")])]),
        ])
        let read = try RedisScripts.ReadReply.decode(.array([hash, entries]))
        #expect(read.loader == "web")
        #expect(read.params == #"{"speed":2}"#)
        #expect(read.createdAt == 1_700_000_000.5)
        #expect(read.viewers == 3)
        #expect(read.eventCount == 2)
        #expect(read.events.map(\.1.kind) == [.progress, .finish])
        #expect(read.events.map(\.1.t) == [0.25, 1.5])
        #expect(read.events.map(\.0.sequence) == [0, 1])
    }

    @Test func anotherShapeIsATypedFailure() {
        #expect(throws: RedisScripts.UnexpectedReply.self) { try RedisScripts.ReadReply.decode(.array([bulk("web")])) }
        #expect(throws: RedisScripts.UnexpectedReply.self) { try RedisScripts.ReadReply.decode(.integer(1)) }
        #expect(throws: RedisScripts.UnexpectedReply.self) { try RedisScripts.postedTime(.integer(1)) }
        #expect(throws: RedisScripts.UnexpectedReply.self) { try RedisScripts.liveCount(bulk("3")) }
        #expect((try? RedisScripts.postedTime(bulk("0.75"))) == 0.75)
        #expect((try? RedisScripts.liveCount(.integer(12))) == 12)
    }

    /// The codes the scripts return (`redis.error_reply` in RedisScripts), with
    /// and without the `ERR ` some Redis versions put before them.
    @Test func scriptErrorsAreCases() {
        func error(_ text: String) -> RedisScripts.ScriptError { RedisScripts.ScriptError(RedisErrorReply(text)) }
        #expect(error("not_found") == .notFound)
        #expect(error("ERR session_expired") == .expired)
        #expect(error("unauthorized") == .unauthorized)
        #expect(error("too_many_sessions") == .tooManySessions)
        #expect(error("too_many_viewers") == .tooManyViewers)
        #expect(error("too_many_events") == .tooManyEvents)
        #expect(error("session_done") == .done)
        #expect(error("session_finished") == .finished)
        #expect(error("ERR retry") == .retry)
        #expect(error("event_not_accepted typing") == .eventNotAccepted(loader: "typing"))
        #expect(error("ERR wrong number of arguments for 'evalsha' command") == .other)
    }
}
