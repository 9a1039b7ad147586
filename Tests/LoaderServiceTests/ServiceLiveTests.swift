import EventLoop
import FoundationEssentials
import Glibc
import HTTPTestSupport
import Testing
@testable import HTTPServer
@testable import LoaderService

@Suite(.serialized)
/// What needs a real socket: the server's own limits and refusals, a stream
/// in real time, and a graceful shutdown with a client connected.
struct ServiceLiveTests {
    struct Element: Decodable { let id: String; let x, y, diameter, scale, opacity: Double; let color: String }
    struct Frame: Decodable { let loader: String; let t: Double; let done: Bool; let elements: [Element] }
    struct Batch: Decodable { let loader: String; let fps: Double; let frames: [Frame] }

    /// Refusals by the parser and the router, as the bytes of each arrive,
    /// answer the JSON error shape.
    @Test(arguments: Transport.allCases)
    func statusesAnswerTheErrorShape(_ transport: Transport) throws {
        let app = try TestApp(transport)
        let methodNotAllowed = try get(app, "/loaders", method: "POST")
        #expect(methodNotAllowed.status == 405 && methodNotAllowed.headers["allow"] == "GET, HEAD")
        #expect(try decodeError(methodNotAllowed).code == "method_not_allowed")
        let notAcceptable = try get(app, "/loaders/typing/frames?t=1", ["Accept": "text/html"])
        #expect(notAcceptable.status == 406)
        #expect(try decodeError(notAcceptable).code == "not_acceptable")
        #expect(try get(app, "/loaders/typing/frames?t=1", ["Accept": "text/html, */*;q=0.1"]).status == 200)
        for (request, status, code) in [
            ("GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\nHost: x\r\n\r\n", 414, "uri_too_long"),
            ("GET / HTTP/1.1\r\nHost: x\r\nX: " + String(repeating: "b", count: 17000) + "\r\n\r\n", 431, "header_fields_too_large"),
            ("POST /loaders HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n", 413, "content_too_large"),
            // A definition past the server's body limit (1 MiB) never reaches the parser.
            ("POST /loaders/preview HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1048577\r\n\r\n", 413, "content_too_large"),
            ("BROKEN\r\n\r\n", 400, "bad_request"),
        ] {
            let client = try app.client()
            client.send(request)
            let r = try #require(client.readResponse())
            #expect(r.status == status)
            #expect(try decodeError(r).code == code)
            #expect(client.isClosedByServer())
        }
    }

    /// A full table with none idle, and an address over its share: the
    /// listener answers 503 and 429 in the error shape at once (a socket's:
    /// the embedded server has no listener).
    @Test func tooManyConnectionsAnswerTheErrorShape() throws {
        let (server, _) = try startService(server: {
            $0.maxConnections = 3
            $0.perAddressExempt = [AddressRange("127.0.0.1")!]
        })
        defer { server.shutdown(gracePeriod: 1_000_000_000) }
        let held = try (0..<3).map { _ in try TestClient(port: server.port) }
        // Busy: a head under way, read with the request before it (one
        // segment), so read once that request's answer is here.
        for client in held {
            client.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHo")
            #expect(client.readResponse()?.status == 200)
        }
        let refused = try TestClient(port: server.port)
        let r = try #require(refused.readResponse())
        #expect(r.status == 503)
        #expect(try decodeError(r).code == "service_unavailable")
        _ = held
    }

    @Test func anAddressOverItsShareGets429InTheErrorShape() throws {
        let (server, _) = try startService(server: { $0.maxConnectionsPerAddress = 1 })
        defer { server.shutdown(gracePeriod: 1_000_000_000) }
        let held = try TestClient(port: server.port)
        #expect(eventually { server.openConnections == 1 })
        let refused = try TestClient(port: server.port)
        let r = try #require(refused.readResponse())
        #expect(r.status == 429)
        #expect(r.headers["retry-after"] == "1")
        #expect(try decodeError(r).code == "too_many_requests")
        // Counted where an operator looks (Prometheus text: each family
        // with its HELP and TYPE, every accept failure reason at 0).
        held.send("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
        let metrics = try #require(held.readResponse()).text
        for line in [
            #"loaderd_connections_refused_total{reason="per_address"} 1"#,
            #"loaderd_connections_refused_total{reason="max_connections"} 0"#,
            "loaderd_connections_evicted_total 0",
            "loaderd_connection_addresses 1",
            "loaderd_connections_per_address_max 1",
            #"loaderd_accept_failures_total{reason="EMFILE"} 0"#,
            #"loaderd_accept_failures_total{reason="ENFILE"} 0"#,
            #"loaderd_accept_failures_total{reason="ENOBUFS"} 0"#,
            #"loaderd_accept_failures_total{reason="ENOMEM"} 0"#,
            "loaderd_accept_failure_episodes_total 0",
            "loaderd_accept_paused 0",
        ] {
            #expect(metrics.contains("\n" + line + "\n"), "\(line)")
        }
        for (family, type) in [("loaderd_connections_refused_total", "counter"), ("loaderd_connections_evicted_total", "counter"),
                               ("loaderd_connection_addresses", "gauge"), ("loaderd_connections_per_address_max", "gauge"),
                               ("loaderd_accept_failures_total", "counter"), ("loaderd_accept_failure_episodes_total", "counter"),
                               ("loaderd_accept_paused", "gauge")] {
            #expect(metrics.contains("# HELP \(family) "), "\(family)")
            #expect(metrics.contains("# TYPE \(family) \(type)\n"), "\(family)")
        }
    }

    @Test func streamFormatAsABrowserReadsIt() throws {
        let (server, _) = try startService()
        defer { server.shutdown(gracePeriod: 1_000_000_000) }
        let client = try TestClient(port: server.port)
        let started = monotonicNanoseconds()
        client.send("GET /loaders/switch/frames?fps=20&duration=0.5&t=0.3 HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
        let r = try #require(client.readResponse())
        let elapsed = Double(monotonicNanoseconds() - started) / 1e9
        #expect(r.status == 200)
        #expect(r.headers["content-type"] == "text/event-stream; charset=utf-8")
        #expect(r.headers["cache-control"] == "no-store")
        #expect(r.headers["x-accel-buffering"] == "no")
        let (events, retry) = parseEventStream(r.text)
        #expect(retry == 1000)
        let frames = events.filter { $0.type == "frame" }
        #expect(frames.map(\.lastEventID) == (0..<10).map(String.init))
        for (k, event) in frames.enumerated() {
            let frame = try JSONDecoder().decode(Frame.self, from: Data(event.data.utf8))
            #expect(abs(frame.t - (0.3 + Double(k) / 20)) < 1e-12)
        }
        #expect(events.last?.type == "end")
        #expect(events.last?.data == #"{"reason":"duration"}"#)
        #expect(elapsed > 0.45 && elapsed < 3)
    }

    @Test func shutdownEndsStreamsWithAnEndEvent() throws {
        let (server, service) = try startService()
        let client = try TestClient(port: server.port)
        client.send("GET /loaders/typing/frames?stream=sse HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.read(until: "event: frame") != nil)
        service.markNotReady()
        let thread = HTTPTestSupport.Thread { server.shutdown(gracePeriod: 2_000_000_000) }
        let rest = String(decoding: client.readToClose(), as: UTF8.self)
        thread.join()
        #expect(rest.hasSuffix("event: end\ndata: {\"reason\":\"shutdown\"}\n\n"))
    }

}
