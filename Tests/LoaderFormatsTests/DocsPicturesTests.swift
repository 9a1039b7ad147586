import FoundationEssentials
import LoaderEngine
import LoaderFormats
import Testing

struct DocsPicturesTests {
    /// docs/LOADERS.md shows each loader's animated SVG from docs/loaders/;
    /// they must be what the service draws now
    /// (`swift run -c release loaderd-bench pictures docs/loaders` rewrites them).
    @Test func docsPicturesAreCurrent() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/loaders").standardized
        for definition in LoaderCatalog.standard.loaders {
            let file = try Data(contentsOf: docs.appendingPathComponent(definition.name + ".svg"))
            let svg = SVG.animation(try SampledLoop.loop(for: definition, parameters: []))
            #expect(Array(file) == svg, "docs/loaders/\(definition.name).svg is stale")
        }
    }
}
