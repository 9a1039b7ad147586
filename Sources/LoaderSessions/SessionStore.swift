import EventLoop
import Glibc
import LoaderEngine
import Synchronization

/// Where live sessions are kept: one party reports events, many watch.
/// The service speaks to this interface only; `LocalSessionStore` (memory,
/// with a journal when there is a data directory) is the first backend.
///
/// A store knows sessions, loaders and time, never HTTP: it fails with
/// `SessionError`, which the API layer maps to a status.
///
/// Operations answer through `reply`, once, on any thread: before they
/// return when the store knows at once (the local store's reads), later
/// when it must wait (a journal's sync, a network store). A change is
/// replied to with success only once it is durable. Callers are event
/// loops: an operation never blocks.
public protocol SessionStore: AnyObject, Sendable {
    /// The wall clock sessions are timed by (a test's, or the system's).
    var clock: WallClock { get }
    /// Live sessions now.
    var count: Int { get }

    /// Begins the store's own work on the server's loops (a connection to
    /// keep, sessions to watch), once they exist.
    func start(on loops: [EventLoop])

    /// A new session of `definition` configured as `loader`.
    func create(definition: LoaderDefinition, params: [(String, JSONValue)], loader: ConfiguredLoader, reply: @escaping SessionReply<SessionCreated>)
    /// Records an event at the session clock now; the token must match.
    func post(_ kind: SessionEvent.Kind, to id: String, token: String?, reply: @escaping SessionReply<SessionEvent>)
    /// Whether `token` may write to session `id` (not found, expired, wrong token).
    func authorize(_ id: String, token: String?, reply: @escaping SessionReply<Void>)
    func delete(_ id: String, token: String?, reply: @escaping SessionReply<Void>)
    func snapshot(_ id: String, reply: @escaping SessionReply<SessionSnapshot>)

    /// A viewer's stream begins (counted against the viewer limit) or ends.
    /// The service calls `removeViewer` exactly once for each viewer
    /// `addViewer` admitted, however it ends: its stream closes, or its
    /// client left before the stream could start (`StreamHold`).
    func addViewer(_ id: String, reply: @escaping SessionReply<SessionSnapshot>)
    func removeViewer(_ id: String)
    /// A watched session as its viewers see it now (at once, from what the
    /// store holds): its loader with every event so far, or why their
    /// streams end (`gone`, `unavailable`).
    func watch(_ id: String) -> SessionWatch

    /// The store's own figures for `/metrics`.
    var metrics: [StoreMetric] { get }

    /// Whether the store can be reached now (`/readyz` says so); a store
    /// in this process always can.
    var isAvailable: Bool { get }
}

extension SessionStore {
    public func start(on loops: [EventLoop]) {}
    public var isAvailable: Bool { true }
}

/// A watched session now: its loader, or why its viewers' streams end.
public enum SessionWatch: Sendable {
    case live(ConfiguredLoader)
    case ended(reason: String)
}

/// One figure a store reports (`/metrics` writes it out).
public struct StoreMetric: Sendable {
    public enum Kind: String, Sendable { case gauge, counter }
    public enum Value: Sendable { case int(Int), seconds(Double) }
    public let name: String
    public let help: String
    public let kind: Kind
    public let value: Value
    /// Label names and values (the values escaped when written).
    public var labels: [(name: String, value: String)] = []
}

/// The wall clock sessions are timed by, in seconds since the Unix epoch
/// (a session's clock must survive a restart, so it cannot be monotonic):
/// the system's, or one a test moves.
public struct WallClock: Sendable {
    public let now: @Sendable () -> Double

    public init(_ now: @escaping @Sendable () -> Double) { self.now = now }

