import Testing
@testable import LoaderEngine

/// The classic loaders: a few frames of each, computed by hand from their
/// definitions (the times are chosen where a keyframe is reached exactly).
/// That each is its original is OriginalsTests's to check, from the
/// originals' sources.
struct CatalogueTests {
    func element(_ loader: String, _ t: Double, _ id: String, _ query: [(name: String, value: String)] = []) throws -> Element {
        let definition = try #require(LoaderCatalog.standard[loader])
        let frame = try definition.configure(query).frame(at: t)
        return try #require(frame.elements.first { $0.id.description == id }, "\(loader) has no \(id) at \(t)")
    }

    func near(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

    @Test func everyDefinitionParsesAndNamesItsFamily() {
        // The families and originals the catalogue reproduces (OriginalsTests checks each against its source).
        let families = ["NVActivityIndicatorView", "SpinKit", "Material"]
        for definition in ClassicLoaders.definitions {
            #expect(definition.family.map(families.contains) == true, "\(definition.name)")
            #expect(definition.original != nil && definition.summary.contains(definition.original!), "\(definition.name) names its original")
            // It loops: as a whole, or each element on its own period.
            let periods = definition.elementPeriods(definition.defaults) ?? []
            #expect(definition.period(definition.defaults) != nil || (!periods.isEmpty && periods.allSatisfy { $0 != nil }),
                    "\(definition.name) loops")
        }
    }

    @Test func elementPeriodsAreEachElementsOwnCycles() throws {
        // ball-grid-pulse's nine cycles (NVActivityIndicatorView's list) have
        // no common period within a microsecond's precision, but each dot has its own.
        let grid = try #require(LoaderCatalog.standard["ball-grid-pulse"])
        #expect(grid.period(grid.defaults) == nil)
        #expect(grid.elementPeriods(grid.defaults)! == [0.72, 1.02, 1.28, 1.42, 1.45, 1.18, 0.87, 1.45, 1.06])
        // Twice as fast: half each; a replicator's turn counts for its copies.
        let fast = try grid.configure([(name: "speed", value: "2")])
        #expect(fast.elementPeriods! == [0.36, 0.51, 0.64, 0.71, 0.725, 0.59, 0.435, 0.725, 0.53])
        let chasing = try #require(LoaderCatalog.standard["chasing-dots"])
        #expect(chasing.elementPeriods(chasing.defaults)! == [2, 2])
        #expect(LoaderCatalog.standard["typing"]!.elementPeriods(LoaderCatalog.standard["typing"]!.defaults) == nil)
    }

    @Test func materialSpinnerLoopsIn2666Seconds() throws {
        // 17 turns of the container, 5 layer cycles, 20 arcs.
        #expect(LoaderCatalog.standard["material-spinner"]!.configure().period == 26.66)
    }

    @Test func pulseDots() throws {
        #expect(near(try element("pulse-dots", 0.12 + 0.225, "dot0").scale, 0.3, 1e-6))
        let dot1 = try element("pulse-dots", 0, "dot1")
        #expect(dot1.x == 20 && dot1.y == 20 && dot1.scale == 1 && dot1.diameter == 12)
    }

    @Test func ripple() throws {
        let first = try element("ripple", 0, "ring0")
        #expect(first.scale == 0 && first.opacity == 1)
        #expect(try element("ripple", 0, "ring1").scale == 1)  // not begun: the model value
        #expect(near(try element("ripple", 0.875, "ring0").opacity, 0.7))
    }

    @Test func equalizer() throws {
        #expect(try element("equalizer", 0, "bar2").height == 45)
        // At its key time 0.5 (0.1 s late) the full bar squashed to 0.4 of its height.
        let bar0 = try element("equalizer", 0.6, "bar0")
        #expect(bar0.height == 45 && bar0.width == 5 && bar0.x == 2.5 && bar0.y == 22.5)
        let squash = try #require(bar0.placement)
        #expect(squash.a == 1 && squash.b == 0 && squash.c == 0 && near(squash.d, 0.4, 1e-9) && squash.isAffine)
        #expect(try element("equalizer", 0, "bar4").x == 42.5)
    }

    @Test func fadingCircle() throws {
        #expect(try element("fading-circle", 0, "dot0").opacity == 0)
        #expect(near(try element("fading-circle", 0.08, "dot8").opacity, 1))
        let dot3 = try element("fading-circle", 0, "dot3")
        #expect(near(dot3.x, 37) && near(dot3.y, 20))
    }

    @Test func threeBounce() throws {
        #expect(try element("three-bounce", 0, "dot2").scale == 0)
        let dot2 = try element("three-bounce", 0.56, "dot2")
        #expect(near(dot2.scale, 1) && dot2.x == 57 && dot2.y == 10 && dot2.diameter == 18)
    }

    @Test func wave() throws {
        let bar0 = try element("wave", 0.24, "bar0")
        #expect(near(bar0.height, 40) && bar0.x == 7)
        #expect(try element("wave", 0, "bar4").x == 43)
    }

    @Test func doubleBounce() throws {
        let a = try element("double-bounce", 0, "bounce0"), b = try element("double-bounce", 0, "bounce1")
        #expect(a.scale == 0 && near(b.scale, 1) && a.opacity == 0.6 && b.opacity == 0.6)
    }

