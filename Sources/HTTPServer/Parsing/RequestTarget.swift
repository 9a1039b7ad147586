/// Splits and decodes a request target (RFC 9112 §3.2): origin-form
/// `/path?query`, absolute-form `http://host/path?query`, and `*` for OPTIONS.
enum RequestTarget {
    struct Parts {
        var path: String
        var segments: [String]
        var query: [(name: String, value: String)]
    }

    static func parse(_ target: String, method: HTTPMethod) throws(HTTPParseError) -> Parts {
        var utf8 = Substring(target).utf8[...]
        if target == "*" {
            guard method == .OPTIONS else { throw HTTPParseError(.badRequest, "* is only a target for OPTIONS") }
            return Parts(path: "*", segments: [], query: [])
        }
        if utf8.first != UInt8(ascii: "/") {
            // absolute-form: scheme "://" authority path-abempty [ "?" query ]
            let lower = target.lowercasedASCII
            let schemeLength: Int
            if lower.hasPrefix("http://") { schemeLength = 7 } else if lower.hasPrefix("https://") { schemeLength = 8 } else {
                throw HTTPParseError(.badRequest, "the request target must be a path or an absolute http URI")
            }
            utf8 = utf8.dropFirst(schemeLength)
            guard let slash = utf8.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }) else {
                return Parts(path: "/", segments: [], query: [])
            }
            utf8 = utf8[slash...]
            if utf8.first == UInt8(ascii: "?") {
                return Parts(path: "/", segments: [], query: try parseQuery(Substring(utf8.dropFirst())))
            }
        }
        let rawPath: Substring
        var rawQuery: Substring = ""
        if let q = utf8.firstIndex(of: UInt8(ascii: "?")) {
            rawPath = Substring(utf8[..<q])
            rawQuery = Substring(utf8[utf8.index(after: q)...])
        } else {
            rawPath = Substring(utf8)
        }
        if let hash = rawQuery.firstIndex(of: "#") { rawQuery = rawQuery[..<hash] }
        var segments = [String]()
        var path = ""
        for raw in rawPath.split(separator: "/", omittingEmptySubsequences: true) {
            guard let decoded = percentDecode(raw, plusAsSpace: false) else {
                throw HTTPParseError(.badRequest, "invalid percent-encoding in the path")
            }
            segments.append(decoded)
        }
        path = rawPath.isEmpty ? "/" : String(rawPath)
        return Parts(path: path, segments: segments, query: try parseQuery(rawQuery))
    }

    static func parseQuery(_ raw: Substring) throws(HTTPParseError) -> [(name: String, value: String)] {
        var items = [(name: String, value: String)]()
        for pair in raw.split(separator: "&", omittingEmptySubsequences: true) {
            let name: Substring, value: Substring
            if let eq = pair.firstIndex(of: "=") {
                name = pair[..<eq]
                value = pair[pair.index(after: eq)...]
            } else {
                name = pair
                value = ""
            }
            guard let n = percentDecode(name, plusAsSpace: true), let v = percentDecode(value, plusAsSpace: true) else {
                throw HTTPParseError(.badRequest, "invalid percent-encoding in the query")
            }
            items.append((n, v))
        }
        return items
    }
}

/// Decodes `%XX` escapes (and `+` as space in queries); `nil` for a broken
/// escape or bytes that are not UTF-8.
public func percentDecode(_ text: Substring, plusAsSpace: Bool) -> String? {
    let utf8 = text.utf8
    if !utf8.contains(UInt8(ascii: "%")) && !(plusAsSpace && utf8.contains(UInt8(ascii: "+"))) {
        return String(text)
    }
    var bytes = [UInt8]()
    bytes.reserveCapacity(utf8.count)
    var i = utf8.startIndex
    while i != utf8.endIndex {
        let c = utf8[i]
        if c == UInt8(ascii: "%") {
            let h = utf8.index(after: i)
            guard h != utf8.endIndex else { return nil }
            let l = utf8.index(after: h)
            guard l != utf8.endIndex, let hi = hexValue(utf8[h]), let lo = hexValue(utf8[l]) else { return nil }
            bytes.append(hi << 4 | lo)
            i = utf8.index(after: l)
            continue
        }
        bytes.append(plusAsSpace && c == UInt8(ascii: "+") ? UInt8(ascii: " ") : c)
        i = utf8.index(after: i)
    }
    return String(validating: bytes, as: UTF8.self)
}

@inline(__always) func hexValue(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
    default: return nil
    }
}
