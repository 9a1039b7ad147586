import HTTPServer
import LoaderEngine

/// One loader of a multiplexed stream, on the stream's clock.
enum MultiplexedLoader: Sendable {
    case stream(ConfiguredLoader)
    case shared(SteadyLoop)
}

/// The frames of several loaders as one stream: each tick's events for
/// every loader still running, the last with the tick's id. One client's
/// own, made afresh per frame (its events carry the client's choice of
/// loaders); a shared-clock loader's frame comes from the loop's
/// `SharedClockFrameSource`.
final class MultiplexSource: TickerFrames {
    /// Per loader: its renderer on the stream's clock, or its shared frames.
    private var renderers: [FrameRenderer?]
    private let shared: [SharedClockFrameSource?]
    /// Loaders whose last (done) frame has been sent.
    private var finished: [Bool]
    private let t0: Double, fps: Double

    init(_ loaders: [MultiplexedLoader], t0: Double, fps: Double, viewers: SharedClockViewers, shared frames: SharedClockFrames) {
        self.t0 = t0
        self.fps = fps
        renderers = loaders.map { if case .stream(let loader) = $0 { FrameRenderer(loader) } else { nil } }
        shared = loaders.map { if case .shared(let steady) = $0 { viewers.frames(for: steady, fps: fps, shared: frames) } else { nil } }
        finished = Array(repeating: false, count: loaders.count)
    }

    func event(_ k: Int) -> SharedFrame {
        var out: [UInt8] = []
        out.reserveCapacity(finished.count * 512)
        let last = finished.lastIndex(of: false) ?? -1
        for i in finished.indices where !finished[i] {
            if i == last { out.append(contentsOf: "id: \(k)\n".utf8) }
            out.append(contentsOf: #"event: frame\#ndata: {"index":\#(i),"frame":"#.utf8)
            if let source = shared[i] {
                out.append(contentsOf: source.frame(k).json)
            } else {
                let (json, done) = renderers[i]!.encodedFrame(at: t0 + Double(k) / fps)
                out.append(contentsOf: json)
                finished[i] = done
            }
            out.append(contentsOf: "}\n\n".utf8)
        }
        return .frame(bytes: out, done: !finished.contains(false))
    }

    func release() {
        for case let source? in shared { source.release() }
    }
}
