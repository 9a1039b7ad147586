import EventLoop
import FoundationEssentials
import Synchronization
import Testing
@testable import HTTPServer
@testable import LoaderService

/// Each middleware value alone, with a `next` closure and no server. The
/// expected headers and refusals are the HTTP specs' and the docs' (the
/// Fetch standard's CORS headers, RFC 9110's 304 and 405, DEPLOY.md's
/// drain, README's stream limits), never read from the code under test.
struct MiddlewareTests {
    /// A request as the pipeline would see it, on an embedded loop.
    func request(_ target: String, _ headers: [(String, String)] = [], method: HTTPMethod = .GET,
                 shuttingDown: Bool = false, caches: LoopCaches? = nil) throws -> ServiceRequest {
        let http = try HTTPRequest(method: method, target: target, headers: HTTPHeaders(headers))
        let caches = caches ?? LoopCaches(loop: EventLoop.embedded())
        let context = RequestContext(loop: caches.loop, peer: nil, storage: caches, isShuttingDown: shuttingDown)
        return ServiceRequest(http: http, origin: http.headers["origin"], context: context, caches: caches, start: monotonicNanoseconds())
    }

    /// A router of two paths: `/things` (GET) and `/things/{id}` (GET, DELETE).
    func router() -> Router<Endpoint> {
        var router = Router<Endpoint>()
        let answer: Endpoint.Handler = { _, _ in HTTPResponse(status: .ok) }
        router.add(.GET, "/things", Endpoint(.GET, "/things", document: { _ in [] }, answer))
        router.add(.GET, "/things/{id}", Endpoint(.GET, "/things/{id}", document: { _ in [] }, answer))
        router.add(.DELETE, "/things/{id}", Endpoint(.DELETE, "/things/{id}", document: { _ in [] }, answer))
        return router
    }

    func body(_ response: HTTPResponse) -> [UInt8] {
        if case .bytes(let bytes) = response.body { return bytes }
        return []
    }

    func error(_ response: HTTPResponse) throws -> ErrorBody.Inner {
        try JSONDecoder().decode(ErrorBody.self, from: Data(body(response))).error
    }

    /// Counts the calls of `next`.
    final class Calls: Sendable {
        let count = Atomic<Int>(0)
        var value: Int { count.load(ordering: .relaxed) }
        func next(_ response: HTTPResponse = HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain"], body: Array("hi".utf8)))
            -> ServiceNext {
            { [self] _ in count.add(1, ordering: .relaxed); return response }
        }
    }

    // MARK: CORS

    @Test func corsEchoesAListedOriginWithVaryAndNoneForOthers() throws {
        let cors = CORSMiddleware(policy: CORSPolicy(allowedOrigins: ["https://app.example"]))
        var listed = try request("/x", [("Origin", "https://app.example")])
        let a = try cors.handle(&listed, next: Calls().next())
        #expect(a.headers["Access-Control-Allow-Origin"] == "https://app.example")
        #expect(a.headers["Access-Control-Expose-Headers"] == "ETag, Location, Loader-Frame-Rate")
        #expect(a.headers["Vary"] == "Origin")
        #expect(a.headers["Access-Control-Allow-Credentials"] == nil)
        // An arbitrary origin is never reflected; the answer varies by Origin.
        var other = try request("/x", [("Origin", "https://evil.example")])
        let b = try cors.handle(&other, next: Calls().next())
        #expect(b.headers["Access-Control-Allow-Origin"] == nil)
        #expect(b.headers["Vary"] == "Origin")
        // No Origin: not a CORS request, untouched.
        var plain = try request("/x")
        let c = try cors.handle(&plain, next: Calls().next())
        #expect(c.headers["Access-Control-Allow-Origin"] == nil && c.headers["Vary"] == nil)
        #expect(body(c) == Array("hi".utf8))
    }

    @Test func corsWithAStarAllowsEveryOriginWithoutVary() throws {
        let cors = CORSMiddleware(policy: CORSPolicy(allowedOrigins: ["*"]))
        var r = try request("/x", [("Origin", "https://anyone.example")])
        let a = try cors.handle(&r, next: Calls().next())
        #expect(a.headers["Access-Control-Allow-Origin"] == "*")
        #expect(a.headers["Vary"] == nil)
    }

    // MARK: Preflight

