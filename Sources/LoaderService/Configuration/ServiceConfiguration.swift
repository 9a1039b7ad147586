import EventLoop
import HTTPServer
import LoaderEngine
import LoaderSessions
import Redis

/// The service's settings. Sources, later ones winning: built-in defaults,
/// the embedded `config/loaderd.json`, a `--config` file, `LOADERD_*`
/// environment variables, command-line flags.
public struct ServiceConfiguration: Sendable, Equatable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// Event loops; 0 means one per core.
    public var threads = 0
    public var logLevel = LogLevel.info
    /// One JSON log line per request (at level info).
    public var accessLog = true
    /// Where sessions are journaled; nil keeps them in memory only.
    public var dataDir: String? = nil
    public var maxConnections = 16_384
    /// Open connections of one client address (trusted proxies exempt).
    /// 128: a browser opens 6 per host, and `maxStreamsPerClient` (64)
    /// streams of one address, each a connection, leave as many again for
    /// its other requests; a NAT of many users behind one address should
    /// be listed in `trustedProxies` or raise it.
    public var maxConnectionsPerAddress = 128
    public var maxBodyBytes = 1_048_576
    public var headerTimeoutSeconds = 10.0
    public var idleTimeoutSeconds = 60.0
    /// A stream client that reads nothing for this long is dropped.
    public var streamStallTimeoutSeconds = 30.0
    public var shutdownGraceSeconds = 10.0
    /// Whether `/readyz` answers 503 while the session store cannot be
    /// reached. Off: frames, exports and streams still work, and a shared
    /// Redis down would take every replica out of rotation at once.
    public var readinessFollowsSessionStore = false
    /// Origins allowed to read from browsers; `*` for any (never with credentials).
    public var corsAllowedOrigins = ["*"]
    public var streamDefaultFps = 30
    public var streamRetryMilliseconds = 1000
    public var streamHeartbeatSeconds = 15.0
    public var maxSessions = 100_000
    public var sessionTtlSeconds = 3600.0
    public var maxEventsPerSession = 10_000
    public var maxViewersPerSession = 10_000
    /// The session journal is compacted while running from this size on.
    public var journalCompactBytes = 64 << 20
    /// This replica's name (a DNS label, e.g. the pod's): session ids start
    /// with it and a dot, so a load balancer can send each session's requests
    /// to the replica that holds it. Nil: ids without an owner.
    public var replicaName: String? = nil
    /// `local` (this process, with the journal in `dataDir`),
    /// `redis://[user:password@]host:port[/db]`: sessions in Redis, served
    /// by any replica, or `redis-sentinel://…/<primary-name>`: the same, on
    /// the primary Redis Sentinels name.
    public var sessionStore = "local"
    /// With Redis: each write waits until this many Redis replicas have it.
    public var redisWaitReplicas = 0
    /// A directory of loader definitions (`*.json`), read at start.
    public var loadersDir: String? = nil
    /// Peers (addresses or CIDR ranges) whose `X-Forwarded-For` names the
    /// client in the access log; empty trusts nobody's.
    public var trustedProxies: [String] = []
    /// The work one request may cost, in `maxFrameCost`'s units (a frame's
    /// cost times the frames it asks for).
    public var maxWorkPerRequest = 20_000_000
    /// The work one stream may cost each second: its frame's cost times fps.
    public var maxStreamWorkPerSecond = 1_000_000
    /// Output queued for all clients together; past it, clients that read
    /// nothing are dropped and new heavy answers get 503.
    public var maxBufferedBytes = 128 << 20
    /// Streams open at once: from one client address, and in all.
    public var maxStreamsPerClient = 64
    public var maxStreams = 20_000
    /// Heavy requests (previews, exports being built, costly batches) one
    /// client address may have running at once.
    public var maxHeavyRequestsPerClient = 2
    /// Heavy requests of one client address beyond those that wait, in
    /// order, for one of its places (a page of pictures).
    public var maxHeavyWaitingPerClient = 32
    public var heavyWorkers = 0
    public var heavyWaitSeconds = 5.0
    /// With Redis: a command unanswered for this long fails its request
    /// (503) and the connection is closed and opened again.
    public var redisTimeoutSeconds = 1.0
    /// `POST /sessions` from one client address without `sessionCreateKey`:
    /// sessions a second, after a burst of `sessionCreateBurst`.
    public var sessionCreateRate = 2.0
    public var sessionCreateBurst = 30
    /// When set, a `POST /sessions` that presents it as a bearer token is
    /// not limited by address (its sessions still count in `maxSessions`).
    public var sessionCreateKey: String? = nil
    /// The password of the Redis in `sessionStore`, kept out of the URL (so
    /// it can come from a secret, as LOADERD_REDIS_PASSWORD).
    public var redisPassword: String? = nil
    /// The Sentinels' own password, with a `redis-sentinel://` store (so
    /// it can come from a secret, as LOADERD_REDIS_SENTINEL_PASSWORD).
    public var redisSentinelPassword: String? = nil

    public init() {}

    /// Settings that cannot go together (each alone was accepted).
    public func validate() throws(ConfigurationError) {
        try SessionStoreKind.named(sessionStore)?.validate(self)
    }

    public var sessionLimits: SessionLimits {
        var l = SessionLimits()
        l.maxSessions = maxSessions
        l.ttlSeconds = sessionTtlSeconds
        l.maxEventsPerSession = maxEventsPerSession
        l.maxViewersPerSession = maxViewersPerSession
        l.journalCompactBytes = journalCompactBytes
        return l
    }

    /// The defaults compiled in: each setting's initial value above, which
    /// `config/loaderd.json` writes out (`defaultFile`; a test keeps the
    /// file's bytes equal to it), so a default is stated once.
    public static func embeddedDefault() -> ServiceConfiguration { ServiceConfiguration() }
}

