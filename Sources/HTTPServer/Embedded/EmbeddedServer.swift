/// Drives a responder with no socket, in the manner of NIO's
/// `EmbeddedChannel` and Hummingbird's router test framework: a test hands
/// it a request and reads the whole answer (status, headers, body), waits
/// for a deferred answer, and reads a stream's bytes while moving the
/// loop's clock itself. One embedded loop; use it from one thread.
public final class EmbeddedServer {
    public let loop: EventLoop
    public let responder: any HTTPResponder
    /// The responder's per-loop storage (`makeLoopStorage`).
    let storage: AnyObject?
    private var streams: [EmbeddedStream] = []
    public private(set) var isShuttingDown = false

    public init(responder: any HTTPResponder) {
        self.responder = responder
        loop = .embedded()
        storage = responder.makeLoopStorage(for: loop)
    }

    /// Streams still open end with the server, as a connection's do when it
    /// closes (which also lets go of each writer's sink).
    deinit {
        for stream in streams { stream.close() }
    }

    /// One request, answered as a connection would answer it: `HEAD` has
    /// no body, a deferred answer is waited for (up to `timeoutSeconds` of
    /// real time), and a stream is opened (read it through `stream`).
    public func request(_ method: HTTPMethod, _ target: String, headers: [(String, String)] = [],
                        body: [UInt8] = [], timeoutSeconds: Double = 5) throws(HTTPParseError) -> EmbeddedResponse {
        let request = try HTTPRequest(method: method, target: target, headers: HTTPHeaders(headers), body: body)
        var response = responder.respond(to: request, context: RequestContext(loop: loop, peer: nil, storage: storage))
        loop.runPending()
        if case .deferred(let start) = response.body {
            let answer = DeferredAnswer()
            start(ResponsePromise(loop: loop) { answer.response = $0 })
            let deadline = monotonicNanoseconds() &+ UInt64(timeoutSeconds * 1e9)
            while answer.response == nil, monotonicNanoseconds() < deadline {
                loop.waitForTasks(upToNanoseconds: deadline &- monotonicNanoseconds())
            }
            guard let final = answer.response else {
                return EmbeddedResponse(status: 0, headers: response.headers, body: [], stream: nil)
            }
            response = final
        }
        switch response.body {
        case .bytes(let bytes):
            // As a connection sends it: Content-Length (also for HEAD), no body for HEAD, 204 and 304.
            var headers = response.headers
            let hasLength = !(response.status.code < 200 || response.status.code == 204 || response.status.code == 304)
            if hasLength { headers.replace("Content-Length", String(bytes.count)) }
            return EmbeddedResponse(status: response.status.code, headers: headers, body: hasLength && method != .HEAD ? bytes : [], stream: nil)
        case .stream(let start):
            guard method != .HEAD else {
                return EmbeddedResponse(status: response.status.code, headers: response.headers, body: [], stream: nil)
            }
            let stream = EmbeddedStream(loop: loop)
            streams.append(stream)
            start(stream.writer)
            if isShuttingDown { stream.writer.shutdown() }
            loop.runPending()
            return EmbeddedResponse(status: response.status.code, headers: response.headers, body: [], stream: stream)
        case .deferred:
            preconditionFailure("a deferred answer completed with another deferred answer")
        }
    }

    /// Moves the loop's clock, running every timer due on the way.
    public func advance(seconds: Double) {
        loop.advance(byNanoseconds: UInt64((seconds * 1e9).rounded()))
    }

    /// A graceful shutdown: open streams get their last message.
    public func shutdown() {
        isShuttingDown = true
        for stream in streams where stream.writer.isOpen { stream.writer.shutdown() }
        loop.runPending()
    }
}

/// A whole answer from an `EmbeddedServer`.
public struct EmbeddedResponse {
    /// 0 when a deferred answer never came.
    public let status: Int
    public let headers: HTTPResponseHeaders
    public let body: [UInt8]
    /// The stream, when the answer is one.
    public let stream: EmbeddedStream?

    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// A stream's client end: what has been written so far, whether it ended,
/// and whether the client reads (`reading = false` lets output pile up, as
/// a client that stops reading does).
public final class EmbeddedStream: StreamSink {
    public private(set) var bytes: [UInt8] = []
    public private(set) var isFinished = false
    /// While false, writes count as queued and `hasRoom` turns false once
    /// they pass `streamHighWatermark`.
    public var reading = true {
        didSet { if reading { queuedBytes = 0 } }
    }
    public private(set) var queuedBytes = 0
    public var streamHighWatermark = HTTPServerConfiguration().streamHighWatermark
    /// The client goes away during the next write, as a connection whose
    /// `send` fails closes inside it.
    public var closesOnNextWrite = false
    private(set) var writer: StreamWriter!

    init(loop: EventLoop) {
        writer = StreamWriter(loop: loop, sink: self)
    }

    public var text: String { String(decoding: bytes, as: UTF8.self) }
    public var isOpen: Bool { writer.isOpen }

    func send(_ bytes: [UInt8]) {
        if closesOnNextWrite {
            closesOnNextWrite = false
            writer.connectionClosed()
            return
        }
        self.bytes += bytes
        if !reading { queuedBytes += bytes.count }
    }

    func finishStream() {
        isFinished = true
        writer.connectionClosed()
    }

    /// The client goes away.
    public func close() { writer.connectionClosed() }
}

private final class DeferredAnswer: @unchecked Sendable {
    var response: HTTPResponse?
}
