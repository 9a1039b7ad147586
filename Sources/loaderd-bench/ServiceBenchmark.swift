import EventLoop
import HTTPServer
import LoaderEngine
import LoaderService

/// The service's own cost per request, with no socket: requests handed to
/// `respond` on one loop, as the server does after parsing. Two kinds: a new
/// `t` every time (parsed, computed, encoded, cached) and the same frame
/// again (answered from the loop's cache).
enum ServiceBenchmark {
    static func run(arguments: [String]) {
        let iterations = iterationCount(arguments, default: 200_000)
        let configuration = ServiceConfiguration.quiet()
        let service = LoaderService(configuration: configuration, logger: Logger(level: .off))
        let loop = EventLoop.embedded()
        let context = RequestContext(loop: loop, peer: nil, storage: service.makeLoopStorage(for: loop))
        // A new `t` is never repeated, across rounds too (the answer cache
        // keeps an answer on its second request); requests are made before
        // each round's clock starts.
        var nextT = 0
        func distinct(_ count: Int) -> [HTTPRequest] {
            defer { nextT += count }
            return (nextT..<(nextT + count)).map { try! HTTPRequest(method: .GET, target: "/loaders/typing/frames?t=\(Double($0) / 1000 + 0.0005)") }
        }
        let same = try! HTTPRequest(method: .GET, target: "/loaders/typing/frames?t=0.5")
        for (name, isNew) in [("new t each request", true), ("the same frame (answer cache)", false)] {
            var bytes = 0
            for request in isNew ? distinct(1000) : [same, same] { bytes &+= size(service.respond(to: request, context: context)) }  // warm
            var best = Double.infinity
            for _ in 0..<5 {
                let requests = isNew ? distinct(iterations / 5) : [same]
                let start = monotonicNanoseconds()
                for i in 0..<iterations / 5 { bytes &+= size(service.respond(to: requests[i % requests.count], context: context)) }
                best = min(best, Double(monotonicNanoseconds() - start) / Double(iterations / 5))
            }
            print("service \(name): \(String(Int(best.rounded()))) ns per request (best of 5 × \(iterations / 5); \(bytes % 10) )")
        }
    }

    private static func size(_ response: HTTPResponse) -> Int {
        if case .bytes(let b) = response.body { return b.count }
        return 0
    }
}
