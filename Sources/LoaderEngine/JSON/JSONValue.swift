/// A parsed JSON document (RFC 8259), for configuration files and request
/// bodies. Objects keep their keys in order; duplicate keys are refused.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.number(x), .number(y)): return x == y
        case let (.string(x), .string(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.object(x), .object(y)): return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    public subscript(key: String) -> JSONValue? {
        guard case .object(let fields) = self else { return nil }
        return fields.first { $0.0 == key }?.1
    }

    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// Parses `bytes` as one JSON value (surrounding white space allowed).
    public static func parse(_ bytes: [UInt8], maxDepth: Int = 64) throws(JSONParseError) -> JSONValue {
        var parser = Parser(bytes: bytes, maxDepth: maxDepth)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.i == bytes.count else { throw parser.error("unexpected data after the JSON value") }
        return value
    }

    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue { try parse(Array(text.utf8)) }
}

public struct JSONParseError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public let offset: Int
    public var description: String { "\(message) at byte \(offset)" }
}

private struct Parser {
    let bytes: [UInt8]
    let maxDepth: Int
    var i = 0

    /// Keys an object has before its duplicates are found by hashing.
    static let hashedFrom = 8
    /// Unicode's Stream-Safe Text Format's bound on non-starters in a row.
    static let maxNonStarters = 30

    init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    func error(_ message: String) -> JSONParseError { JSONParseError(message: message, offset: i) }

    mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
    }

    mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth < maxDepth else { throw error("nested too deeply") }
        guard i < bytes.count else { throw error("unexpected end of JSON") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return .number(try number())
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let n = word.utf8CodeUnitCount
        guard i + n <= bytes.count, bytes[i..<(i + n)].elementsEqual(UnsafeBufferPointer(start: word.utf8Start, count: n)) else {
            throw error("invalid literal")
        }
        i += n
    }

    mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
        i += 1
        var fields: [(String, JSONValue)] = []
        // Duplicates: a scan while the object is small (no allocation for
        // the usual few keys), a hashed set from `hashedFrom` keys on, so
        // that an object of n keys costs O(n), not O(n²).
        var seen: Set<String>?
        skipSpace()
        if i < bytes.count && bytes[i] == UInt8(ascii: "}") { i += 1; return .object(fields) }
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let key = try string()
            if seen == nil && fields.count == Self.hashedFrom {
                seen = Set(minimumCapacity: 2 * Self.hashedFrom)
                for (k, _) in fields { seen!.insert(k) }
            }
            let duplicate = seen == nil ? fields.contains(where: { $0.0 == key }) : !seen!.insert(key).inserted
            // A key is named only in part: an answer does not echo a megabyte.
            if duplicate { throw error("duplicate key \"\(key.prefix(64))\"") }
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error("expected ':'") }
            i += 1
            skipSpace()
            fields.append((key, try value(depth: depth + 1)))
            skipSpace()
            guard i < bytes.count else { throw error("unexpected end of JSON") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(fields) }
            throw error("expected ',' or '}'")
        }
    }

    mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
        i += 1
        var items: [JSONValue] = []
        skipSpace()
        if i < bytes.count && bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
        while true {
            skipSpace()
            items.append(try value(depth: depth + 1))
            skipSpace()
            guard i < bytes.count else { throw error("unexpected end of JSON") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
            throw error("expected ',' or ']'")
        }
    }

    mutating func string() throws(JSONParseError) -> String {
        i += 1
        // Most strings have no escape: made from their bytes, with no
        // buffer of their own.
        let start = i
        var ascii = true
        while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\"), bytes[i] >= 0x20 {
            ascii = ascii && bytes[i] < 0x80
            i += 1
        }
        if i < bytes.count && bytes[i] == UInt8(ascii: "\"") {
            guard let s = String(validating: bytes[start..<i], as: UTF8.self) else { throw error("invalid UTF-8 in a string") }
            if !ascii { try streamSafe(s) }
            i += 1
            return s
        }
        var out = Array(bytes[start..<i])
        while true {
            guard i < bytes.count else { throw error("unterminated string") }
            let c = bytes[i]
            if c == UInt8(ascii: "\"") { i += 1; break }
            if c < 0x20 { throw error("control character in a string") }
            if c != UInt8(ascii: "\\") { out.append(c); i += 1; continue }
            i += 1
            guard i < bytes.count else { throw error("unterminated escape") }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if scalar >= 0xD800 && scalar < 0xDC00 {
                    guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        throw error("unpaired surrogate")
                    }
                    i += 2
                    let low = try hex4()
                    guard low >= 0xDC00 && low < 0xE000 else { throw error("unpaired surrogate") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if scalar >= 0xDC00 && scalar < 0xE000 {
                    throw error("unpaired surrogate")
                }
                Self.appendUTF8(scalar, to: &out)
            default:
                throw error("invalid escape")
            }
        }
        guard let s = String(validating: out, as: UTF8.self) else { throw error("invalid UTF-8 in a string") }
        try streamSafe(s)
        return s
    }

    /// At most `maxNonStarters` combining marks in a row (Unicode's
    /// Stream-Safe Text Format, UAX #15): comparing or hashing a string
    /// puts each such run in canonical order, which costs the square of its
    /// length, so a key of one long run would cost seconds. Text never
    /// needs more.
    func streamSafe(_ s: String) throws(JSONParseError) {
        var run = 0
        for scalar in s.unicodeScalars {
            if scalar.value < 0x300 || scalar.properties.canonicalCombiningClass == .notReordered {
                run = 0
            } else {
                run += 1
                if run > Self.maxNonStarters { throw error("more than \(Self.maxNonStarters) combining marks in a row in a string") }
            }
        }
    }

    /// A scalar's UTF-8 bytes, written in place (no string per escape).
    static func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        switch scalar {
        case ..<0x80:
            out.append(UInt8(scalar))
        case ..<0x800:
            out.append(UInt8(0xC0 | scalar >> 6))
            out.append(UInt8(0x80 | scalar & 0x3F))
        case ..<0x10000:
            out.append(UInt8(0xE0 | scalar >> 12))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        default:
            out.append(UInt8(0xF0 | scalar >> 18))
            out.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw error("invalid \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[i]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - 48)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - 87)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - 55)
            default: throw error("invalid \\u escape")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    mutating func number() throws(JSONParseError) -> Double {
        let start = i
        if i < bytes.count && bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < bytes.count, isDigit(bytes[i]) else { throw error("invalid value") }
        if bytes[i] == UInt8(ascii: "0") { i += 1 } else { while i < bytes.count && isDigit(bytes[i]) { i += 1 } }
        if i < bytes.count && bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard i < bytes.count, isDigit(bytes[i]) else { throw error("invalid number") }
            while i < bytes.count && isDigit(bytes[i]) { i += 1 }
        }
        if i < bytes.count && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            i += 1
            if i < bytes.count && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) { i += 1 }
            guard i < bytes.count, isDigit(bytes[i]) else { throw error("invalid number") }
            while i < bytes.count && isDigit(bytes[i]) { i += 1 }
        }
        guard let v = Double(String(decoding: bytes[start..<i], as: UTF8.self)), v.isFinite else {
            throw error("number out of range")
        }
        return v
    }

    func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
}
