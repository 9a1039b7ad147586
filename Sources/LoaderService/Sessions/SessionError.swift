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