/// A DNS label (RFC 1123): 1 to 63 of a-z, 0-9 and hyphens, not at either end.
func isDNSLabel(_ s: String) -> Bool {
    let bytes = Array(s.utf8)
    guard (1...63).contains(bytes.count), bytes.first != UInt8(ascii: "-"), bytes.last != UInt8(ascii: "-") else { return false }
    return bytes.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "-") }
}

/// A configuration value that cannot be used: start-up stops with exit code 2.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension ServiceConfiguration {
    /// One setting: its name (in the file; `LOADERD_<UPPER_SNAKE>` in the
    /// environment), what it accepts, its flag if it has one, what it means,
    /// and how it is read and set. The file, the environment, the flags,
    /// `--help`, `json()` and the README's table all come from `keys`.
    struct Key: Sendable {
        enum Kind: Sendable, Equatable {
            case string, optionalString, bool, stringList
            /// A string or null that is a secret: never shown, in an error or the log.
            case secret
            /// A numeric IPv4 or IPv6 address to listen on (`localhost` too):
            /// checked when read, so a bad one is a configuration error.
            case host
            /// Addresses or CIDR ranges (`10.0.0.0/8`, `::1`).
            case addressRanges
            /// Null, empty, or a DNS label (lowercase letters, digits, inner hyphens; at most 63).
            case optionalLabel
            /// A value that names a store (`SessionStoreKind`).
            case sessionStore
            case integer(ClosedRange<Int>)
            case seconds(ClosedRange<Double>)
            /// A number that is not a time (a rate).
            case number(ClosedRange<Double>)
            case logLevel
        }

        let name: String
        let kind: Kind
        /// `--port`; nil for settings with no flag.
        let flag: String?
        /// What it does (the README table's last column; `--help` for flags).
        let meaning: String
        let get: @Sendable (ServiceConfiguration) -> Value
        let set: @Sendable (inout ServiceConfiguration, Value) -> Void

        enum Value: Sendable, Equatable {
            case string(String?), bool(Bool), list([String]), integer(Int), number(Double), level(LogLevel)
        }

        /// `LOADERD_` and the name in upper snake case (`maxConnections` → `LOADERD_MAX_CONNECTIONS`).
        var environmentName: String {
            var out = "LOADERD_"
            for c in name {
                if c.isUppercase { out += "_" }
                out += c.uppercased()
            }
            return out
        }

        var form: String {
            switch kind {
            case .string: return "a string"
            case .host: return "a numeric IPv4 or IPv6 address, such as 127.0.0.1, 0.0.0.0, ::1 or ::"
            case .optionalString, .secret: return "a string or null"
            case .optionalLabel: return "null or a DNS label (a-z, 0-9 and inner hyphens, at most 63)"
            case .sessionStore: return SessionStoreKind.all.map(\.form).joined(separator: " or ")
            case .bool: return "true or false"
            case .stringList: return "a list of strings (comma-separated in the environment)"
            case .addressRanges: return "a list of addresses or CIDR ranges such as 10.0.0.0/8 or ::1 (comma-separated in the environment)"
            case .integer(let r): return "an integer from \(r.lowerBound) to \(r.upperBound)"
            case .seconds(let r): return "a number of seconds from \(r.lowerBound) to \(r.upperBound)"
            case .number(let r): return "a number from \(r.lowerBound) to \(r.upperBound)"
            case .logLevel: return "one of " + LogLevel.allCases.map(\.rawValue).joined(separator: ", ")
            }
        }

        typealias Path<T> = WritableKeyPath<ServiceConfiguration, T> & Sendable

        static func integer(_ name: String, _ path: Path<Int>, _ range: ClosedRange<Int>, flag: String? = nil, _ meaning: String) -> Key {
            Key(name: name, kind: .integer(range), flag: flag, meaning: meaning, get: { .integer($0[keyPath: path]) }) { c, v in
                if case .integer(let n) = v { c[keyPath: path] = n }
            }
        }

        static func seconds(_ name: String, _ path: Path<Double>, _ range: ClosedRange<Double>, _ meaning: String) -> Key {
            Key(name: name, kind: .seconds(range), flag: nil, meaning: meaning, get: { .number($0[keyPath: path]) }) { c, v in
                if case .number(let n) = v { c[keyPath: path] = n }
            }
        }

        static func bool(_ name: String, _ path: Path<Bool>, _ meaning: String) -> Key {
            Key(name: name, kind: .bool, flag: nil, meaning: meaning, get: { .bool($0[keyPath: path]) }) { c, v in
                if case .bool(let b) = v { c[keyPath: path] = b }
            }
        }

        /// A string, or null (`kind` .optionalString or .optionalLabel); empty text is null.
        static func optional(_ name: String, _ path: Path<String?>, _ kind: Kind, flag: String? = nil, _ meaning: String) -> Key {
            Key(name: name, kind: kind, flag: flag, meaning: meaning, get: { .string($0[keyPath: path]) }) { c, v in
                if case .string(let s) = v { c[keyPath: path] = s?.isEmpty == true ? nil : s }
            }
        }
    }

    static let keys: [Key] = [
        Key(name: "host", kind: .host, flag: "--host", meaning: "listen address (numeric IPv4 or IPv6)",
            get: { .string($0.host) }) { c, v in if case .string(let s?) = v { c.host = s } },
        .integer("port", \.port, 0...65535, flag: "--port", "listen port"),
        .integer("threads", \.threads, 0...256, flag: "--threads", "event loops; 0 means one per core"),
        Key(name: "logLevel", kind: .logLevel, flag: "--log-level", meaning: "debug, info, warning, error, off",
            get: { .level($0.logLevel) }) { c, v in if case .level(let l) = v { c.logLevel = l } },
        .bool("accessLog", \.accessLog, "a log line per request"),
        .optional("dataDir", \.dataDir, .optionalString, flag: "--data-dir", "where sessions are journaled; null keeps them in memory only"),
        .integer("maxConnections", \.maxConnections, 1...1_000_000,
                 "open connections; at it, a newcomer takes the place of the connection idle longest between requests, and only when none is idle gets 503 and close"),
        .integer("maxConnectionsPerAddress", \.maxConnectionsPerAddress, 1...1_000_000,
                 "open connections of one client address (at most half of maxConnections; trustedProxies are exempt); beyond, 429 and close"),
        .integer("maxBodyBytes", \.maxBodyBytes, 1024...(64 << 20), "larger request bodies get 413"),
        .seconds("headerTimeoutSeconds", \.headerTimeoutSeconds, 0.05...3600, "a request head must arrive within this, else 408"),
        .seconds("idleTimeoutSeconds", \.idleTimeoutSeconds, 0.05...86400, "idle keep-alive connections close after this"),
        .seconds("streamStallTimeoutSeconds", \.streamStallTimeoutSeconds, 0.05...3600, "a client that reads nothing for this long is dropped"),
        .seconds("shutdownGraceSeconds", \.shutdownGraceSeconds, 0...600, "how long the drain at shutdown may last: in-flight work finishes meanwhile, and new requests get 503 shutting_down (docs/DEPLOY.md)"),
        .bool("readinessFollowsSessionStore", \.readinessFollowsSessionStore,
              "whether /readyz answers 503 while the session store cannot be reached; false: 200, naming the store under unavailable (frames, exports and streams still work without it) (docs/DEPLOY.md)"),
        Key(name: "corsAllowedOrigins", kind: .stringList, flag: nil, meaning: "origins that may read (comma-separated in the environment)",
            get: { .list($0.corsAllowedOrigins) }) { c, v in if case .list(let l) = v { c.corsAllowedOrigins = l } },
        .integer("streamDefaultFps", \.streamDefaultFps, 1...120, "fps of streams and batches when not given"),
        .integer("streamRetryMilliseconds", \.streamRetryMilliseconds, 0...3_600_000, "the `retry:` a stream sends first"),
        .seconds("streamHeartbeatSeconds", \.streamHeartbeatSeconds, 0.1...3600, "a comment line this often keeps proxies awake"),
        .integer("maxSessions", \.maxSessions, 1...10_000_000, "live sessions; beyond, `POST /sessions` gets 503"),
        .seconds("sessionTtlSeconds", \.sessionTtlSeconds, 1...31_536_000, "a session without activity for this long expires (410)"),
        .integer("maxEventsPerSession", \.maxEventsPerSession, 1...1_000_000, "beyond, events get 429"),
        .integer("maxViewersPerSession", \.maxViewersPerSession, 1...1_000_000, "beyond, new viewers get 503"),
        .integer("journalCompactBytes", \.journalCompactBytes, 4096...(1 << 40),
                 "the session journal is compacted while running from this size (or twice its last compacted size) on"),
        .optional("replicaName", \.replicaName, .optionalLabel,
                  "this replica's name (a DNS label, e.g. the pod's); session ids start with it and a dot, so a load balancer can route each session to its replica (docs/DEPLOY.md); a session request for another replica's id gets 421"),
        Key(name: "sessionStore", kind: .sessionStore, flag: "--session-store",
            meaning: "where sessions live: local (this process; the journal in dataDir); redis://[user:password@]host:port[/db], where any replica serves any session; or redis-sentinel://[user:password@]host:port[,host:port…]/<primary-name>[/db], the same on the primary Redis Sentinels name, followed through failovers (docs/DEPLOY.md)",
            get: { .string($0.sessionStore) }) { c, v in if case .string(let s?) = v { c.sessionStore = s } },
        .integer("redisWaitReplicas", \.redisWaitReplicas, 0...16, "with Redis: a write is acknowledged once this many Redis replicas have it (WAIT, up to a third of redisTimeoutSeconds); one they do not confirm is answered 503, though the primary may keep it"),
        .optional("loadersDir", \.loadersDir, .optionalString, flag: "--loaders-dir",
                  "a directory of loader definitions (*.json, docs/LOADERS.md) added to the catalogue at start; a bad one stops start-up (exit 2)"),
        Key(name: "trustedProxies", kind: .addressRanges, flag: nil,
            meaning: "proxies (addresses or CIDR ranges) whose X-Forwarded-For names the client in the access log and per-client limits, and whose connections maxConnectionsPerAddress does not bound; empty: every request is logged with its peer's address (docs/SECURITY.md)",
            get: { .list($0.trustedProxies) }) { c, v in if case .list(let l) = v { c.trustedProxies = l } },
        .integer("maxBufferedBytes", \.maxBufferedBytes, (1 << 20)...(1 << 40),
                 "bytes queued for all clients together; beyond, clients that read nothing for a second are dropped (largest first) and new previews, exports and costly batches get 503 with Retry-After"),
        .integer("maxStreamsPerClient", \.maxStreamsPerClient, 1...1_000_000, "streams one client address may have open at once; beyond, 429 with Retry-After"),
        .integer("maxStreams", \.maxStreams, 1...10_000_000, "streams open at once in all; beyond, 503 with Retry-After"),
        .integer("maxWorkPerRequest", \.maxWorkPerRequest, 1000...1_000_000_000,
                 "units of work one request may cost (a frame's cost, docs/LOADERS.md, times its frames): a batch answers the frames that fit and a next link, an export past it gets 400"),
        .integer("maxStreamWorkPerSecond", \.maxStreamWorkPerSecond, 1000...1_000_000_000,
                 "units of work one stream may cost a second (a frame's cost times fps); past it the stream gets 400"),
        .integer("maxHeavyRequestsPerClient", \.maxHeavyRequestsPerClient, 1...1000,
                 "previews, export builds and costly batches one client address may have running at once, never more than heavyWorkers less one (at least one); beyond, they wait (maxHeavyWaitingPerClient)"),
        .integer("maxHeavyWaitingPerClient", \.maxHeavyWaitingPerClient, 0...1000,
                 "previews, export builds and costly batches of one client address that wait, in order, for one of its running places, within heavyWaitSeconds; beyond, 429 with Retry-After"),
        .integer("heavyWorkers", \.heavyWorkers, 0...1024,
                 "previews, export builds and costly batches run at once, off the event loops; 0 means one per core"),
        .seconds("heavyWaitSeconds", \.heavyWaitSeconds, 0.01...600,
                 "a preview, export build or costly batch that waits this long for a worker gets 503 with Retry-After instead"),
        .seconds("redisTimeoutSeconds", \.redisTimeoutSeconds, 0.05...60,
                 "with Redis: a command unanswered this long fails its request with 503, and the connection is opened again"),
        Key(name: "sessionCreateRate", kind: .number(0.001...1_000_000), flag: nil,
            meaning: "sessions a second one client address may create without sessionCreateKey (a token bucket); beyond, 429 with Retry-After",
            get: { .number($0.sessionCreateRate) }) { c, v in if case .number(let n) = v { c.sessionCreateRate = n } },
        .integer("sessionCreateBurst", \.sessionCreateBurst, 1...1_000_000, "sessions one client address may create at once before sessionCreateRate applies"),
        .optional("sessionCreateKey", \.sessionCreateKey, .secret,
                  "a secret: POST /sessions with Authorization: Bearer <it> is not limited by address; null: every client is (docs/SECURITY.md)"),
        .optional("redisPassword", \.redisPassword, .secret,
                  "a secret: the password of the Redis in sessionStore, kept out of its URL (set it from a secret store as LOADERD_REDIS_PASSWORD); never logged"),
        .optional("redisSentinelPassword", \.redisSentinelPassword, .secret,
                  "a secret: the Sentinels' own password, with sessionStore redis-sentinel://… (set it from a secret store as LOADERD_REDIS_SENTINEL_PASSWORD); never logged"),
    ]

    static func key(_ name: String) -> Key? { keys.first { $0.name == name } }

    /// Whether the listener could take `text` (the same parse it uses).
    static func isHost(_ text: String) -> Bool { (try? SocketAddress(host: text, port: 0)) != nil }

    static func isSessionStore(_ text: String) -> Bool { SessionStoreKind.named(text) != nil }

    /// Whether `text` names a session store; if not, the error says why,
    /// in the words of the URL's own parser when it names a scheme of
    /// Redis, and never shows a password.
    static func checkSessionStore(_ text: String, _ what: String, form: String) throws(ConfigurationError) {
        guard !isSessionStore(text) else { return }
        var why: String?
        do {
            if text.hasPrefix("redis-sentinel://") { _ = try RedisSentinelURL(parsing: text) }
            if text.hasPrefix("redis://") { _ = try RedisURL(parsing: text) }
        } catch {
            if case .invalidURL(let message) = error { why = message }
        }
        throw ConfigurationError(what + (why.map { ": \($0)" } ?? " must be \(form), not \"\(RedisURL.redacted(text))\""))
    }

    /// Applies a JSON object of settings; unknown keys and bad values are errors.
    public mutating func apply(json: JSONValue, source: String) throws(ConfigurationError) {
        guard case .object(let fields) = json else { throw ConfigurationError("\(source): the configuration must be a JSON object") }
        for (name, value) in fields {
            guard let key = Self.key(name) else {
                throw ConfigurationError("\(source): unknown key \"\(name)\"; known keys: \(Self.keys.map(\.name).joined(separator: ", "))")
            }
            let shown = key.kind == .secret ? "\(value.typeName) (not shown: a secret)" : Self.shown(value)
            let bad = ConfigurationError("\(source): \(name) must be \(key.form), not \(shown)")
            let parsed: Key.Value
            switch (key.kind, value) {
            case (.string, .string(let s)): parsed = .string(s)
            case (.host, .string(let s)):
                guard Self.isHost(s) else { throw bad }
                parsed = .string(s)
            case (.optionalString, .string(let s)), (.secret, .string(let s)): parsed = .string(s)
            case (.optionalString, .null), (.optionalLabel, .null), (.secret, .null): parsed = .string(nil)
            case (.optionalLabel, .string(let s)):
                guard s.isEmpty || isDNSLabel(s) else { throw bad }
                parsed = .string(s.isEmpty ? nil : s)
            case (.sessionStore, .string(let s)):
                try Self.checkSessionStore(s, "\(source): \(name)", form: key.form)
                parsed = .string(s)
            case (.bool, .bool(let b)): parsed = .bool(b)
            case (.addressRanges, .array(let items)):
                var list = [String]()
                for item in items {
                    guard case .string(let s) = item, AddressRange(s) != nil else { throw bad }
                    list.append(s)
                }
                parsed = .list(list)
            case (.stringList, .array(let items)):
                var list = [String]()
                for item in items {
                    guard case .string(let s) = item else { throw bad }
                    list.append(s)
                }
                parsed = .list(list)
            case (.integer(let range), .number(let n)):
                guard n == n.rounded(), n >= Double(range.lowerBound), n <= Double(range.upperBound) else { throw bad }
                parsed = .integer(Int(n))
            case (.seconds(let range), .number(let n)), (.number(let range), .number(let n)):
                guard range.contains(n) else { throw bad }
                parsed = .number(n)
            case (.logLevel, .string(let s)):
                guard let level = LogLevel(rawValue: s) else { throw bad }
                parsed = .level(level)
            default:
                throw bad
            }
            key.set(&self, parsed)
        }
    }

    /// A value of a config file as an error shows it: a string or number
    /// itself (what to find in the file), anything else by its type.
    static func shown(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): return "\"\(s)\""
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
        default: return value.typeName
        }
    }

    /// Applies one setting given as text (an environment variable or a flag).
    public mutating func apply(name: String, text: String, source: String) throws(ConfigurationError) {
        guard let key = Self.key(name) else { throw ConfigurationError("\(source): unknown setting \(name)") }
        let bad = ConfigurationError("\(source): \(name) must be \(key.form), not \"\(text)\"")
        let parsed: Key.Value
        switch key.kind {
        case .string: parsed = .string(text)
        case .host:
            guard Self.isHost(text) else { throw bad }
            parsed = .string(text)
        case .optionalString, .secret: parsed = .string(text)
        case .optionalLabel:
            guard text.isEmpty || isDNSLabel(text) else { throw bad }
            parsed = .string(text.isEmpty ? nil : text)
        case .sessionStore:
            try Self.checkSessionStore(text, "\(source): \(name)", form: key.form)
            parsed = .string(text)
        case .bool:
            switch text.lowercased() {
            case "true", "1", "yes", "on": parsed = .bool(true)
            case "false", "0", "no", "off": parsed = .bool(false)
            default: throw bad
            }
        case .stringList:
            parsed = .list(text.split(separator: ",").map { String($0.trimmingSpaces) })
        case .addressRanges:
            let list = text.split(separator: ",").map { String($0.trimmingSpaces) }
            guard list.allSatisfy({ AddressRange($0) != nil }) else { throw bad }
            parsed = .list(list)
        case .integer(let range):
            guard let n = Int(text), range.contains(n) else { throw bad }
            parsed = .integer(n)
        case .seconds(let range), .number(let range):
            guard let n = Double(text), n.isFinite, range.contains(n) else { throw bad }
            parsed = .number(n)
        case .logLevel:
            guard let level = LogLevel(rawValue: text) else { throw bad }
            parsed = .level(level)
        }
        key.set(&self, parsed)
    }

    /// Applies every `LOADERD_*` variable that names a setting; any other
    /// `LOADERD_*` variable is an error (a typo would otherwise pass silently).
    public mutating func apply(environment: [String: String]) throws(ConfigurationError) {
        let byEnvironment = Dictionary(uniqueKeysWithValues: Self.keys.map { ($0.environmentName, $0) })
        for (variable, value) in environment.sorted(by: { $0.key < $1.key }) where variable.hasPrefix("LOADERD_") {
            if variable == "LOADERD_CONFIG" { continue }
            guard let key = byEnvironment[variable] else {
                throw ConfigurationError("environment: unknown variable \(variable); unset it, or name a setting (loaderd --help lists each one's LOADERD_ variable)")
            }
            try apply(name: key.name, text: value, source: "environment \(variable)")
        }
    }

    /// The settings as a JSON object (the documented default file has this shape).
    public func json() -> [UInt8] {
        var w = LoaderEngine.JSONWriter(capacity: 1024)
        w.beginObject()
        for key in Self.keys {
            w.key(key.name)
            Self.write(key.get(self), &w)
        }
        w.endObject()
        return w.bytes
    }

    static func write(_ value: Key.Value, _ w: inout LoaderEngine.JSONWriter) {
        switch value {
        case .string(let s?): w.value(s)
        case .string(nil): w.null()
        case .bool(let b): w.value(b)
        case .integer(let n): w.value(n)
        case .number(let n): w.value(n)
        case .level(let l): w.value(l.rawValue)
        case .list(let items):
            w.beginArray()
            for item in items { w.value(item) }
            w.endArray()
        }
    }

    /// `config/loaderd.json` as it must read: every setting in the table's
    /// order with its default, one a line.
    static func defaultFile() -> String {
        let defaults = ServiceConfiguration()
        let lines = keys.map { key in
            var w = LoaderEngine.JSONWriter(capacity: 64)
            write(key.get(defaults), &w)
            return "  \"\(key.name)\": " + String(decoding: w.bytes, as: UTF8.self)
        }
        return "{\n" + lines.joined(separator: ",\n") + "\n}\n"
    }

    /// A value as the docs show it: strings bare, the rest as in JSON.
    static func text(_ value: Key.Value) -> String {
        switch value {
        case .string(let s?): return s
        case .level(let l): return l.rawValue
        default:
            var w = LoaderEngine.JSONWriter(capacity: 64)
            write(value, &w)
            return String(decoding: w.bytes, as: UTF8.self)
        }
    }

    /// The README's table of settings, with the embedded defaults.
    static func markdownTable() -> String {
        let defaults = embeddedDefault()
        var out = "| key | environment | flag | default | meaning |\n|---|---|---|---|---|\n"
        for key in keys {
            out += "| \(key.name) | \(key.environmentName) |\(key.flag.map { " \($0) " } ?? " ")| \(text(key.get(defaults))) | \(key.meaning) |\n"
        }
        return out
    }

    /// The flags' lines of `--help`.
    static func flagHelp() -> String {
        let defaults = embeddedDefault()
        var out = ""
        for key in keys {
            guard let flag = key.flag else { continue }
            let value = key.get(defaults) == .string(nil) ? "none" : text(key.get(defaults))
            let left = "  \(flag) \(key.name.uppercased())"
            out += left + String(repeating: " ", count: max(1, 26 - left.count)) + "\(key.meaning) (default \(value)); also \(key.environmentName)\n"
        }
        return out
    }
}