    @Test func optionsNamesThePathsMethodsAndAnswersAPreflight() throws {
        let preflight = PreflightMiddleware(router: router(), cors: CORSPolicy(allowedOrigins: ["*"]))
        let calls = Calls()
        var star = try request("*", method: .OPTIONS)
        let s = try preflight.handle(&star, next: calls.next())
        #expect(s.status == .noContent && s.headers["Allow"] == "GET, HEAD, POST, DELETE, OPTIONS")
        var r = try request("/things/7", [("Origin", "https://app.example"), ("Access-Control-Request-Method", "DELETE"),
                                      ("Access-Control-Request-Headers", "Content-Type, X-Unknown")], method: .OPTIONS)
        let a = try preflight.handle(&r, next: calls.next())
        #expect(a.status == .noContent)
        #expect(r.route == "OPTIONS")
        // A set (RFC 9110 10.2.1): its order is the router's.
        func methods(_ name: String) -> Set<Substring> { Set((a.headers[name] ?? "").split(separator: ",").map { $0.trimmingSpaces }) }
        #expect(methods("Allow") == ["GET", "HEAD", "DELETE", "OPTIONS"])
        #expect(a.headers["Access-Control-Allow-Origin"] == "*")
        #expect(methods("Access-Control-Allow-Methods") == ["GET", "HEAD", "DELETE", "OPTIONS"])
        // Only the request headers the service takes are allowed.
        #expect(a.headers["Access-Control-Allow-Headers"] == "content-type")
        #expect(a.headers["Access-Control-Max-Age"] == "600")
        // A method the path does not take: 405 (RFC 9110 15.5.6).
        var wrong = try request("/things", [("Origin", "https://app.example"), ("Access-Control-Request-Method", "DELETE")], method: .OPTIONS)
        #expect(throws: ServiceError.self) { try preflight.handle(&wrong, next: calls.next()) }
        var nowhere = try request("/nothing", method: .OPTIONS)
        #expect(throws: ServiceError.self) { try preflight.handle(&nowhere, next: calls.next()) }
        #expect(calls.value == 0)
        // Any other method goes on.
        var get = try request("/things")
        _ = try preflight.handle(&get, next: calls.next())
        #expect(calls.value == 1)
    }

    // MARK: Drain

    @Test func whileDrainingEveryRequestButTheProbesGets503ShuttingDown() throws {
        let drain = DrainMiddleware(router: router(), cors: CORSPolicy(allowedOrigins: ["*"]))
        let calls = Calls()
        var running = try request("/things")
        #expect(try drain.handle(&running, next: calls.next()).status == .ok)
        #expect(calls.value == 1)
        // DEPLOY.md: 503, code shutting_down, Retry-After: 1; never waits.
        var r = try request("/things/3", [("Origin", "https://app.example")], shuttingDown: true)
        let refused = try drain.handle(&r, next: calls.next())
        #expect(refused.status == .serviceUnavailable)
        #expect(refused.headers["Retry-After"] == "1")
        #expect(try error(refused).code == "shutting_down")
        #expect(try error(refused).status == 503)
        #expect(refused.headers["Access-Control-Allow-Origin"] == "*")
        // Counted under the route it would have had.
        #expect(r.route == "/things/{id}")
        #expect(calls.value == 1)
        // The probes still answer: /healthz 200, /readyz says for itself.
        for probe in ["/healthz", "/readyz"] {
            var p = try request(probe, shuttingDown: true)
            #expect(try drain.handle(&p, next: calls.next()).status == .ok)
        }
        #expect(calls.value == 3)
    }

    // MARK: Errors as JSON

    @Test func errorsBecomeTheirJSONAnswerAndTheUnexpectedA500() throws {
        let errors = ErrorsAsJSONMiddleware(logger: Logger(level: .off))
        var r = try request("/x")
        let notFound = errors.handle(&r) { _ in throw ServiceError.notFound("no resource at /x") }
        #expect(notFound.status == .notFound)
        #expect(notFound.headers["Content-Type"]?.hasPrefix("application/json") == true)
        let inner = try error(notFound)
        #expect(inner.status == 404 && inner.code == "not_found" && inner.message == "no resource at /x")
        struct Unexpected: Error {}
        let unexpected = errors.handle(&r) { _ in throw Unexpected() }
        #expect(unexpected.status == .internalServerError)
        #expect(try error(unexpected).status == 500)
        #expect(errors.handle(&r, next: Calls().next()).status == .ok)
    }

    // MARK: Answer cache