    public static let system = WallClock {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

/// How a store answers an operation (see `SessionStore`).
public typealias SessionReply<T> = @Sendable (Result<T, SessionError>) -> Void

/// An event of a session, at seconds on the session clock.
public struct SessionEvent: Sendable, Equatable {
    /// Named as the loader events they set (`EventSpec.name`).
    public enum Kind: String, Sendable, CaseIterable { case progress, finish, stop }
    public let kind: Kind
    public let t: Double
}

/// What creating a session answers.
public struct SessionCreated: Sendable {
    public let id: String
    public let token: String
    public let loader: String
    public let createdAt: Double
}

/// A session as it is now, safe to read outside the store.
public struct SessionSnapshot: Sendable {
    public let id: String
    public let loader: ConfiguredLoader
    public let params: [(String, JSONValue)]
    public let createdAt: Double
    public let events: [SessionEvent]
    public let viewers: Int
    /// The session clock when the snapshot was taken: seconds since the
    /// session was created.
    public let now: Double
}

/// The limits every store enforces.
public struct SessionLimits: Sendable {
    public var maxSessions = 100_000
    public var ttlSeconds = 3600.0
    public var maxEventsPerSession = 10_000
    public var maxViewersPerSession = 10_000
    /// The journal is compacted while running once it reaches this size
    /// (or twice its size after the last compaction, if more).
    public var journalCompactBytes = 64 << 20
    public init() {}
}

/// A value that comes once, on any thread, and the one waiter for it: read
/// at once if it has come (`value`), or handed to the waiter when it does.
public final class Outcome<Value: Sendable>: Sendable {
    private struct State { var value: Value?; var waiter: (@Sendable (Value) -> Void)? }
    private let state = Mutex(State())

    public init() {}

    /// The first value given is the outcome; later ones are ignored.
    public func complete(_ value: Value) {
        let waiter = state.withLock { s -> (@Sendable (Value) -> Void)? in
            guard s.value == nil else { return nil }
            s.value = value
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?(value)
    }

    /// The outcome, if it has come.
    public var value: Value? { state.withLock { $0.value } }

    /// Runs `body` with the outcome: now if it is known, else when it is.
    public func whenDone(_ body: @escaping @Sendable (Value) -> Void) {
        let value = state.withLock { s -> Value? in
            if s.value == nil { s.waiter = body }
            return s.value
        }
        if let value { body(value) }
    }
}

/// Tells when an accepted change is durable (written and synced): an answer
/// that acknowledges the change waits for it.
public typealias WriteTicket = Outcome<Bool>

extension [SessionEvent] {
    /// The events as the loader takes them.
    var loaderEvents: LoaderEvents {
        var e = LoaderEvents()
        for event in self {
            switch event.kind {
            case .progress: e.progress.append(event.t)
            case .finish: e.finish = event.t
            case .stop: e.stop = event.t
            }
        }
        return e
    }
}

extension ConfiguredLoader {
    /// The first session time from `t` on at which the loader is done, to
    /// 1e-6 s; nil if it is not done within a year. (Done, once reached,
    /// stays so.) What a store that cannot compute frames checks events against.
    func doneTime(from t: Double) -> Double? {
        if frame(at: t).done { return t }
        var step = 1.0
        while !frame(at: t + step).done {
            step *= 2
            if step > 31_536_000 { return nil }
        }
        var lo = t, hi = t + step
        while hi - lo > 1e-6 {
            let mid = (lo + hi) / 2
            if frame(at: mid).done { hi = mid } else { lo = mid }
        }
        return hi
    }
}

extension LoaderDefinition {
    /// Whether sessions of this loader take events of `kind`: the loader
    /// declares the event (the web loader's progress and finish; every
    /// loader's stop).
    func accepts(_ kind: SessionEvent.Kind) -> Bool {
        events.contains { $0.name == kind.rawValue }
    }
}

/// `params` of a session as loader query items: strings and numbers.
package enum SessionParams {
    package static func items(_ params: [(String, JSONValue)]) throws(SessionError) -> [(name: String, value: String)] {
        try params.map { (name, value) throws(SessionError) -> (name: String, value: String) in
            switch value {
            case .string(let s): return (name, s)
            case .number(let n): return (name, JSONWriter.number(n))
            default: throw SessionError.invalidParameter(name)
            }
        }
    }

    /// `params` as a JSON object (the journal's records, the session's state).
    package static func write(_ params: [(String, JSONValue)], _ w: inout JSONWriter) {
        w.beginObject()
        for (name, value) in params {
            w.key(name)
            switch value {
            case .string(let s): w.value(s)
            case .number(let n): w.value(n)
            case .bool(let b): w.value(b)
            default: w.null()
            }
        }
        w.endObject()
    }
}
