import HTTPServer
import LoaderService

/// The user-space cost of one keep-alive request on the wire, with no
/// socket: its bytes parsed, answered by the service, and the answer's head
/// encoded, as a connection does between its `read` and its `sendmsg`.
/// Printed step by step (each line includes the steps before it).
enum WireBenchmark {
    static func run(arguments: [String]) {
        var iterations = 500_000
        if let i = arguments.firstIndex(of: "--iterations"), i + 1 < arguments.count, let n = Int(arguments[i + 1]) { iterations = n }
        var configuration = ServiceConfiguration.embeddedDefault()
        configuration.accessLog = false
        configuration.logLevel = .off
        let service = LoaderService(configuration: configuration, logger: Logger(level: .off))
        let loop = EventLoop.embedded()
        let storage = service.makeLoopStorage(for: loop)
        let wire = Array("GET /loaders/typing/frames?t=0.5 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n".utf8)
        let date = Array("Tue, 01 Dec 2026 21:00:00 GMT".utf8)
        var parser = HTTPRequestParser()
        var sink = 0

        func once(_ steps: Int) {
            let event = wire.withUnsafeBufferPointer { parser.parse($0) }
            guard case .request(let request, _) = event else { fatalError("the request did not parse") }
            guard steps > 1 else { sink &+= request.pathSegments.count; return }
            let response = service.respond(to: request, context: RequestContext(loop: loop, peer: nil, storage: storage))
            guard steps > 2, case .bytes(let body) = response.body else { sink &+= response.status.code; return }
            let head = ResponseHead.encode(status: response.status, headers: response.headers, version: request.version, date: date,
                                           contentLength: body.count, keepAlive: true, serverName: "loaderd")
            sink &+= head.count
        }
        for (steps, name) in [(1, "parse"), (2, "parse + respond"), (3, "parse + respond + head")] {
            for _ in 0..<10_000 { once(steps) }
            var best = Double.infinity
            for _ in 0..<5 {
                let start = monotonicNanoseconds()
                for _ in 0..<iterations / 5 { once(steps) }
                best = min(best, Double(monotonicNanoseconds() - start) / Double(iterations / 5))
            }
            print("wire, the same frame: \(name): \(Int(best.rounded())) ns per request (best of 5 × \(iterations / 5); \(sink % 10))")
        }
    }
}
