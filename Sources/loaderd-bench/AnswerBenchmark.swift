import EventLoop
import Glibc
import HTTPServer
import LoaderEngine
import LoaderService

/// What one answer costs the service past the parser, with no socket, for
/// the paths where a request's values were once read twice: a frame of
/// JSON from a browser (`Accept` and `Origin` given: negotiation and CORS
/// on every request), and a built animated GIF over the answer cache's
/// 64 KiB, answered from the animation cache. Figures, never assertions:
/// `swift run -c release loaderd-bench answers`.
enum AnswerBenchmark {
    static func run(arguments: [String]) {
        var iterations = 100_000
        if let i = arguments.firstIndex(of: "--iterations"), i + 1 < arguments.count, let n = Int(arguments[i + 1]) { iterations = n }
        var configuration = ServiceConfiguration.embeddedDefault()
        configuration.accessLog = false
        configuration.logLevel = .off
        configuration.corsAllowedOrigins = ["https://app.example"]
        let service = LoaderService(configuration: configuration, logger: Logger(level: .off))
        let loop = EventLoop.embedded()
        let context = RequestContext(loop: loop, peer: nil, storage: service.makeLoopStorage(for: loop))
        let browser = HTTPHeaders([("Accept", "application/json, text/plain, */*"), ("Origin", "https://app.example")])

        // A new `t` each request, never repeated across rounds.
        var nextT = 0
        func frames(_ count: Int) -> [HTTPRequest] {
            defer { nextT += count }
            return (nextT..<(nextT + count)).map {
                try! HTTPRequest(method: .GET, target: "/loaders/typing/frames?t=\(Double($0) / 1000 + 0.0005)", headers: browser)
            }
        }
        measure("frame, Accept and Origin", iterations: iterations) { frames($0) } answer: { service.respond(to: $0, context: context) }

        // The GIF is built once off the loop; then every request is a hit.
        let gif = try! HTTPRequest(method: .GET, target: "/loaders/typing/animation.gif?dpr=2&fps=20")
        let deadline = monotonicNanoseconds() + 120_000_000_000
        var size = 0
        while monotonicNanoseconds() < deadline {
            let r = service.respond(to: gif, context: context)
            if r.status == .ok, case .bytes(let body) = r.body { size = body.count; break }
            usleep(200_000)  // a bench: each ask before the build is done starts another
        }
        guard size > 0 else { return print("the GIF was not built within 2 minutes") }
        print("  (the GIF: \(size) bytes\(size > 64 * 1024 ? "" : ", under 64 KiB: the answer cache holds it"))")
        measure("cached GIF over 64 KiB", iterations: iterations / 10) { _ in [gif] } answer: { service.respond(to: $0, context: context) }
    }

    private static func measure(_ name: String, iterations: Int, requests: (Int) -> [HTTPRequest], answer: (HTTPRequest) -> HTTPResponse) {
        var bytes = 0
        for request in requests(1000) { bytes &+= size(answer(request)) }  // warm
        var best = Double.infinity
        for _ in 0..<5 {
            let batch = requests(iterations / 5)
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
