/// A reply in RESP2, the protocol Redis speaks by default
/// (https://redis.io/docs/latest/develop/reference/protocol-spec/).
public enum RESPValue: Sendable, Equatable {
    /// `+OK`
    case simple(String)
    /// `-ERR …`: the command failed; the connection is fine.
    case error(String)
    /// `:42`
    case integer(Int64)
    /// `$5\r\nhello`; nil is the null bulk string (`$-1`).
    case bulk([UInt8]?)
    /// `*2\r\n…`; nil is the null array (`*-1`).
    case array([RESPValue]?)

    /// The text of a simple or bulk string.
    public var string: String? {
        switch self {
        case .simple(let s): return s
        case .bulk(let b?): return String(decoding: b, as: UTF8.self)
        default: return nil
        }
    }
}

/// A reply that breaks the protocol or a limit: the connection cannot go on.
public struct RESPError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// Bounds on what one reply may hold.
public struct RESPLimits: Sendable {
    public var maxBulkBytes = 64 << 20
    public var maxArrayCount = 1 << 20
    public var maxDepth = 32
    /// A line (`+…`, `-…`, `:…`, a length) longer than this is refused.
    public var maxLineBytes = 64 * 1024
    public init() {}
}

/// Parses replies from bytes as they arrive. `next` takes the bytes
/// buffered so far and answers the first whole reply and its length, or nil
/// until it has come; it first measures the reply without building it (bulk
/// payloads are skipped by their length). A caller that keeps a `Progress`
/// across calls, and passes the same bytes again with more after them,
/// resumes the measure where it stopped: a reply of n bytes arriving in any
/// number of pieces costs O(n) in all, however many items it has.
public struct RESPParser: Sendable {
    public let limits: RESPLimits
    public init(limits: RESPLimits = RESPLimits()) { self.limits = limits }

    /// How much of the reply at the start of the bytes has been measured.
    public struct Progress: Sendable {
        /// Where the next value to measure starts.
        var at = 0
        /// Items still to measure in each array the measure is inside, outermost first.
        var pending: [Int] = []
        /// How far the line at `at` was searched for its end: a long line
        /// that comes a byte at a time is searched once, not once a byte.
        var searched = 0
        public init() {}
    }

    public func next(_ bytes: UnsafeBufferPointer<UInt8>) throws(RESPError) -> (value: RESPValue, consumed: Int)? {
        var progress = Progress()
        return try next(bytes, resuming: &progress)
    }

    /// As `next(_:)`, going on from `progress`, which must come from a call
    /// on the same bytes (fewer of them); it is reset once a reply is whole.
    public func next(_ bytes: UnsafeBufferPointer<UInt8>, resuming progress: inout Progress) throws(RESPError) -> (value: RESPValue, consumed: Int)? {
        guard let end = try measure(bytes, &progress) else { return nil }
        progress = Progress()
        var i = 0
        let value = try build(bytes, at: &i)
        assert(i == end, "built and measured lengths differ")
        return (value, end)
    }

    /// Where the reply at the start of `b` ends, or nil if it has not all
    /// come (then `progress` says how far it was measured). Iterative, so
    /// that a piece that ends deep inside nested arrays is picked up there.
    private func measure(_ b: UnsafeBufferPointer<UInt8>, _ progress: inout Progress) throws(RESPError) -> Int? {
        var at = progress.at
        while true {
            guard progress.pending.count <= limits.maxDepth else { throw RESPError("replies nest deeper than \(limits.maxDepth)") }
            var searched = progress.at == at ? max(progress.searched, at + 1) : at + 1
            guard at < b.count, let lineEnd = try lineEnd(b, from: at + 1, searching: &searched) else {
                progress.at = at
                progress.searched = searched
                return nil
            }
            let afterLine = lineEnd + 2
            switch b[at] {
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                at = afterLine
            case UInt8(ascii: ":"):
                _ = try integer(b, at + 1, lineEnd)
                at = afterLine
            case UInt8(ascii: "$"):
                let n = try integer(b, at + 1, lineEnd)
                if n == -1 { at = afterLine; break }
                guard n >= 0, n <= Int64(limits.maxBulkBytes) else { throw RESPError("bulk length \(n) is out of bounds") }
                let end = afterLine + Int(n) + 2
                guard end <= b.count else {
                    progress.at = at
                    return nil
                }
                guard b[end - 2] == 0x0D, b[end - 1] == 0x0A else { throw RESPError("a bulk string does not end with CRLF") }
                at = end
            case UInt8(ascii: "*"):
                let n = try integer(b, at + 1, lineEnd)
                guard n == -1 || (n >= 0 && n <= Int64(limits.maxArrayCount)) else { throw RESPError("array length \(n) is out of bounds") }
                at = afterLine
                if n > 0 {
                    progress.pending.append(Int(n))
                    continue
                }
            default:
                throw RESPError("unknown reply type byte \(b[at])")
            }
            // A value is whole: so is every array it was the last item of.
            while let last = progress.pending.indices.last {
                progress.pending[last] -= 1
                if progress.pending[last] > 0 { break }
                progress.pending.removeLast()
            }
            if progress.pending.isEmpty { return at }
        }
    }

