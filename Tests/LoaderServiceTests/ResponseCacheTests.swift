import HTTPServer
import Testing
@testable import LoaderService

struct ResponseCacheTests {
    func answer(_ body: String, _ freshness: Caching.Freshness = .immutable) -> HTTPResponse {
        var response = HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain"], body: Array(body.utf8))
        response.caching = Caching(freshness, etag: "\"1\"")
        return response
    }

    @Test func anAnswerIsKeptTheSecondTimeItsKeyIsAsked() {
        let cache = ResponseCache()
        let key = ResponseCache.Key(target: "/loaders/typing/frames?t=0.5", accept: "")
        cache.store(key, answer("frame"), route: "/loaders/{name}/frames")
        #expect(cache.lookup(key) == nil)
        cache.store(key, answer("frame"), route: "/loaders/{name}/frames")
        let hit = cache.lookup(key)
        #expect(hit.map { Array($0.response.headers.map(\.name)) } == ["Content-Type"])
        #expect(hit?.route == "/loaders/{name}/frames")
        #expect(hit?.response.caching == Caching(.immutable, etag: "\"1\""))
        if case .bytes(let body)? = hit?.response.body { #expect(body == Array("frame".utf8)) } else { Issue.record("no body kept") }
        // Another Accept is another key.
        #expect(cache.lookup(ResponseCache.Key(target: "/loaders/typing/frames?t=0.5", accept: "text/html")) == nil)
    }

    @Test func oneOffKeysLeaveNoEntriesAndARepeatedOneIsStillKept() {
        let cache = ResponseCache()
        let keys = (0..<20_000).map { ResponseCache.Key(target: "/loaders/typing/frames?t=\($0)", accept: "") }
        for key in keys { cache.store(key, answer("x"), route: "r") }
        #expect(keys.allSatisfy { cache.lookup($0) == nil })
        let repeated = ResponseCache.Key(target: "/loaders/typing/frames?t=0.25", accept: "")
        cache.store(repeated, answer("y"), route: "r")
        cache.store(repeated, answer("y"), route: "r")
        #expect(cache.lookup(repeated) != nil)
    }

    @Test func answersThatMayChangeAreNotKept() {
        let cache = ResponseCache()
        let key = ResponseCache.Key(target: "/loaders/typing/frames", accept: "")
        for _ in 0..<3 { cache.store(key, answer("z", .revalidate), route: "r") }
        #expect(cache.lookup(key) == nil)
    }
}
