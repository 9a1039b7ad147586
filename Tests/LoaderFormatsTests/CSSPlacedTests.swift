import FoundationEssentials
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import LoaderEngine
@testable import LoaderFormats

/// A hand-made loader whose elements have placements: a rounded square
/// turning about y under perspective (over the edge twice a loop), a circle
/// squashed along a turned axis (a similarity once a loop), a ring skewed.
struct PlacedScene: LoaderScene {
    static let definition = LoaderDefinition(
        name: "placed", summary: "Placed shapes.",
        parameters: CommonParameters.canvas(width: 60, height: 60) + [
            CommonParameters.color(.black), CommonParameters.motion, CommonParameters.speed, CommonParameters.scale,
        ],
        events: [], reducedMotion: "The same.", background: nil,
        period: { _ in 1 }, scene: { _, _ in PlacedScene() })

    /// Nearest similarity, as the engine writes it beside a placement.
    static func element(_ name: StaticString, _ shape: Shape, _ p: PlaneTransform?, centre: Point) -> Element {
        var e = Element(id: ElementID(name), shape: shape, x: centre.x, y: centre.y, diameter: 0, scale: 1, opacity: 1, color: .black)
        if let p {
            let c = p.apply(Point(x: 0, y: 0))
            e.x = c.x; e.y = c.y
            e.scale = sqrt(abs(p.a * p.d - p.b * p.c)); e.rotation = atan2(p.b, p.a)
            e.placement = p
        }
        return e
    }

    /// perspective(120px) rotateY(θ) about (30, 30): (x cos θ, y) / w with
    /// w = 1 + x sin θ / 120, moved to the centre.
    static func plane(_ t: Double) -> PlaneTransform {
        let theta = 2 * .pi * t, px = sin(theta) / 120
        return PlaneTransform(a: cos(theta) + 30 * px, b: 30 * px, c: 0, d: 1, tx: 30, ty: 30, px: px, py: 0, pw: 1)
    }

    /// rotate(45°) scale(1, s), s = 0.3 … 1 (1 at t = 0.5: no placement).
    static func squash(_ t: Double) -> PlaneTransform? {
        let s = 0.3 + 0.7 * sin(.pi * t)
        guard s != 1 else { return nil }
        let c = cos(Double.pi / 4), n = sin(Double.pi / 4)
        return PlaneTransform(a: c, b: n, c: -n * s, d: c * s, tx: 15, ty: 45)
    }

    /// skewX(20° sin 2πt).
    static func skew(_ t: Double) -> PlaneTransform {
        PlaneTransform(a: 1, b: 0, c: tan(20 * .pi / 180 * sin(2 * .pi * t)), d: 1, tx: 45, ty: 15)
    }

    func render(at t: Double, into elements: inout [Element]) -> Bool {
        let u = t - t.rounded(.down)
        var plane = Self.element("plane", .rect, Self.plane(u), centre: Point(x: 30, y: 30))
        plane.width = 30; plane.height = 30; plane.cornerRadius = 3
        var dot = Self.element("dot", .circle, Self.squash(u), centre: Point(x: 15, y: 45))
        dot.diameter = 12
        var arc = Self.element("arc", .ring, Self.skew(u), centre: Point(x: 45, y: 15))
        arc.diameter = 20; arc.lineWidth = 4; arc.strokeEnd = 0.75
        elements += [plane, dot, arc]
        return false
    }
}

@Suite struct CSSPlacedTests {
    /// A keyframes rule's stops: (percent, the transform's numbers).
    static func stops(_ rule: String) -> [(Double, [Double])] {
        var result: [(Double, [Double])] = []
        for part in rule.split(separator: "}").dropLast() {
            let pieces = part.split(separator: "{")
            guard let stop = pieces.last, let head = pieces.dropLast().last, let percent = Double(head.split(separator: "%")[0].split(separator: " ").last ?? "") else { continue }
            let transform = stop.split(separator: ";").first { $0.hasPrefix("transform:") } ?? ""
            result.append((percent, CSSWriter.numbers(transform)))
        }
        return result
    }

