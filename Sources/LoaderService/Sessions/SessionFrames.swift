import HTTPServer
import LoaderEngine
import LoaderSessions
import Synchronization

/// A frame as a stream sends it, or the end of the stream and its reason.
enum SharedFrame: Sendable {
    case frame(bytes: [UInt8], done: Bool)
    case ended(reason: String)
}

/// Each watched session's stream frames, each (fps, k) encoded once and
/// shared by every viewer on every loop, for as long as the session's
/// events are those they were made with. Bounded: 64 frames a session, and
/// `maxSessions` sessions (past it, all are let go and made again).
final class SessionFrameCache: Sendable {
    struct Key: Hashable { let fps: Double; let k: Int }
    private struct Entry {
        var events: LoaderEvents
        var frames: [Key: SharedFrame] = [:]
    }
    static let maxSessions = 65_536
    private let entries = Mutex<[String: Entry]>([:])

    /// Frame `k` at `fps` of session `id`, now `loader`: as kept, or made
    /// (outside the lock) and kept.
    func frame(_ id: String, of loader: ConfiguredLoader, fps: Double, k: Int, encode: (Frame, Int) -> [UInt8]) -> SharedFrame {
        let key = Key(fps: fps, k: k)
        let kept = entries.withLock { all -> SharedFrame? in
            guard let entry = all[id], entry.events == loader.events else { return nil }
            return entry.frames[key]
        }
        if let kept { return kept }
        let frame = loader.frame(at: Double(k) / fps)
        let made = SharedFrame.frame(bytes: encode(frame, k), done: frame.done)
        entries.withLock { all in
            if all[id]?.events != loader.events {
                if all[id] == nil && all.count >= Self.maxSessions { all.removeAll(keepingCapacity: true) }
                all[id] = Entry(events: loader.events)
            }
            if all[id]!.frames.count >= 64 { all[id]!.frames.removeAll(keepingCapacity: true) }
            all[id]!.frames[key] = made
        }
        return made
    }

    /// A loop's last viewer of `id` left (another loop's viewers, if any,
    /// make their frames again).
    func forget(_ id: String) {
        _ = entries.withLock { $0.removeValue(forKey: id) }
    }

    var count: Int { entries.withLock { $0.count } }
}

/// The frames of a session at one fps on one event loop, on the session's
/// clock: frame k at session time k/fps, encoded once and shared by every
/// viewer at that fps (so all of them receive the same ids). The store is
/// asked once per frame for all of the loop's viewers. Loop thread only.
final class SessionFrames: TickerFrames {
    struct Key: Hashable { let id: String; let fps: Double }
    let store: any SessionStore
    let cache: SessionFrameCache
    let id: String
    /// The session's clock on the wall clock: frame k at its creation + k/fps.
    let clock: EpochFrames
    var fps: Double { clock.fps }
    private let registry: SessionViewers
    /// The frame asked for last: a tick's viewers all ask for the same.
    private var last: (k: Int, frame: SharedFrame)?

    fileprivate init(store: any SessionStore, cache: SessionFrameCache, id: String, createdAt: Double, fps: Double, now: UInt64,
                     registry: SessionViewers) {
        self.store = store
        self.cache = cache
        self.id = id
        self.registry = registry
        clock = EpochFrames(fps: fps, wallOffset: store.clock.now() - Double(now) / 1e9, origin: createdAt)
    }

    func event(_ k: Int) -> SharedFrame {
        if let last, last.k == k { return last.frame }
        let frame: SharedFrame
        switch store.watch(id) {
        case .ended(let reason): frame = .ended(reason: reason)
        case .live(let loader):
            frame = cache.frame(id, of: loader, fps: fps, k: k) { frame, k in
                ServerSentEvent.event(id: String(k), event: "frame", singleLineData: FrameEncoder.encode(frame))
            }
        }
        last = (k, frame)
        return frame
    }

    /// A viewer's stream ended (its count in the store is let go when its
    /// connection closes: `StreamHold`).
    func release() {
        if registry.release(Key(id: id, fps: fps)) { cache.forget(id) }
    }
}

/// An event loop's `SessionFrames`, by session and fps, while they have
/// viewers. Loop thread only.
typealias SessionViewers = Holdings<SessionFrames.Key, SessionFrames>

extension Holdings<SessionFrames.Key, SessionFrames> {
    /// The frames for a new viewer (`release` them when its stream ends).
    func frames(store: any SessionStore, cache: SessionFrameCache, id: String, createdAt: Double, fps: Double, now: UInt64) -> SessionFrames {
        acquire(SessionFrames.Key(id: id, fps: fps)) {
            SessionFrames(store: store, cache: cache, id: id, createdAt: createdAt, fps: fps, now: now, registry: self)
        }
    }
}
