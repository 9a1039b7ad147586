import CLinux
import EventLoop
import Glibc

/// One client connection, owned by one event loop: reads into a reusable
/// buffer, parses requests incrementally, answers them in order (pipelined
/// answers of one read burst leave in one `sendmsg`), and keeps its output
/// bounded by watermarks.
final class Connection: Selectable, StreamSink {
    let loop: EventLoop
    let server: ServerCore
    /// Its loop's share of the server (scratch buffer, caches, counts).
    private let loopState: ServerCore.LoopState
    let peer: SocketAddress?
    /// A socket, or an embedded client in memory (`EmbeddedServer`): every
    /// system call below goes to it.
    private var transport: ConnectionTransport
    private var parser: HTTPRequestParser

    // Input is read into the loop's scratch buffer; only the bytes of a
    // request that has not fully arrived stay here, so an idle connection
    // holds no input buffer at all.
    private var pendingInput: [UInt8] = []

    private var output = OutputQueue()
    var queuedBytes: Int { output.bytes }

    private var state = ConnectionState.open
    private var input = ConnectionInput.reading

    /// The epoll events registered now (changed only when they must).
    private var registeredEvents: UInt32 = CLINUX_EPOLLIN | CLINUX_EPOLLRDHUP
    var isClosed: Bool { state.isClosed }

    /// When the request now arriving began (header timeout), if one has.
    private var requestStartedAt: UInt64?
    private var lastActivity: UInt64
    private var lastWriteProgress: UInt64
    /// The request that ends this connection broke the rules: linger
    /// before closing (`ConnectionState.lingering`).
    private var lingers = false
    var lastWriteProgressTime: UInt64 { lastWriteProgress }

    /// The peer address counted against `maxConnectionsPerAddress` (nil:
    /// exempt or embedded), released when the connection ends.
    var countedAddress: IPAddress?
    /// Its place in its loop's list of idle connections (`LoopState`).
    var isIdleListed = false
    var idleSince: UInt64 = 0
    var idleNext: Connection?
    var idlePrevious: Connection?
    /// Admitted while the server drains: answered like any other (with
    /// `Connection: close`), but the drain does not wait for it.
    let arrivedWhileShuttingDown: Bool
    /// Counted among the connections the drain waits for (`ServerCore`).
    var countedInDrain = false
    /// A deferred answer's start is running: an answer it gives at once
    /// is taken by the parsing loop that dispatched it, which goes on.
    private var startingDeferred = false

    convenience init(fd: Int32, loop: EventLoop, server: ServerCore, peer: SocketAddress?) throws {
        try self.init(transport: .socket(fd: fd, registration: nil), loop: loop, server: server, peer: peer)
    }

    /// A connection whose client is `client`, in memory, on an embedded loop.
    convenience init(embedded client: EmbeddedClient, loop: EventLoop, server: ServerCore, peer: SocketAddress?) {
        // An embedded client's registration cannot fail.
        try! self.init(transport: .embedded(client), loop: loop, server: server, peer: peer)
    }

    private init(transport: ConnectionTransport, loop: EventLoop, server: ServerCore, peer: SocketAddress?) throws {
        self.transport = transport
        self.loop = loop
        self.server = server
        self.loopState = server.loopStates[loop.index]
        self.peer = peer
        self.parser = HTTPRequestParser(limits: server.configuration.limits)
        arrivedWhileShuttingDown = server.isShuttingDown
        lastActivity = loop.now
        lastWriteProgress = lastActivity
        try self.transport.register(self, on: loop, events: registeredEvents)
    }

    // MARK: Events

    func handle(events: UInt32) {
        loop.assertInLoop()
        if events & (CLINUX_EPOLLERR | CLINUX_EPOLLHUP) != 0 {
            close()
            return
        }
        if events & CLINUX_EPOLLOUT != 0 { flush() }
        if isClosed { return }
        if events & (CLINUX_EPOLLIN | CLINUX_EPOLLRDHUP) != 0 { readAvailable() }
    }

