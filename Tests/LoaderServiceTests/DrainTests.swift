import EventLoop
import FoundationEssentials
import Glibc
import HTTPTestSupport
import Redis
import Testing
@testable import HTTPServer
@testable import LoaderService
@testable import LoaderSessions

/// What a request gets while the service drains, and what `/readyz` says,
/// as issue #46 asks: from SIGTERM a new connection is answered at once,
/// 503 `shutting_down` with `Connection: close` and `Retry-After`, while
/// `/readyz` is 503 and `/healthz` still 200; `/readyz` names the parts
/// that are unavailable, and follows the session store only when told to.
@Suite(.serialized)
struct ServiceDrainTests {
    struct Readiness: Decodable {
        struct Part: Decodable, Equatable { let part: String; let reason: String }
        let status: String
        let unavailable: [Part]
    }

    @Test func newcomersGet503ShuttingDownAndTheProbesStillAnswer() throws {
        let (server, service) = try startService(server: { $0.headerTimeout = 120_000_000_000 })
        // Under way when the drain begins: it holds the drain open.
        let arriving = try TestClient(port: server.port)
        arriving.send("GET /healthz HTTP/1.1\r\nHo")
        #expect(eventually { server.openConnections == 1 })
        service.markNotReady()
        let done = Flag()
        let thread = HTTPTestSupport.Thread {
            server.shutdown(gracePeriod: 60_000_000_000)
            done.value.store(true, ordering: .relaxed)
        }
        #expect(eventually { server.isShuttingDown })

        func expectShuttingDown(_ r: TestResponse, _ what: String) throws {
            #expect(r.status == 503, "\(what): \(r.status)")
            #expect(try decodeError(r).code == "shutting_down", "\(what)")
            #expect(r.headers["retry-after"] != nil, "\(what)")
            #expect(r.headers["connection"] == "close", "\(what)")
            #expect(r.headers["content-type"] == "application/json", "\(what)")
        }
        for target in ["/loaders", "/loaders/typing/frames?t=0.5", "/loaders/typing/frames?stream=sse", "/loaders/typing/animation.svg",
                       "/openapi.json", "/metrics", "/", "/no/such/path"] {
            try expectShuttingDown(try get(server.port, target), target)
        }
        try expectShuttingDown(try get(server.port, "/sessions", ["Content-Type": "application/json", "Content-Length": "0"], method: "POST"), "POST /sessions")
        let preflight = try get(server.port, "/loaders", ["Origin": "https://example.test", "Access-Control-Request-Method": "GET"], method: "OPTIONS")
        try expectShuttingDown(preflight, "a CORS preflight")
        #expect(preflight.headers["access-control-allow-origin"] == "*", "a browser may read why")

        let health = try get(server.port, "/healthz")
        #expect(health.status == 200 && health.text == #"{"status":"ok"}"#)
        #expect(health.headers["connection"] == "close")
        let ready = try get(server.port, "/readyz")
        #expect(ready.status == 503)
        #expect(ready.headers["connection"] == "close")
        #expect(try decodeError(ready).code == "not_ready")
        let readiness = try JSONDecoder().decode(Readiness.self, from: Data(ready.body))
        #expect(readiness.status == "not_ready")
        #expect(readiness.unavailable == [.init(part: "service", reason: "shutting down")])

        // The request that was arriving is answered, and the drain is over.
        arriving.send("st: x\r\n\r\n")
        let r = try #require(arriving.readResponse())
        #expect(r.status == 200 && r.headers["connection"] == "close")
        #expect(eventually(10) { done.isSet })
        thread.join()
        #expect(server.openConnections == 0)
    }

    /// A Redis that cannot be reached (a port nothing listens on): named
    /// under `unavailable`, without its address; `/readyz` stays 200
    /// unless `readinessFollowsSessionStore`; frames work either way.
    @Test(arguments: Transport.allCases)
    func readinessNamesAnUnreachableSessionStore(_ transport: Transport) throws {
        let local = try get(TestApp(transport), "/readyz")
        #expect(local.status == 200)
        let fine = try JSONDecoder().decode(Readiness.self, from: Data(local.body))
        #expect(fine.status == "ready" && fine.unavailable.isEmpty)

        let port = try closedPort()
        for follows in [false, true] {
            let loop = try EventLoop.started()
            defer { loop.stopAndJoin() }
            let store = RedisSessionStore(url: try RedisURL(parsing: "redis://127.0.0.1:\(port)"), limits: SessionLimits(), catalog: .standard,
                                          logger: Logger(level: .off))
            store.start(on: [loop])
            let app = try TestApp(transport, { $0.readinessFollowsSessionStore = follows }, sessions: store)
            let r = try get(app, "/readyz")
            #expect(r.status == (follows ? 503 : 200), "follows \(follows)")
            let readiness = try JSONDecoder().decode(Readiness.self, from: Data(r.body))
            #expect(readiness.status == (follows ? "not_ready" : "ready"))
            #expect(readiness.unavailable.map(\.part) == ["session_store"])
            if follows { #expect(try decodeError(r).code == "not_ready") }
            #expect(!r.text.contains("127.0.0.1") && !r.text.contains(String(port)), "\(r.text)")
            #expect(try get(app, "/loaders/typing/frames?t=0.5").status == 200)
        }
    }

    /// A port on 127.0.0.1 that was free a moment ago: connecting is refused.
    func closedPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        let address = try SocketAddress(host: "127.0.0.1", port: 0)
        guard address.withSockAddr({ bind(fd, $0, $1) }) == 0 else { throw TestFailure("bind") }
        return SocketAddress.local(of: fd)?.port ?? 0
    }
}
