import HTTPServer
import LoaderEngine

/// Identifies streams that compute the same frame for the same k: the
/// loader with its parameters and events, fps and t0.
struct StreamKey: Hashable, Sendable {
    let key: CacheKey

    init(loader: ConfiguredLoader, fps: Double, t0: Double) {
        var key = CacheKey(loader.name)
        for (spec, value) in zip(loader.parameters.specs, loader.parameters.values) { key.append(spec.name); key.append("\(value)") }
        key.append(loader.events.stop.map { "stop=\($0)" } ?? "")
        key.append(loader.events.finish.map { "finish=\($0)" } ?? "")
        key.append(loader.events.progress.map { "\($0)" }.joined(separator: ","))
        key.append("fps=\(fps)")
        key.append("t0=\(t0)")
        self.key = key
    }
}

/// Encoded frame events shared by the streams of one event loop: a frame is
/// computed and encoded once, and its bytes go to every stream that needs
/// frame k of the same key. Bounded: cleared when full. Loop thread only.
final class StreamFrameCache {
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

/// The frames of one loader, parameters, fps and t0 on one event loop:
/// frame k shows `t0 + k/fps`, computed and encoded once for every stream
/// that needs it (`StreamFrameCache`).
final class ReplayFrames: TickerFrames {
    let t0: Double, fps: Double
    let id: Int
    private let cache: StreamFrameCache
    private var renderer: FrameRenderer
    /// The event asked for last: the streams of a tick mostly ask for the same.
    private var last: (k: Int, bytes: [UInt8], done: Bool)?

    init(_ loader: ConfiguredLoader, t0: Double, fps: Double, id: Int, cache: StreamFrameCache) {
        self.t0 = t0
        self.fps = fps
        self.id = id
        self.cache = cache
        renderer = FrameRenderer(loader)
    }

    func event(_ k: Int) -> SharedFrame {
        if let last, last.k == k { return .frame(bytes: last.bytes, done: last.done) }
        let event = cache.event(key: id, k: k) {
            let (json, done) = renderer.encodedFrame(at: t0 + Double(k) / fps)
            return (ServerSentEvent.event(id: String(k), event: "frame", singleLineData: json), done)
        }
        last = (k, event.bytes, event.done)
        return .frame(bytes: event.bytes, done: event.done)
    }

    func release() { cache.release() }
}
