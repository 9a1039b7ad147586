/// Why a session operation failed, in the sessions' own terms; the API
/// layer gives each its status (`ServiceError.init(_: SessionError)`).
public enum SessionError: Error, Sendable, Equatable {
    case notFound(id: String)
    /// No activity for the time-to-live; remembered for one more.
    case expired(id: String, ttlSeconds: Double)
    /// The id names another replica as its owner.
    case misdirected(id: String, owner: String, replica: String)
    /// Missing or wrong token.
    case unauthorized
    case tooManySessions(limit: Int)
    case tooManyViewers(limit: Int)
    case tooManyEvents(limit: Int)
    /// The loader takes no event of this kind.
    case eventNotAccepted(kind: SessionEvent.Kind, loader: String, accepted: [String])
    /// The loader is done: no more events.
    case done
    /// Finished loading: only stop is taken.
    case finished
    /// `params.<name>` is neither a string nor a number.
    case invalidParameter(String)
    /// The change was accepted but could not be made durable: its outcome
    /// is unknown (a failed journal write).
    case writeFailed
    /// The store cannot be reached (its backend is away).
    case unavailable(String)
}

extension SessionError {
    /// The store's operations, by the ways they fail.
    package enum Operation { case create, read, watch, post, delete }

    /// Each way `operation` can fail, one value of each case (what they
    /// carry is a placeholder): what the API's description of an operation
    /// lists, each with its status.
    package static func failures(of operation: Operation) -> [SessionError] {
        let found: [SessionError] = [.notFound(id: ""), .misdirected(id: "", owner: "", replica: ""), .expired(id: "", ttlSeconds: 0)]
        switch operation {
        case .create: return [.invalidParameter(""), .tooManySessions(limit: 0), .writeFailed, .unavailable("")]
        case .read: return found + [.unavailable("")]
        case .watch: return found + [.tooManyViewers(limit: 0), .unavailable("")]
        case .post:
            return [.unauthorized] + found + [.eventNotAccepted(kind: .progress, loader: "", accepted: []), .done, .finished,
                                              .tooManyEvents(limit: 0), .writeFailed, .unavailable("")]
        case .delete: return [.unauthorized] + found + [.writeFailed, .unavailable("")]
        }
    }

    /// When it happens, in a sentence.
    package var summary: String {
        switch self {
        case .notFound: "No such session."
        case .expired: "The session expired (no activity for the time-to-live)."
        case .misdirected: "The session belongs to another replica (its name is the id's part before the dot): the load balancer routed it wrongly."
        case .unauthorized: "Missing or wrong token."
        case .tooManySessions: "The session limit is reached (Retry-After)."
        case .tooManyViewers: "The session's viewer limit is reached."
        case .tooManyEvents: "The per-session event limit is reached."
        case .eventNotAccepted: "An event the session's loader does not take (progress and finish are the web loader's)."
        case .done: "The session is done."
        case .finished: "Progress after finish."
        case .invalidParameter: "A parameter in params is neither a string nor a number."
        case .writeFailed: "The change could not be made durable (journal_failed): its outcome is unknown."
        case .unavailable: "The session store (Redis) cannot be reached now (Retry-After)."
        }
    }
}
