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
    public var maxBodyBytes = 1_048_576
    public var headerTimeoutSeconds = 10.0
    public var idleTimeoutSeconds = 60.0
    /// A stream client that reads nothing for this long is dropped.
    public var streamStallTimeoutSeconds = 30.0
    public var shutdownGraceSeconds = 10.0
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

    public init() {}

    public var sessionLimits: SessionLimits {
        var l = SessionLimits()
        l.maxSessions = maxSessions
        l.ttlSeconds = sessionTtlSeconds
        l.maxEventsPerSession = maxEventsPerSession
        l.maxViewersPerSession = maxViewersPerSession
        l.journalCompactBytes = journalCompactBytes
        return l
    }

    /// Built-in defaults overlaid with the embedded default file.
    public static func embeddedDefault() -> ServiceConfiguration {
        var c = ServiceConfiguration()
        // The embedded file is checked by the tests; it cannot fail here.
        try! c.apply(json: try! JSONValue.parse(embeddedConfigJSON), source: "embedded config")
        return c
    }
}

public enum LogLevel: String, Sendable, Comparable, CaseIterable {
    case debug, info, warning, error, off

    var rank: Int { Self.allCases.firstIndex(of: self)! }
    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rank < b.rank }
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
    /// How one setting is read from JSON and from text (environment, flags).
    struct Key: Sendable {
        enum Kind: Sendable {
            case string, optionalString, bool, stringList
            /// Null, empty, or a DNS label (lowercase letters, digits, inner hyphens; at most 63).
            case optionalLabel
            case integer(ClosedRange<Int>)
            case seconds(ClosedRange<Double>)
            case logLevel
        }

        let name: String
        let kind: Kind
        let set: @Sendable (inout ServiceConfiguration, Value) -> Void

        enum Value: Sendable {
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
            case .optionalString: return "a string or null"
            case .optionalLabel: return "null or a DNS label (a-z, 0-9 and inner hyphens, at most 63)"
            case .bool: return "true or false"
            case .stringList: return "a list of strings (comma-separated in the environment)"
            case .integer(let r): return "an integer from \(r.lowerBound) to \(r.upperBound)"
            case .seconds(let r): return "a number of seconds from \(r.lowerBound) to \(r.upperBound)"
            case .logLevel: return "one of " + LogLevel.allCases.map(\.rawValue).joined(separator: ", ")
            }
        }
    }

    static let keys: [Key] = [
        Key(name: "host", kind: .string) { c, v in if case .string(let s?) = v { c.host = s } },
        Key(name: "port", kind: .integer(0...65535)) { c, v in if case .integer(let n) = v { c.port = n } },
        Key(name: "threads", kind: .integer(0...256)) { c, v in if case .integer(let n) = v { c.threads = n } },
        Key(name: "logLevel", kind: .logLevel) { c, v in if case .level(let l) = v { c.logLevel = l } },
        Key(name: "accessLog", kind: .bool) { c, v in if case .bool(let b) = v { c.accessLog = b } },
        Key(name: "dataDir", kind: .optionalString) { c, v in if case .string(let s) = v { c.dataDir = s?.isEmpty == true ? nil : s } },
        Key(name: "maxConnections", kind: .integer(1...1_000_000)) { c, v in if case .integer(let n) = v { c.maxConnections = n } },
        Key(name: "maxBodyBytes", kind: .integer(1024...(64 << 20))) { c, v in if case .integer(let n) = v { c.maxBodyBytes = n } },
        Key(name: "headerTimeoutSeconds", kind: .seconds(0.05...3600)) { c, v in if case .number(let n) = v { c.headerTimeoutSeconds = n } },
        Key(name: "idleTimeoutSeconds", kind: .seconds(0.05...86400)) { c, v in if case .number(let n) = v { c.idleTimeoutSeconds = n } },
        Key(name: "streamStallTimeoutSeconds", kind: .seconds(0.05...3600)) { c, v in if case .number(let n) = v { c.streamStallTimeoutSeconds = n } },
        Key(name: "shutdownGraceSeconds", kind: .seconds(0...600)) { c, v in if case .number(let n) = v { c.shutdownGraceSeconds = n } },
        Key(name: "corsAllowedOrigins", kind: .stringList) { c, v in if case .list(let l) = v { c.corsAllowedOrigins = l } },
        Key(name: "streamDefaultFps", kind: .integer(1...120)) { c, v in if case .integer(let n) = v { c.streamDefaultFps = n } },
        Key(name: "streamRetryMilliseconds", kind: .integer(0...3_600_000)) { c, v in if case .integer(let n) = v { c.streamRetryMilliseconds = n } },
        Key(name: "streamHeartbeatSeconds", kind: .seconds(0.1...3600)) { c, v in if case .number(let n) = v { c.streamHeartbeatSeconds = n } },
        Key(name: "maxSessions", kind: .integer(1...10_000_000)) { c, v in if case .integer(let n) = v { c.maxSessions = n } },
        Key(name: "sessionTtlSeconds", kind: .seconds(1...31_536_000)) { c, v in if case .number(let n) = v { c.sessionTtlSeconds = n } },
        Key(name: "maxEventsPerSession", kind: .integer(1...1_000_000)) { c, v in if case .integer(let n) = v { c.maxEventsPerSession = n } },
        Key(name: "maxViewersPerSession", kind: .integer(1...1_000_000)) { c, v in if case .integer(let n) = v { c.maxViewersPerSession = n } },
        Key(name: "journalCompactBytes", kind: .integer(4096...(1 << 40))) { c, v in if case .integer(let n) = v { c.journalCompactBytes = n } },
        Key(name: "replicaName", kind: .optionalLabel) { c, v in if case .string(let s) = v { c.replicaName = s } },
    ]

    static func key(_ name: String) -> Key? { keys.first { $0.name == name } }

    /// Applies a JSON object of settings; unknown keys and bad values are errors.
    public mutating func apply(json: JSONValue, source: String) throws(ConfigurationError) {
        guard case .object(let fields) = json else { throw ConfigurationError("\(source): the configuration must be a JSON object") }
        for (name, value) in fields {
            guard let key = Self.key(name) else {
                throw ConfigurationError("\(source): unknown key \"\(name)\"; known keys: \(Self.keys.map(\.name).joined(separator: ", "))")
            }
            let bad = ConfigurationError("\(source): \(name) must be \(key.form), not \(value.typeName == "a string" ? "\(value)" : value.typeName)")
            let parsed: Key.Value
            switch (key.kind, value) {
            case (.string, .string(let s)): parsed = .string(s)
            case (.optionalString, .string(let s)): parsed = .string(s)
            case (.optionalString, .null), (.optionalLabel, .null): parsed = .string(nil)
            case (.optionalLabel, .string(let s)):
                guard s.isEmpty || isDNSLabel(s) else { throw bad }
                parsed = .string(s.isEmpty ? nil : s)
            case (.bool, .bool(let b)): parsed = .bool(b)
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
            case (.seconds(let range), .number(let n)):
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

    /// Applies one setting given as text (an environment variable or a flag).
    public mutating func apply(name: String, text: String, source: String) throws(ConfigurationError) {
        guard let key = Self.key(name) else { throw ConfigurationError("\(source): unknown setting \(name)") }
        let bad = ConfigurationError("\(source): \(name) must be \(key.form), not \"\(text)\"")
        let parsed: Key.Value
        switch key.kind {
        case .string: parsed = .string(text)
        case .optionalString: parsed = .string(text)
        case .optionalLabel:
            guard text.isEmpty || isDNSLabel(text) else { throw bad }
            parsed = .string(text.isEmpty ? nil : text)
        case .bool:
            switch text.lowercased() {
            case "true", "1", "yes", "on": parsed = .bool(true)
            case "false", "0", "no", "off": parsed = .bool(false)
            default: throw bad
            }
        case .stringList:
            parsed = .list(text.split(separator: ",").map { String($0.trimmingSpaces) })
        case .integer(let range):
            guard let n = Int(text), range.contains(n) else { throw bad }
            parsed = .integer(n)
        case .seconds(let range):
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
                throw ConfigurationError("environment: unknown variable \(variable)")
            }
            try apply(name: key.name, text: value, source: "environment \(variable)")
        }
    }

    /// The settings as a JSON object (the documented default file has this shape).
    public func json() -> [UInt8] {
        var w = LoaderEngine.JSONWriter(capacity: 1024)
        w.beginObject()
        w.field("host", host)
        w.field("port", port)
        w.field("threads", threads)
        w.field("logLevel", logLevel.rawValue)
        w.field("accessLog", accessLog)
        w.key("dataDir")
        if let dataDir { w.value(dataDir) } else { w.null() }
        w.field("maxConnections", maxConnections)
        w.field("maxBodyBytes", maxBodyBytes)
        w.field("headerTimeoutSeconds", headerTimeoutSeconds)
        w.field("idleTimeoutSeconds", idleTimeoutSeconds)
        w.field("streamStallTimeoutSeconds", streamStallTimeoutSeconds)
        w.field("shutdownGraceSeconds", shutdownGraceSeconds)
        w.key("corsAllowedOrigins")
        w.beginArray()
        for origin in corsAllowedOrigins { w.value(origin) }
        w.endArray()
        w.field("streamDefaultFps", streamDefaultFps)
        w.field("streamRetryMilliseconds", streamRetryMilliseconds)
        w.field("streamHeartbeatSeconds", streamHeartbeatSeconds)
        w.field("maxSessions", maxSessions)
        w.field("sessionTtlSeconds", sessionTtlSeconds)
        w.field("maxEventsPerSession", maxEventsPerSession)
        w.field("maxViewersPerSession", maxViewersPerSession)
        w.field("journalCompactBytes", journalCompactBytes)
        if let replicaName { w.field("replicaName", replicaName) } else { w.key("replicaName"); w.null() }
        w.endObject()
        return w.bytes
    }
}

import HTTPServer
import LoaderEngine
