import CLinux
import Glibc

/// One client connection, owned by one event loop: reads into a reusable
/// buffer, parses requests incrementally, answers them in order (pipelined
/// answers of one read burst leave in one `sendmsg`), and keeps its output
/// bounded by watermarks.
final class Connection: Selectable {
    let fd: Int32
    let loop: EventLoop
    let server: ServerCore
    let peer: SocketAddress?
    private var registration: Registration!
    private var parser: HTTPRequestParser

    // Input: bytes [readStart, readEnd) of readBuffer are unparsed.
    private var readBuffer: [UInt8]
    private var readStart = 0
    private var readEnd = 0

    // Output: chunks waiting for the socket, the first partly sent.
    private var output: [[UInt8]] = []
    private var outputOffset = 0
    private(set) var queuedBytes = 0

    private enum Pending {
        case none
        case deferred
        case stream(StreamWriter)
    }
    private var pending = Pending.none
    private var closeAfterFlush = false
    private var peerClosed = false
    private var readingPaused = false
    private var writeInterest = false
    private(set) var isClosed = false
    private var shuttingDown = false

    /// When the request now arriving began (header timeout), if one has.
    private var requestStartedAt: UInt64?
    private var lastActivity: UInt64
    private var lastWriteProgress: UInt64

    init(fd: Int32, loop: EventLoop, server: ServerCore, peer: SocketAddress?) throws {
        self.fd = fd
        self.loop = loop
        self.server = server
        self.peer = peer
        self.parser = HTTPRequestParser(limits: server.configuration.limits)
        self.readBuffer = [UInt8](repeating: 0, count: server.configuration.readBufferSize)
        let now = monotonicNanoseconds()
        lastActivity = now
        lastWriteProgress = now
        registration = try loop.register(fd, self, events: CLINUX_EPOLLIN | CLINUX_EPOLLRDHUP)
    }

    // MARK: Events

    func handle(events: UInt32) {
        if events & (CLINUX_EPOLLERR | CLINUX_EPOLLHUP) != 0 {
            close()
            return
        }
        if events & CLINUX_EPOLLOUT != 0 { flush() }
        if isClosed { return }
        if events & (CLINUX_EPOLLIN | CLINUX_EPOLLRDHUP) != 0 { readAvailable() }
    }

