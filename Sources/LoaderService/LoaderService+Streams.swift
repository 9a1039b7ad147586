import HTTPServer
import LoaderEngine

extension LoaderService {
    /// A live server-sent event stream of frames: event k carries the frame
    /// at exactly `t0 + k/fps` and leaves when the real clock since the
    /// stream began reaches `k/fps` (within a millisecond: `StreamTicker`).
    func stream(_ loader: ConfiguredLoader, _ query: FramesQuery, _ request: HTTPRequest, _ caches: LoopCaches) throws -> HTTPResponse {
        if query.values.from != nil || query.values.to != nil {
            throw ServiceError.invalid("from and to are for batches; a stream starts at t and runs at fps")
        }
        let clock = try StreamClock(query.values.clock)
        let fps = try query.fps(default: Double(configuration.streamDefaultFps))
        let frameCount = try Self.streamFrameCount(query.values.duration, fps: fps)
        let startK = Self.resumeAfter(request)
        let retry = configuration.streamRetryMilliseconds
        let heartbeat = UInt64(configuration.streamHeartbeatSeconds * 1e9)
        if case .shared = clock {
            let steady = try sharedLoop(loader, query, t: query.values.t)
            let tickers = caches.sharedClockTickers
            return HTTPResponse(status: .ok, headers: Self.eventStreamHeaders) { [self] writer in
                tickers.ticker(for: steady, fps: fps, frames: sharedClockFrames, loop: writer.loop, metrics: metrics, heartbeatNanoseconds: heartbeat)
                    .add(writer, resumeAfter: startK, frameCount: frameCount, retryMilliseconds: retry)
            }
        }
        let t0 = try query.time("t") ?? 0
        let endK = frameCount
        if let endK, startK >= endK {
            // Nothing left to send: 204 tells EventSource to stop reconnecting.
            return HTTPResponse(status: .noContent, headers: ["Cache-Control": "no-store"])
        }
        let key = StreamKey(loader: loader, fps: fps, t0: t0)
        let cache = caches.streams, tickers = caches.streamTickers
        return HTTPResponse(status: .ok, headers: Self.eventStreamHeaders) { [self, startK, endK] writer in
            let frames = cache.frames(for: key, loader: loader, t0: t0, fps: fps)
            // Frame startK now, the next one 1/fps later: the stream's own clock.
            let nextDue = writer.loop.now &+ UInt64((1e9 / fps).rounded(.up))
            tickers.add(writer, frames: frames, firstK: startK, endK: endK, nextDue: nextDue, fps: fps, metrics: metrics,
                        retryMilliseconds: retry, heartbeatNanoseconds: heartbeat)
        }
    }

    /// How many frames a stream of `duration` seconds sends (k/fps < duration).
    static func streamFrameCount(_ text: String?, fps: Double) throws -> Int? {
        guard let text else { return nil }
        guard let duration = Double(text), isPlainNumber(text), duration.isFinite, duration > 0, duration <= 1e9 else {
            throw ServiceError.invalid("duration must be a number of seconds > 0 and <= 1e9")
        }
        return Int((duration * fps - 1e-9).rounded(.up))
    }

    /// The steady loop a shared-clock stream folds the epoch into. Its time
    /// is the clock's, so `t` and the loader's events do not apply.
    func sharedLoop(_ loader: ConfiguredLoader, _ query: FramesQuery, t: String?) throws -> SteadyLoop {
        if t != nil { throw ServiceError.invalid("t does not apply with clock=shared: the shared clock's time is the Unix epoch folded into the loader's loop") }
        if loader.events != LoaderEvents() {
            throw ServiceError.invalid("stop, finish and progress do not apply with clock=shared: the shared clock plays the loader's steady loop; use a session for events")
        }
        do { return try SteadyLoop(loader.definition, parameters: query.loaderItems) } catch { throw ServiceError(error) }
    }

