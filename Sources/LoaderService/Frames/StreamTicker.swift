import EventLoop
import HTTPServer
import LoaderEngine

/// Where a ticker's stream gets frame k: a loader's replay on the stream's
/// own clock (`ReplayFrames`), a loader on the shared clock
/// (`SharedClockFrameSource`), a session's shared frames (`SessionFrames`),
/// or one client's several loaders (`MultiplexSource`). Loop thread only.
protocol TickerFrames: AnyObject {
    /// The encoded event for frame `k` and whether the loader is done then,
    /// or why the stream must end now.
    func event(_ k: Int) -> SharedFrame
    /// A stream that used these frames ended.
    func release()
}

/// The streams of one event loop whose frames fall due together: one fps,
/// and frames due in the same millisecond of the period. Every stream of
/// frames rides them: a loader's on its own clock (the default) or on the
/// shared clock, a session's viewers, a multiplexed stream. One timer serves
/// them all, and each tick goes over them in one array; a timer and a frame
/// source of each stream's own were two more objects to touch per frame,
/// and a timer heap entry to sift.
///
/// A stream's frames still come on its clock: frame k is due when its
/// clock says, never earlier and less than a millisecond later (the loop's
/// timers count milliseconds anyway). A stream whose client is not reading
/// skips frames (the ids show the gap) and gets the latest when it reads
/// again. Loop thread only; it leaves the loop's registry with its last
/// stream.
final class StreamTicker: LoopTimer {
    private struct Member {
        let writer: StreamWriter
        let frames: any TickerFrames
        /// Frame id = tick + shift.
        let shift: Int
        /// The first frame id past the end (`duration`), if any.
        let endK: Int?
        /// The next tick it takes. Ticks before it are not its own (it joined
        /// after them); ticks it misses after it count as skipped frames.
        var next: Int
        /// Why its stream ends, once the tick is done.
        var ending: String?
    }

    let grid: TickGrid
    private let loop: EventLoop
    private let metrics: Metrics
    private let heartbeatNanoseconds: UInt64
    /// Strong: a preview's stream runs on caches of its own, which only its
    /// tickers hold; `leave` breaks the cycle.
    private let registry: StreamTickers
    private var members: [Member] = []
    /// While the members are gone over, a stream that closes is only marked
    /// (its writer is closed) and removed after.
    private var busy = false
    private var heartbeat: TimerHandle?

    fileprivate init(_ grid: TickGrid, loop: EventLoop, metrics: Metrics, heartbeatNanoseconds: UInt64, registry: StreamTickers) {
        self.grid = grid
        self.loop = loop
        self.metrics = metrics
        self.heartbeatNanoseconds = heartbeatNanoseconds
        self.registry = registry
    }

    /// A new stream: `retry:`, its frame `firstK` now when `writesFirst`,
    /// then each next frame at tick `firstTick` and on.
    fileprivate func add(_ writer: StreamWriter, frames: any TickerFrames, firstK: Int, writesFirst: Bool, endK: Int?, firstTick: Int,
                         retryMilliseconds: Int) {
        loop.assertInLoop()
        writer.onClose = { [self, writer] in remove(writer) }
        writer.onShutdown = { [self, writer] in end(writer, reason: "shutdown") }
        writer.write(ServerSentEvent.retry(milliseconds: retryMilliseconds))
        var ending: String?
        if writesFirst {
            switch frames.event(firstK) {
            case .ended(let reason):
                ending = reason
            case .frame(let bytes, let done):
                writer.write(bytes)
                metrics.framesSent.add(1, ordering: .relaxed)
                if done { ending = "done" }
            }
        }
        guard writer.isOpen, ending == nil else {
            finish(writer, reason: ending ?? "done")
            frames.release()
            if members.isEmpty { leave() }
            return
        }
        let wasEmpty = members.isEmpty
        members.append(Member(writer: writer, frames: frames, shift: firstK + (writesFirst ? 1 : 0) - firstTick, endK: endK, next: firstTick))
        if wasEmpty {
            loop.arm(self, at: grid.deadline(of: firstTick))
            scheduleHeartbeat()
        }
    }

