/// Where the connection is in its life: one value, never a set of flags.
enum ConnectionState {
    /// Taking requests; those answered at once are answered.
    case open
    /// A request waits for its deferred answer, `promise`; with
    /// `thenClose`, the connection closes once that answer is written.
    case awaitingAnswer(ResponsePromise, thenClose: Bool)
    /// A streamed answer is being written; `ending`: it has finished,
    /// and the connection closes once what is queued is written.
    case streaming(StreamWriter, ending: Bool)
    /// No more requests: the connection closes once its output is written.
    case closing
    /// The answer to a request that broke the rules is written and the
    /// sending side shut; what the client still sends is read and dropped
    /// until it closes, for at most `lingerTimeout`. Closing at once, with
    /// its bytes unread, would reset the connection and could destroy the
    /// answer before the client reads it (RFC 9112 §9.6).
    case lingering(since: UInt64, dropped: Int)
    case closed

    var isClosed: Bool { if case .closed = self { return true } else { return false } }

    /// Whether the connection closes once its output is written.
    var closesWhenWritten: Bool {
        switch self {
        case .closing, .streaming(_, ending: true): return true
        default: return false
        }
    }
}

/// Whether the socket is read: yes, not now (requests wait behind an
/// answer or full output), or never again (the client half-closed).
enum ConnectionInput { case reading, paused, ended }
