import FoundationEssentials
import HTTPTestSupport
import LoaderEngine
import Testing
@testable import LoaderService

/// A 406 names what the path answers, and what each path answers is what
/// `/openapi.json` documents (itself checked against live answers by
/// schemathesis in CI).
@Suite struct NegotiationTests {
    /// Every endpoint's `offers` are exactly the media types of its 2xx
    /// answers in the document, over every operation it shows there.
    @Test func everyEndpointOffersWhatTheDocumentSays() throws {
        let context = OpenAPI.Context(catalog: .standard, configuration: .embeddedDefault())
        for endpoint in LoaderService.endpoints {
            var documented: Set<String> = []
            for operation in endpoint.document(context) {
                let json = try JSONValue.parse(operation.json)
                guard case .object(let responses)? = json["responses"] else { Issue.record("\(endpoint.path): no responses"); continue }
                for (status, answer) in responses where status.hasPrefix("2") {
                    if case .object(let content)? = answer["content"] { documented.formUnion(content.map { String($0.0.split(separator: ";")[0]) }) }
                }
            }
            #expect(Set(endpoint.offers) == documented, "\(endpoint.method) \(endpoint.path)")
        }
    }

    /// The frames path answers JSON, event streams and SVG; its 406 says so
    /// (it once said "this resource is application/json").
    @Test(arguments: Transport.allCases)
    func theFramesPathNamesAllThree(_ transport: Transport) throws {
        let app = try TestApp(transport)
        for target in ["/loaders/typing/frames?t=1", "/loaders/pacman/frames?from=0&to=1&fps=2"] {
            let r = try get(app, target, ["Accept": "image/png"])
            #expect(r.status == 406)
            let error = try decodeError(r)
            #expect(error.code == "not_acceptable")
            for type in ["application/json", "text/event-stream", "image/svg+xml"] {
                #expect(error.message.contains(type), "\(target): \(error.message)")
            }
        }
    }

    @Test(arguments: Transport.allCases)
    func otherPathsNameTheirOwn(_ transport: Transport) throws {
        let app = try TestApp(transport)
        let cases: [(String, [String], [String])] = [
            ("/loaders/typing/animation.json", ["application/json"], ["image/svg+xml", "text/event-stream"]),
            ("/loaders/typing/frames.png?t=0", ["image/png"], ["application/json"]),
            ("/streams?loader=typing", ["text/event-stream"], ["application/json"]),
            ("/loaders", ["application/json"], ["text/event-stream"]),
        ]
        for (target, named, notNamed) in cases {
            let r = try get(app, target, ["Accept": "application/x-none"])
            #expect(r.status == 406, "\(target)")
            let message = try decodeError(r).message
            for type in named { #expect(message.contains(type), "\(target): \(message)") }
            for type in notNamed { #expect(!message.contains(type), "\(target): \(message)") }
        }
        // A preview's 406 comes from its heavy job, off the pipeline.
        let preview = try app.request("POST", "/loaders/preview?t=0", ["Content-Type": "application/json", "Accept": "image/png"],
                                      body: Array(PreviewTests.definition.utf8))
        #expect(preview.status == 406)
        let message = try decodeError(preview).message
        #expect(message.contains("application/json") && message.contains("text/event-stream") && !message.contains("image/svg+xml"), "\(message)")
    }

    /// Weights count: JSON refused beside a wildcard is refused, and a path
    /// that has something else answers that.
    @Test(arguments: Transport.allCases)
    func weightsChooseAndExclude(_ transport: Transport) throws {
        let app = try TestApp(transport)
        #expect(try get(app, "/loaders", ["Accept": "application/json;q=0, */*"]).status == 406)
        for accept in ["application/json;q=0, */*", "application/json;q=0.1, image/svg+xml", "image/svg+xml", "image/*"] {
            let r = try get(app, "/loaders/typing/frames?t=0.5", ["Accept": accept])
            #expect(r.status == 200 && r.headers["content-type"]?.hasPrefix("image/svg+xml") == true, "\(accept)")
        }
        for accept in ["image/svg+xml;q=0.5, application/json", "*/*", "application/json, image/svg+xml", "image/svg+xml;q=0, */*"] {
            let r = try get(app, "/loaders/typing/frames?t=0.5", ["Accept": accept])
            #expect(r.status == 200 && r.headers["content-type"]?.hasPrefix("application/json") == true, "\(accept)")
        }
    }
}
