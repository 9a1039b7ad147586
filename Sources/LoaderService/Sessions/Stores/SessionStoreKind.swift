import LoaderEngine

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
