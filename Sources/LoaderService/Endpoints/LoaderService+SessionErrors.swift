import HTTPServer

extension LoaderService {
    /// Runs a store operation; its `SessionError` becomes the API's answer.
    func session<T>(_ operation: () throws(SessionError) -> T) throws(ServiceError) -> T {
        do { return try operation() } catch { throw ServiceError(error) }
    }
}

extension ServiceError {
    /// The status, code and message of each way a session operation fails.
    init(_ error: SessionError) {
        switch error {
        case .notFound(let id):
            self = .notFound("no session \(id)")
        case .expired(let id, let ttl):
            self.init(.gone, "session_expired", "session \(id) expired after \(Int(ttl)) s without activity")
        case .misdirected(let id, let owner, let replica):
            self.init(.misdirectedRequest, "misdirected_request",
                      "session \(id) belongs to replica \(owner), not \(replica); route /sessions/<replica>.… to that replica (docs/DEPLOY.md)")
        case .unauthorized:
            self.init(.unauthorized, "unauthorized", "a valid Authorization: Bearer <token> for this session is required")
        case .tooManySessions(let limit):
            self.init(.serviceUnavailable, "too_many_sessions", "the session limit (\(limit)) is reached; try again later")
        case .tooManyViewers(let limit):
            self.init(.serviceUnavailable, "too_many_viewers", "a session has at most \(limit) viewers")
        case .tooManyEvents(let limit):
            self.init(.tooManyRequests, "too_many_events", "a session takes at most \(limit) events")
        case .eventNotAccepted(let kind, let loader, let accepted):
            self = .invalid("\(kind.rawValue) is not an event of \(loader) sessions; they take \(accepted.joined(separator: ", "))")
        case .done:
            self.init(.conflict, "session_done", "the session is done; it takes no more events")
        case .finished:
            self.init(.conflict, "session_finished", "the session has finished loading; only stop is accepted")
        case .invalidParameter(let name):
            self = .invalid("params.\(name) must be a string or a number")
        case .unavailable(let reason):
            self.init(.serviceUnavailable, "sessions_unavailable", "sessions are unavailable right now: \(reason)")
            headers.add("Retry-After", "1")
        }
    }
}