    @Test func pacman() throws {
        let open = try element("pacman", 0.25, "pacman")
        #expect(open.strokeStart == 0 && open.strokeEnd == 1)
        let start = try element("pacman", 0, "pacman")
        #expect(start.strokeStart == 0.125 && start.strokeEnd == 0.875 && near(start.rotation, .pi / 2))
        #expect(start.diameter == 20 && start.lineWidth == 20 && start.x == 20 && start.y == 30)
        let food = try element("pacman", 0.5, "food")
        #expect(near(food.x, 39) && near(food.opacity, 0.85) && food.y == 30)
    }

    @Test func cubeGrid() throws {
        // Cubes on one diagonal share a delay: at 35 % of their cycle, gone.
        for id in ["cube0-0", "cube1-1", "cube2-2"] { #expect(near(try element("cube-grid", 0.655, id).scale, 0)) }
        let cube = try element("cube-grid", 0, "cube2-1")
        #expect(cube.x == 21 && cube.y == 35 && cube.scale == 1 && cube.width == 14)
    }

    @Test func generalParameters() throws {
        // speed multiplies the clock; scale the canvas and lengths; stop ends it.
        let fast = try element("pacman", 0.125, "pacman", [("speed", "2")])
        #expect(fast.strokeStart == 0)
        let big = try element("pacman", 0, "pacman", [("scale", "2")])
        #expect(big.x == 40 && big.y == 60 && big.diameter == 40 && big.lineWidth == 40 && big.scale == 1)
        let loader = try LoaderCatalog.standard["pacman"]!.configure([(name: "scale", value: "2"), (name: "stop", value: "1")])
        #expect(loader.width == 120 && loader.height == 120)
        #expect(loader.frame(at: 1).elements.isEmpty && loader.frame(at: 1).done)
        #expect(try element("pacman", 0, "food", [("color", "#FF0000")]).color == RGBColor(rgb: 0xFF0000))
    }

    @Test func reducedMotionPulsesAStillPose() throws {
        // No definition in the catalogue has its own reducedMotion: a still
        // pose (a bar at its tallest: 45 and the curve's overshoot), opacity
        // × a 1 → 0.5 → 1 pulse of 1 s each way.
        let reduced: [(name: String, value: String)] = [("motion", "reduced")]
        let at0 = try element("equalizer", 0, "bar0", reduced), at1 = try element("equalizer", 1, "bar0", reduced)
        #expect(at0.height >= 45 && at0.height < 46 && at0.opacity == 1)
        #expect(near(at1.opacity, 0.5) && at1.height == at0.height)
        #expect(try LoaderCatalog.standard["equalizer"]!.configure(reduced).period == 2)
    }
}

extension CatalogueTests {
    /// Which elements are moved, delayed copies of others: what the CSS
    /// export staggers with animation-delay.
    @Test func copiesOfTranslatedReplicators() throws {
        let typing = try LoaderCatalog.standard["typing"]!.configure([(name: "speed", value: "2"), (name: "scale", value: "2")])
        // 0.6/3 per copy (one ulp from 0.2), at twice the speed.
        #expect(typing.copies == [nil, CopyRelation(base: 0, delay: 0.6 / 3 / 2, offset: Point(x: 30, y: 0)),
                                  CopyRelation(base: 0, delay: 2 * (0.6 / 3) / 2, offset: Point(x: 60, y: 0))])
        // Nested translations add up; the first copy of each row and column is the base.
        let grid = LoaderCatalog.standard["cube-grid"]!.configure().copies
        #expect(grid[0] == nil && grid[4] == CopyRelation(base: 0, delay: 0, offset: Point(x: 14, y: 14)))
        #expect(grid[5] == CopyRelation(base: 0, delay: 0.1, offset: Point(x: 28, y: 14)))
        // Turned copies are elements of their own; so are the built-ins without a replicator.
        #expect(LoaderCatalog.standard["fading-circle"]!.configure().copies.allSatisfy { $0 == nil })
        #expect(LoaderCatalog.standard["switch"]!.configure().copies.isEmpty)
        // Reduced motion without its own layers: every copy pulses together.
        let reduced = try LoaderCatalog.standard["wave"]!.configure([(name: "motion", value: "reduced")]).copies
        #expect(reduced[1] == CopyRelation(base: 0, delay: 0, offset: Point(x: 9, y: 0)))
    }
}

extension CatalogueTests {
    /// A definition file may not take a loader's name or alias, nor give
    /// one as its alias.
    @Test func aliasesAreTakenNames() throws {
        func file(_ name: String, aliases: String = "") -> (name: String, bytes: [UInt8]) {
            ("\(name).json", Array(#"{"format": 1, "name": "\#(name)", \#(aliases)"summary": "A test.", "canvas": {"width": 4, "height": 4}, "layers": [{"type": "circle", "id": "dot", "diameter": 2}]}"#.utf8))
        }
        #expect(throws: DefinitionError.self) { try LoaderCatalog.standard.adding(files: [file("pulse-dots")]) }
        #expect(throws: DefinitionError.self) { try LoaderCatalog.standard.adding(files: [file("mine", aliases: #""aliases": ["ball-pulse"], "#)]) }
        let mine = try LoaderCatalog.standard.adding(files: [file("mine", aliases: #""aliases": ["my-old-name"], "#)])
        #expect(mine["my-old-name"]?.name == "mine" && mine["pulse-dots"]?.name == "ball-pulse")
    }
}
