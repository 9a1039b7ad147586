import FoundationEssentials
import Testing
@testable import LoaderEngine

/// The worked examples of the spec (`Fixtures/vectors.json`, copied from the
/// shared spec), through the public parse → compute → encode path, read back
/// with JSONDecoder.
struct VectorTests {
    struct Vector: Decodable, CustomTestStringConvertible {
        let loader: String
        let query: String
        let done: Bool
        let elements: [DecodedFrame.Element]
        var testDescription: String { "\(loader)?\(query)" }
    }

    static let vectors: [Vector] = (try? JSONDecoder().decode([Vector].self, from: fixture("vectors.json"))) ?? []

    @Test func fixtureIsComplete() {
        #expect(Self.vectors.count == 27)
        #expect(Set(Self.vectors.map(\.loader)) == ["typing", "switch", "web"])
    }

    @Test(arguments: vectors)
    func matchesSpec(_ vector: Vector) throws {
        let definition = try #require(LoaderCatalog.standard[vector.loader])
        let query = try FrameQuery(definition, items: queryItems(vector.query))
        let decoded = try decodeFrame(FrameEncoder.encode(query.frame()))

        #expect(decoded.loader == vector.loader)
        #expect(decoded.t == (try query.time("t") ?? 0))
        #expect(decoded.done == vector.done)
        #expect(decoded.elements.map(\.id) == vector.elements.map(\.id))
        let side = max(decoded.width, decoded.height)
        for (got, want) in zip(decoded.elements, vector.elements) {
            #expect(abs(got.x - want.x) <= 1e-6 * side, "\(want.id).x")
            #expect(abs(got.y - want.y) <= 1e-6 * side, "\(want.id).y")
            #expect(abs(got.diameter - want.diameter) <= 1e-6, "\(want.id).diameter")
            #expect(abs(got.scale - want.scale) <= 1e-6, "\(want.id).scale")
            #expect(abs(got.opacity - want.opacity) <= 1e-6, "\(want.id).opacity")
            #expect(got.color == want.color)
            #expect(got.shape == want.shape)
        }
    }
}