extension ServiceConfiguration {
    /// The start log's account of the effective settings: the config file
    /// read, the data directory, the session store (its URL without a
    /// password), then every other setting that differs from its default,
    /// under its name. A secret appears only as `(set)`.
    public func effectiveFields(configFile: String?) -> [(String, LogField)] {
        var fields: [(String, LogField)] = [
            ("configFile", .string(configFile ?? "none (embedded defaults)")),
            ("dataDir", .string(dataDir ?? (sessionStore == "local" ? "none (sessions in memory only)" : "none"))),
            ("sessionStore", .string(RedisURL.redacted(sessionStore))),
        ]
        let defaults = Self.embeddedDefault()
        for key in Self.keys where key.name != "dataDir" && key.name != "sessionStore" {
            let value = key.get(self)
            guard value != key.get(defaults) else { continue }
            if key.kind == .secret {
                fields.append((key.name, .string(value == .string(nil) ? "(unset)" : "(set)")))
                continue
            }
            switch value {
            case .integer(let n): fields.append((key.name, .int(n)))
            case .number(let n): fields.append((key.name, .double(n)))
            case .bool(let b): fields.append((key.name, .bool(b)))
            case .string(nil): fields.append((key.name, .string("null")))
            default: fields.append((key.name, .string(Self.text(value))))
            }
        }
        return fields
    }
}
