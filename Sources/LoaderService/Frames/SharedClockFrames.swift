import HTTPServer
import LoaderEngine
import LoaderSessions
import Synchronization

/// The latest shared-clock frame of each loader, parameters and fps, for the
/// whole process: the first stream to need frame k computes and encodes it,
/// every other stream on any loop writes the same bytes. Entries live while
/// a stream holds them (bounded by the streams).
final class SharedClockFrames: Sendable {
    final class Slot: Sendable {
        fileprivate let latest = Mutex<(k: Int, json: [UInt8], event: [UInt8])?>(nil)
    }
    private let slots = Mutex(Holdings<String, Slot>())
    private let offset = Mutex<(sampledAt: UInt64, seconds: Double)?>(nil)

    /// Wall-clock seconds minus monotonic seconds, the same for every stream
    /// that starts within a minute of another (so that their ids agree on
    /// any loop), sampled again after that to follow the wall clock's
    /// corrections.
    func wallOffset(now: UInt64) -> Double {
        offset.withLock { offset in
            if let offset, now &- offset.sampledAt < 60_000_000_000 { return offset.seconds }
            let seconds = WallClock.system.now() - Double(now) / 1e9
            offset = (now, seconds)
            return seconds
        }
    }

    func acquire(_ key: String) -> Slot { slots.withLock { $0.acquire(key) { Slot() } } }

    func release(_ key: String) { _ = slots.withLock { $0.release(key) } }

    var count: Int { slots.withLock { $0.count } }
}

/// A loader's frames on the shared clock on one event loop, for every
/// viewer there (they ride the loop's `StreamTicker`s): frame k is computed
/// and encoded once in the process (`SharedClockFrames`), and asked for once
/// per loop. Loop thread only; it leaves its registry with its last viewer.
final class SharedClockFrameSource: TickerFrames {
    let steady: SteadyLoop
    let fps: Double
    let key: String
    let frames: SharedClockFrames
    private let slot: SharedClockFrames.Slot
    private let registry: SharedClockViewers
    private var renderer: FrameRenderer
    /// The frame asked for last: a tick's viewers all ask for the same.
    private var last: (k: Int, json: [UInt8], event: [UInt8])?

    fileprivate init(_ steady: SteadyLoop, fps: Double, key: String, frames: SharedClockFrames, registry: SharedClockViewers) {
        self.steady = steady
        self.fps = fps
        self.key = key
        self.frames = frames
        self.registry = registry
        slot = frames.acquire(key)
        renderer = FrameRenderer(steady.loader)
    }

    /// What identifies a loader's shared-clock frames: its loop (loader,
    /// parameters and sample events) and fps.
    static func key(_ steady: SteadyLoop, fps: Double) -> String {
        "shared|" + StreamKey(loader: steady.loader, fps: fps, t0: steady.start).key.text
    }

    /// Frame k's JSON and its `frame` event (`id: k`). A frame the loop
    /// shows as done (the end of a sample page load) is sent as it is; the
    /// stream goes on into the next loop.
    func frame(_ k: Int) -> (json: [UInt8], event: [UInt8]) {
        if let last, last.k == k { return (last.json, last.event) }
        let made: (json: [UInt8], event: [UInt8]) = slot.latest.withLock { latest in
            if let latest, latest.k == k { return (latest.json, latest.event) }
            let json = renderer.encodedFrame(at: steady.time(ofFrame: k, fps: fps)).json
            let event = ServerSentEvent.event(id: String(k), event: "frame", singleLineData: json)
            if (latest?.k ?? Int.min) < k { latest = (k, json, event) }
            return (json, event)
        }
        last = (k, made.json, made.event)
        return made
    }

    func event(_ k: Int) -> SharedFrame { .frame(bytes: frame(k).event, done: false) }

    /// A viewer's stream ended; with the loop's last, the process's slot
    /// loses a holder too.
    func release() {
        if registry.release(key) { frames.release(key) }
    }
}

/// An event loop's shared-clock frames, by loader, parameters and fps,
/// while they have viewers. Loop thread only.
typealias SharedClockViewers = Holdings<String, SharedClockFrameSource>

extension Holdings<String, SharedClockFrameSource> {
    /// The frames for a new viewer (`release` them when its stream ends).
    func frames(for steady: SteadyLoop, fps: Double, shared: SharedClockFrames) -> SharedClockFrameSource {
        let key = SharedClockFrameSource.key(steady, fps: fps)
        return acquire(key) { SharedClockFrameSource(steady, fps: fps, key: key, frames: shared, registry: self) }
    }
}
