import EventLoop
/// Where a stream's bytes go: a connection, or an embedded test sink.
/// Loop thread only.
protocol StreamSink: AnyObject {
    /// Bytes queued for the client and not yet taken by it.
    var queuedBytes: Int { get }
    /// Above this many queued bytes the client is not keeping up.
    var streamHighWatermark: Int { get }
    func send(_ bytes: [UInt8])
    /// What is queued is still delivered, then the stream closes.
    func finishStream()
}

/// The writing end of a streamed response (server-sent events). Use it only
/// on its loop (`loop`): from the stream closure, its timers and `execute`.
///
/// A producer checks `hasRoom` before writing a frame and skips the frame
/// when the client is not reading: the server never queues without bound.
public final class StreamWriter {
    public let loop: EventLoop
    /// Strong: a stream writes several times per frame, and a weak load
    /// each time costs more than the write's own work. The sink (its
    /// connection) holds this writer too; `connectionClosed`, which every
    /// close calls, breaks the cycle.
    var sink: (any StreamSink)?
    private var closed = false
    /// Called once when the stream ends for any reason: the client went away,
    /// it read nothing for too long, the server closed it, or `finish`.
    public var onClose: (() -> Void)?
    /// Also called once when the stream ends, after `onClose`: for what
    /// holds a place for the stream (a count of streams) besides its producer.
    private var closeHandlers: [() -> Void] = []
    /// Called when the server shuts down gracefully: write a last message and
    /// `finish()`. Without it the stream is finished at once.
    public var onShutdown: (() -> Void)?

    init(loop: EventLoop, sink: any StreamSink) {
        self.loop = loop
        self.sink = sink
    }

    public var isOpen: Bool { !closed && sink != nil }

    /// Runs `body` once when the stream ends (at once if it has ended).
    public func whenClosed(_ body: @escaping () -> Void) {
        loop.assertInLoop()
        if closed { body() } else { closeHandlers.append(body) }
    }

    /// Whether the client has read enough that another write will not pile up.
    public var hasRoom: Bool {
        loop.assertInLoop()
        guard let sink, !closed else { return false }
        return sink.queuedBytes < sink.streamHighWatermark
    }

    /// Bytes queued for this client and not yet taken by the kernel.
    public var queuedBytes: Int { sink?.queuedBytes ?? 0 }

    /// Queues `bytes` and writes what the socket takes now. False once closed.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        loop.assertInLoop()
        guard let sink, !closed else { return false }
        sink.send(bytes)
        return !closed
    }

    /// Ends the stream: what is queued is still sent, then the connection closes.
    public func finish() {
        loop.assertInLoop()
        guard let sink, !closed else { return }
        sink.finishStream()
    }

    /// The server shuts down: the stream's last message, or its end.
    func shutdown() {
        if let handler = onShutdown {
            onShutdown = nil
            handler()
        } else {
            finish()
        }
    }

    func connectionClosed() {
        guard !closed else { return }
        closed = true
        sink = nil
        let handler = onClose
        onClose = nil
        onShutdown = nil
        handler?()
        let handlers = closeHandlers
        closeHandlers = []
        for body in handlers { body() }
    }
}

/// Server-sent event framing (WHATWG HTML §9.2): `field: value` lines, an
/// empty line ending each event; a multi-line `data` is sent as several
/// `data:` lines.
public enum ServerSentEvent {
    public static func event(id: String? = nil, event: String? = nil, data: String) -> [UInt8] {
        var out = [UInt8]()
        append(id: id, event: event, to: &out)
        appendData(Array(data.utf8), to: &out)
        return out
    }

    /// An event whose data is already bytes without line breaks (a frame's JSON).
    public static func event(id: String? = nil, event: String? = nil, singleLineData data: [UInt8]) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(data.count + 48)
        append(id: id, event: event, to: &out)
        out.append(contentsOf: "data: ".utf8)
        out.append(contentsOf: data)
        out.append(contentsOf: "\n\n".utf8)
        return out
    }

    /// `retry: <ms>` (reconnection time for EventSource).
    public static func retry(milliseconds: Int) -> [UInt8] { Array("retry: \(milliseconds)\n\n".utf8) }

    /// A comment line (ignored by clients; keeps proxies from timing out).
    public static func comment(_ text: String = "") -> [UInt8] { Array(": \(text)\n\n".utf8) }

    private static func append(id: String?, event: String?, to out: inout [UInt8]) {
        if let id { line("id", id, &out) }
        if let event { line("event", event, &out) }
    }

    private static func appendData(_ data: [UInt8], to out: inout [UInt8]) {
        var start = 0
        var i = 0
        while i <= data.count {
            if i == data.count || data[i] == 0x0A || data[i] == 0x0D {
                out.append(contentsOf: "data: ".utf8)
                out.append(contentsOf: data[start..<i])
                out.append(0x0A)
                if i < data.count && data[i] == 0x0D && i + 1 < data.count && data[i + 1] == 0x0A { i += 1 }
                start = i + 1
            }
            i += 1
        }
        out.append(0x0A)
    }

    private static func line(_ field: String, _ value: String, _ out: inout [UInt8]) {
        out.append(contentsOf: field.utf8)
        out.append(contentsOf: ": ".utf8)
        for byte in value.utf8 where byte != 0x0A && byte != 0x0D { out.append(byte) }
        out.append(0x0A)
    }
}
