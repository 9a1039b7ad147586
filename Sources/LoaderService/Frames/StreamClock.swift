import LoaderEngine

/// The clock a stream's frames follow (`clock=`).
enum StreamClock {
    /// The stream's own (`clock=stream`, the default): frame k shows
    /// `t0 + k/fps` and is due `k/fps` after the stream began.
    case stream(t0: Double)
    /// One clock for every viewer (`clock=shared`): frame k is due at
    /// `k/fps` seconds since the Unix epoch and shows that moment folded
    /// into the loader's steady loop. Every viewer of the same loader,
    /// parameters and fps gets the same id and frame at the same moment,
    /// on any replica whose clock is synchronised.
    case shared

    init(_ text: String?) throws {
        switch text {
        case nil, "stream": self = .stream(t0: 0)
        case "shared": self = .shared
        default: throw ServiceError.invalid("clock must be stream (the stream's own, from t) or shared (the Unix epoch folded into the loader's loop)")
        }
    }
}

/// Frames due on the wall clock: frame k at `origin + k/fps` seconds since
/// the Unix epoch (origin 0 for the shared clock, a session's creation for
/// its viewers). Timers run on the monotonic clock, so the wall clock's
/// offset from it is fixed once.
struct EpochFrames {
    let fps: Double
    /// Wall-clock seconds minus monotonic seconds.
    let wallOffset: Double
    /// When frame 0 is due, in seconds since the Unix epoch.
    let origin: Double

    init(fps: Double, wallOffset: Double, origin: Double = 0) {
        self.fps = fps
        self.wallOffset = wallOffset
        self.origin = origin
    }

    /// The frame due at monotonic `now` (0 before the origin).
    func frame(at now: UInt64) -> Int { max(0, Int(((Double(now) / 1e9 + wallOffset - origin) * fps + 1e-9).rounded(.down))) }

    /// When frame `k` is due, in monotonic ns.
    func deadline(of k: Int) -> UInt64 { UInt64(max(0, ((origin + Double(k) / fps - wallOffset) * 1e9).rounded(.up))) }

    /// The first frame a stream sends: the one due now, or just after the
    /// client's `Last-Event-ID` when that is at most 2 s ahead (another
    /// replica's clock); an older id is not replayed, a live clock has moved
    /// on, and one further ahead (another fps, or made up) is not ours.
    func first(at now: UInt64, resumeAfter startK: Int) -> Int {
        let due = frame(at: now)
        return startK > due && startK <= due + Int(2 * fps) + 1 ? startK : due
    }

    /// How a stream starts on this clock: its first frame, written at once
    /// when it is due (a stream resuming ahead of this replica's clock waits
    /// for it), and when the next one written is due.
    func start(at now: UInt64, resumeAfter startK: Int) -> (first: Int, writesFirst: Bool, nextDue: UInt64) {
        let first = first(at: now, resumeAfter: startK)
        let writesFirst = first <= frame(at: now)
        return (first, writesFirst, deadline(of: writesFirst ? first + 1 : first))
    }
}
