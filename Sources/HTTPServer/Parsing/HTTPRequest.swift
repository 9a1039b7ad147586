import Glibc

/// An HTTP method token (`GET`, `POST`…), compared exactly.
public struct HTTPMethod: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public var description: String { rawValue }

    public static let GET: HTTPMethod = "GET"
    public static let HEAD: HTTPMethod = "HEAD"
    public static let POST: HTTPMethod = "POST"
    public static let PUT: HTTPMethod = "PUT"
    public static let DELETE: HTTPMethod = "DELETE"
    public static let OPTIONS: HTTPMethod = "OPTIONS"
    public static let PATCH: HTTPMethod = "PATCH"

    /// The common methods without making a string from the bytes.
    static func known(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> HTTPMethod? {
        func equals(_ m: StaticString) -> Bool {
            m.utf8CodeUnitCount == count && memcmp(m.utf8Start, bytes, count) == 0
        }
        switch count {
        case 3: return equals("GET") ? .GET : equals("PUT") ? .PUT : nil
        case 4: return equals("HEAD") ? .HEAD : equals("POST") ? .POST : nil
        case 5: return equals("PATCH") ? .PATCH : nil
        case 6: return equals("DELETE") ? .DELETE : nil
        case 7: return equals("OPTIONS") ? .OPTIONS : nil
        default: return nil
        }
    }
}

/// `HTTP/1.0` or `HTTP/1.1`.
public struct HTTPVersion: Sendable, Hashable, CustomStringConvertible {
    public let major: Int, minor: Int
    public init(major: Int, minor: Int) { self.major = major; self.minor = minor }
    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)
    public var description: String { "HTTP/\(major).\(minor)" }
}

/// A parsed request: the head, a percent-decoded path and query, the body.
/// Its fields live in one shared object, so handing a request along the
/// pipeline (parser, connection, middleware) costs one reference count, not
/// one per field.
public struct HTTPRequest: Sendable {
    private final class Storage: Sendable {
        let method: HTTPMethod
        let target: String
        let pathBounds: Range<Int>?
        let pathSegments: [String]
        let query: [(name: String, value: String)]
        let version: HTTPVersion
        let headers: HTTPHeaders
        let body: [UInt8]
        let keepAlive: Bool
        /// `Accept`'s media ranges, parsed once with the head: a constant,
        /// read with no lock however many times a request asks.
        let accept: MediaRanges

        init(method: HTTPMethod, target: String, parts: RequestTarget.Parts, version: HTTPVersion, headers: HTTPHeaders, body: [UInt8]) {
            self.method = method
            self.target = target
            self.pathBounds = parts.pathBounds
            self.pathSegments = parts.segments
            self.query = parts.query
            self.version = version
            self.headers = headers
            self.body = body
            self.keepAlive = HTTPRequest.persistent(version: version, headers: headers)
            self.accept = MediaRanges(headers["accept"])
        }
    }

    private let storage: Storage
    // The accessors lend the stored values (`_read`) rather than return
    // copies: a look at one header or query item costs no reference counts.

