import Testing
@testable import Redis

struct RESPTests {
    func parse(_ text: String, limits: RESPLimits = RESPLimits()) throws(RESPError) -> (RESPValue, Int)? {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { (b) throws(RESPError) -> (RESPValue, Int)? in
            guard let r = try RESPParser(limits: limits).next(b) else { return nil }
            return (r.value, r.consumed)
        }
    }

    @Test(arguments: [
        ("+OK\r\n", RESPValue.simple("OK")),
        ("-ERR unknown command\r\n", .error("ERR unknown command")),
        (":-42\r\n", .integer(-42)),
        ("$5\r\nhel\r\n\r\n", .bulk(Array("hel\r\n".utf8))),
        ("$0\r\n\r\n", .bulk([])),
        ("$-1\r\n", .bulk(nil)),
        ("*-1\r\n", .array(nil)),
        ("*0\r\n", .array([])),
        ("*2\r\n*1\r\n:1\r\n$1\r\nx\r\n", .array([.array([.integer(1)]), .bulk([UInt8(ascii: "x")])])),
    ])
    func repliesWholeAndInEveryPrefix(_ text: String, _ expected: RESPValue) throws {
        let r = try #require(try parse(text))
        #expect(r.0 == expected && r.1 == text.utf8.count)
        // Every proper prefix is "not yet".
        let bytes = Array(text.utf8)
        for n in 0..<bytes.count {
            let prefix = String(decoding: bytes[..<n], as: UTF8.self)
            #expect(try parse(prefix) == nil, "\(n) bytes")
        }
        // What follows is left for the next reply.
        #expect(try parse(text + "+NEXT\r\n")?.1 == text.utf8.count)
        var out: [UInt8] = []
        RESP.encode(expected, to: &out)
        #expect(out == bytes)
    }

    /// A connection's way: the bytes arrive a few at a time and the measure
    /// resumes where it stopped. Each reply is the one written by hand.
    @Test(arguments: [1, 2, 3, 5, 64])
    func repliesReadInPiecesResumeTheMeasure(_ piece: Int) throws {
        let text = "*3\r\n*2\r\n$3\r\nabc\r\n*0\r\n:7\r\n*1\r\n$-1\r\n+OK\r\n$2\r\nxy\r\n*2\r\n*1\r\n*1\r\n:1\r\n-E\r\n"
        let expected: [RESPValue] = [
            .array([.array([.bulk(Array("abc".utf8)), .array([])]), .integer(7), .array([.bulk(nil)])]),
            .simple("OK"),
            .bulk(Array("xy".utf8)),
            .array([.array([.array([.integer(1)])]), .error("E")]),
        ]
        let bytes = Array(text.utf8)
        var input: [UInt8] = [], values: [RESPValue] = []
        var progress = RESPParser.Progress()
        var fed = 0
        while fed < bytes.count {
            let n = min(piece, bytes.count - fed)
            input += bytes[fed..<(fed + n)]
            fed += n
            while let r = try input.withUnsafeBufferPointer({ (b) throws(RESPError) in try RESPParser().next(b, resuming: &progress) }) {
                values.append(r.value)
                input.removeFirst(r.consumed)
            }
        }
        #expect(values == expected)
        #expect(input.isEmpty)
    }

    /// A line that comes a byte at a time is searched for its end once:
    /// each call goes on from where the last one stopped.
    @Test func aLongLineInBytesIsSearchedOnce() throws {
        let line = "+" + String(repeating: "a", count: 60_000) + "\r\n"
        let bytes = Array(line.utf8)
        var progress = RESPParser.Progress()
        var input: [UInt8] = []
        var result: (value: RESPValue, consumed: Int)?
        for (n, byte) in bytes.enumerated() {
            input.append(byte)
            result = try input.withUnsafeBufferPointer { (b) throws(RESPError) in try RESPParser().next(b, resuming: &progress) }
            if result == nil {
                // Searched up to the last byte (kept, in case it is the CR).
                #expect(progress.searched == max(1, n), "after \(n + 1) bytes the search stands at \(progress.searched)")
                if progress.searched != max(1, n) { return }
            }
        }
        #expect(result?.value == .simple(String(repeating: "a", count: 60_000)) && result?.consumed == bytes.count)
    }

    @Test(arguments: [
        "?1\r\n", ":12a\r\n", ":\r\n", "$-2\r\n", "$3\r\nabcXY", "+a\rb\r\n", "+a\nb\r\n", "*-5\r\n", ":1234567890123456789\r\n",
    ])
    func brokenRepliesAreErrors(_ text: String) {
        #expect(throws: RESPError.self) { try parse(text) }
    }

    @Test func limitsBoundWhatAReplyMayHold() {
        var limits = RESPLimits()
        limits.maxBulkBytes = 4
        limits.maxArrayCount = 2
        limits.maxDepth = 2
        limits.maxLineBytes = 8
        #expect(throws: RESPError.self) { try parse("$5\r\n", limits: limits) }
        #expect(throws: RESPError.self) { try parse("*3\r\n", limits: limits) }
        #expect(throws: RESPError.self) { try parse("*1\r\n*1\r\n*1\r\n*1\r\n:1\r\n", limits: limits) }
        // A line that never ends is refused once it passes the limit, not buffered for ever.
        #expect(throws: RESPError.self) { try parse("+" + String(repeating: "a", count: 20), limits: limits) }
    }

    @Test func commandsAreArraysOfBulkStrings() {
        #expect(RESP.command(["SET", "k", "välue"]) == Array("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$6\r\nvälue\r\n".utf8))
    }
}

/// Error replies read into their kinds where they arrive. The texts are
/// Redis's own (its replies to EVALSHA of an unknown digest, a write to a
/// replica, a command during loading, INCR of a list, and a script's
/// `redis.error_reply`).
struct RedisErrorReplyTests {
    @Test func kindsAndCodes() {
        #expect(RedisErrorReply("NOSCRIPT No matching script. Please use EVAL.").kind == .noScript)
        #expect(RedisErrorReply("READONLY You can't write against a read only replica.").kind == .notPrimary)
        #expect(RedisErrorReply("LOADING Redis is loading the dataset in memory").kind == .notPrimary)
        #expect(RedisErrorReply("MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.").kind == .notPrimary)
        #expect(RedisErrorReply("READONLY You can't write against a read only replica.").word == "READONLY")
        #expect(RedisErrorReply("WRONGTYPE Operation against a key holding the wrong kind of value").kind == .wrongType)
        // NOREPLICAS comes from the primary itself: not a reason to look for another.
        #expect(RedisErrorReply("NOREPLICAS Not enough good replicas to write.").kind == .other)
        let script = RedisErrorReply("ERR not_found")
        #expect(script.kind == .other)
        #expect(script.code == "not_found")
        #expect(RedisErrorReply("too_many_sessions").code == "too_many_sessions")
        #expect(RedisError.reply(RedisErrorReply("ERR value is not an integer or out of range")).message == "ERR value is not an integer or out of range")
    }
}
