/// An error reply of Redis (`-NOSCRIPT …`, `-ERR …`), read once where it
/// arrives: the kinds a caller acts on are cases, never matched as text
/// further in.
public struct RedisErrorReply: Error, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// `NOSCRIPT`: EVALSHA named a script this server does not keep (a
        /// new or restarted Redis); sent whole, it runs.
        case noScript
        /// `READONLY`, `LOADING`, `MASTERDOWN`: this server is not the
        /// primary now, and did not run the command. (Not NOREPLICAS: the
        /// primary itself says that while its replicas lag, and looking for
        /// another would only reconnect to it, again and again.)
        case notPrimary
        /// `WRONGTYPE`: a key holds another kind of value.
        case wrongType
        /// Any other: a script's own error (`redis.error_reply`), or a
        /// command's (`ERR …`); `code` says which.
        case other
    }

    public let kind: Kind
    /// As Redis sent it, for logs.
    public let message: String

    public init(_ message: String) {
        self.message = message
        let word = message.prefix { $0 != " " }
        switch word {
        case "NOSCRIPT": kind = .noScript
        case "READONLY", "LOADING", "MASTERDOWN": kind = .notPrimary
        case "WRONGTYPE": kind = .wrongType
        default: kind = .other
        }
    }

    /// The error's code: a script's (`not_found`) is its whole text, which
    /// Redis may give after `ERR `; another's is its first word (`NOSCRIPT`).
    public var code: String { message.hasPrefix("ERR ") ? String(message.dropFirst(4)) : message }

    /// The word that names it (`READONLY`).
    public var word: String { String(message.prefix { $0 != " " }) }
}
