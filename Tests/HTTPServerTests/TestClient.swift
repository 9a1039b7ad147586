import Dispatch
import Glibc
import Synchronization
@testable import HTTPServer

/// A blocking socket client for tests, with a receive timeout so that a
/// missing answer fails the test instead of hanging it.
final class TestClient {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(port: Int, host: String = "127.0.0.1", timeoutSeconds: Int = 5) throws {
        let address = try SocketAddress(host: host, port: port)
        fd = socket(address.family, Int32(SOCK_STREAM.rawValue), 0)
        var tv = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        let rc = address.withSockAddr { connect(fd, $0, $1) }
        guard rc == 0 else { throw SystemError("connect") }
    }

    deinit { close(fd) }

    func send(_ text: String) { send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            sent += n
        }
    }

    func shutdownWrite() { Glibc.shutdown(fd, Int32(SHUT_WR)) }

    /// Reads more bytes; false on close or timeout.
    @discardableResult
    func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n <= 0 { return false }
        buffer.append(contentsOf: chunk[0..<n])
        return true
    }

    /// One response: status, headers (lower-cased names), body by
    /// Content-Length (or to the close when there is none).
    func readResponse(head: Bool = false) -> TestResponse? {
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
            headers[parts[0].lowercased()] = parts.count > 1 ? String(parts[1]).trimmingCharacters() : ""
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
    func readToClose() -> [UInt8] {
        while fill() {}
        defer { buffer.removeAll() }
        return buffer
    }

    /// Whether the server has closed the connection (reads 0 before the timeout).
    func isClosedByServer() -> Bool {
        var byte: UInt8 = 0
        while true {
            let n = recv(fd, &byte, 1, 0)
            if n == 0 { return true }
            if n < 0 { return errno == ECONNRESET }
            buffer.append(byte)
        }
    }

    /// Reads until `text` has arrived; returns everything read so far.
    func read(until text: String) -> String? {
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

struct TestResponse {
    let status: Int
    let headers: [String: String]
    let body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
}

extension String {
    func trimmingCharacters() -> String {
        String(self.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

/// Polls `condition` until it holds or `seconds` pass.
func eventually(_ seconds: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = monotonicNanoseconds() + UInt64(seconds * 1e9)
    while monotonicNanoseconds() < deadline {
        if condition() { return true }
        usleep(2_000)
    }
    return condition()
}

/// State the test responder shares with tests.
final class Probe: Sendable {
    let streamsClosed = Atomic<Int>(0)
    let requests = Atomic<Int>(0)
}

/// A responder exercising every kind of answer.
struct TestResponder: HTTPResponder {
    let probe: Probe
    var router = Router<@Sendable (HTTPRequest, RequestContext) -> HTTPResponse>()

    init(probe: Probe) {
        self.probe = probe
        router.add(.GET, "/hello", { _, _ in .text(.ok, "hello") })
        router.add(.POST, "/echo", { request, _ in HTTPResponse(status: .ok, body: request.body) })
        router.add(.GET, "/items/:id", { request, _ in .text(.ok, "item \(request.pathSegments[1]) q=\(request.queryValue("q") ?? "")") })
        router.add(.GET, "/big", { _, _ in HTTPResponse(status: .ok, body: [UInt8](repeating: 0x61, count: 4 * 1024 * 1024)) })
        router.add(.GET, "/stream", { request, _ in
            let count = Int(request.queryValue("n") ?? "3") ?? 3
            return HTTPResponse(status: .ok, headers: ["Content-Type": "text/event-stream"]) { writer in
                var sent = 0
                func tick() {
                    guard writer.isOpen else { return }
                    if sent == count {
                        writer.write(ServerSentEvent.event(event: "end", data: "bye"))
                        writer.finish()
                        return
                    }
                    writer.write(ServerSentEvent.event(id: "\(sent)", event: "tick", data: "n=\(sent)"))
                    sent += 1
                    writer.loop.schedule(afterNanoseconds: 5_000_000, tick)
                }
                tick()
            }
        })
        let probe = self.probe
        router.add(.GET, "/forever", { request, _ in
            let size = Int(request.queryValue("size") ?? "1000") ?? 1000
            return HTTPResponse(status: .ok, headers: ["Content-Type": "text/event-stream"]) { writer in
                writer.onClose = { probe.streamsClosed.add(1, ordering: .relaxed) }
                writer.onShutdown = {
                    writer.write(ServerSentEvent.event(event: "end", data: "shutdown"))
                    writer.finish()
                }
                func tick() {
                    guard writer.isOpen else { return }
                    if writer.hasRoom { writer.write(ServerSentEvent.event(event: "tick", data: String(repeating: "x", count: size))) }
                    writer.loop.schedule(afterNanoseconds: 1_000_000, tick)
                }
                tick()
            }
        })
        router.add(.GET, "/slow", { request, _ in
            let ms = Int(request.queryValue("ms") ?? "50") ?? 50
            return .deferred { promise in
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(ms)) {
                    promise.succeed(.text(.ok, "slow \(ms)"))
                }
            }
        })
    }

    func respond(to request: HTTPRequest, context: RequestContext) -> HTTPResponse {
        probe.requests.add(1, ordering: .relaxed)
        switch router.match(method: request.method, path: request.pathSegments) {
        case .found(let handler, _): return handler(request, context)
        case .notFound: return .text(.notFound, "no such path")
        case .methodNotAllowed(let allowed):
            var r = HTTPResponse.text(.methodNotAllowed, "method not allowed")
            r.headers.add("Allow", allowed.map(\.rawValue).joined(separator: ", "))
            return r
        }
    }
}

/// A started server on 127.0.0.1 with a free port.
func startServer(_ configure: (inout HTTPServerConfiguration) -> Void = { _ in }) throws -> (HTTPServer, Probe) {
    var configuration = HTTPServerConfiguration()
    configuration.port = 0
    configuration.eventLoops = 2
    configure(&configuration)
    let probe = Probe()
    let server = try HTTPServer(configuration: configuration, responder: TestResponder(probe: probe))
    try server.start()
    return (server, probe)
}
