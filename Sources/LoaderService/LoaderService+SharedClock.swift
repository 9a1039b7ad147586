import HTTPServer
import LoaderEngine
import Synchronization

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

/// Wall-clock time of a monotonic instant, fixed once: shared-clock frames
/// are due on the wall clock, timers run on the monotonic one.
struct EpochFrames {
    let fps: Double
    /// Wall-clock seconds minus monotonic seconds.
    let wallOffset: Double

    init(fps: Double, wallOffset: Double) {
        self.fps = fps
        self.wallOffset = wallOffset
    }

    /// The frame of the shared clock at monotonic `now`.
    func frame(at now: UInt64) -> Int { Int(((Double(now) / 1e9 + wallOffset) * fps + 1e-9).rounded(.down)) }

    /// When frame `k` is due, in monotonic ns.
    func deadline(of k: Int) -> UInt64 { UInt64(max(0, ((Double(k) / fps - wallOffset) * 1e9).rounded(.up))) }

    /// The first frame a stream sends: the one due now, or just after the
    /// client's `Last-Event-ID` when that is at most 2 s ahead (another
    /// replica's clock); an older id is not replayed, a live clock has moved on.
    func first(at now: UInt64, resumeAfter startK: Int) -> Int {
        let due = frame(at: now)
        return startK > due && startK <= due + Int(2 * fps) + 1 ? startK : due
    }
}

/// The latest shared-clock frame of each loader, parameters and fps, for the
/// whole process: the first stream to need frame k computes and encodes it,
/// every other stream on any loop writes the same bytes. Entries live while
/// a stream holds them (bounded by the streams).
final class SharedClockFrames: Sendable {
    final class Slot: Sendable {
        fileprivate let latest = Mutex<(k: Int, json: [UInt8], event: [UInt8], done: Bool)?>(nil)
    }
    private let slots = Mutex<[String: (slot: Slot, holders: Int)]>([:])
    private let offset = Mutex<(sampledAt: UInt64, seconds: Double)?>(nil)

    /// Wall-clock seconds minus monotonic seconds, the same for every stream
    /// that starts within a minute of another (so that their ids agree on
    /// any loop), sampled again after that to follow the wall clock's
    /// corrections.
    func wallOffset(now: UInt64) -> Double {
        offset.withLock { offset in
            if let offset, now &- offset.sampledAt < 60_000_000_000 { return offset.seconds }
            let seconds = wallClock() - Double(now) / 1e9
            offset = (now, seconds)
            return seconds
        }
    }

    func acquire(_ key: String) -> Slot {
        slots.withLock { slots in
            let entry = slots[key] ?? (Slot(), 0)
            slots[key] = (entry.slot, entry.holders + 1)
            return entry.slot
        }
    }

    func release(_ key: String) {
        slots.withLock { slots in
            guard let entry = slots[key] else { return }
            slots[key] = entry.holders > 1 ? (entry.slot, entry.holders - 1) : nil
        }
    }

    var count: Int { slots.withLock { $0.count } }
}

/// A loader's frames on the shared clock: computed once per k for all
/// viewers (see `SharedClockFrames`).
final class SharedClockFrameSource {
    let steady: SteadyLoop
    let fps: Double
    let key: String
    let frames: SharedClockFrames
    private let slot: SharedClockFrames.Slot
    private var renderer: FrameRenderer

    init(_ steady: SteadyLoop, fps: Double, frames: SharedClockFrames) {
        self.steady = steady
        self.fps = fps
        self.key = "shared|" + StreamKey(loader: steady.loader, fps: fps, t0: steady.start).text
        self.frames = frames
        slot = frames.acquire(key)
        renderer = FrameRenderer(steady.loader)
    }

    /// Frame k's JSON and its `frame` event (`id: k`). A frame the loop
    /// shows as done (the end of a sample page load) is sent as it is; the
    /// stream goes on into the next loop.
    func frame(_ k: Int) -> (json: [UInt8], event: [UInt8]) {
        slot.latest.withLock { latest in
            if let latest, latest.k == k { return (latest.json, latest.event) }
            let (json, done) = renderer.encodedFrame(at: steady.time(ofFrame: k, fps: fps))
            let event = ServerSentEvent.event(id: String(k), event: "frame", singleLineData: json)
            if (latest?.k ?? Int.min) < k { latest = (k, json, event, done) }
            return (json, event)
        }
    }

    func release() { frames.release(key) }
}

/// One loader's stream on the shared clock.
final class SharedClockSource: StreamSource {
    private let frames: SharedClockFrameSource
    private let epoch: EpochFrames
    let startK: Int
    let endK: Int?

    init(_ frames: SharedClockFrameSource, startK: Int, frameCount: Int?, now: UInt64) {
        self.frames = frames
        let epoch = EpochFrames(fps: frames.fps, wallOffset: frames.frames.wallOffset(now: now))
        let first = epoch.first(at: now, resumeAfter: startK)
        self.epoch = epoch
        self.startK = first
        endK = frameCount.map { first + $0 }
    }

    func due(at now: UInt64) -> Int { max(startK, epoch.frame(at: now)) }
    func deadline(of k: Int) -> UInt64 { epoch.deadline(of: k) }
    func event(_ k: Int) -> SharedFrame { .frame(bytes: frames.frame(k).event, done: false) }
    func stopped() { frames.release() }
}
