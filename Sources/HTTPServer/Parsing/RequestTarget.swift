/// Splits and decodes a request target (RFC 9112 §3.2): origin-form
/// `/path?query`, absolute-form `http://host/path?query`, and `*` for OPTIONS.
enum RequestTarget {
    struct Parts {
        /// Where the path is in the target's bytes; nil for `*`. An empty
        /// path is `/`. (The path string is made only when asked for.)
        var pathBounds: Range<Int>?
        var segments: [String]
        var query: [(name: String, value: String)]
    }

    static func parse(_ target: String, method: HTTPMethod) throws(HTTPParseError) -> Parts {
        var copy = target
        let result = copy.withUTF8 { bytes -> Result<Parts, HTTPParseError> in
            do throws(HTTPParseError) { return .success(try parse(bytes, method: method)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// The target's parts, from its bytes as they arrived.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, method: HTTPMethod) throws(HTTPParseError) -> Parts {
        if bytes.count == 1 && bytes[0] == UInt8(ascii: "*") {
            guard method == .OPTIONS else { throw HTTPParseError(.badRequest, "* is only a target for OPTIONS") }
            return Parts(pathBounds: nil, segments: [], query: [])
        }
        return try parse(bytes)
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(HTTPParseError) -> Parts {
        var start = 0
        if bytes.first != UInt8(ascii: "/") {
            // absolute-form: scheme "://" authority path-abempty [ "?" query ]
            let lower = String(decoding: bytes.prefix(8), as: UTF8.self).lowercasedASCII
            if lower.hasPrefix("http://") { start = 7 } else if lower.hasPrefix("https://") { start = 8 } else {
                throw HTTPParseError(.badRequest, "the request target must be a path or an absolute http URI")
            }
            while start < bytes.count && bytes[start] != UInt8(ascii: "/") && bytes[start] != UInt8(ascii: "?") { start += 1 }
        }
        let base = bytes.baseAddress!
        let hash = findByte(UInt8(ascii: "#"), base, from: start, to: bytes.count) ?? bytes.count
        let pathEnd = findByte(UInt8(ascii: "?"), base, from: start, to: hash) ?? hash
        let queryEnd = pathEnd < hash ? hash : pathEnd
        // Most targets need no decoding at all: then every part is its bytes.
        let plain = !bytes[start..<queryEnd].contains { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") || $0 >= 0x80 }
        // Path segments, each decoded on its own (so %2F stays inside one).
        var segments: [String] = []
        segments.reserveCapacity(4)
        var i = start
        while i < pathEnd {
            let j = findByte(UInt8(ascii: "/"), base, from: i, to: pathEnd) ?? pathEnd
            if j > i {
                let part = UnsafeBufferPointer(start: base + i, count: j - i)
                guard let segment = plain ? String(decoding: part, as: UTF8.self) : decode(part, plusAsSpace: false) else {
                    throw HTTPParseError(.badRequest, "invalid percent-encoding in the path (or more than 30 combining marks in a row)")
                }
                segments.append(segment)
            }
            i = j + 1
        }
        var query: [(name: String, value: String)] = []
        if queryEnd > pathEnd + 1 {
            query = try parseQuery(UnsafeBufferPointer(rebasing: bytes[(pathEnd + 1)..<queryEnd]), plain: plain)
        }
        return Parts(pathBounds: start..<pathEnd, segments: segments, query: query)
    }

    /// `plain`: the bytes are known to hold no `%`, `+` or non-ASCII byte.
    static func parseQuery(_ bytes: UnsafeBufferPointer<UInt8>, plain: Bool = false) throws(HTTPParseError) -> [(name: String, value: String)] {
        var items: [(name: String, value: String)] = []
        guard let base = bytes.baseAddress else { return items }
        items.reserveCapacity(4)
        var i = 0
        while i < bytes.count {
            let end = findByte(UInt8(ascii: "&"), base, from: i, to: bytes.count) ?? bytes.count
            if end > i {
                let equals = findByte(UInt8(ascii: "="), base, from: i, to: end)
                let nameEnd = equals ?? end
                let valueStart = equals.map { $0 + 1 } ?? end
                let name = UnsafeBufferPointer(start: base + i, count: nameEnd - i)
                let value = UnsafeBufferPointer(start: base + valueStart, count: end - valueStart)
                if plain {
                    items.append((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
                } else {
                    guard let name = decode(name, plusAsSpace: true), let value = decode(value, plusAsSpace: true)
                    else { throw HTTPParseError(.badRequest, "invalid percent-encoding in the query (or more than 30 combining marks in a row)") }
                    items.append((name, value))
                }
            }
            i = end + 1
        }
        return items
    }

    /// Percent-decodes bytes (and `+` as space in queries); nil for a broken
    /// escape, bytes that are not UTF-8, or more than 30 combining marks in
    /// a row (`StreamSafe`).
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool) -> String? {
        var plain = true
        for b in bytes where b == UInt8(ascii: "%") || (plusAsSpace && b == UInt8(ascii: "+")) || b >= 0x80 {
            plain = false
            break
        }
        if plain { return String(decoding: bytes, as: UTF8.self) }
        var out = [UInt8]()
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "%") {
                guard i + 2 < bytes.count, let hi = hexValue(bytes[i + 1]), let lo = hexValue(bytes[i + 2]) else { return nil }
                out.append(hi << 4 | lo)
                i += 3
                continue
            }
            out.append(plusAsSpace && c == UInt8(ascii: "+") ? UInt8(ascii: " ") : c)
            i += 1
        }
        guard let text = String(validating: out, as: UTF8.self), StreamSafe.holds(text) else { return nil }
        return text
    }
}

@inline(__always) func hexValue(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
    default: return nil
    }
}

extension HTTPRequest {
    /// Items of a query string (`a=1&b=%23f00`), decoded as a request's
    /// query is: for a value that is itself a query (`loader=typing%3Fcount%3D5`).
    /// Nil for a broken escape or bytes that are not UTF-8.
    public static func queryItems(_ text: String) -> [(name: String, value: String)]? {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            try? RequestTarget.parseQuery(UnsafeBufferPointer(buffer))
        }
    }
}
