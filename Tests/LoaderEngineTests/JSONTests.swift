import Testing
@testable import LoaderEngine

/// The JSON reader against RFC 8259's rules, with expected values written
/// out by hand (UTF-8 bytes from the Unicode code charts).
struct JSONTests {
    /// Duplicate keys are refused wherever the pair stands: within the
    /// first keys (found by scanning) and past them (found by hashing).
    @Test(arguments: [1, 2, 7, 8, 9, 16, 100, 1000])
    func aDuplicateKeyIsRefusedAtAnyPosition(_ count: Int) throws {
        for repeated in Set([0, count / 2, count - 1]) {
            var keys = (0..<count).map { "k\($0)" }
            keys.append("k\(repeated)")
            let text = "{" + keys.map { "\"\($0)\":0" }.joined(separator: ",") + "}"
            #expect(throws: JSONParseError.self, "\(count) keys, k\(repeated) twice") { try JSONValue.parse(text) }
        }
        let text = "{" + (0..<count).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}"
        guard case .object(let fields) = try JSONValue.parse(text) else { Issue.record("not an object"); return }
        #expect(fields.map(\.0) == (0..<count).map { "k\($0)" })
        #expect(fields.last.map(\.1) == .number(Double(count - 1)))
    }

    /// Keys are compared as the strings they decode to.
    @Test func keysEqualAfterTheirEscapesAreDuplicates() {
        let many = (0..<20).map { "\"x\($0)\":0," }.joined()
        #expect(throws: JSONParseError.self) { try JSONValue.parse(#"{"a":1,"\u0061":2}"#) }
        #expect(throws: JSONParseError.self) { try JSONValue.parse("{" + many + #""a":1,"\u0061":2}"#) }
    }

    @Test(arguments: [
        (#""plain""#, Array("plain".utf8)),
        (#""\u00e9""#, [0xC3, 0xA9]),
        (#""\u20AC and \u0041""#, [0xE2, 0x82, 0xAC] + Array(" and A".utf8)),
        (#""\ud83d\ude00""#, [0xF0, 0x9F, 0x98, 0x80]),
        (#""\u007f\u0080\u07FF\u0800\uFFFF""#, [0x7F, 0xC2, 0x80, 0xDF, 0xBF, 0xE0, 0xA0, 0x80, 0xEF, 0xBF, 0xBF]),
        (#""a\"b\\c\/d\b\f\n\r\t""#, Array("a\"b\\c/d".utf8) + [0x08, 0x0C, 0x0A, 0x0D, 0x09]),
        ("\"h\u{E9}\"", [0x68, 0xC3, 0xA9]),
    ])
    func stringsDecodeToTheirUTF8(_ text: String, _ expected: [UInt8]) throws {
        guard case .string(let s) = try JSONValue.parse(text) else { Issue.record("not a string"); return }
        #expect(Array(s.utf8) == expected)
    }

    static let brokenStrings: [[UInt8]] = [
        [0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0x61, 0x0A, 0x22], [0x22, 0x61],
        Array(#""\ud800""#.utf8), Array(#""\ude00""#.utf8), Array(#""\x""#.utf8), Array(#""\u12""#.utf8),
    ]

    @Test(arguments: brokenStrings)
    func brokenStringsAreRefused(_ bytes: [UInt8]) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(bytes) }
    }

    /// Unicode's Stream-Safe Text Format (UAX #15): at most 30 combining
    /// marks in a row, in a key or a value; runs of 30 as often as wanted.
    @Test func combiningMarksBeyondThirtyInARowAreRefused() throws {
        let marks = Array(String(repeating: "\u{301}\u{316}", count: 16).unicodeScalars)
        func run(_ n: Int) -> String { "x" + String(String.UnicodeScalarView(marks.prefix(n))) }
        #expect(throws: Never.self) { try JSONValue.parse("{\"\(run(30))\":\"\(run(30))\"}") }
        #expect(throws: JSONParseError.self) { try JSONValue.parse("{\"\(run(31))\":0}") }
        #expect(throws: JSONParseError.self) { try JSONValue.parse("[\"\(run(31))\"]") }
        // Escaped marks count the same: the rule is on the text, not its spelling.
        let escaped = "\"x" + String(repeating: "\\u0301", count: 31) + "\""
        #expect(throws: JSONParseError.self) { try JSONValue.parse(escaped) }
        let long = String(repeating: run(30), count: 1000)
        #expect(try JSONValue.parse("[\"\(long)\"]") == .array([.string(long)]))
    }

    /// The shape a client can send at the body limit: 125,000 distinct keys.
    @Test func anObjectOfManyKeysKeepsThemAllInOrder() throws {
        let alphabet: [Character] = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var keys: [String] = []
        for i in 0..<125_000 {
            let a: Character = alphabet[i % 62], b: Character = alphabet[i / 62 % 62], c: Character = alphabet[i / 3844 % 62]
            keys.append(String([a, b, c]))
        }
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        for (n, key) in keys.enumerated() {
            if n > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += Array("\"\(key)\":\(n)".utf8)
        }
        bytes.append(UInt8(ascii: "}"))
        guard case .object(let fields) = try JSONValue.parse(bytes) else { Issue.record("not an object"); return }
        #expect(fields.count == 125_000)
        #expect(fields.map(\.0) == keys)
        #expect(fields[124_999].1 == .number(124_999))
    }
}

/// What a refusal quotes of a request is cut at 100 Unicode scalars,
/// whatever they make up: one character of 6,000 combining marks is not
/// echoed whole.
struct QuotedTests {
    @Test func quotesAreCutAtAHundredScalars() {
        #expect(quoted("abc") == "abc")
        let long = "x" + String(repeating: "\u{301}", count: 6000)
        let q = quoted(long)
        #expect(q.unicodeScalars.count < 140)
        #expect(q.hasSuffix("… (5901 more characters)"))
        #expect(quoted(String(repeating: "a", count: 150)) == String(repeating: "a", count: 100) + "… (50 more characters)")
    }
}