    private func readAvailable() {
        if readEnd == readBuffer.count { makeRoom() }
        let space = readBuffer.count - readEnd
        guard space > 0 else {
            // The parser's limits keep a request within the buffer; this is a client
            // sending more than it may.
            fail(HTTPParseError(.requestHeaderFieldsTooLarge, "request too large"))
            return
        }
        let n = readBuffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + readEnd, space) }
        if n > 0 {
            let now = monotonicNanoseconds()
            if requestStartedAt == nil && readStart == readEnd { requestStartedAt = now }
            readEnd += n
            lastActivity = now
            if case .stream = pending {
                // A streaming client has nothing more to say; ignore what it sends.
                readStart = 0
                readEnd = 0
                return
            }
            processBuffered()
            flush()
        } else if n == 0 {
            peerClosed = true
            if case .stream = pending { close(); return }
            updateInterest()
            if case .deferred = pending { closeAfterFlush = true; return }
            processBuffered()
            closeAfterFlush = true
            flush()
        } else {
            let e = errno
            if e == EAGAIN || e == EWOULDBLOCK || e == EINTR { return }
            close()
        }
    }

    /// Compacts the read buffer, or grows it while a large body arrives.
    private func makeRoom() {
        if readStart > 0 {
            let unread = readEnd - readStart
            readBuffer.withUnsafeMutableBytes { raw in
                raw.baseAddress!.copyMemory(from: raw.baseAddress! + readStart, byteCount: unread)
            }
            readStart = 0
            readEnd = unread
        } else if readBuffer.count < server.maxBufferedRequestBytes {
            readBuffer.append(contentsOf: repeatElement(0, count: min(readBuffer.count, server.maxBufferedRequestBytes - readBuffer.count)))
        }
    }

    // MARK: Requests

    /// Parses and answers every complete request that is buffered, in order,
    /// until one is answered later (deferred, stream) or output is too full.
    private func processBuffered() {
        while !isClosed && !closeAfterFlush && readStart < readEnd && queuedBytes < server.configuration.highWatermark {
            guard case .none = pending else { return }
            let event = readBuffer.withUnsafeBufferPointer { parser.parse(UnsafeBufferPointer(rebasing: $0[readStart..<readEnd])) }
            switch event {
            case .request(let request, let consumed):
                readStart += consumed
                if readStart == readEnd { readStart = 0; readEnd = 0 }
                requestStartedAt = readStart < readEnd ? monotonicNanoseconds() : nil
                dispatch(request)
            case .sendContinue:
                enqueue(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
                flush()
                return
            case .needMore:
                return
            case .error(let error):
                fail(error)
                return
            }
        }
        if queuedBytes >= server.configuration.highWatermark { pauseReading() }
    }

    private func dispatch(_ request: HTTPRequest) {
        let context = RequestContext(loop: loop, peer: peer)
        let response = server.respond(request, context)
        send(response, for: request)
    }

    private func send(_ response: HTTPResponse, for request: HTTPRequest) {
        let keepAlive = request.keepAlive && !peerClosed && !shuttingDown && !server.isShuttingDown
        let isHead = request.method == .HEAD
        switch response.body {
        case .bytes(let body):
            let hasLength = !(response.status.code < 200 || response.status.code == 204 || response.status.code == 304)
            enqueue(ResponseHead.encode(status: response.status, headers: response.headers, version: request.version,
                                        date: server.date(loop), contentLength: hasLength ? body.count : nil,
                                        keepAlive: keepAlive, serverName: server.configuration.serverName))
            if !isHead && hasLength && !body.isEmpty { enqueue(body) }
            if !keepAlive { closeAfterFlush = true }
            server.requestCompleted()
        case .stream(let start):
            enqueue(ResponseHead.encode(status: response.status, headers: response.headers, version: request.version,
                                        date: server.date(loop), contentLength: nil, keepAlive: false,
                                        serverName: server.configuration.serverName))
            if isHead {
                closeAfterFlush = true
                server.requestCompleted()
                return
            }
            let writer = StreamWriter(loop: loop, connection: self)
            pending = .stream(writer)
            server.streamOpened()
            server.requestCompleted()
            lastWriteProgress = monotonicNanoseconds()
            start(writer)
            if shuttingDown || server.isShuttingDown { shutdownStream(writer) }
        case .deferred(let start):
            pending = .deferred
            let promise = ResponsePromise(loop: loop) { [weak self] response in
                guard let self, !self.isClosed else { return }
                self.pending = .none
                self.send(response, for: request)
                self.processBuffered()
                self.flush()
            }
            start(promise)
        }
    }

    /// Answers a request that could not be parsed, then closes.
    private func fail(_ error: HTTPParseError) {
        var response = server.errorResponse(error.status, error.message)
        response.headers.replace("Connection", "close")
        enqueue(ResponseHead.encode(status: response.status, headers: response.headers, version: .http1_1,
                                    date: server.date(loop), contentLength: bodyCount(response), keepAlive: false,
                                    serverName: server.configuration.serverName))
        if case .bytes(let body) = response.body, !body.isEmpty { enqueue(body) }
        closeAfterFlush = true
        readStart = 0
        readEnd = 0
        server.requestCompleted()
        flush()
    }

    private func bodyCount(_ response: HTTPResponse) -> Int {
        if case .bytes(let body) = response.body { return body.count }
        return 0
    }

    // MARK: Output

    func enqueue(_ bytes: [UInt8]) {
        guard !bytes.isEmpty, !isClosed else { return }
        output.append(bytes)
        queuedBytes += bytes.count
    }

    /// Writes what the socket takes, in as few system calls as possible.
    func flush() {
        guard !isClosed else { return }
        while !output.isEmpty {
            let written = writeGathered()
            if written > 0 {
                consume(written)
                lastWriteProgress = monotonicNanoseconds()
                continue
            }
            if written == 0 { break }  // would block
            close()
            return
        }
        if output.isEmpty {
            if closeAfterFlush || peerClosed && isIdle {
                close()
                return
            }
        }
        if readingPaused && queuedBytes <= server.configuration.lowWatermark {
            readingPaused = false
            processBuffered()
        }
        updateInterest()
    }

    /// One `sendmsg` over up to 64 queued chunks: bytes written, 0 when the
    /// socket is full, -1 on error.
    private func writeGathered() -> Int {
        let count = min(output.count, 64)
        return withUnsafeTemporaryAllocation(of: iovec.self, capacity: count) { iov -> Int in
            // The arrays stay in `output`, unmodified, for the whole call, so
            // their storage addresses stay valid.
            for i in 0..<count {
                output[i].withUnsafeBytes { raw in
                    let skip = i == 0 ? outputOffset : 0
                    iov[i] = iovec(iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress! + skip), iov_len: raw.count - skip)
                }
            }
            var message = msghdr()
            message.msg_iov = iov.baseAddress
            message.msg_iovlen = count
            while true {
                let n = sendmsg(fd, &message, Int32(MSG_NOSIGNAL))
                if n >= 0 { return n }
                let e = errno
                if e == EINTR { continue }
                if e == EAGAIN || e == EWOULDBLOCK { return 0 }
                return -1
            }
        }
    }

    private func consume(_ written: Int) {
        var n = written
        queuedBytes -= written
        while n > 0, let first = output.first {
            let left = first.count - outputOffset
            if n >= left {
                n -= left
                output.removeFirst()
                outputOffset = 0
            } else {
                outputOffset += n
                n = 0
            }
        }
    }

    private var isIdle: Bool {
        if case .none = pending { return readStart == readEnd && output.isEmpty }
        return false
    }

    private func pauseReading() {
        guard !readingPaused else { return }
        readingPaused = true
        updateInterest()
    }

    private func updateInterest() {
        guard !isClosed else { return }
        var events: UInt32 = 0
        if !readingPaused && !peerClosed { events |= CLINUX_EPOLLIN | CLINUX_EPOLLRDHUP }
        let wantWrite = !output.isEmpty
        if wantWrite { events |= CLINUX_EPOLLOUT }
        loop.modify(registration, events: events)
        writeInterest = wantWrite
    }

    // MARK: Streams

    func finishStream() {
        closeAfterFlush = true
        flush()
    }

    private func shutdownStream(_ writer: StreamWriter) {
        if let handler = writer.onShutdown {
            writer.onShutdown = nil
            handler()
        } else {
            writer.finish()
        }
    }

    // MARK: Time and shutdown

    /// Called by the loop's tick: enforce the header, idle and stall timeouts.
    func checkTimeouts(now: UInt64) {
        let c = server.configuration
        switch pending {
        case .stream:
            if queuedBytes > 0 && now &- lastWriteProgress > c.streamStallTimeout { close() }
        case .deferred:
            break
        case .none:
            if let started = requestStartedAt, readStart < readEnd || parser.isMidRequest {
                if now &- started > c.headerTimeout {
                    fail(HTTPParseError(.requestTimeout, "the request did not arrive in time"))
                }
            } else if output.isEmpty && now &- lastActivity > c.idleTimeout {
                close()
            } else if !output.isEmpty && now &- lastWriteProgress > c.streamStallTimeout {
                close()  // a client that never reads its answers
            }
        }
    }

    /// Graceful shutdown: idle connections close, busy ones after their answer,
    /// streams get their last message.
    func beginShutdown() {
        guard !isClosed, !shuttingDown else { return }
        shuttingDown = true
        switch pending {
        case .stream(let writer): shutdownStream(writer)
        case .deferred: closeAfterFlush = true
        case .none:
            if isIdle { close() } else { closeAfterFlush = true; flush() }
        }
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        loop.deregister(registration)
        Glibc.close(fd)
        output.removeAll()
        queuedBytes = 0
        if case .stream(let writer) = pending {
            server.streamClosed()
            writer.connectionClosed()
        }
        pending = .none
        server.connectionClosed(self)
    }
}

/// What a responder knows of the request's connection.
public struct RequestContext {
    /// The loop the connection runs on: for timers and streams.
    public let loop: EventLoop
    /// The client's address, when known.
    public let peer: SocketAddress?
}
