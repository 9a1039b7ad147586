import EventLoop
import HTTPServer
import LoaderEngine
import LoaderService

/// What one answer costs the service past the parser, with no socket, for
/// the paths where a request's values were once read twice: a frame of
/// JSON from a browser (`Accept` and `Origin` given: negotiation and CORS
/// on every request), and a built animated GIF over the answer cache's
/// 64 KiB, answered from the animation cache. Each request is made inside
/// the timing (its head parsed, `Accept` with it where that is done then).
/// Figures, never assertions: `swift run -c release loaderd-bench answers`.
enum AnswerBenchmark {
    static func run(arguments: [String]) {
        let iterations = iterationCount(arguments, default: 100_000)
        var configuration = ServiceConfiguration.quiet()
        configuration.corsAllowedOrigins = ["https://app.example"]
        let service = LoaderService(configuration: configuration, logger: Logger(level: .off))
        let loop = EventLoop.embedded()
        let context = RequestContext(loop: loop, peer: nil, storage: service.makeLoopStorage(for: loop))
        let browser = HTTPHeaders([("Accept", "application/json, text/plain, */*"), ("Origin", "https://app.example")])

        // A new `t` each request, never repeated across rounds.
        var nextT = 0
        func frames(_ count: Int) -> [String] {
            defer { nextT += count }
            return (nextT..<(nextT + count)).map { "/loaders/typing/frames?t=\(Double($0) / 1000 + 0.0005)" }
        }
        measure("frame, Accept and Origin", iterations: iterations, targets: frames) {
            service.respond(to: try! HTTPRequest(method: .GET, target: $0, headers: browser), context: context)
        }

        // The GIF is built once off the loop (through the embedded server,
        // which runs the deferred answer); then every request is a hit.
        let gif = "/loaders/typing/animation.gif?dpr=2&fps=30"
        let built = EmbeddedServer(responder: service).request(.GET, gif, timeoutSeconds: 300)
        guard built.status == 200 else { return print("the GIF was not built: \(built.status)") }
        print("  (the GIF: \(built.body.count) bytes\(built.body.count > 64 * 1024 ? "" : ", under 64 KiB: the answer cache holds it"))")
        measure("cached GIF over 64 KiB", iterations: iterations / 10, targets: { _ in [gif] }) {
            service.respond(to: try! HTTPRequest(method: .GET, target: $0), context: context)
        }
    }

    private static func measure(_ name: String, iterations: Int, targets: (Int) -> [String], answer: (String) -> HTTPResponse) {
        var bytes = 0
        for target in targets(1000) { bytes &+= size(answer(target)) }  // warm
        var best = Double.infinity
        for _ in 0..<5 {
            let batch = targets(iterations / 5)
            let start = monotonicNanoseconds()
            for i in 0..<iterations / 5 { bytes &+= size(answer(batch[i % batch.count])) }
            best = min(best, Double(monotonicNanoseconds() - start) / Double(iterations / 5))
        }
        print("answers \(name): \(Int(best.rounded())) ns per request (best of 5 × \(iterations / 5); \(bytes % 10))")
    }

    private static func size(_ response: HTTPResponse) -> Int {
        if case .bytes(let b) = response.body { return b.count }
        return 0
    }
}
