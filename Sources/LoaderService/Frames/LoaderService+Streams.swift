import HTTPServer
import LoaderEngine
import LoaderFormats

extension LoaderService {
    /// A live server-sent event stream of frames: event k carries the frame
    /// at exactly `t0 + k/fps` and leaves when the real clock since the
    /// stream began reaches `k/fps` (within a millisecond: `StreamTicker`).
    func stream(_ loader: ConfiguredLoader, _ query: FrameQuery, _ request: HTTPRequest, _ caches: LoopCaches) throws -> HTTPResponse {
        if query.from != nil || query.to != nil {
            throw ServiceError.invalid("from and to are for batches; a stream starts at t and runs at fps")
        }
        let clock = try StreamClock(query.clock)
        let fps = try query.fps(default: Double(configuration.streamDefaultFps))
        try checkStreamWork(loader.frameCost, fps: fps)
        let frameCount = try Self.streamFrameCount(query.duration, fps: fps)
        let startK = Self.resumeAfter(request)
        if case .shared = clock {
            let steady = try sharedLoop(loader, query, t: query.t)
            let caches = caches.bound
            return HTTPResponse(status: .ok, headers: Self.eventStreamHeaders) { [self] writer in
                let frames = caches.value.sharedClockViewers.frames(for: steady, fps: fps, shared: sharedClockFrames)
                startStream(writer, frames: frames, on: clock, fps: fps, resumeAfter: startK, frameCount: frameCount, tickers: caches.value.streamTickers)
            }
        }
        let t0 = try query.time("t") ?? 0
        if let frameCount, startK >= frameCount {
            // Nothing left to send: 204 tells EventSource to stop reconnecting.
            return HTTPResponse(status: .noContent, headers: ["Cache-Control": "no-store"])
        }
        let key = StreamKey(loader: loader, fps: fps, t0: t0)
        let caches = caches.bound
        return HTTPResponse(status: .ok, headers: Self.eventStreamHeaders) { [self] writer in
            let frames = caches.value.streams.frames(for: key, loader: loader, t0: t0, fps: fps)
            startStream(writer, frames: frames, on: clock, fps: fps, resumeAfter: startK, frameCount: frameCount, tickers: caches.value.streamTickers)
        }
    }

    /// Starts a stream of `frames` on the loop's tickers. On its own clock
    /// frame `startK` leaves now and each next one 1/fps later, and the
    /// stream ends before frame `frameCount`; on the shared clock, see the
    /// next function.
    func startStream(_ writer: StreamWriter, frames: any TickerFrames, on clock: StreamClock, fps: Double, resumeAfter startK: Int,
                     frameCount: Int?, tickers: StreamTickers) {
        let now = writer.loop.now
        switch clock {
        case .stream:
            ride(tickers, writer, frames, firstK: startK, writesFirst: true, endK: frameCount,
                 nextDue: now &+ UInt64((1e9 / fps).rounded(.up)), fps: fps)
        case .shared:
            startStream(writer, frames: frames, on: EpochFrames(fps: fps, wallOffset: sharedClockFrames.wallOffset(now: now)),
                        resumeAfter: startK, frameCount: frameCount, tickers: tickers)
        }
    }

    /// Starts a stream of `frames` on a wall clock (the shared clock, or a
    /// session's): the first frame is the one due now (see
    /// `EpochFrames.start`), and `frameCount` frames are sent from there.
    func startStream(_ writer: StreamWriter, frames: any TickerFrames, on clock: EpochFrames, resumeAfter startK: Int,
                     frameCount: Int?, tickers: StreamTickers) {
        let start = clock.start(at: writer.loop.now, resumeAfter: startK)
        ride(tickers, writer, frames, firstK: start.first, writesFirst: start.writesFirst, endK: frameCount.map { start.first + $0 },
             nextDue: start.nextDue, fps: clock.fps)
    }

    private func ride(_ tickers: StreamTickers, _ writer: StreamWriter, _ frames: any TickerFrames, firstK: Int, writesFirst: Bool,
                      endK: Int?, nextDue: UInt64, fps: Double) {
        tickers.add(writer, frames: frames, firstK: firstK, writesFirst: writesFirst, endK: endK, nextDue: nextDue, fps: fps,
                    metrics: metrics, retryMilliseconds: configuration.streamRetryMilliseconds,
                    heartbeatNanoseconds: UInt64(configuration.streamHeartbeatSeconds * 1e9))
    }

    /// A stream's frames are computed on its loop: their cost a second
    /// (a frame's cost, of every loader it carries, times fps) is bounded.
    func checkStreamWork(_ frameCost: Int, fps: Double) throws {
        let perSecond = Double(frameCost) * fps
        guard perSecond <= Double(configuration.maxStreamWorkPerSecond) else {
            let most = max(0, Int(Double(configuration.maxStreamWorkPerSecond) / Double(frameCost)))
            throw ServiceError(.badRequest, "too_costly",
                               "a frame costs \(frameCost) units, \(Int(perSecond)) a second at \(SVG.n(fps)) fps; maxStreamWorkPerSecond is \(configuration.maxStreamWorkPerSecond)" + (most >= 1 ? ": ask for fps \(min(most, 120)) or less" : ""))
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
    func sharedLoop(_ loader: ConfiguredLoader, _ query: FrameQuery, t: String?) throws -> SteadyLoop {
        if t != nil { throw ServiceError.invalid("t does not apply with clock=shared: the shared clock's time is the Unix epoch folded into the loader's loop") }
        if loader.events != LoaderEvents() {
            throw ServiceError.invalid("stop, finish and progress do not apply with clock=shared: the shared clock plays the loader's steady loop; use a session for events")
        }
        do { return try SteadyLoop(loader.definition, configured: loader, parameters: query.loaderItems) } catch { throw ServiceError(error) }
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
