/// Where a Redis server is: `redis://[user:password@]host:port[/db]`.
public struct RedisURL: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var user: String?
    public var password: String?
    public var database: Int

    public init(host: String, port: Int = 6379, user: String? = nil, password: String? = nil, database: Int = 0) {
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.database = database
    }

    /// Parses the URL; the message of a failure says what is accepted.
    public init(parsing text: String) throws(RedisError) {
        let form = "redis://[user:password@]host:port[/db]"
        let shown = Self.redacted(text)
        guard text.hasPrefix("redis://") else { throw .invalidURL("\(shown) is not \(form)") }
        var rest = Substring(text.dropFirst("redis://".count))
        var database = 0
        if let slash = rest.firstIndex(of: "/") {
            let db = rest[rest.index(after: slash)...]
            guard let n = RedisURL.decimal(db), n >= 0, n < 1 << 16 else { throw .invalidURL("the database in \(shown) must be a number: \(form)") }
            database = n
            rest = rest[..<slash]
        }
        let (user, password, after) = Self.credentials(rest)
        rest = after
        // host:port, where an IPv6 host is in brackets.
        guard let colon = rest.lastIndex(of: ":"), let port = RedisURL.decimal(rest[rest.index(after: colon)...]), (1...65535).contains(port) else {
            throw .invalidURL("\(shown) needs a port from 1 to 65535: \(form)")
        }
        var host = String(rest[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw .invalidURL("\(shown) needs a host: \(form)") }
        self.init(host: host, port: port, user: user, password: password, database: database)
    }

    /// A number of 1 to 9 decimal digits, nothing else (no sign, no
    /// space): a port, a database.
    static func decimal(_ text: Substring) -> Int? {
        guard (1...9).contains(text.utf8.count), text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text)
    }

    /// `text` with what may be a password hidden, for messages: all
    /// between `://` and the last `@`.
    public static func redacted(_ text: String) -> String {
        // A query is not part of the form, but some clients put a password
        // there (`?password=`): it is never shown either. Credentials go
        // first, since a password may hold a `?`.
        func withoutQuery(_ rest: Substring) -> Substring { rest.firstIndex(of: "?").map { rest[..<$0] + "?…" } ?? rest }
        guard let at = text.lastIndex(of: "@") else { return String(withoutQuery(text[...])) }
        let scheme = text.firstRange(of: "://").map { text[..<$0.upperBound] } ?? ""
        return scheme + "***" + withoutQuery(text[at...])
    }

    /// `[user:password@]rest`, split at the last `@` (a password may hold
    /// one): the user (nil when empty), the password, and the rest.
    static func credentials(_ text: Substring) -> (user: String?, password: String?, rest: Substring) {
        guard let at = text.lastIndex(of: "@") else { return (nil, nil, text) }
        let credentials = text[..<at]
        let rest = text[text.index(after: at)...]
        guard let colon = credentials.firstIndex(of: ":") else { return (nil, String(credentials), rest) }
        let user = credentials[..<colon]
        return (user.isEmpty ? nil : String(user), String(credentials[credentials.index(after: colon)...]), rest)
    }

    /// The URL without its password.
    public var description: String {
        let credentials = password == nil ? "" : "\(user ?? ""):***@"
        let h = host.contains(":") ? "[\(host)]" : host
        return "redis://\(credentials)\(h):\(port)" + (database == 0 ? "" : "/\(database)")
    }
}

/// Why a Redis command got no reply of its own.
public enum RedisError: Error, Sendable, Equatable {
    /// Not connected (connecting, or waiting to reconnect), or the
    /// connection was lost before the reply came: the outcome of a write
    /// in flight is unknown.
    case unavailable(String)
    /// The server answered with an error reply (`-ERR …`), read into its kind.
    case reply(RedisErrorReply)
    case invalidURL(String)

    /// What happened, in words (for logs and other errors).
    public var message: String {
        switch self {
        case .unavailable(let why), .invalidURL(let why): return why
        case .reply(let error): return error.message
        }
    }
}