    /// The first frame id a stream sends: after `Last-Event-ID` when it is
    /// one of our ids (an integer >= 0). Another value (another server's, or
    /// mangled on the way) starts afresh: a 400 would make EventSource give up for good.
    static func resumeAfter(_ request: HTTPRequest) -> Int {
        guard let last = request.headers["last-event-id"].map({ String($0.trimmingSpaces) }),
              let id = Int(last), id >= 0, id < Int.max else { return 0 }
        return id + 1
    }

    static let eventStreamHeaders: HTTPResponseHeaders = [
        "Content-Type": "text/event-stream; charset=utf-8",
        "Cache-Control": "no-store",
        "X-Accel-Buffering": "no",
    ]
}

extension ServerSentEvent {
    /// `event: end` with why a stream of frames ends (`{"reason":"duration"}`):
    /// its last event, whatever kind of stream it is.
    static func end(reason: String) -> [UInt8] { event(event: "end", data: #"{"reason":""# + reason + #""}"#) }
}

/// Identifies streams that compute the same frame for the same k: the
/// loader with its parameters and events, fps and t0.
struct StreamKey: Hashable, Sendable {
    let text: String

    init(loader: ConfiguredLoader, fps: Double, t0: Double) {
        var s = loader.name
        for (spec, value) in zip(loader.parameters.specs, loader.parameters.values) { s += "&\(spec.name)=\(value)" }
        if let stop = loader.events.stop { s += "&stop=\(stop)" }
        if let finish = loader.events.finish { s += "&finish=\(finish)" }
        if !loader.events.progress.isEmpty { s += "&progress=" + loader.events.progress.map { "\($0)" }.joined(separator: ",") }
        text = s + "|fps=\(fps)|t0=\(t0)"
    }
}

/// Encoded frame events shared by the streams of one event loop: a frame is
/// computed and encoded once, and its bytes go to every stream that needs
/// frame k of the same key. Bounded: cleared when full. Loop thread only.
final class StreamFrameCache: @unchecked Sendable {
    private struct Entry: Hashable { let key: Int; let k: Int }
    private var frames: [StreamKey: ReplayFrames] = [:]
    private var events: [Entry: (bytes: [UInt8], done: Bool)] = [:]
    private var bytes = 0
    private var streams = 0
    /// Never reused, not even after a clear: a stream keeps its frames'
    /// id, and another key must not find its events under it.
    private var nextID = 0
    static let capacity = 8192
    static let maxBytes = 4 << 20

    /// The frames of `key` for a new stream (`release` when it ends).
    func frames(for key: StreamKey, loader: ConfiguredLoader, t0: Double, fps: Double) -> ReplayFrames {
        streams += 1
        if let known = frames[key] { return known }
        if frames.count >= Self.capacity { frames.removeAll() }
        let made = ReplayFrames(loader, t0: t0, fps: fps, id: nextID, cache: self)
        nextID += 1
        frames[key] = made
        return made
    }

    /// A stream ended; with none left on this loop the cache has nobody to
    /// share with, and its memory goes.
    func release() {
        streams -= 1
        if streams <= 0 {
            streams = 0
            frames = [:]
            events = [:]
            bytes = 0
        }
    }

    func event(key: Int, k: Int, make: () -> (bytes: [UInt8], done: Bool)) -> (bytes: [UInt8], done: Bool) {
        let entry = Entry(key: key, k: k)
        if let hit = events[entry] { return hit }
        if events.count >= Self.capacity || bytes >= Self.maxBytes { events.removeAll(keepingCapacity: true); bytes = 0 }
        let made = make()
        events[entry] = made
        bytes += made.bytes.count
        return made
    }
}

/// Where a stream's frames and their times come from.
protocol StreamSource: AnyObject {
    /// The frame due at monotonic time `now` (ns).
    func due(at now: UInt64) -> Int
    /// When frame `k` is due (monotonic ns).
    func deadline(of k: Int) -> UInt64
    /// The encoded event for frame `k` and whether the loader is done then,
    /// or why the stream must end now.
    func event(_ k: Int) -> SharedFrame
    /// The first frame past the end (`duration`), if any.
    var endK: Int? { get }
    /// The stream has ended.
    func stopped()
}

/// A stream's own clock: frame `startK` is due when the stream began, and
/// each next one 1/fps later (the shared clock's twin is `EpochFrames`).
struct OwnClock {
    let began: UInt64, startK: Int, fps: Double

    func due(at now: UInt64) -> Int { startK + Int((Double(now &- began) / 1e9 * fps + 1e-9).rounded(.down)) }
    func deadline(of k: Int) -> UInt64 { began &+ UInt64((Double(k - startK) / fps * 1e9).rounded(.up)) }
}

/// One client's stream of many loaders (`/streams`); a loader's stream on
/// its own clock and a session's viewers run on a `StreamTicker`. Runs on
/// the connection's loop; it is its own timer, armed for each frame at an
/// absolute deadline (no drift). A client that is not reading misses frames
/// (the ids show the gap) and gets the latest when it reads again.
final class FrameStream: LoopTimer {
    private let source: any StreamSource
    private let writer: StreamWriter
    private let metrics: Metrics
    private let retryMilliseconds: Int
    private let heartbeatNanoseconds: UInt64
    private var k = 0
    private var heartbeat: TimerHandle?
    private var stoppedAlready = false
    /// Frames sent and not yet added to the process-wide count: every loop
    /// adding to one shared counter per frame would pass its cache line back
    /// and forth. (Skips are rare, and counted at once.)
    private var unreportedSent = 0

    init(source: any StreamSource, writer: StreamWriter, metrics: Metrics, retryMilliseconds: Int, heartbeatNanoseconds: UInt64) {
        self.source = source
        self.writer = writer
        self.metrics = metrics
        self.retryMilliseconds = retryMilliseconds
        self.heartbeatNanoseconds = heartbeatNanoseconds
    }

    func start() {
        k = source.due(at: writer.loop.now)
        writer.onClose = { [self] in stop() }
        writer.onShutdown = { [self] in end(reason: "shutdown") }
        writer.write(ServerSentEvent.retry(milliseconds: retryMilliseconds))
        tick()
        scheduleHeartbeat()
    }

    override func fire() { tick() }

    private func tick() {
        guard writer.isOpen else { return }
        // The frame due now (normally k; later ones when the loop ran late).
        let due = source.due(at: writer.loop.now)
        if let endK = source.endK, due >= endK || k >= endK {
            end(reason: "duration")
            return
        }
        if due > k {
            metrics.framesSkipped.add(due - k, ordering: .relaxed)
            k = due
        }
        if writer.hasRoom {
            switch source.event(k) {
            case .ended(let reason):
                end(reason: reason)
                return
            case .frame(let bytes, let done):
                writer.write(bytes)
                unreportedSent += 1
                if unreportedSent >= 32 { report() }
                if done {
                    end(reason: "done")
                    return
                }
            }
        } else {
            metrics.framesSkipped.add(1, ordering: .relaxed)
        }
        k += 1
        guard !stoppedAlready else { return }
        writer.loop.arm(self, at: source.deadline(of: k))
    }

    /// At most 32 frames, a heartbeat or the stream's end late.
    private func report() {
        if unreportedSent > 0 { metrics.framesSent.add(unreportedSent, ordering: .relaxed) }
        unreportedSent = 0
    }

    private func scheduleHeartbeat() {
        heartbeat = writer.loop.schedule(afterNanoseconds: heartbeatNanoseconds) { [self] in
            report()
            guard writer.isOpen else { return }
            if writer.hasRoom { writer.write(ServerSentEvent.comment("keep-alive")) }
            scheduleHeartbeat()
        }
    }

    /// `event: end` with a reason, then the connection closes.
    private func end(reason: String) {
        guard writer.isOpen else { return }
        writer.write(ServerSentEvent.end(reason: reason))
        writer.finish()
        stop()
    }

    private func stop() {
        cancel()
        heartbeat?.cancel()
        heartbeat = nil
        if !stoppedAlready {
            stoppedAlready = true
            report()
            source.stopped()
        }
    }
}
