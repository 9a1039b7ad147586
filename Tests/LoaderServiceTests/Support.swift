import EventLoop
import FoundationEssentials
import Glibc
import HTTPTestSupport
import LoaderEngine
@testable import HTTPServer
@testable import LoaderService
@testable import LoaderSessions

/// A loaderd on 127.0.0.1 with a free port, logging nothing.
func startService(_ configure: (inout ServiceConfiguration) -> Void = { _ in },
                  server configureServer: (inout HTTPServerConfiguration) -> Void = { _ in },
                  sessions: (any SessionStore)? = nil, logger: Logger = Logger(level: .off)) throws -> (HTTPServer, LoaderService) {
    var configuration = ServiceConfiguration.embeddedDefault()
    configuration.logLevel = .off
    configure(&configuration)
    var serverConfiguration = HTTPServerConfiguration()
    serverConfiguration.port = 0
    serverConfiguration.eventLoops = 2
    configureServer(&serverConfiguration)
    let service = LoaderService(configuration: configuration, logger: logger, sessions: sessions)
    let server = try HTTPServer(configuration: serverConfiguration, responder: service)
    service.attach(to: server)
    try server.start()
    return (server, service)
}

/// One request on a new connection.
func get(_ port: Int, _ target: String, _ headers: [String: String] = [:], method: String = "GET", head: Bool = false) throws -> TestResponse {
    let client = try TestClient(port: port)
    var text = "\(method) \(target) HTTP/1.1\r\nHost: localhost\r\n"
    for (name, value) in headers { text += "\(name): \(value)\r\n" }
    client.send(text + "\r\n")
    guard let response = client.readResponse(head: head || method == "HEAD") else { throw TestFailure("no response to \(target)") }
    return response
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The JSON error shape every failure answers.
struct ErrorBody: Decodable {
    struct Inner: Decodable { let status: Int; let code: String; let message: String }
    let error: Inner
}

func decodeError(_ response: TestResponse) throws -> ErrorBody.Inner {
    try JSONDecoder().decode(ErrorBody.self, from: Data(response.body)).error
}

/// An event as EventSource dispatches it (WHATWG HTML, "Interpreting an event stream").
struct DispatchedEvent: Equatable {
    var type: String
    var data: String
    var lastEventID: String
}

/// Parses a text/event-stream body by the browser's rules: lines end in CRLF,
/// LF or CR; `:` starts a comment; `field: value` with one leading space
/// dropped; data lines join with LF; an empty line dispatches (an event with
/// empty data is not dispatched); the type defaults to `message`.
func parseEventStream(_ text: String) -> (events: [DispatchedEvent], retry: Int?) {
    var events: [DispatchedEvent] = []
    var retry: Int?
    var data = "", type = "", lastEventID = ""
    var hasData = false
    let normalized = text.replacingCRLF()
    for line in normalized.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.isEmpty {
            if hasData {
                events.append(DispatchedEvent(type: type.isEmpty ? "message" : type, data: data, lastEventID: lastEventID))
            }
            data = ""; type = ""; hasData = false
            continue
        }
        if line.hasPrefix(":") { continue }
        var field = String(line), value = ""
        if let colon = line.firstIndex(of: ":") {
            field = String(line[..<colon])
            value = String(line[line.index(after: colon)...])
            if value.hasPrefix(" ") { value.removeFirst() }
        }
        switch field {
        case "event": type = value
        case "data":
            data += hasData ? "\n" + value : value
            hasData = true
        case "id": if !value.contains("\0") { lastEventID = value }
        case "retry": if let n = Int(value) { retry = n }
        default: break
        }
    }
    return (events, retry)
}

extension String {
    func replacingCRLF() -> String {
        var out = ""
        var previousCR = false
        for c in unicodeScalars {
            if c == "\r" { out += "\n"; previousCR = true; continue }
            if c == "\n" && previousCR { previousCR = false; continue }
            previousCR = false
            out.unicodeScalars.append(c)
        }
        return out
    }
}

/// The spec's worked examples (kept in the engine tests' fixtures).
func vectorsFixture() throws -> Data {
    let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    return try Data(contentsOf: here.deletingLastPathComponent().appendingPathComponent("LoaderEngineTests/Fixtures/vectors.json"))
}

/// The service over a `Transport`, one body for both (Hummingbird's
/// `app.test(.router)` / `.live`):
///
///     @Test(arguments: Transport.allCases)
///     func framesAnswer(_ transport: Transport) throws {
///         let app = try TestApp(transport)
///         #expect(try get(app, "/loaders/typing/frames?t=0.5").status == 200)
///     }
///
/// `.embedded` sends each request's bytes through the real connection and
/// parser on an embedded loop, streams running on a clock the test moves;
/// `.live` sends the same bytes over a socket to a started server on
/// 127.0.0.1, port 0, in real time. `TestApp()` with no transport is the
/// embedded one, for tests about its clock or its connections (`server`,
/// `open`, `advance`).
final class TestApp {
    let transport: Transport
    let service: LoaderService
    private let embedded: EmbeddedServer?
    private let live: HTTPServer?

