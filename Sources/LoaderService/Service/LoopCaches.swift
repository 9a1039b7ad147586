import EventLoop

/// Per event loop, touched only on that loop (`bound` hands them to a
/// closure that runs there later): caches the server keeps for the service
/// (`HTTPResponder.makeLoopStorage`).
final class LoopCaches {
    /// Answers that never change, by target and `Accept`.
    let responses = ResponseCache()
    /// Configured loaders by name and parameters.
    let loaders = LoaderCache()
    /// Encoded stream events shared by the loop's streams.
    let streams = StreamFrameCache()
    /// The loop's streams of frames, one ticker per fps and phase.
    let streamTickers = StreamTickers()
    /// The loop's session viewers' frames, by session and fps.
    let sessionViewers = SessionViewers()
    /// The loop's shared-clock frames, by loader and fps.
    let sharedClockViewers = SharedClockViewers()
    /// The loop's access log lines (nil when the access log is off).
    let accessLog: AccessLogBuffer?
    /// The loop's counts for `/metrics`.
    let metrics: Metrics.Shard

    /// The loop they belong to.
    let loop: EventLoop

    init(loop: EventLoop, accessLog: AccessLogBuffer? = nil, metrics: Metrics.Shard = Metrics.Shard()) {
        self.loop = loop
        self.accessLog = accessLog
        self.metrics = metrics
    }

    /// These caches, for a closure that runs on their loop later (a stream's start).
    var bound: LoopBound<LoopCaches> { LoopBound(self, loop: loop) }
}
