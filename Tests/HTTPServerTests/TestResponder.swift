import Dispatch
import Glibc
import HTTPTestSupport
import Synchronization
@testable import HTTPServer

/// State the test responder shares with tests.
final class Probe: Sendable {
    let streamsClosed = Atomic<Int>(0)
    let requests = Atomic<Int>(0)
    /// Work of `/patient` stopped because its client left.
    let abandoned = Atomic<Int>(0)
}

/// A responder exercising every kind of answer.
struct TestResponder: HTTPResponder {
    let probe: Probe
    var router = Router<@Sendable (HTTPRequest, RequestContext) -> HTTPResponse>()

    init(probe: Probe) {
        self.probe = probe
        router.add(.GET, "/hello", { _, _ in .text(.ok, "hello") })
        router.add(.GET, "/context", { _, context in .text(.ok, "shutting down: \(context.isShuttingDown)") })
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
        // Deferred answers given on the connection's own loop: during their
        // start, and later from a timer (as a Redis reply comes).
        router.add(.GET, "/deferred/now", { _, _ in .deferred { promise in promise.succeed(.text(.ok, "now")) } })
        router.add(.GET, "/deferred/timer", { _, context in
            let loop = context.loop
            return .deferred { promise in loop.schedule(afterNanoseconds: 0) { promise.succeed(.text(.ok, "timer")) } }
        })
        // Work that looks every millisecond whether its client is still there.
        router.add(.GET, "/patient", { request, _ in
            let ms = Int(request.queryValue("ms") ?? "50") ?? 50
            return .deferred { promise in
                DispatchQueue.global().async {
                    for _ in 0..<ms {
                        if promise.clientLeft {
                            probe.abandoned.add(1, ordering: .relaxed)
                            return promise.succeed(.clientClosedRequest)
                        }
                        usleep(1000)
                    }
                    promise.succeed(.text(.ok, "patient \(ms)"))
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

/// A server of `TestResponder` reached over a `Transport` (HTTPTestSupport's).
final class TestServer {
    let probe = Probe()
    private let live: HTTPServer?
    private let embedded: EmbeddedServer?

    init(_ transport: Transport, _ configure: (inout HTTPServerConfiguration) -> Void = { _ in }) throws {
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.eventLoops = 2
        configure(&configuration)
        switch transport {
        case .live:
            live = try HTTPServer(configuration: configuration, responder: TestResponder(probe: probe))
            try live!.start()
            embedded = nil
        case .embedded:
            live = nil
            embedded = EmbeddedServer(responder: TestResponder(probe: probe), configuration: configuration)
        }
    }

    deinit { live?.shutdown(gracePeriod: 1_000_000_000) }

    func client() throws -> TestClient {
        if let embedded { return TestClient(embedded: embedded) }
        return try TestClient(port: live!.port)
    }

    var openConnections: Int { live?.openConnections ?? embedded!.openConnections }
    /// Eventfd wakes of the server's loops so far.
    var wakes: Int { (live?.loops ?? [embedded!.loop]).reduce(0) { $0 + $1.wakes.load(ordering: .relaxed) } }
}
