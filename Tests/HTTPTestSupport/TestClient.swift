import Dispatch
import EventLoop
import Glibc
import Synchronization
import HTTPServer

/// A blocking client for tests, over a socket or to an `EmbeddedServer`
/// (the same bytes through the same connection code, on the test's thread),
/// with a timeout so that a missing answer fails the test instead of
/// hanging it.
public final class TestClient {
    /// The socket; -1 for an embedded client.
    public let fd: Int32
    private let embedded: (client: EmbeddedClient, server: EmbeddedServer)?
    private var buffer: [UInt8] = []
    /// How much of an embedded client's received bytes are in `buffer`.
    private var taken = 0
    /// No single read operation (a response, to the close) takes longer.
    private let operationLimit: UInt64
    private var operationDeadline: UInt64 = .max

    /// `source`: the address to connect from (any of 127.0.0.0/8 works
    /// on loopback), to be another client address.
    public init(port: Int, host: String = "127.0.0.1", source: String? = nil, timeoutSeconds: Int = 5) throws {
        operationLimit = UInt64(timeoutSeconds) * 3_000_000_000
        let address = try SocketAddress(host: host, port: port)
        fd = socket(address.family, Int32(SOCK_STREAM.rawValue), 0)
        embedded = nil
        var tv = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        if let source {
            let local = try SocketAddress(host: source, port: 0)
            guard local.withSockAddr({ bind(fd, $0, $1) }) == 0 else { throw SystemError("bind(\(source))") }
        }
        guard address.connect(fd) else { throw SystemError("connect") }
    }

    /// Closes with a reset (SO_LINGER 0) when the client goes away.
    public func resetOnClose() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    }

    /// A client of `server`, connected from `peer`. While it waits for
    /// bytes the loop's clock moves a millisecond at a time, as time
    /// passes for a real client.
    public init(embedded server: EmbeddedServer, from peer: SocketAddress? = nil, timeoutSeconds: Int = 5) {
        operationLimit = UInt64(timeoutSeconds) * 1_000_000_000
        fd = -1
        embedded = (server.connect(from: peer), server)
    }

    deinit {
        if let embedded { embedded.client.close() } else { close(fd) }
    }

    @discardableResult
    public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Whether every byte went (false: the server closed or reset first).
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        if let embedded {
            embedded.client.write(bytes)
            return true
        }
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            sent += n
        }
        return true
    }

    public func shutdownWrite() {
        if let embedded { embedded.client.shutdownWrite() } else { Glibc.shutdown(fd, Int32(SHUT_WR)) }
    }

    /// Reads more bytes; false on close or timeout.
    @discardableResult
    public func fill() -> Bool {
        if let embedded { return fill(from: embedded.client, embedded.server) }
        if monotonicNanoseconds() > operationDeadline { return false }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n <= 0 { return false }
        buffer.append(contentsOf: chunk[0..<n])
        return true
    }

    private func fill(from client: EmbeddedClient, _ server: EmbeddedServer) -> Bool {
        let deadline = min(operationDeadline, monotonicNanoseconds() &+ operationLimit)
        while true {
            server.run()
            if client.received.count > taken {
                buffer += client.received[taken...]
                taken = client.received.count
                return true
            }
            if client.serverClosed || monotonicNanoseconds() > deadline { return false }
            server.loop.waitForTasks(upToNanoseconds: 1_000_000)
            server.advance(seconds: 0.001)
        }
    }

    /// One response: status, headers (lower-cased names), body by
    /// Content-Length (or to the close when there is none).
    public func readResponse(head: Bool = false) -> TestResponse? {
        operationDeadline = monotonicNanoseconds() + operationLimit
        defer { operationDeadline = .max }
        var headEnd: Int?
        while headEnd == nil {
            if let r = findHeadEnd() { headEnd = r; break }
            if !fill() { return nil }
        }
        let headText = String(decoding: buffer[0..<headEnd!], as: UTF8.self)
        var lines = headText.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let statusLine = lines.removeFirst()
        let status = Int(statusLine.split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in lines where !line.isEmpty {
            let parts = line.split(separator: ":", maxSplits: 1)
            headers[parts[0].lowercased()] = parts.count > 1 ? String(parts[1].trimmingSpaces) : ""
        }
        buffer.removeFirst(headEnd! + 4)
        var body: [UInt8] = []
        if head || status < 200 || status == 204 || status == 304 {
            // no body
        } else if let length = headers["content-length"].flatMap({ Int($0) }) {
            while buffer.count < length { if !fill() { return nil } }
            body = Array(buffer[0..<length])
            buffer.removeFirst(length)
        } else {
            while fill() {}
            body = buffer
            buffer.removeAll()
        }
        return TestResponse(status: status, headers: headers, body: body)
    }

    /// Everything until the server closes (or the timeout).
    public func readToClose() -> [UInt8] {
        operationDeadline = monotonicNanoseconds() + operationLimit
        defer { operationDeadline = .max }
        while fill() {}
        defer { buffer.removeAll() }
        return buffer
    }

    /// Whether the server has closed the connection (reads 0 before the timeout).
    public func isClosedByServer() -> Bool {
        if embedded != nil {
            operationDeadline = monotonicNanoseconds() + operationLimit
            defer { operationDeadline = .max }
            while fill() {}
            return embedded!.client.serverClosed
        }
        var byte: UInt8 = 0
        while true {
            let n = recv(fd, &byte, 1, 0)
            if n == 0 { return true }
            if n < 0 { return errno == ECONNRESET }
            buffer.append(byte)
        }
    }

    /// Reads until `text` has arrived; returns everything read so far.
    public func read(until text: String) -> String? {
        operationDeadline = monotonicNanoseconds() + operationLimit
        defer { operationDeadline = .max }
        let needle = Array(text.utf8)
        while true {
            if let _ = find(needle) {
                return String(decoding: buffer, as: UTF8.self)
            }
            if !fill() { return nil }
        }
    }

    private func find(_ needle: [UInt8]) -> Int? {
        guard buffer.count >= needle.count else { return nil }
        for i in 0...(buffer.count - needle.count) where buffer[i] == needle[0] && Array(buffer[i..<(i + needle.count)]) == needle {
            return i
        }
        return nil
    }

    private func findHeadEnd() -> Int? { find(Array("\r\n\r\n".utf8)) }
}

public struct TestResponse {
    public let status: Int
    public let headers: [String: String]
    public let body: [UInt8]
    public var text: String { String(decoding: body, as: UTF8.self) }

    public init(status: Int, headers: [String: String], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Polls `condition` until it holds or `seconds` pass.
public func eventually(_ seconds: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = monotonicNanoseconds() + UInt64(seconds * 1e9)
    while monotonicNanoseconds() < deadline {
        if condition() { return true }
        usleep(2_000)
    }
    return condition()
}

/// A plain thread for calls that block (shutdown waits for connections).
public final class Thread: @unchecked Sendable {
    private var handle = pthread_t()
    private let body: @Sendable () -> Void

    public init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
        let box = Unmanaged.passRetained(self)
        pthread_create(&handle, nil, { arg in
            let t = Unmanaged<Thread>.fromOpaque(arg!).takeRetainedValue()
            t.body()
            return nil
        }, box.toOpaque())
    }

    public func join() { pthread_join(handle, nil) }
}

public final class Flag: Sendable {
    public let value = Atomic<Bool>(false)
    public init() {}
    public var isSet: Bool { value.load(ordering: .relaxed) }
}
