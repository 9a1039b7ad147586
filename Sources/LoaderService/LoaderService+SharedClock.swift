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
        self.key = Self.key(steady, fps: fps)
        self.frames = frames
        slot = frames.acquire(key)
        renderer = FrameRenderer(steady.loader)
    }

    /// What identifies a loader's shared-clock frames: its loop (loader,
    /// parameters and sample events) and fps.
    static func key(_ steady: SteadyLoop, fps: Double) -> String {
        "shared|" + StreamKey(loader: steady.loader, fps: fps, t0: steady.start).text
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

/// The shared-clock streams of one loader, parameters and fps on one event
/// loop: one timer for all of them, and each frame's bytes, made once,
/// written to every viewer whose client has room (a viewer that is not
/// reading skips frames and gets the latest when it reads again). Loop
/// thread only; it leaves the loop's registry with its last viewer.
final class SharedClockTicker {
    private final class Viewer {
        let writer: StreamWriter
        let endK: Int?
        /// The first frame this viewer may still get: its ids only go up.
        var next: Int
        init(writer: StreamWriter, first: Int, endK: Int?) {
            self.writer = writer
            self.next = first
            self.endK = endK
        }
    }

    private let frames: SharedClockFrameSource
    private let epoch: EpochFrames
    private let loop: EventLoop
    private let metrics: Metrics
    private let heartbeatNanoseconds: UInt64
    private let registry: SharedClockTickers
    private var viewers: [Viewer] = []
    private var k: Int
    private var timer: TimerHandle?
    private var tickTask: (() -> Void)?
    private var heartbeat: TimerHandle?

    fileprivate init(_ frames: SharedClockFrameSource, loop: EventLoop, metrics: Metrics, heartbeatNanoseconds: UInt64, registry: SharedClockTickers) {
        self.frames = frames
        self.loop = loop
        self.metrics = metrics
        self.heartbeatNanoseconds = heartbeatNanoseconds
        self.registry = registry
        epoch = EpochFrames(fps: frames.fps, wallOffset: frames.frames.wallOffset(now: loop.now))
        k = epoch.frame(at: loop.now)
    }

    /// A new viewer: `retry:`, then the frame due now, then every frame on
    /// the clock, until `frameCount` frames or the client goes.
    func add(_ writer: StreamWriter, resumeAfter startK: Int, frameCount: Int?, retryMilliseconds: Int) {
        loop.assertInLoop()
        let first = epoch.first(at: loop.now, resumeAfter: startK)
        let viewer = Viewer(writer: writer, first: first, endK: frameCount.map { first + $0 })
        viewers.append(viewer)
        writer.onClose = { [self, viewer] in remove(viewer) }
        writer.onShutdown = { [self, viewer] in end(viewer, reason: "shutdown") }
        writer.write(ServerSentEvent.retry(milliseconds: retryMilliseconds))
        // A viewer resuming just ahead of this loop's clock waits for it.
        if first <= epoch.frame(at: loop.now) {
            writer.write(frames.frame(first).event)
            metrics.framesSent.add(1, ordering: .relaxed)
            viewer.next = first + 1
        }
        if tickTask == nil {
            tickTask = { [self] in tick() }
            k = max(k, epoch.frame(at: loop.now) + 1)
            timer = loop.schedule(at: epoch.deadline(of: k), tickTask!)
            scheduleHeartbeat()
        }
    }

    /// A comment line to every viewer with room, however low the fps, so
    /// that a proxy's read timeout never cuts a stream.
    private func scheduleHeartbeat() {
        heartbeat = loop.schedule(afterNanoseconds: heartbeatNanoseconds) { [self] in
            guard tickTask != nil else { return }
            for viewer in viewers where viewer.writer.hasRoom { viewer.writer.write(ServerSentEvent.comment("keep-alive")) }
            scheduleHeartbeat()
        }
    }

    private func tick() {
        let due = epoch.frame(at: loop.now)
        if due > k { metrics.framesSkipped.add((due - k) * viewers.count, ordering: .relaxed) }
        k = max(k, due)
        let event = frames.frame(k).event
        var sent = 0, skipped = 0
        for viewer in viewers where k >= viewer.next {
            if let endK = viewer.endK, k >= endK {
                end(viewer, reason: "duration")
            } else if viewer.writer.hasRoom {
                viewer.writer.write(event)
                viewer.next = k + 1
                sent += 1
            } else {
                skipped += 1
            }
        }
        metrics.framesSent.add(sent, ordering: .relaxed)
        metrics.framesSkipped.add(skipped, ordering: .relaxed)
        k += 1
        guard let tickTask else { return }
        timer = loop.schedule(at: epoch.deadline(of: k), tickTask)
    }

    /// `event: end` with a reason, then the connection closes.
    private func end(_ viewer: Viewer, reason: String) {
        guard viewer.writer.isOpen else { return }
        viewer.writer.write(ServerSentEvent.end(reason: reason))
        viewer.writer.finish()
    }

    private func remove(_ viewer: Viewer) {
        guard let i = viewers.firstIndex(where: { $0 === viewer }) else { return }
        viewers.swapAt(i, viewers.count - 1)
        viewers.removeLast()
        guard viewers.isEmpty else { return }
        timer?.cancel()
        heartbeat?.cancel()
        timer = nil
        heartbeat = nil
        tickTask = nil
        registry.remove(frames.key)
        frames.release()
    }
}

/// An event loop's shared-clock tickers, by key. Loop thread only.
final class SharedClockTickers: @unchecked Sendable {
    private var tickers: [String: SharedClockTicker] = [:]

    func ticker(for steady: SteadyLoop, fps: Double, frames: SharedClockFrames, loop: EventLoop, metrics: Metrics,
                heartbeatNanoseconds: UInt64) -> SharedClockTicker {
        let key = SharedClockFrameSource.key(steady, fps: fps)
        if let ticker = tickers[key] { return ticker }
        let source = SharedClockFrameSource(steady, fps: fps, frames: frames)
        let ticker = SharedClockTicker(source, loop: loop, metrics: metrics, heartbeatNanoseconds: heartbeatNanoseconds, registry: self)
        tickers[key] = ticker
        return ticker
    }

    fileprivate func remove(_ key: String) { tickers[key] = nil }

    var count: Int { tickers.count }
}
