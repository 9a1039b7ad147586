/// A content coding the server can send a body in.
public enum ContentCoding: Sendable, Equatable {
    case identity
    case gzip
}

/// What `Accept-Encoding` (RFC 9110 §12.5.3) allows: gzip (or its old
/// name `x-gzip`, §8.4.1.3) when it is listed, or left to `*`, with a
/// weight above 0 and not below identity's when identity is listed too.
/// Names are compared without case; a weight that is not a qvalue drops
/// its element. One pass over the bytes, whatever their shape: each is
/// looked at a bounded number of times, and nothing is split or copied.
public enum AcceptEncoding {
    /// The coding for a body that can be compressed. Identity when the
    /// header is absent (clients that say nothing, curl without
    /// `--compressed` among them, may not decode gzip) and when both
    /// gzip and identity are refused: a body the client may still use
    /// rather than a 406 (as most servers do; RFC 9110 allows either).
    public static func coding(_ headers: HTTPHeaders) -> ContentCoding {
        switch headers.count(named: "accept-encoding") {
        case 0: return .identity
        case 1: return coding(headers["accept-encoding"] ?? "")
        default: return coding(headers.values("accept-encoding").joined(separator: ","))  // one list, as §5.3 combines fields
        }
    }

    public static func coding(_ value: String) -> ContentCoding {
        var value = value
        return value.withUTF8 { weights($0) }.coding
    }

    /// The weights, in thousandths, of gzip, identity and `*` where listed.
    struct Weights: Equatable {
        var gzip: Int?
        var identity: Int?
        var any: Int?

        var coding: ContentCoding {
            guard let q = gzip ?? any, q > 0 else { return .identity }
            if let identity, identity > q { return .identity }
            return .gzip
        }
    }

    private enum Name { case gzip, identity, any, other }

    static func weights(_ p: UnsafeBufferPointer<UInt8>) -> Weights {
        var w = Weights()
        let n = p.count
        var i = 0
        func isSpace(_ c: UInt8) -> Bool { c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") }
        func skipSpaces() { while i < n && isSpace(p[i]) { i += 1 } }
        /// The bytes from `i` up to a delimiter, `i` left on it.
        func word(until stops: (UInt8) -> Bool) -> Range<Int> {
            let start = i
            while i < n && !stops(p[i]) { i += 1 }
            var end = i
            while end > start && isSpace(p[end - 1]) { end -= 1 }
            return start..<end
        }
        func equals(_ r: Range<Int>, _ lower: StaticString) -> Bool {
            guard r.count == lower.utf8CodeUnitCount else { return false }
            for k in 0..<r.count where asciiLower(p[r.lowerBound + k]) != lower.utf8Start[k] { return false }
            return true
        }
        while i < n {
            skipSpaces()
            let token = word { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ";") }
            let name: Name = equals(token, "gzip") || equals(token, "x-gzip") ? .gzip
                : equals(token, "identity") ? .identity : equals(token, "*") ? .any : .other
            var q: Int? = 1000
            // Parameters: only `q` counts (the grammar has no other).
            while i < n && p[i] == UInt8(ascii: ";") {
                i += 1
                skipSpaces()
                let key = word { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ";") }
                var value = i..<i
                if i < n && p[i] == UInt8(ascii: "=") {
                    i += 1
                    skipSpaces()
                    value = word { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ";") }
                }
                if equals(key, "q") { q = qvalue(p, value) }
            }
            if i < n { i += 1 }  // the comma
            guard let q, !token.isEmpty else { continue }
            switch name {
            case .gzip: w.gzip = max(w.gzip ?? 0, q)
            case .identity: w.identity = max(w.identity ?? 0, q)
            case .any: w.any = max(w.any ?? 0, q)
            case .other: break
            }
        }
        return w
    }

    /// `0`, `0.` and up to three digits, `1`, or `1.` and up to three
    /// zeros (§12.4.2), in thousandths; nil for anything else.
    static func qvalue(_ p: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Int? {
        guard !r.isEmpty, r.count <= 5 else { return nil }
        let first = p[r.lowerBound]
        guard first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else { return nil }
        var value = Int(first - UInt8(ascii: "0")) * 1000
        guard r.count > 1 else { return value }
        guard p[r.lowerBound + 1] == UInt8(ascii: ".") else { return nil }
        var scale = 100
        for k in (r.lowerBound + 2)..<r.upperBound {
            let c = p[k]
            guard c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") else { return nil }
            value += Int(c - UInt8(ascii: "0")) * scale
            scale /= 10
        }
        return value <= 1000 ? value : nil
    }
}
