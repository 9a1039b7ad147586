import EventLoop
/// Drives the real server with no socket, in the manner of NIO's
/// `EmbeddedChannel`: bytes go in through an `EmbeddedClient`, through the
/// same `Connection` and parser a socket's bytes go through (framing,
/// keep-alive, pipelining, limits, timeouts), and the answer's bytes come
/// out. The test sets each client's address, and the loop's clock moves only
/// when the test moves it. One embedded loop; use it from one thread.
public final class EmbeddedServer {
    public let loop: EventLoop
    public let responder: any HTTPResponder
    let core: ServerCore
    private var connections: [(client: EmbeddedClient, connection: Connection)] = []

    public init(responder: any HTTPResponder, configuration: HTTPServerConfiguration = HTTPServerConfiguration()) {
        var configuration = configuration
        configuration.eventLoops = 1
        self.responder = responder
        core = ServerCore(configuration: configuration, responder: responder)
        loop = .embedded()
        core.loopStates[0].responderStorage = responder.makeLoopStorage(for: loop)
        core.attach(to: loop)
    }

    /// Connections still open end with the server.
    deinit {
        for (_, connection) in connections where !connection.isClosed { connection.close() }
    }

    public var configuration: HTTPServerConfiguration { core.configuration }
    /// The responder's per-loop storage (`makeLoopStorage`).
    public var storage: AnyObject? { core.loopStates[0].responderStorage }
    public var openConnections: Int { core.openConnections.load(ordering: .relaxed) }
    public var isShuttingDown: Bool { core.isShuttingDown }

    /// A client connects from `peer`.
    public func connect(from peer: SocketAddress? = nil) -> EmbeddedClient {
        let client = EmbeddedClient(server: self)
        let connection = Connection(embedded: client, loop: loop, server: core, peer: peer)
        core.openConnections.add(1, ordering: .relaxed)
        core.connectionOpened(connection)
        connections.append((client, connection))
        return client
    }

    /// Runs what is due now: handed-over tasks, timers, and each
    /// connection's I/O, until nothing more moves.
    public func run() {
        loop.assertInLoop()
        for _ in 0..<100_000 {
            loop.runPending()
            var moved = false
            for (client, connection) in connections {
                let events = client.readyEvents
                guard events != 0 else { continue }
                connection.handle(events: events)
                moved = true
            }
            connections.removeAll { $0.connection.isClosed }
            if !moved && !loop.hasTasks { return }
        }
        preconditionFailure("an embedded connection never settled")
    }

    /// Waits up to `seconds` of real time for `condition`, taking answers
    /// that other threads (workers, a store) hand to the loop meanwhile.
    @discardableResult
    public func wait(seconds: Double = 5, until condition: () -> Bool) -> Bool {
        run()
        let deadline = monotonicNanoseconds() &+ UInt64(seconds * 1e9)
        while !condition() {
            let now = monotonicNanoseconds()
            guard now < deadline else { return false }
            loop.waitForTasks(upToNanoseconds: min(deadline &- now, 50_000_000))
            run()
        }
        return true
    }

