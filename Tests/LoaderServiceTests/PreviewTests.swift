import FoundationEssentials
import HTTPTestSupport
import LoaderEngine
import Testing
@testable import LoaderService

/// `POST /loaders/preview` and loaders added from a directory: defined
/// loaders get everything the built-in ones have.
struct PreviewTests {
    static let definition = #"""
    {"format": 1, "name": "blink", "summary": "A dot that blinks.", "canvas": {"width": 20, "height": 20},
     "background": "#000000", "color": "#00FF00",
     "layers": [{"type": "circle", "id": "dot", "position": [10, 10], "diameter": 8,
                 "animations": [{"type": "keyframe", "keyPath": "opacity", "values": [1, 0, 1], "duration": 1, "repeatCount": "infinity"}]}]}
    """#
    static let json = ["Content-Type": "application/json"]

    func post(_ app: TestApp, _ target: String, _ body: String, _ headers: [String: String] = json) throws -> TestResponse {
        try app.request("POST", target, headers, body: Array(body.utf8), streamSeconds: 2)
    }

    @Test(arguments: Transport.allCases)
    func answersTheFramesOfTheBody(_ transport: Transport) throws {
        let app = try TestApp(transport)
        let frame = try post(app, "/loaders/preview?t=0.25", Self.definition)
        #expect(frame.status == 200 && frame.headers["cache-control"] == "no-store")
        // Kept by no cache, yet still known by a strong validator.
        #expect(frame.headers["etag"]?.hasPrefix("\"") == true && frame.headers["etag"]?.hasSuffix("\"") == true)
        let engine = try LoaderDefinition(definition: Array(Self.definition.utf8)).configure().frame(at: 0.25)
        #expect(frame.body == FrameEncoder.encode(engine))
        #expect(frame.text.contains(#""opacity":0.5"#) && frame.text.contains(##""color":"#00FF00""##))
        // Parameters every defined loader takes.
        #expect(try post(app, "/loaders/preview?t=0.25&color=%23FF0000&scale=2", Self.definition).text.contains(#""x":20,"y":20,"diameter":16"#))
        // A batch, and a stream that ends.
        let batch = try post(app, "/loaders/preview?from=0&to=1&fps=4", Self.definition)
        #expect(batch.status == 200 && batch.text.hasPrefix(#"{"loader":"blink","fps":4,"frames":["#))
        let stream = try post(app, "/loaders/preview?stream=sse&fps=10&duration=0.5", Self.definition)
        let events = parseEventStream(stream.text).events
        #expect(events.filter { $0.type == "frame" }.count == 5 && events.last?.type == "end")
        // Nothing was installed.
        #expect(try get(app, "/loaders/blink").status == 404)
    }

    @Test(arguments: Transport.allCases)
    func refusesWithThePath(_ transport: Transport) throws {
        let app = try TestApp(transport)
        let bad = Self.definition.replacing(#""values": [1, 0, 1]"#, with: #""values": [1, 0, 1], "keyTimes": [0, 1]"#)
        let refused = try post(app, "/loaders/preview?t=0", bad)
        #expect(refused.status == 400)
        struct Body: Decodable { struct E: Decodable { let code: String; let message: String; let path: String }; let error: E }
        let error = try JSONDecoder().decode(Body.self, from: Data(refused.body)).error
        #expect(error.code == "invalid_definition" && error.path == "layers[0].animations[0].keyTimes")
        #expect(error.message == "layers[0].animations[0].keyTimes: must have one key time per value (3)")
        #expect(try post(app, "/loaders/preview", "{").status == 400)
        #expect(try post(app, "/loaders/preview", Self.definition, ["Content-Type": "text/plain"]).status == 415)
        #expect(try post(app, "/loaders/preview?t=-1", Self.definition).status == 400)
        #expect(try post(app, "/loaders/preview?size=3", Self.definition).status == 400)
    }

    @Test(arguments: Transport.allCases)
    func largeDefinitionsAreParsedOffTheLoop(_ transport: Transport) throws {
        // Past 16 KiB the parse runs on a worker thread; the answer is the same.
        let padded = Self.definition + String(repeating: " ", count: 20_000)
        let frame = try post(TestApp(transport), "/loaders/preview?t=0.25", padded)
        #expect(frame.status == 200 && frame.text.contains(#""opacity":0.5"#))
        let refused = try post(TestApp(transport), "/loaders/preview?t=0", "{\"format\": 2}" + String(repeating: " ", count: 20_000))
        #expect(refused.status == 400)
    }

    @Test(arguments: Transport.allCases)
    func aLoaderFromADirectoryHasEverything(_ transport: Transport) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("loaders-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Self.definition.utf8).write(to: directory.appendingPathComponent("blink.json"))
        try Data("not a definition".utf8).write(to: directory.appendingPathComponent("README.txt"))
        let catalog = try LoaderCatalog.standard.adding(directory: directory.path)
        let app = try TestApp(transport, catalog: catalog)

        #expect(try get(app, "/loaders").text.contains(#""name":"blink""#))
        #expect(try get(app, "/loaders/blink").status == 200)
        #expect(try get(app, "/loaders/blink/frames?t=0.5").text.contains(#""opacity":0"#))
        #expect(try get(app, "/loaders/blink/frames.svg?t=0").text.contains("<circle id=\"dot\""))
        #expect(try get(app, "/loaders/blink/animation.svg").status == 200)
        let openapi = try JSONValue.parse(get(app, "/openapi.json").body)
        // Among the loaders written as definitions, which share /loaders/{name}/….
        guard case .array(let parameters)? = openapi["paths"]?["/loaders/{name}/frames"]?["get"]?["parameters"],
              case .array(let names)? = parameters.first?["schema"]?["enum"] else { Issue.record("no shared frames path"); return }
        #expect(names.contains(.string("blink")))
        #expect(try get(app, "/").text.contains("/loaders"))
        // A session of it, stopped.
        let created = try app.request("POST", "/sessions", Self.json, body: Array(#"{"loader":"blink","params":{"scale":2}}"#.utf8))
        #expect(created.status == 201)
        struct Created: Decodable { let id: String; let token: String }
        let session = try JSONDecoder().decode(Created.self, from: Data(created.body))
        #expect(try get(app, "/sessions/\(session.id)/frames").text.contains(#""done":false"#))
        let stop = try app.request("POST", "/sessions/\(session.id)/events",
                                   ["Content-Type": "application/json", "Authorization": "Bearer \(session.token)"],
                                   body: Array(#"{"type":"stop"}"#.utf8))
        #expect(stop.status == 202)
        // The stream of a stopped session ends with the loader done and nothing drawn.
        let stream = try app.request("GET", "/sessions/\(session.id)/frames?stream=sse", streamSeconds: 2)
        let last = try #require(parseEventStream(stream.text).events.last { $0.type == "frame" })
        #expect(last.data.contains(##""done":true,"background":"#000000","elements":[]"##) && last.data.contains(#""width":40"#))

        // A bad file names itself.
        try Data(Self.definition.replacing("\"blink\"", with: "\"Blink\"").utf8).write(to: directory.appendingPathComponent("bad.json"))
        #expect(throws: DefinitionError(file: "bad.json", path: "name", message: "must match [a-z][a-z0-9-]{0,39}")) {
            try LoaderCatalog.standard.adding(directory: directory.path)
        }
    }
}