    /// SpinKit's rotating-plane in format 1.1: a 30 × 30 plane under
    /// perspective(120px) turning over x, then over y, 1 s each.
    static let rotatingPlane = #"""
    {"format": 1.1, "name": "plane", "summary": "A test.", "canvas": {"width": 60, "height": 60}, "layers": [
    {"type": "rect", "id": "plane", "position": [30, 30], "bounds": [30, 30],
     "transform": {"matrix": [1,0,0,0, 0,1,0,0, 0,0,1,-0.008333333333333333, 0,0,0,1]},
     "animations": [
       {"type": "keyframe", "keyPath": "transform.rotation.x", "values": [0, -3.141592653589793, -3.141592653589793], "duration": 2, "repeatCount": "infinity"},
       {"type": "keyframe", "keyPath": "transform.rotation.y", "values": [0, 0, -3.141592653589793], "duration": 2, "repeatCount": "infinity"}]}]}
    """#

    @Test func aDefinedPlaneUnderPerspectiveHoldsBetweenKeyframes() throws {
        let definition = try LoaderDefinition(definition: Array(Self.rotatingPlane.utf8))
        let loop = SampledLoop(loader: definition.configure(), start: 0, duration: 2, verify: false)
        #expect(try Self.worst(loop) <= 0.1)
    }

    /// Between keyframes too, what a browser draws of each placed element
    /// (CSS Transforms 2 interpolation of the written matrices) keeps the
    /// corners of its box within 0.1 px of the engine's placement.
    @Test func placedKeyframesHoldBetweenThemselves() throws {
        let loop = SampledLoop(loader: PlacedScene.definition.configure(), start: 0, duration: 1, verify: false)
        let css = CSSWriter(name: "placed", normal: loop, reduced: loop).css()
        #expect(css.contains("matrix3d("))
        #expect(css.contains("matrix("))
        #expect(try Self.worst(loop) <= 0.1)
    }

    /// Keyframes added where decomposition strays are bounded by the export,
    /// not by its elements: six circles whose whole-matrix keyframes pass
    /// through stretches of 10⁶ each want about 2,000 more; together they get
    /// `maxExportPlacedKeys`, and the writer stops there.
    @Test func refiningIsBoundedByTheExport() throws {
        let wild = "[1,0,0,-0.02, 0,1,0,0, 0,0,1,0, 0,0,0,1], [1000000,0,0,0, 0,0.000001,0,0, 0,0,1,0, 0,0,0,1], [1,0,0,0, 1000000,1,0,0, 0,0,1,0, 0,0,0,1], [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,0.000001]"
        let circles = (0..<6).map { i in
            #"{"type": "circle", "id": "s\#(i)", "position": [\#(20 + 12 * i), 50], "diameter": 10, "animations": [{"type": "keyframe", "keyPath": "transform", "values": [\#(wild)], "duration": 2, "repeatCount": "infinity"}]}"#
        }
        let text = #"{"format": 1.1, "name": "wild", "summary": "x.", "canvas": {"width": 100, "height": 100}, "layers": [{"type": "layer", "id": "p", "position": [50, 50], "bounds": [100, 100], "sublayerTransform": {"matrix": [1,0,0,0, 0,1,0,0, 0,0,1,-0.01, 0,0,0,1]}, "sublayers": [\#(circles.joined(separator: ","))]}]}"#
        let definition = try LoaderDefinition(definition: Array(text.utf8))
        let loop = SampledLoop(loader: definition.configure(), start: 0, duration: 2, verify: false)
        let writer = CSSWriter(name: "wild", normal: loop, reduced: loop)
        let css = writer.css()
        #expect(css.contains("matrix3d("))
        #expect(writer.placedKeysLeft.left == 0)
    }

    /// The largest distance, over 400 moments of the loop, between a
    /// corner of a placed element's box as the written keyframes draw it
    /// and as the engine places it.
    static func worst(_ loop: SampledLoop) throws -> Double {
        let writer = CSSWriter(name: "placed", normal: loop, reduced: loop)
        let duration = loop.duration
        var worst = 0.0
        for (i, track) in loop.tracks.enumerated() {
            let keys = writer.keyframes("k", track.element, track, duration: duration, loop: loop)
            let stops = Self.stops(keys.rules)
            #expect(stops.count >= 2 && stops.allSatisfy { $0.1.count == 16 || $0.1.count == 6 }, "element \(i)")
            for n in 0..<400 {
                let t = (Double(n) + 0.37) / 400 * duration, percent = t / duration * 100
                guard let j = stops.lastIndex(where: { $0.0 <= percent }), j + 1 < stops.count else { continue }
                let (a, b) = (stops[j], stops[j + 1])
                let ma = try #require(CSSMatrix(arguments: a.1)), mb = try #require(CSSMatrix(arguments: b.1))
                let m = CSSMatrix.interpolate(ma, mb, (percent - a.0) / (b.0 - a.0))
                let e = try #require(loop.loader.frame(at: loop.start + t).elements.first { $0.id == track.element.id })
                let s = try #require(SampledLoop.sample(e))
                let (hw, hh) = CSSWriter.extent(e, s)
                let truth = CSSWriter.plane(e, s)
                for (sx, sy) in [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)] {
                    let p = Point(x: sx * hw, y: sy * hh)
                    let (u, v) = (m.apply(p), truth.apply(p))
                    worst = max(worst, abs(u.x - v.x), abs(u.y - v.y))
                }
            }
        }
        return worst
    }
}
