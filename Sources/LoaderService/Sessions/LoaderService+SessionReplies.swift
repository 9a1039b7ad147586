import HTTPServer
import LoaderEngine
import LoaderSessions

extension LoaderService {
    /// The answer to a store operation: made from its reply at once when the
    /// reply comes before the operation returns (the local store's reads),
    /// else a deferred answer made when it comes. A `SessionError` becomes
    /// its status; `respond` may itself answer with another operation's
    /// answer (authorize, then post).
    func answer<T: Sendable>(_ operation: (@escaping SessionReply<T>) -> Void,
                             _ respond: @escaping @Sendable (T) throws -> HTTPResponse) -> HTTPResponse {
        let reply = Outcome<Result<T, SessionError>>()
        operation { reply.complete($0) }
        let logger = logger
        let render: @Sendable (Result<T, SessionError>) -> HTTPResponse = { result in
            switch result {
            case .success(let value):
                do { return try respond(value) } catch { return ServiceError(answering: error).response }
            case .failure(let error):
                if error == .writeFailed { logger.log(.error, "session write failed") }
                return ServiceError(error).response
            }
        }
        if let now = reply.value { return render(now) }
        return .deferred { promise in
            reply.whenDone { result in
                let response = render(result)
                if case .deferred(let begin) = response.body { begin(promise) } else { promise.succeed(response) }
            }
        }
    }
}

extension ServiceError {
    /// The status, code and message of each way a session operation fails.
    init(_ error: SessionError) {
        switch error {
        case .notFound(let id):
            self = .notFound("no session \(quoted(id))")
        case .expired(let id, let ttl):
            self.init(.gone, "session_expired", "session \(quoted(id)) expired after \(Int(ttl)) s without activity")
        case .misdirected(let id, let owner, let replica):
            self.init(.misdirectedRequest, "misdirected_request",
                      "session \(quoted(id)) belongs to replica \(owner), not \(replica); route /sessions/<replica>.… to that replica (docs/DEPLOY.md)")
        case .unauthorized:
            self.init(.unauthorized, "unauthorized", "a valid Authorization: Bearer <token> for this session is required")
        case .tooManySessions(let limit):
            self.init(.serviceUnavailable, "too_many_sessions", "the session limit (\(limit)) is reached; try again later")
            // Sessions end by expiry or deletion; a minute is a fair first wait.
            headers.add("Retry-After", "60")
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
        case .writeFailed:
            self.init(.internalServerError, "journal_failed", "the change could not be made durable")
        case .unavailable:
            // The reason names the store (its address, its user): the log
            // carries it, not a public answer.
            self.init(.serviceUnavailable, "sessions_unavailable", "the session store is unavailable right now; try again shortly")
            headers.add("Retry-After", "1")
        }
    }
}