    init(_ transport: Transport, _ configure: (inout ServiceConfiguration) -> Void = { _ in }, catalog: LoaderCatalog = .standard,
         sessions: (any SessionStore)? = nil, logger: Logger = Logger(level: .off),
         server configureServer: (inout HTTPServerConfiguration) -> Void = { _ in }) throws {
        var configuration = ServiceConfiguration.embeddedDefault()
        configuration.logLevel = .off
        configure(&configuration)
        var serverConfiguration = HTTPServerConfiguration()
        configureServer(&serverConfiguration)
        self.transport = transport
        service = LoaderService(configuration: configuration, catalog: catalog, logger: logger, sessions: sessions)
        switch transport {
        case .embedded:
            embedded = EmbeddedServer(responder: service, configuration: serverConfiguration)
            live = nil
        case .live:
            serverConfiguration.hosts = ["127.0.0.1"]
            serverConfiguration.port = 0
            // Two loops, as `startService`: a request may land on either.
            serverConfiguration.eventLoops = 2
            let server = try HTTPServer(configuration: serverConfiguration, responder: service)
            service.attach(to: server)
            try server.start()
            embedded = nil
            live = server
        }
    }

    /// The embedded service (what most tests that predate transports use).
    convenience init(_ configure: (inout ServiceConfiguration) -> Void = { _ in }, catalog: LoaderCatalog = .standard,
                     sessions: (any SessionStore)? = nil, logger: Logger = Logger(level: .off),
                     server configureServer: (inout HTTPServerConfiguration) -> Void = { _ in }) {
        // The embedded transport opens no socket: nothing here throws.
        try! self.init(.embedded, configure, catalog: catalog, sessions: sessions, logger: logger, server: configureServer)
    }

    deinit { live?.shutdown(gracePeriod: 1_000_000_000) }

    /// The embedded server, for tests that move its clock or hold its
    /// connections; a live app has none.
    var server: EmbeddedServer {
        guard let embedded else { preconditionFailure("server is the embedded transport's; this test runs \(transport)") }
        return embedded
    }

    /// One request on a new connection and its whole answer. Embedded, a
    /// stream is read to its end, the clock moved frame by frame, for at
    /// most `streamSeconds` of its time; live, it is read in real time to
    /// its end (the client's timeout bounds it). `peer`, a client address
    /// of the test's choosing, is the embedded transport's alone.
    func request(_ method: String, _ target: String, _ headers: [String: String] = [:], body: [UInt8] = [],
                 from peer: SocketAddress? = nil, streamSeconds: Double = 120) throws -> TestResponse {
        if let live {
            precondition(peer == nil, "a client address of the test's choosing needs the embedded transport")
            let client = try TestClient(port: live.port)
            client.send(Array(requestHead(method, target, headers.map { ($0.key, $0.value) }, bodyCount: body.count).utf8) + body)
            guard let r = client.readResponse(head: method == "HEAD") else { throw TestFailure("no answer to \(method) \(target) (live)") }
            return r
        }
        let r = server.request(HTTPMethod(method), target, headers: headers.map { ($0.key, $0.value) }, body: body, from: peer)
        var names: [String: String] = [:]
        for (name, value) in r.headers { names[name.lowercased()] = value }
        guard let stream = r.stream else { return TestResponse(status: r.status, headers: names, body: r.body) }
        var waited = 0.0
        while stream.isOpen && waited < streamSeconds {
            server.advance(seconds: 0.01)
            waited += 0.01
        }
        stream.close()
        return TestResponse(status: r.status, headers: names, body: Array(stream.bytes))
    }

    /// A client on a new connection, for a test that writes its own bytes.
    func client() throws -> TestClient {
        if let live { return try TestClient(port: live.port) }
        return TestClient(embedded: server)
    }

    /// Opens a stream and leaves it open: the test moves the clock (embedded only).
    func open(_ target: String, _ headers: [String: String] = [:]) throws -> EmbeddedStream {
        let r = server.request(.GET, target, headers: headers.map { ($0.key, $0.value) })
        guard let stream = r.stream else { throw TestFailure("\(target) is not a stream: \(r.status) \(r.text)") }
        return stream
    }

    func advance(seconds: Double) { server.advance(seconds: seconds) }
}

/// One request to the service over its transport (`get(port, …)`'s twin).
func get(_ app: TestApp, _ target: String, _ headers: [String: String] = [:], method: String = "GET") throws -> TestResponse {
    try app.request(method, target, headers)
}
