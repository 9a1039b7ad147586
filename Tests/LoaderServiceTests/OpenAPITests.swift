import FoundationEssentials
import HTTPTestSupport
import LoaderEngine
import LoaderFormats
import Testing
@testable import LoaderService

/// `/openapi.json` says exactly what the frames endpoints accept: a query
/// built from any one shape is answered, one that mixes shapes is refused.
@Suite struct OpenAPITests {
    /// The built-in loaders have paths of their own; the loaders written as
    /// definitions, which all take the same parameters, share
    /// `/loaders/{name}/…`, their names listed.
    @Test(arguments: Transport.allCases)
    func eachLoaderHasItsFramesPathWithThreeQueryShapes(_ transport: Transport) throws {
        let app = try TestApp(transport)
        let doc = try JSONValue.parse(get(app, "/openapi.json").body)
        let paths = try #require(doc["paths"])
        let schemas = try #require(doc["components"]?["schemas"])
        guard case .array(let parameters)? = paths["/loaders/{name}/frames"]?["get"]?["parameters"], let shared = parameters.first else {
            Issue.record("no /loaders/{name}/frames with parameters"); return
        }
        #expect(shared["in"] == .string("path") && shared["required"] == .bool(true))
        let definedNames = LoaderCatalog.standard.loaders.filter { $0.document != nil }.map { JSONValue.string($0.name) }
        #expect(shared["schema"]?["enum"] == JSONValue.array(definedNames))
        for loader in LoaderCatalog.standard.loaders {
            let builtIn = loader.document == nil
            let type = builtIn ? OpenAPI.typeName(loader) : "Definition"
            let path = builtIn ? "/loaders/\(loader.name)" : "/loaders/{name}"
            #expect(paths["\(path)/frames"] != nil, "\(loader.name)")
            #expect(paths["\(path)/frames.svg"] != nil && paths["\(path)/animation.svg"] != nil)
            #expect((paths["/loaders/\(loader.name)/frames"] != nil) == builtIn)
            var queries: [String: String] = [:]
            for shape in ["FrameQuery", "BatchQuery", "StreamQuery"] {
                let schema = try #require(schemas["\(type)\(shape)"], "\(type)\(shape)")
                #expect(schema["additionalProperties"] == .bool(false))
                queries[shape] = try Self.queryWithEveryProperty(schema)
            }
            // Every property of one shape at once: accepted.
            for (shape, query) in queries {
                let r = try get(app, "/loaders/\(loader.name)/frames?\(query)")
                #expect(r.status == 200, "\(loader.name) \(shape): \(query) → \(r.status) \(r.text.prefix(200))")
            }
            // Two shapes together: refused, whatever the order.
            for (a, b) in [("FrameQuery", "BatchQuery"), ("BatchQuery", "StreamQuery"), ("StreamQuery", "BatchQuery")] {
                let extra = queries[b]!.split(separator: "&").first { item in
                    !queries[a]!.split(separator: "&").contains { $0.split(separator: "=")[0] == item.split(separator: "=")[0] }
                }!
                let r = try get(app, "/loaders/\(loader.name)/frames?\(queries[a]!)&\(extra)")
                #expect(r.status == 400, "\(loader.name) \(a) + \(extra) → \(r.status)")
            }
        }
    }

    @Test(arguments: Transport.allCases)
    func sessionFramesHaveTwoQueryShapes(_ transport: Transport) throws {
        let app = try TestApp(transport)
        let doc = try JSONValue.parse(get(app, "/openapi.json").body)
        let operation = try #require(doc["paths"]?["/sessions/{id}/frames"]?["get"])
        guard case let .array(parameters)? = operation["parameters"] else { Issue.record("no parameters"); return }
        let query = try #require(parameters.first { $0["name"] == .string("query") })
        #expect(query["style"] == .string("form") && query["explode"] == .bool(true))
        guard case let .array(shapes)? = query["schema"]?["oneOf"] else { Issue.record("no oneOf"); return }
        #expect(shapes.count == 2)
    }

    /// `name=value&…` with a valid value for every property of a shape (a
    /// stream's `duration` short, so the stream ends at once).
    static func queryWithEveryProperty(_ schema: JSONValue) throws -> String {
        guard case let .object(properties)? = schema["properties"] else { throw TestFailure("no properties") }
        var items: [String] = []
        for (name, property) in properties {
            let value: String
            if case let .array(words)? = property["enum"], case let .string(first)? = words.first {
                value = first
            } else if case let .string(pattern)? = property["pattern"] {
                value = pattern.contains("#") ? "A0F" : "0.5,1"
            } else if case let .number(minimum)? = property["minimum"] {
                value = property["type"] == .string("integer") ? String(Int(minimum)) : SVG.n(minimum)
            } else if case let .number(above)? = property["exclusiveMinimum"] {
                value = SVG.n(above + 0.05)
            } else {
                throw TestFailure("no value for \(name)")
            }
            items.append("\(name)=\(value)")
        }
        return items.joined(separator: "&")
    }
}
