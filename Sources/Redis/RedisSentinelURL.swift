/// A Redis server's address: a host (a name, or a numeric address) and a port.
public struct RedisAddress: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// `host:port`, an IPv6 host in brackets.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Parses `host:port` (an IPv6 host in brackets); nil unless the port
    /// is 1…65535 and the host is not empty.
    init?(parsing text: Substring) {
        guard let colon = text.lastIndex(of: ":"), let port = RedisURL.decimal(text[text.index(after: colon)...]), (1...65535).contains(port) else { return nil }
        var host = text[..<colon]
        if host.hasPrefix("[") && host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty, !host.contains(where: { $0 == "[" || $0 == "]" || $0 == "@" || $0 == "/" || $0.isWhitespace }) else { return nil }
        self.init(host: String(host), port: port)
    }
}

/// Where Sentinels say a primary is:
/// `redis-sentinel://[user:password@]host:port[,host:port…]/<primary-name>[/db]`.
/// The user and password are the Redis servers' (the primary's and its
/// replicas'); the Sentinels' own password is a setting of its own.
public struct RedisSentinelURL: Sendable, Equatable, CustomStringConvertible {
    public var sentinels: [RedisAddress]
    /// The name the Sentinels monitor the primary by.
    public var primaryName: String
    public var user: String?
    public var password: String?
    public var database: Int

    /// More would be a typo, not a deployment: Sentinels are asked in turn.
    public static let maxSentinels = 16
    static let form = "redis-sentinel://[user:password@]host:port[,host:port…]/<primary-name>[/db]"

    public init(sentinels: [RedisAddress], primaryName: String, user: String? = nil, password: String? = nil, database: Int = 0) {
        self.sentinels = sentinels
        self.primaryName = primaryName
        self.user = user
        self.password = password
        self.database = database
    }

    /// Parses the URL (one pass over it); the message of a failure says
    /// what is accepted.
    public init(parsing text: String) throws(RedisError) {
        let form = Self.form
        guard text.hasPrefix("redis-sentinel://") else { throw .invalidURL("\(Self.redacted(text)) is not \(form)") }
        let (user, password, rest) = RedisURL.credentials(Substring(text.dropFirst("redis-sentinel://".count)))
        guard let slash = rest.firstIndex(of: "/") else { throw .invalidURL("\(Self.redacted(text)) names no primary: \(form)") }
        let hosts = rest[..<slash]
        var path = rest[rest.index(after: slash)...]
        var database = 0
        if let second = path.firstIndex(of: "/") {
            guard let n = RedisURL.decimal(path[path.index(after: second)...]), n >= 0, n < 1 << 16 else {
                throw .invalidURL("the database in \(Self.redacted(text)) must be a number: \(form)")
            }
            database = n
            path = path[..<second]
        }
        guard !path.isEmpty, !path.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } ?? false }) else {
            throw .invalidURL("\(Self.redacted(text)) needs the primary's name, as the Sentinels monitor it: \(form)")
        }
        var sentinels: [RedisAddress] = []
        for part in hosts.split(separator: ",", omittingEmptySubsequences: false) {
            guard let address = RedisAddress(parsing: part) else {
                throw .invalidURL("\(Self.redacted(text)): each Sentinel is host:port, with a port from 1 to 65535: \(form)")
            }
            sentinels.append(address)
            guard sentinels.count <= Self.maxSentinels else { throw .invalidURL("\(Self.redacted(text)) lists more than \(Self.maxSentinels) Sentinels") }
        }
        self.init(sentinels: sentinels, primaryName: String(path), user: user, password: password, database: database)
    }

    /// A server of this deployment at `address`, with the URL's user,
    /// password and database.
    public func server(_ address: RedisAddress) -> RedisURL {
        RedisURL(host: address.host, port: address.port, user: user, password: password, database: database)
    }

    /// The URL without its password.
    public var description: String {
        let credentials = password == nil ? "" : "\(user ?? ""):***@"
        return "redis-sentinel://\(credentials)\(sentinels.map(\.description).joined(separator: ","))/\(primaryName)" + (database == 0 ? "" : "/\(database)")
    }

    private static func redacted(_ text: String) -> String { RedisURL.redacted(text) }
}