    override func fire() {
        let j = grid.tick(at: loop.now)
        var sent = 0, skipped = 0
        busy = true
        members.withUnsafeMutableBufferPointer { members in
            for i in members.indices where j >= members[i].next {
                let m = members[i]
                guard m.writer.isOpen else { continue }
                let k = j + m.shift
                if let endK = m.endK, k >= endK {
                    members[i].ending = "duration"
                    continue
                }
                skipped += j - m.next
                members[i].next = j + 1
                guard m.writer.hasRoom else {
                    skipped += 1
                    continue
                }
                switch m.frames.event(k) {
                case .ended(let reason):
                    members[i].ending = reason
                case .frame(let bytes, let done):
                    m.writer.write(bytes)
                    sent += 1
                    if done { members[i].ending = "done" }
                }
            }
        }
        if sent > 0 { metrics.framesSent.add(sent, ordering: .relaxed) }
        if skipped > 0 { metrics.framesSkipped.add(skipped, ordering: .relaxed) }
        settle()
        if !members.isEmpty { loop.arm(self, at: grid.deadline(of: j + 1)) }
    }

    /// A comment line to every stream with room, however low the fps, so
    /// that a proxy's read timeout never cuts a stream.
    private func scheduleHeartbeat() {
        heartbeat = loop.schedule(afterNanoseconds: heartbeatNanoseconds) { [self] in
            busy = true
            for i in members.indices where members[i].writer.hasRoom {
                members[i].writer.write(ServerSentEvent.comment("keep-alive"))
            }
            settle()
            if !members.isEmpty { scheduleHeartbeat() }
        }
    }

    /// Ends the streams marked during a tick, and removes them and those
    /// that closed.
    private func settle() {
        for i in members.indices {
            if let reason = members[i].ending { finish(members[i].writer, reason: reason) }
        }
        var i = 0
        while i < members.count {
            if members[i].ending != nil || !members[i].writer.isOpen { drop(at: i) } else { i += 1 }
        }
        busy = false
        if members.isEmpty { leave() }
    }

    /// Takes member `i` out (the last takes its place) and lets go of its frames.
    private func drop(at i: Int) {
        members[i].frames.release()
        members.swapAt(i, members.count - 1)
        members.removeLast()
    }

    /// `event: end` with a reason, then the connection closes.
    private func finish(_ writer: StreamWriter, reason: String) {
        guard writer.isOpen else { return }
        writer.write(ServerSentEvent.end(reason: reason))
        writer.finish()
    }

    private func end(_ writer: StreamWriter, reason: String) {
        finish(writer, reason: reason)
        remove(writer)
    }

    private func remove(_ writer: StreamWriter) {
        guard !busy, let i = members.firstIndex(where: { $0.writer === writer }) else { return }
        drop(at: i)
        if members.isEmpty { leave() }
    }

    private func leave() {
        cancel()
        heartbeat?.cancel()
        heartbeat = nil
        registry.remove(self)
    }
}

/// An event loop's stream tickers, by grid. Loop thread only.
final class StreamTickers {
    private var tickers: [TickGrid: StreamTicker] = [:]

    /// Starts a stream: frame `firstK` now (unless `writesFirst` is false:
    /// a resumed stream whose next frame is not due yet), the next one due
    /// at monotonic `nextDue`, and every next one 1/fps later, on the ticker
    /// whose ticks fall there.
    func add(_ writer: StreamWriter, frames: any TickerFrames, firstK: Int, writesFirst: Bool, endK: Int?, nextDue: UInt64,
             fps: Double, metrics: Metrics, retryMilliseconds: Int, heartbeatNanoseconds: UInt64) {
        let loop = writer.loop
        let (grid, firstTick) = TickGrid.place(nextDue, fps: fps)
        let ticker = tickers[grid] ?? {
            let made = StreamTicker(grid, loop: loop, metrics: metrics, heartbeatNanoseconds: heartbeatNanoseconds, registry: self)
            tickers[grid] = made
            return made
        }()
        ticker.add(writer, frames: frames, firstK: firstK, writesFirst: writesFirst, endK: endK, firstTick: firstTick,
                   retryMilliseconds: retryMilliseconds)
    }

    fileprivate func remove(_ ticker: StreamTicker) {
        if tickers[ticker.grid] === ticker { tickers[ticker.grid] = nil }
    }

    var count: Int { tickers.count }
}