    public var method: HTTPMethod { _read { yield storage.method } }
    /// The request target as sent (origin-form, absolute-form or `*`).
    public var target: String { _read { yield storage.target } }
    /// The path as sent, without the query (`/loaders/typing/frames`);
    /// `pathSegments` holds it decoded.
    public var path: String {
        guard let bounds = storage.pathBounds else { return "*" }
        if bounds.isEmpty { return "/" }
        let utf8 = target.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: bounds.lowerBound)
        return String(Substring(utf8[start..<utf8.index(start, offsetBy: bounds.count)]))
    }
    /// The decoded path segments (`["loaders", "typing", "frames"]`).
    public var pathSegments: [String] { _read { yield storage.pathSegments } }
    /// Query items in order, percent-decoded, `+` as space.
    public var query: [(name: String, value: String)] { _read { yield storage.query } }
    public var version: HTTPVersion { storage.version }
    public var headers: HTTPHeaders { _read { yield storage.headers } }
    public var body: [UInt8] { _read { yield storage.body } }
    /// Whether the connection stays open after this request (RFC 9112 §9.3).
    public var keepAlive: Bool { storage.keepAlive }

    public init(method: HTTPMethod, target: String, version: HTTPVersion = .http1_1,
                headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) throws(HTTPParseError) {
        let parts = try RequestTarget.parse(target, method: method)
        storage = Storage(method: method, target: target, parts: parts, version: version, headers: headers, body: body)
    }

    /// A request whose target the parser has split already, from its bytes.
    init(method: HTTPMethod, target: String, parts: RequestTarget.Parts, version: HTTPVersion, headers: HTTPHeaders, body: [UInt8]) {
        storage = Storage(method: method, target: target, parts: parts, version: version, headers: headers, body: body)
    }

    /// The media ranges of `Accept` (RFC 9110 §12.5.1), parsed once per
    /// request.
    public var accept: MediaRanges { storage.accept }

    /// The first value of query item `name`.
    public func queryValue(_ name: String) -> String? { query.first { $0.name == name }?.value }

    static func persistent(version: HTTPVersion, headers: HTTPHeaders) -> Bool {
        if headers.contains("connection", token: "close") { return false }
        if version == .http1_1 { return true }
        return headers.contains("connection", token: "keep-alive")
    }
}

/// Why a request could not be parsed, with the status to answer.
public struct HTTPParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public let status: HTTPStatus
    public let message: String

    public init(_ status: HTTPStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    public var description: String { "\(status.code) \(message)" }
}

/// What `Accept` asks for: its media ranges, lower-cased, with their
/// weights (`q`), other parameters dropped; no header (or an empty one)
/// accepts anything. A type's weight is that of the most specific range
/// that matches it (`image/svg+xml`, then `image/*`, then `*/*`), as HTTP
/// says: `application/json;q=0, */*` takes anything but JSON.
public struct MediaRanges: Sendable, Equatable {
    public struct Range: Sendable, Equatable {
        public let name: String
        public let q: Double
    }

    /// Nil when the request has no `Accept`.
    public let ranges: [Range]?
    private static let anything = [Range(name: "*/*", q: 1)]

    public init(_ header: String?) {
        guard let header, !header.trimmingSpaces.isEmpty else {
            ranges = nil
            return
        }
        // What most clients send, without splitting or lower-casing.
        if header == "*/*" {
            ranges = Self.anything
            return
        }
        var out = [Range]()
        for part in header.split(separator: ",") {
            let pieces = part.split(separator: ";").map { $0.trimmingSpaces.lowercased() }
            guard let range = pieces.first, !range.isEmpty else { continue }
            // A weight that is not a number from 0 to 1 counts as 1 (lenient,
            // as before); only a clear 0 excludes.
            let q = pieces.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) }.flatMap { $0 >= 0 && $0 <= 1 ? $0 : nil } ?? 1
            out.append(Range(name: range, q: q))
        }
        ranges = out
    }

    /// The weight of `type` (`image/svg+xml`): that of the most specific
    /// range naming it; 0 when none does (1 with no `Accept`).
    public func quality(_ type: String) -> Double {
        guard let ranges else { return 1 }
        let major = type.split(separator: "/").first.map(String.init) ?? type
        var best: (specificity: Int, q: Double) = (-1, 0)
        for range in ranges {
            let specificity = range.name == type ? 2 : range.name == major + "/*" ? 1 : range.name == "*/*" ? 0 : -1
            // The same range given twice: the higher weight (lenient).
            if specificity > best.specificity || (specificity == best.specificity && specificity >= 0 && range.q > best.q) {
                best = (specificity, range.q)
            }
        }
        return best.q
    }

    /// Whether `type` is acceptable: its weight is above 0.
    public func accepts(_ type: String) -> Bool { quality(type) > 0 }

    /// Whether `type` is named itself (not by a wildcard), with a weight above 0.
    public func names(_ type: String) -> Bool { ranges?.contains { $0.name == type && $0.q > 0 } ?? false }
}
