import EventLoop
import Synchronization

/// Response header fields in order. Names are written as given.
public struct HTTPResponseHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    public private(set) var fields: [(name: String, value: String)] = [] {
        didSet { encoded = nil }
    }
    /// The fields as they go on the wire (`\r\nName: value` each), once
    /// `prepareEncoding()` has written them: an answer sent many times
    /// (a cached one) is not encoded again for each. Any change drops it.
    private(set) var encoded: [UInt8]?

    public init() {}
    public init(dictionaryLiteral elements: (String, String)...) {
        // Labels are not part of a tuple's layout: the literal's own array,
        // not a copy (`map` or `as` would build a second one per answer).
        fields = unsafeBitCast(elements, to: [(name: String, value: String)].self)
    }

    /// Writes the fields' wire form now, for an answer that will be sent
    /// many times as it is.
    public mutating func prepareEncoding() {
        var bytes = [UInt8]()
        ResponseHead.appendFields(fields, to: &bytes)
        encoded = bytes
    }

    public mutating func add(_ name: String, _ value: String) { fields.append((name, value)) }

    /// Sets `name` to `value`, replacing any earlier fields of that name.
    public mutating func replace(_ name: String, _ value: String) {
        remove(name)
        fields.append((name, value))
    }

    public mutating func remove(_ name: String) {
        fields.removeAll { Self.sameName($0.name, name) }
    }

    public subscript(name: String) -> String? {
        for field in fields where Self.sameName(field.name, name) { return field.value }
        return nil
    }

    /// Names compared without case, byte by byte (no lowercased copies).
    static func sameName(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                guard x.count == y.count else { return false }
                for i in 0..<x.count where asciiLower(x[i]) != asciiLower(y[i]) { return false }
                return true
            }
        }
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }
}

/// How caches may keep an answer (RFC 9111) and the validator it is known
/// by (RFC 9110 §8.8.3): written as the answer's `Cache-Control` and `ETag`
/// when it is sent, and read as it is by a cache in front of the handler.
public struct Caching: Sendable, Equatable {
    public enum Freshness: Sendable, Equatable {
        /// The same for ever (a frame at an explicit time).
        case immutable
        /// Fresh for this many seconds, then revalidated.
        case maxAge(seconds: Int)
        /// Revalidated every time (it may change at any moment).
        case revalidate
        /// Kept by no cache (health: always asked afresh).
        case noStore
    }

    public let freshness: Freshness
    /// A strong validator, quoted.
    public let etag: String

    public init(_ freshness: Freshness, etag: String) {
        self.freshness = freshness
        self.etag = etag
    }

    /// Whether a cache shared by every client may give it again for the
    /// same request without asking its origin.
    public var isShared: Bool {
        switch freshness {
        case .immutable, .maxAge: true
        case .revalidate, .noStore: false
        }
    }

    /// The `Cache-Control` value.
    public var control: String {
        switch freshness {
        case .immutable: "public, max-age=31536000, immutable"
        case .maxAge(let seconds): "public, max-age=\(seconds)"
        case .revalidate: "no-cache"
        case .noStore: "no-store"
        }
    }
}

/// What a responder answers: a status, headers and a body, a stream, or a
/// response that will be ready later.
public struct HTTPResponse: Sendable {
    public enum Body: Sendable {
        /// A complete body, sent with `Content-Length`.
        case bytes([UInt8])
        /// A body written over time (server-sent events). The closure runs on
        /// the connection's loop once the head is queued; the body ends when
        /// the writer finishes, and the connection closes then.
        case stream(@Sendable (StreamWriter) -> Void)
        /// The response is produced later, on any thread, through the
        /// promise (for work that must not block the loop: disk, fsync).
        case deferred(@Sendable (ResponsePromise) -> Void)
    }

    public var status: HTTPStatus
    public var headers: HTTPResponseHeaders
    public var body: Body
    /// How caches may keep it and its validator, sent as its
    /// `Cache-Control` and `ETag`; nil for an answer with no validator,
    /// whose `Cache-Control` (if any) is among `headers`.
    public var caching: Caching?

    public init(status: HTTPStatus = .ok, headers: HTTPResponseHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = .bytes(body)
    }

    public init(status: HTTPStatus = .ok, headers: HTTPResponseHeaders = [:], stream: @escaping @Sendable (StreamWriter) -> Void) {
        self.status = status
        self.headers = headers
        self.body = .stream(stream)
    }

    /// A response completed later through `promise.succeed(_:)`.
    public static func deferred(_ start: @escaping @Sendable (ResponsePromise) -> Void) -> HTTPResponse {
        var r = HTTPResponse(status: .ok)
        r.body = .deferred(start)
        return r
    }

    /// This answer passed through `transform`: now, or for a deferred
    /// answer when it comes (on the thread that completes it). How a
    /// middleware changes answers without caring which kind they are.
    public func map(_ transform: @escaping @Sendable (HTTPResponse) -> HTTPResponse) -> HTTPResponse {
        guard case .deferred(let begin) = body else { return transform(self) }
        return .deferred { promise in begin(promise.mapping(transform)) }
    }

    /// The answer to a request whose client left before it was made
    /// (`ResponsePromise.clientLeft`): the connection closes without
    /// writing it; the access log shows 499, as nginx's does.
    public static var clientClosedRequest: HTTPResponse { HTTPResponse(status: .clientClosedRequest) }

    /// A plain-text response.
    public static func text(_ status: HTTPStatus, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array((text + "\n").utf8))
    }
}

/// Completes a deferred response from any thread, once. Completed on its
/// connection's loop (a Redis reply, a timer), the answer is taken at once;
/// from another thread, it is handed to the loop (one eventfd wake).
public final class ResponsePromise: Sendable {
    private let deliver: @Sendable (HTTPResponse) -> Void
    private let done = Synchronization.Atomic<Bool>(false)
    /// Shared with the promises mapped from this one: the client is one.
    private let left: Departure

    private final class Departure: Sendable {
        let flag = Synchronization.Atomic<Bool>(false)
    }

    init(loop: EventLoop, complete: @escaping (HTTPResponse) -> Void) {
        // The connection's own closure: used only on its loop, which `LoopBound` checks.
        let box = LoopBound(complete, loop: loop)
        deliver = { response in
            if loop.inLoop { return box.value(response) }
            loop.execute { box.value(response) }
        }
        left = Departure()
    }

    private init(left: Departure, deliver: @escaping @Sendable (HTTPResponse) -> Void) {
        self.deliver = deliver
        self.left = left
    }

    /// Whether the client closed its connection, or its sending side, before
    /// the answer came: work done only for this answer may stop, and answer
    /// `.clientClosedRequest`, which is never written (as nginx's 499).
    public var clientLeft: Bool { left.flag.load(ordering: .relaxed) }

    /// Called by the connection, on its loop.
    func clientHasLeft() { left.flag.store(true, ordering: .relaxed) }

    public func succeed(_ response: HTTPResponse) {
        guard !done.exchange(true, ordering: .acquiringAndReleasing) else { return }
        deliver(response)
    }

    /// A promise whose answer passes through `transform` (on the thread
    /// that completes it) before this one is completed with it: how a
    /// responder adds headers to, and counts, an answer it defers.
    public func mapping(_ transform: @escaping @Sendable (HTTPResponse) -> HTTPResponse) -> ResponsePromise {
        ResponsePromise(left: left) { [self] response in succeed(transform(response)) }
    }
}
