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
public struct HTTPRequest: Sendable {
    public let method: HTTPMethod
    /// The request target as sent (origin-form, absolute-form or `*`).
    public let target: String
    /// The path, percent-decoded per segment (`/loaders/typing/frames`).
    public let path: String
    /// The decoded path segments (`["loaders", "typing", "frames"]`).
    public let pathSegments: [String]
    /// Query items in order, percent-decoded, `+` as space.
    public let query: [(name: String, value: String)]
    public let version: HTTPVersion
    public let headers: HTTPHeaders
    public let body: [UInt8]
    /// Whether the connection stays open after this request (RFC 9112 §9.3).
    public let keepAlive: Bool

    public init(method: HTTPMethod, target: String, version: HTTPVersion = .http1_1,
                headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) throws(HTTPParseError) {
        let parts = try RequestTarget.parse(target, method: method)
        self.method = method
        self.target = target
        self.path = parts.path
        self.pathSegments = parts.segments
        self.query = parts.query
        self.version = version
        self.headers = headers
        self.body = body
        self.keepAlive = HTTPRequest.persistent(version: version, headers: headers)
    }

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
