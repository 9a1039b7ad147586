import EventLoop
import HTTPServer
import LoaderEngine
import LoaderService

/// The user-space cost of one keep-alive request on the wire, with no
/// socket: its bytes parsed, answered by the service, and the answer's head
/// encoded, as a connection does between its `read` and its `sendmsg`.
/// Printed step by step (each line includes the steps before it), for the
/// same frame again and for a new `t` each time (its bytes written in place).
/// `--only <step>` runs one step once, with no warm-up: `bench/instructions`
/// counts its instructions at two iteration counts.
enum WireBenchmark {
    enum Step: String, CaseIterable {
        case parse, respond, head, newT = "new-t"
    }

    static func run(arguments: [String]) {
        let iterations = iterationCount(arguments, default: 500_000)
        var only: Step?
        if let i = arguments.firstIndex(of: "--only"), i + 1 < arguments.count { only = Step(rawValue: arguments[i + 1]) }
        let configuration = ServiceConfiguration.quiet()
        let service = LoaderService(configuration: configuration, logger: Logger(level: .off))
        let loop = EventLoop.embedded()
        let storage = service.makeLoopStorage(for: loop)
        let same = Array("GET /loaders/typing/frames?t=0.5 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n".utf8)
        // "t=NNNNNN.0005": six digits rewritten for each request.
        var fresh = Array("GET /loaders/typing/frames?t=000000.0005 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n".utf8)
        let digitsAt = 30
        var counter = 0
        let date = Array("Tue, 01 Dec 2026 21:00:00 GMT".utf8)
        var parser = HTTPRequestParser()
        var sink = 0

        func once(_ step: Step) {
            if step == .newT {
                counter += 1
                var n = counter
                for i in stride(from: digitsAt + 5, through: digitsAt, by: -1) {
                    fresh[i] = UInt8(ascii: "0") + UInt8(n % 10)
                    n /= 10
                }
            }
            let event = (step == .newT ? fresh : same).withUnsafeBufferPointer { parser.parse($0) }
            guard case .request(let request, _) = event else { fatalError("the request did not parse") }
            guard step != .parse else { sink &+= request.pathSegments.count; return }
            let response = service.respond(to: request, context: RequestContext(loop: loop, peer: nil, storage: storage))
            guard step != .respond, case .bytes(let body) = response.body else { sink &+= response.status.code; return }
            let head = ResponseHead.encode(status: response.status, headers: response.headers, version: request.version, date: date,
                                           contentLength: body.count, keepAlive: true, serverName: "loaderd")
            sink &+= head.count
        }
        if let only {
            for _ in 0..<iterations { once(only) }
            print("wire \(only.rawValue): \(iterations) requests (\(sink % 10))")
            return
        }
        let names: [Step: String] = [.parse: "the same frame: parse", .respond: "the same frame: parse + respond",
                                     .head: "the same frame: parse + respond + head", .newT: "a new t: parse + respond + head"]
        for step in Step.allCases {
            for _ in 0..<10_000 { once(step) }
            var best = Double.infinity
            for _ in 0..<5 {
                let start = monotonicNanoseconds()
                for _ in 0..<iterations / 5 { once(step) }
                best = min(best, Double(monotonicNanoseconds() - start) / Double(iterations / 5))
            }
            print("wire, \(names[step]!): \(Int(best.rounded())) ns per request (best of 5 × \(iterations / 5); \(sink % 10))")
        }
    }
}