    /// Builds the reply at `i` (already measured whole) and moves `i` past it.
    private func build(_ b: UnsafeBufferPointer<UInt8>, at i: inout Int) throws(RESPError) -> RESPValue {
        let type = b[i]
        // Measured already: the line is there.
        var searched = i + 1
        let lineEnd = try self.lineEnd(b, from: i + 1, searching: &searched)!
        let start = i + 1
        switch type {
        case UInt8(ascii: "+"):
            i = lineEnd + 2
            return .simple(String(decoding: UnsafeBufferPointer(rebasing: b[start..<lineEnd]), as: UTF8.self))
        case UInt8(ascii: "-"):
            i = lineEnd + 2
            return .error(String(decoding: UnsafeBufferPointer(rebasing: b[start..<lineEnd]), as: UTF8.self))
        case UInt8(ascii: ":"):
            let n = try integer(b, i + 1, lineEnd)
            i = lineEnd + 2
            return .integer(n)
        case UInt8(ascii: "$"):
            let n = Int(try integer(b, i + 1, lineEnd))
            i = lineEnd + 2
            if n == -1 { return .bulk(nil) }
            let payload = Array(UnsafeBufferPointer(rebasing: b[i..<(i + n)]))
            i += n + 2
            return .bulk(payload)
        default:  // "*", the only other type `measure` lets through
            let n = Int(try integer(b, i + 1, lineEnd))
            i = lineEnd + 2
            if n == -1 { return .array(nil) }
            var items: [RESPValue] = []
            items.reserveCapacity(n)
            for _ in 0..<n { items.append(try build(b, at: &i)) }
            return .array(items)
        }
    }

    /// The index of the CR of the line starting at `from`, or nil if it has not come.
    /// Where the line that begins at `from` ends (its CR), searching from
    /// `searched`, which is left where the search stopped when the end has
    /// not come yet.
    private func lineEnd(_ b: UnsafeBufferPointer<UInt8>, from: Int, searching searched: inout Int) throws(RESPError) -> Int? {
        var i = searched
        defer { searched = i }
        while i + 1 < b.count {
            if b[i] == 0x0D {
                guard b[i + 1] == 0x0A else { throw RESPError("a CR not followed by LF") }
                return i
            }
            if b[i] == 0x0A { throw RESPError("a bare LF in a line") }
            i += 1
            if i - from > limits.maxLineBytes { throw RESPError("a line longer than \(limits.maxLineBytes) bytes") }
        }
        if b.count - from > limits.maxLineBytes { throw RESPError("a line longer than \(limits.maxLineBytes) bytes") }
        return nil
    }

    /// A decimal integer in `b[from..<to]`: an optional minus, 1 to 18 digits.
    private func integer(_ b: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) throws(RESPError) -> Int64 {
        var i = from
        var negative = false
        if i < to && b[i] == UInt8(ascii: "-") { negative = true; i += 1 }
        guard i < to, to - i <= 18 else { throw RESPError("a malformed integer") }
        var n: Int64 = 0
        while i < to {
            let d = b[i]
            guard d >= 0x30 && d <= 0x39 else { throw RESPError("a malformed integer") }
            n = n * 10 + Int64(d - 0x30)
            i += 1
        }
        return negative ? -n : n
    }
}

/// Commands as Redis reads them: an array of bulk strings.
public enum RESP {
    public static func command(_ parts: [String]) -> [UInt8] {
        var out: [UInt8] = []
        append(parts.map { Array($0.utf8) }, to: &out)
        return out
    }

    public static func append(_ parts: [[UInt8]], to out: inout [UInt8]) {
        out.append(UInt8(ascii: "*"))
        out.append(contentsOf: String(parts.count).utf8)
        out.append(contentsOf: [0x0D, 0x0A])
        for part in parts {
            out.append(UInt8(ascii: "$"))
            out.append(contentsOf: String(part.count).utf8)
            out.append(contentsOf: [0x0D, 0x0A])
            out.append(contentsOf: part)
            out.append(contentsOf: [0x0D, 0x0A])
        }
    }

    /// A reply written back as bytes (tests and the fuzzer's round trip).
    public static func encode(_ value: RESPValue, to out: inout [UInt8]) {
        func line(_ type: Character, _ text: String) {
            out.append(contentsOf: String(type).utf8)
            out.append(contentsOf: text.utf8)
            out.append(contentsOf: [0x0D, 0x0A])
        }
        switch value {
        case .simple(let s): line("+", s)
        case .error(let s): line("-", s)
        case .integer(let n): line(":", String(n))
        case .bulk(nil): line("$", "-1")
        case .bulk(let b?):
            line("$", String(b.count))
            out.append(contentsOf: b)
            out.append(contentsOf: [0x0D, 0x0A])
        case .array(nil): line("*", "-1")
        case .array(let items?):
            line("*", String(items.count))
            for item in items { encode(item, to: &out) }
        }
    }
}