    /// One request on a new connection, answered as a client reads it: the
    /// whole answer, or a stream's head (read on through `stream`). A
    /// deferred answer is waited for up to `timeoutSeconds` of real time.
    public func request(_ method: HTTPMethod, _ target: String, headers: [(String, String)] = [],
                        body: [UInt8] = [], from peer: SocketAddress? = nil, timeoutSeconds: Double = 5) -> EmbeddedResponse {
        let client = connect(from: peer)
        var head = "\(method.rawValue) \(target) HTTP/1.1\r\n"
        if !headers.contains(where: { $0.0.lowercased() == "host" }) { head += "Host: embedded\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == .POST || method == .PUT { head += "Content-Length: \(body.count)\r\n" }
        client.write(Array((head + "\r\n").utf8) + body)
        var answer: EmbeddedResponse?
        wait(seconds: timeoutSeconds) {
            answer = EmbeddedResponse(reading: client, method: method)
            return answer != nil
        }
        guard let answer else {
            client.close()
            return EmbeddedResponse(status: 0, headers: HTTPResponseHeaders(), body: [], stream: nil)
        }
        if answer.stream == nil { client.close() }
        return answer
    }

    /// Moves the loop's clock, running every timer due on the way and the
    /// I/O it causes, in order.
    public func advance(seconds: Double) {
        loop.advance(byNanoseconds: UInt64((seconds * 1e9).rounded()), step: run)
    }

    /// A graceful shutdown: idle connections close, open streams get their
    /// last message.
    public func shutdown() {
        core.beginShutdown()
        for (_, connection) in connections { connection.beginShutdown() }
        run()
    }
}

/// A whole answer from an `EmbeddedServer`, parsed from the bytes the
/// client received.
public struct EmbeddedResponse {
    /// 0 when no answer came.
    public let status: Int
    public let headers: HTTPResponseHeaders
    public let body: [UInt8]
    /// The stream, when the answer is one (no length: it runs until closed).
    public let stream: EmbeddedStream?

    public var text: String { String(decoding: body, as: UTF8.self) }

    init(status: Int, headers: HTTPResponseHeaders, body: [UInt8], stream: EmbeddedStream?) {
        self.status = status
        self.headers = headers
        self.body = body
        self.stream = stream
    }

    /// The first answer in what `client` received, once it has all come.
    init?(reading client: EmbeddedClient, method: HTTPMethod) {
        let bytes = client.received
        guard let end = bytes.firstRange(of: [13, 10, 13, 10]) else { return nil }
        let lines = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).split(separator: "\r\n").map(String.init)
        guard let statusLine = lines.first, statusLine.hasPrefix("HTTP/1.1 "),
              let status = Int(statusLine.dropFirst(9).prefix(3)) else { return nil }
        var headers = HTTPResponseHeaders()
        var length: Int?
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = String(line[..<colon]), value = line[line.index(after: colon)...].drop { $0 == " " }
            headers.add(name, String(value))
            if name.lowercased() == "content-length" { length = Int(value) }
        }
        let bodyStart = end.upperBound
        if method == .HEAD || status == 204 || status == 304 || status < 200 {
            self.init(status: status, headers: headers, body: [], stream: nil)
        } else if let length {
            guard bytes.count - bodyStart >= length else { return nil }
            self.init(status: status, headers: headers, body: Array(bytes[bodyStart..<bodyStart + length]), stream: nil)
        } else {
            self.init(status: status, headers: headers, body: [], stream: EmbeddedStream(client: client, bodyStart: bodyStart))
        }
    }
}

/// A stream's client end: what has come so far, whether the server ended
/// it, and whether the client reads (`reading = false` lets the server's
/// output pile up, as a client that stops reading does).
public final class EmbeddedStream {
    public let client: EmbeddedClient
    private let bodyStart: Int

    init(client: EmbeddedClient, bodyStart: Int) {
        self.client = client
        self.bodyStart = bodyStart
    }

    /// The stream's bytes so far (after the answer's head).
    public var bytes: ArraySlice<UInt8> { client.received[bodyStart...] }
    public var text: String { String(decoding: bytes, as: UTF8.self) }
    /// Neither side has closed it.
    public var isOpen: Bool { !client.serverClosed && !client.isClosed }
    /// The server ended it (the client read to the end).
    public var isFinished: Bool { client.serverClosed && !client.isClosed }

    public var reading: Bool {
        get { client.reading }
        set {
            client.reading = newValue
            client.server.run()
        }
    }

    public var closesOnNextWrite: Bool {
        get { client.closesOnNextWrite }
        set { client.closesOnNextWrite = newValue }
    }

    /// The client goes away.
    public func close() {
        guard !client.isClosed else { return }
        client.close()
    }
}