    private func readAvailable() {
        let scratch = loopState.scratch
        let n = transport.read(into: scratch)
        if n >= 0 && isIdleListed { loopState.removeIdle(self) }
        if case .lingering(let since, let dropped) = state {
            // Dropped unread, until the client closes or sends more than is worth reading.
            if n > 0 {
                if dropped + n > server.configuration.maxLingerBytes { close() } else { state = .lingering(since: since, dropped: dropped + n) }
            } else if n == 0 || !(errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                close()
            }
            return
        }
        if n > 0 {
            let now = loop.wakeTime
            if requestStartedAt == nil && pendingInput.isEmpty { requestStartedAt = now }
            lastActivity = now
            if case .streaming = state { return }  // a streaming client has nothing more to say
            if pendingInput.isEmpty {
                let consumed = processBuffered(UnsafeBufferPointer(rebasing: scratch[0..<n]))
                if consumed < n { pendingInput = Array(scratch[consumed..<n]) }
            } else {
                pendingInput.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[0..<n]))
                processPending()
            }
            if pendingInput.count > server.maxBufferedRequestBytes {
                fail(HTTPParseError(.contentTooLarge, "request too large"))
                return
            }
            if !pendingInput.isEmpty && !isParsing { pauseReadingWhileBlocked() }
            flush()
        } else if n == 0 {
            input = .ended
            if case .streaming = state { close(); return }
            updateInterest()
            if case .awaitingAnswer(let promise, _) = state {
                // The answer is still written if it comes, but work done only for it may stop.
                promise.clientHasLeft()
                state = .awaitingAnswer(promise, thenClose: true)
                return
            }
            processPending()
            closeAfterAnswers()
            flush()
        } else {
            let e = errno
            if e == EAGAIN || e == EWOULDBLOCK || e == EINTR { return }
            close()
        }
    }

    /// Whether requests are being taken from the input now (not waiting for
    /// a deferred answer, a stream, or the output to drain; not closing).
    private var isParsing: Bool {
        guard case .open = state else { return false }
        return queuedBytes < server.configuration.highWatermark
    }

    /// No more requests: close once what is under way is answered and written.
    private func closeAfterAnswers() {
        switch state {
        case .open: state = .closing
        case .awaitingAnswer(let promise, _): state = .awaitingAnswer(promise, thenClose: true)
        case .streaming(let writer, _): state = .streaming(writer, ending: true)
        case .closing, .lingering, .closed: break
        }
    }

    /// Bytes wait while requests cannot be taken: stop reading until they can.
    private func pauseReadingWhileBlocked() {
        if pendingInput.count >= server.configuration.readBufferSize { pauseReading() }
    }

    /// Parses what waits in `pendingInput`.
    private func processPending() {
        guard !pendingInput.isEmpty else { return }
        let input = pendingInput
        let consumed = input.withUnsafeBufferPointer { processBuffered($0) }
        if consumed == input.count {
            pendingInput = []
        } else if consumed > 0 {
            pendingInput = Array(input[consumed...])
        }
    }

    // MARK: Requests

    /// Parses and answers every complete request in `input`, in order, until
    /// one is answered later (deferred, stream) or output is too full.
    /// Returns how many bytes were taken.
    private func processBuffered(_ input: UnsafeBufferPointer<UInt8>) -> Int {
        var start = 0
        while !isClosed && isParsing && start < input.count {
            let rest = UnsafeBufferPointer(rebasing: input[start...])
            let request: HTTPRequest, consumed: Int
            if !parser.isMidRequest, let kept = loopState.lastRequest.match(rest) {
                (request, consumed) = kept
            } else {
                switch parser.parse(rest) {
                case .request(let parsed, let taken):
                    loopState.lastRequest.remember(parsed, parsedFrom: UnsafeBufferPointer(rebasing: rest[..<taken]))
                    (request, consumed) = (parsed, taken)
                case .sendContinue:
                    enqueue(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
                    return start
                case .needMore:
                    return start
                case .error(let error):
                    fail(error)
                    return input.count
                }
            }
            start += consumed
            requestStartedAt = start < input.count ? loop.wakeTime : nil
            dispatch(request)
        }
        if queuedBytes >= server.configuration.highWatermark { pauseReading() }
        return start
    }

    private func dispatch(_ request: HTTPRequest) {
        let context = RequestContext(loop: loop, peer: peer, storage: loopState.responderStorage, isShuttingDown: server.isShuttingDown)
        let response = server.respond(request, context)
        send(response, for: request)
    }

    private func send(_ response: HTTPResponse, for request: HTTPRequest) {
        var closing = false
        if case .closing = state { closing = true }
        let keepAlive = request.keepAlive && input != .ended && !closing && !server.isShuttingDown
        let isHead = request.method == .HEAD
        switch response.body {
        case .bytes(let body):
            let hasLength = !(response.status.code < 200 || response.status.code == 204 || response.status.code == 304)
            enqueue(ResponseHead.encode(status: response.status, headers: response.headers, caching: response.caching, version: request.version,
                                        date: server.date(loop), contentLength: hasLength ? body.count : nil,
                                        keepAlive: keepAlive, serverName: server.configuration.serverName))
            if !isHead && hasLength && !body.isEmpty { enqueue(body) }
            if !keepAlive { state = .closing }
            server.requestCompleted()
        case .stream(let start):
            enqueue(ResponseHead.encode(status: response.status, headers: response.headers, caching: response.caching, version: request.version,
                                        date: server.date(loop), contentLength: nil, keepAlive: false,
                                        serverName: server.configuration.serverName))
            if isHead {
                state = .closing
                server.requestCompleted()
                return
            }
            transport.setStreamSendBuffer(bytes: server.configuration.streamSendBufferBytes)
            let writer = StreamWriter(loop: loop, sink: self)
            state = .streaming(writer, ending: closing)
            server.streamOpened()
            server.requestCompleted()
            lastWriteProgress = loop.wakeTime
            start(writer)
            if server.isShuttingDown { writer.shutdown() }
        case .deferred(let start):
            let promise = ResponsePromise(loop: loop) { [weak self] response in
                self?.answer(response, for: request)
            }
            state = .awaitingAnswer(promise, thenClose: false)
            let outer = startingDeferred
            startingDeferred = true
            start(promise)
            startingDeferred = outer
        }
    }

    /// A deferred answer has come, on the loop (from a task, or at once
    /// when it was given on the loop: no wake then).
    private func answer(_ response: HTTPResponse, for request: HTTPRequest) {
        guard case .awaitingAnswer(_, let thenClose) = state else { return }
        if response.status == .clientClosedRequest {
            server.requestCompleted()
            return close()
        }
        state = thenClose ? .closing : .open
        send(response, for: request)
        // Given during its own start: the parsing loop that dispatched it
        // takes the requests behind it and flushes. Taking them here would
        // parse again the input that loop is parsing.
        if startingDeferred { return }
        resumeInput()
        flush()
    }

    /// Answers a request that could not be parsed, then closes.
    private func fail(_ error: HTTPParseError) {
        // `keepAlive: false` writes its `Connection: close` (the one there is).
        let response = server.errorResponse(error.status, error.message)
        enqueue(ResponseHead.encode(status: response.status, headers: response.headers, version: .http1_1,
                                    date: server.date(loop), contentLength: bodyCount(response), keepAlive: false,
                                    serverName: server.configuration.serverName))
        if case .bytes(let body) = response.body, !body.isEmpty { enqueue(body) }
        state = .closing
        lingers = true
        pendingInput = []
        server.requestCompleted()
        flush()
    }

    private func bodyCount(_ response: HTTPResponse) -> Int {
        if case .bytes(let body) = response.body { return body.count }
        return 0
    }

    // MARK: Output

    /// Writes `bytes` now when nothing waits before them (one `send`, no
    /// queueing: a stream's frames), else queues them behind what waits.
    func send(_ bytes: [UInt8]) {
        loop.assertInLoop()
        guard !isClosed, !bytes.isEmpty else { return }
        guard output.isEmpty else {
            enqueue(bytes)
            flush()
            return
        }
        let n = bytes.withUnsafeBytes { transport.send($0) }
        if n == bytes.count {
            lastWriteProgress = loop.wakeTime
            return
        }
        if n < 0 {
            let e = errno
            guard e == EAGAIN || e == EWOULDBLOCK || e == EINTR else { close(); return }
            enqueue(bytes)
        } else {
            lastWriteProgress = loop.wakeTime
            enqueue(Array(bytes[n...]))
        }
        updateInterest()
    }

    func enqueue(_ bytes: [UInt8]) {
        guard !isClosed else { return }
        output.append(bytes)
        loopState.queuedOutput += bytes.count
    }

    /// Writes what the socket takes, in as few system calls as possible.
    func flush() {
        loop.assertInLoop()
        guard !isClosed else { return }
        while !output.isEmpty {
            let written = writeGathered()
            if written > 0 {
                output.consume(written)
                loopState.queuedOutput -= written
                lastWriteProgress = loop.wakeTime
                continue
            }
            if written == 0 { break }  // would block
            close()
            return
        }
        if output.isEmpty && (state.closesWhenWritten || input == .ended && isIdle) {
            closeOrLinger()
            return
        }
        if input == .paused && queuedBytes <= server.configuration.lowWatermark {
            input = .reading
            resumeInput()
            if isClosed { return }
        }
        updateInterest()
        if !isIdleListed && isBetweenRequests { loopState.appendIdle(self, now: loop.wakeTime) }
    }

    /// One `sendmsg` over up to 64 queued chunks: bytes written, 0 when the
    /// socket is full, -1 on error.
    private func writeGathered() -> Int {
        output.withIOVecs(limit: 64) { transport.send(gathering: $0) }
    }

    /// Takes requests that waited (behind a deferred answer or full output).
    private func resumeInput() {
        processPending()
        if input == .paused && isParsing && pendingInput.count < server.configuration.readBufferSize {
            input = .reading
        }
    }

    private var isIdle: Bool {
        guard case .open = state else { return false }
        return pendingInput.isEmpty && output.isEmpty
    }

    /// Nothing under way: no request arriving or answered, nothing to
    /// write, not a stream. Such a connection may give way to a newcomer.
    private var isBetweenRequests: Bool {
        guard case .open = state else { return false }
        return isIdle && input == .reading && requestStartedAt == nil && !parser.isMidRequest
    }

    /// Closes once the answer is written; after a request that broke the
    /// rules while the client may still be sending, lingers first.
    private func closeOrLinger() {
        guard lingers, transport.canLinger, input != .ended, case .closing = state else { return close() }
        transport.shutdownWrite()
        state = .lingering(since: loop.wakeTime, dropped: 0)
        input = .reading
        updateInterest()
    }

    /// Closes the connection if it is between requests and no request
    /// waits unread in its socket (that one is answered instead); whether
    /// it closed. Either way it leaves the idle list.
    func closeIfIdle() -> Bool {
        loop.assertInLoop()
        loopState.removeIdle(self)
        guard isBetweenRequests, !transport.hasUnreadBytes else { return false }
        close()
        return true
    }

    private func pauseReading() {
        guard input == .reading else { return }
        input = .paused
        updateInterest()
    }

    private func updateInterest() {
        guard !isClosed else { return }
        var events: UInt32 = 0
        if input == .reading { events |= CLINUX_EPOLLIN | CLINUX_EPOLLRDHUP }
        if !output.isEmpty { events |= CLINUX_EPOLLOUT }
        guard events != registeredEvents else { return }
        transport.setInterest(events, on: loop)
        registeredEvents = events
    }

    // MARK: Streams

    var streamHighWatermark: Int { server.configuration.streamHighWatermark }

    func finishStream() {
        loop.assertInLoop()
        closeAfterAnswers()
        flush()
    }

    // MARK: Time and shutdown

    /// Called by the loop's tick: enforce the header, idle and stall timeouts.
    func checkTimeouts(now: UInt64) {
        loop.assertInLoop()
        let c = server.configuration
        switch state {
        case .streaming:
            if queuedBytes > 0 && now &- lastWriteProgress > c.streamStallTimeout { close() }
        case .awaitingAnswer, .closed:
            break
        case .lingering(let since, _):
            if now &- since > c.lingerTimeout { close() }
        case .open, .closing:
            if let started = requestStartedAt, !pendingInput.isEmpty || parser.isMidRequest {
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
    /// streams get their last message. A request that is arriving is read
    /// and answered (its answer says `Connection: close`, as every answer
    /// while shutting down does): closing on it would leave its client
    /// with nothing, or a reset.
    func beginShutdown() {
        loop.assertInLoop()
        switch state {
        case .streaming(let writer, _): writer.shutdown()
        case .awaitingAnswer: closeAfterAnswers()
        case .open:
            if !output.isEmpty {
                closeAfterAnswers()
                flush()
            } else if !isRequestArriving {
                close()
            }
        case .closing, .lingering, .closed: break
        }
    }

    /// Part of a request is here, or bytes wait unread in the socket.
    private var isRequestArriving: Bool {
        if !pendingInput.isEmpty || parser.isMidRequest || requestStartedAt != nil { return true }
        return input == .reading && transport.hasUnreadBytes
    }

    func close() {
        loop.assertInLoop()
        let previous = state
        if case .closed = previous { return }
        state = .closed
        transport.close(on: loop)
        loopState.queuedOutput -= output.bytes
        output.removeAll()
        switch previous {
        case .streaming(let writer, _):
            server.streamClosed()
            writer.connectionClosed()
        case .awaitingAnswer(let promise, _):
            promise.clientHasLeft()
        default: break
        }
        server.connectionClosed(self)
    }
}
