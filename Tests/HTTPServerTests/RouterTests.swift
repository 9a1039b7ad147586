import Testing
@testable import HTTPServer

struct RouterTests {
    func router() -> Router<String> {
        var r = Router<String>()
        r.add(.GET, "/loaders/{name}", "entry")
        r.add(.GET, "/loaders/{name}/frames", "frames")
        r.add(.POST, "/loaders/preview", "preview")
        return r
    }

    func handler(_ m: Router<String>.Match) -> String? {
        if case let .found(h, _) = m { return h }
        return nil
    }

    @Test func literalSegmentsWinOverParameters() {
        let r = router()
        #expect(handler(r.match(method: .POST, path: ["loaders", "preview"])) == "preview")
        #expect(handler(r.match(method: .GET, path: ["loaders", "typing"])) == "entry")
        // The literal route takes only POST: GET is 405, not the parameter route.
        guard case let .methodNotAllowed(allowed) = r.match(method: .GET, path: ["loaders", "preview"]) else {
            Issue.record("GET /loaders/preview should be 405")
            return
        }
        #expect(allowed == [.POST])
        #expect(r.allowedMethods(path: ["loaders", "preview"]) == [.POST])
        #expect(r.allowedMethods(path: ["loaders", "typing"]) == [.GET, .HEAD])
        #expect(handler(r.match(method: .GET, path: ["loaders", "preview", "frames"])) == "frames")
        guard case .notFound = r.match(method: .GET, path: ["nothing"]) else { Issue.record("expected 404"); return }
    }

    @Test func parametersAreFoundByName() {
        var r = Router<String>()
        r.add(.GET, "/sessions/{id}/frames", "one")
        r.add(.GET, "/a/:first/b/{second}/{third}", "three")
        guard case let .found(_, one) = r.match(method: .GET, path: ["sessions", "s-1", "frames"]) else { Issue.record("no match"); return }
        #expect(one["id"] == "s-1")
        #expect(one["name"] == nil)
        guard case let .found(_, three) = r.match(method: .HEAD, path: ["a", "x", "b", "y", "z"]) else { Issue.record("no match"); return }
        #expect(three["first"] == "x")
        #expect(three["second"] == "y")
        #expect(three["third"] == "z")
        #expect(three["b"] == nil)
    }
}