    @Test func aRepeatedImmutableAnswerComesFromTheLoopsCache() throws {
        let cache = AnswerCacheMiddleware()
        let caches = LoopCaches(loop: EventLoop.embedded())
        var answer = HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain"], body: Array("frame".utf8))
        answer.caching = Caching(.immutable, etag: "\"abc\"")
        let calls = Calls()
        for _ in 0..<5 {
            var r = try request("/things?t=1", caches: caches)
            let a = try cache.handle(&r) { r in r.route = "/things"; return try calls.next(answer)(&r) }
            #expect(body(a) == Array("frame".utf8))
            #expect(r.route == "/things")
        }
        // Kept the second time it was made; every later one is a hit.
        #expect(calls.value == 2)
        // A hit with its ETag in If-None-Match: 304 with no body (RFC 9110 15.4.5).
        var conditional = try request("/things?t=1", [("If-None-Match", "\"abc\"")], caches: caches)
        let notModified = try cache.handle(&conditional, next: calls.next(answer))
        #expect(notModified.status == .notModified && body(notModified).isEmpty)
        #expect(notModified.headers["Content-Type"] == nil)
        #expect(calls.value == 2)
        // With Origin (CORS headers vary) or another method, never cached.
        for (method, headers) in [(HTTPMethod.GET, [("Origin", "https://app.example")]), (.POST, [])] {
            var r = try request("/things?t=1", headers, method: method, caches: caches)
            _ = try cache.handle(&r, next: calls.next(answer))
        }
        #expect(calls.value == 4)
    }

    // MARK: Access log and metrics

    @Test func everyAnswerIsCountedUnderItsRouteMethodAndStatus() throws {
        let metrics = Metrics()
        let log = AccessLogMiddleware(metrics: metrics, logger: Logger(level: .off), enabled: false, trustedProxies: [])
        let caches = LoopCaches(loop: EventLoop.embedded(), metrics: metrics.makeShard())
        for status in [HTTPStatus.ok, .ok, .notFound] {
            var r = try request("/things/1", caches: caches)
            _ = try log.handle(&r) { r in r.route = "/things/{id}"; return HTTPResponse(status: status) }
        }
        let entries = caches.metrics.routes.withLock { $0.entries }
        #expect(entries.map(\.key) == [Metrics.RouteKey(route: "/things/{id}", method: "GET")])
        #expect(entries.first?.value.count == 3)
        #expect(entries.first.map { Dictionary(uniqueKeysWithValues: $0.value.byStatus.entries.map { ($0.key, $0.value) }) } == [200: 2, 404: 1])
    }

    // MARK: Stream limits

    @Test func aStreamTakesAPlaceUntilItEndsAndIsRefusedPastTheLimit() throws {
        let admission = StreamAdmission(perClient: 1, total: 10)
        let limits = StreamLimitsMiddleware(admission: admission, trustedProxies: [])
        let stream = HTTPResponse(status: .ok, stream: { _ in })
        var first = try request("/things/1")
        let admitted = try limits.handle(&first) { _ in stream }
        guard case .stream = admitted.body else { Issue.record("the first stream was not admitted"); return }
        #expect(admission.count == 1)
        // README: past maxStreamsPerClient, 429 too_many_streams with Retry-After.
        var second = try request("/things/1")
        let refused = try limits.handle(&second) { _ in stream }
        #expect(refused.status == .tooManyRequests)
        #expect(try error(refused).code == "too_many_streams")
        #expect(refused.headers["Retry-After"] == "1")
        // Other answers pass untouched and take no place.
        var plain = try request("/things")
        #expect(try limits.handle(&plain, next: Calls().next()).status == .ok)
        #expect(admission.count == 1)
    }

    // MARK: Routing

    @Test func theRouterAnswers404ForAnUnknownPathAnd405WithAllow() throws {
        let routing = Routing([])
        let service = LoaderService(configuration: .embeddedDefault(), logger: Logger(level: .off))
        var unknown = try request("/nothing")
        #expect(throws: ServiceError.self) { try routing.respond(&unknown, service: service) }
        // The service's own table: /healthz takes GET (and HEAD) only.
        let table = Routing(LoaderService.endpoints)
        var healthz = try request("/healthz")
        #expect(try table.respond(&healthz, service: service).status == .ok)
        #expect(healthz.route == "/healthz")
        var post = try request("/healthz", method: .POST)
        do {
            _ = try table.respond(&post, service: service)
            Issue.record("POST /healthz was answered")
        } catch let e as ServiceError {
            #expect(e.status == .methodNotAllowed)
            #expect(e.headers["Allow"] == "GET, HEAD")
        }
    }
}
