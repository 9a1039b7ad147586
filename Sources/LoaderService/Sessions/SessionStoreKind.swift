import LoaderEngine
import LoaderSessions
import Redis

/// A kind of session store, chosen by the value of `sessionStore`. Adding a
/// store is its own file (the store, and its kind beside it) and one line
/// in `all`: the setting's accepted form, its checks and start-up follow.
public struct SessionStoreKind: Sendable {
    /// How `sessionStore` names it (`local`, `redis://host:port`).
    let form: String
    /// Whether a value of `sessionStore` names a store of this kind.
    let names: @Sendable (String) -> Bool
    /// Settings that cannot go with this store (each alone was accepted).
    let validate: @Sendable (ServiceConfiguration) throws(ConfigurationError) -> Void
    /// The store of a valid configuration: opened, and ready to `start` on
    /// the server's loops.
    let open: @Sendable (ServiceConfiguration, LoaderCatalog, Logger, WallClock) throws(ConfigurationError) -> any SessionStore

    /// Every kind of store, in the order the setting's form names them.
    static let all: [SessionStoreKind] = [.local, .redis, .redisSentinel]

    /// The kind `value` names, if any.
    static func named(_ value: String) -> SessionStoreKind? { all.first { $0.names(value) } }
}

extension ServiceConfiguration {
    /// The session store `sessionStore` names, opened (a journal replayed).
    public func openSessionStore(catalog: LoaderCatalog, logger: Logger, clock: WallClock = .system) throws(ConfigurationError) -> any SessionStore {
        guard let kind = SessionStoreKind.named(sessionStore) else {
            throw ConfigurationError("sessionStore must be \(SessionStoreKind.all.map(\.form).joined(separator: " or "))")
        }
        try kind.validate(self)
        return try kind.open(self, catalog, logger, clock)
    }
}

extension SessionStoreKind {
    /// `local`: this process's memory, with the journal in `dataDir`.
    static let local = SessionStoreKind(
        form: "local",
        names: { $0 == "local" },
        validate: { c throws(ConfigurationError) in
            if c.redisPassword != nil {
                throw ConfigurationError("redisPassword is for a sessionStore in Redis (redis://host:port); with the local store, leave it null")
            }
            if c.redisSentinelPassword != nil {
                throw ConfigurationError("redisSentinelPassword is for a sessionStore behind Sentinels (redis-sentinel://…); with the local store, leave it null")
            }
        },
        open: { c, catalog, logger, clock throws(ConfigurationError) in
            do {
                return try LocalSessionStore(limits: c.sessionLimits, catalog: catalog, dataDirectory: c.dataDir,
                                             replicaName: c.replicaName, logger: logger, clock: clock)
            } catch {
                throw ConfigurationError("dataDir: \(error); give this user a directory it can write (--data-dir, LOADERD_DATA_DIR)")
            }
        })
}

extension SessionStoreKind {
    /// `redis://[user:password@]host:port[/db]`: sessions in Redis, served
    /// by any replica.
    static let redis = SessionStoreKind(
        form: "redis://[user:password@]host:port[/db]",
        names: { (try? RedisURL(parsing: $0)) != nil },
        validate: { c throws(ConfigurationError) in
            let url = try? RedisURL(parsing: c.sessionStore)
            try validateRedis(c, name: url?.description ?? "redis", passwordInURL: url?.password != nil)
            if c.redisSentinelPassword != nil {
                throw ConfigurationError("redisSentinelPassword is for a sessionStore behind Sentinels (redis-sentinel://…); with \(url?.description ?? "redis"), leave it null")
            }
        },
        open: { c, catalog, logger, clock throws(ConfigurationError) in
            guard let url = c.redisURL else { throw ConfigurationError("sessionStore is not a redis:// URL") }
            return RedisSessionStore(url: url, limits: c.sessionLimits, catalog: catalog, logger: logger,
                                     waitReplicas: c.redisWaitReplicas, commandTimeout: c.redisTimeoutSeconds, clock: clock)
        })

    /// `redis-sentinel://[user:password@]host:port[,host:port…]/<primary-name>[/db]`:
    /// sessions in Redis, on the primary the Sentinels name, followed
    /// through failovers.
    static let redisSentinel = SessionStoreKind(
        form: "redis-sentinel://[user:password@]host:port[,host:port…]/<primary-name>[/db]",
        names: { (try? RedisSentinelURL(parsing: $0)) != nil },
        validate: { c throws(ConfigurationError) in
            let url = try? RedisSentinelURL(parsing: c.sessionStore)
            try validateRedis(c, name: url?.description ?? "redis-sentinel", passwordInURL: url?.password != nil)
        },
        open: { c, catalog, logger, clock throws(ConfigurationError) in
            guard var url = try? RedisSentinelURL(parsing: c.sessionStore) else { throw ConfigurationError("sessionStore is not a redis-sentinel:// URL") }
            if let redisPassword = c.redisPassword { url.password = redisPassword }
            let sentinel = RedisSentinel(url: url, sentinelPassword: c.redisSentinelPassword, timeout: c.redisTimeoutSeconds)
            // The host is the Sentinels' to say: the first of them stands in until they do.
            return RedisSessionStore(url: url.server(url.sentinels[0]), sentinel: sentinel, limits: c.sessionLimits, catalog: catalog,
                                     logger: logger, waitReplicas: c.redisWaitReplicas, commandTimeout: c.redisTimeoutSeconds, clock: clock)
        })

    /// What no store in Redis takes.
    private static func validateRedis(_ c: ServiceConfiguration, name store: String, passwordInURL: Bool) throws(ConfigurationError) {
        if c.redisPassword != nil, passwordInURL {
            throw ConfigurationError("the Redis password is given twice, in sessionStore and in redisPassword: keep redisPassword, and leave it out of the URL")
        }
        if c.dataDir != nil {
            throw ConfigurationError("dataDir is for the local session store; with sessionStore \(store) the sessions are in Redis: leave dataDir null")
        }
        if c.replicaName != nil {
            throw ConfigurationError("replicaName routes sessions to the replica that holds them; with sessionStore \(store) every replica serves every session: leave replicaName null")
        }
    }
}

extension ServiceConfiguration {
    /// The Redis of `sessionStore`, with `redisPassword`; nil for another store.
    public var redisURL: RedisURL? {
        guard var url = try? RedisURL(parsing: sessionStore) else { return nil }
        if let redisPassword { url.password = redisPassword }
        return url
    }
}
