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
