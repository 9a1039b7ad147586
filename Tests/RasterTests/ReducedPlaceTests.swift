import Testing
import LoaderEngine

/// Every element of a reduced pose is somewhere the normal loop shows it:
/// some normal frame has that element at the same place (within 0.5 pt)
/// and drawn the same size (within 2 %). Found by sampling normal frames.
struct ReducedPlaceTests {
    /// What an element's drawn size is, per shape.
    static func size(_ e: Element) -> [Double] {
        switch e.shape {
        case .rect: return [e.width * e.scale, e.height * e.scale]
        case .ring: return [e.diameter * e.scale, e.lineWidth * e.scale, (e.strokeEnd - e.strokeStart) * e.scale]
        default: return [e.diameter * e.scale]
        }
    }

    static func same(_ a: Element, _ b: Element) -> Bool {
        guard abs(a.x - b.x) <= 0.5, abs(a.y - b.y) <= 0.5 else { return false }
        return zip(size(a), size(b)).allSatisfy { abs($0 - $1) <= 0.02 * max(abs($0), abs($1)) + 1e-9 }
    }

    /// Elements of `reduced` that no sampled normal frame shows: from 0 to
    /// the settle time (what shows before animations begin), then 2,000
    /// moments over one loop.
    static func strays(_ definition: LoaderDefinition) throws -> [String] {
        let normal = definition.configure()
        let settle = definition.settleTime(normal.parameters)
        let period = normal.period ?? 2
        var times = [0.0]
        if settle > 0 { times += (1..<200).map { settle * Double($0) / 200 } }
        times += (0..<2000).map { settle + period * Double($0) / 2000 }
        let frames = times.map { normal.frame(at: $0).elements }
        let pose = try definition.configure([(name: "motion", value: "reduced")]).frame(at: 0).elements
        return pose.enumerated().compactMap { i, e in
            // Elements that do not draw are not asked to be anywhere.
            if size(e).allSatisfy({ $0 == 0 }) || e.opacity == 0 { return nil }
            return frames.contains { $0.count == pose.count && same($0[i], e) } ? nil : "\(e.id) at (\(e.x), \(e.y)) size \(size(e))"
        }
    }

    @Test func everyCatalogueElementIsWhereTheLoopShowsIt() throws {
        for definition in LoaderCatalog.standard.loaders {
            let strays = try Self.strays(definition)
            #expect(strays.isEmpty, "\(definition.name): \(strays)")
        }
    }
}
