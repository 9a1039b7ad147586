#if canImport(Glibc)
import Glibc
#endif
@testable import LoaderEngine
@testable import LoaderFormats
import Testing

/// Elements with a placement of their own in SVG: a squash or skew as the
/// shape under `matrix()`, perspective as the projected outline, and both
/// animated. Expected values are worked out here from SVG's definitions of
/// its transform functions (SVG 1.1 §7.4: matrix(a b c d e f) maps (x, y)
/// to (a·x + c·y + e, b·x + d·y + f); rotate, skewX and scale as matrices).
@Suite struct SVGPlacementTests {
    static let red = RGBColor(rgb: 0xFF0000)

    static func rect(_ placement: PlaneTransform?, width: Double = 4, height: Double = 20) -> Element {
        var e = Element(id: ElementID("bar"), shape: .rect, x: placement?.tx ?? 0, y: placement?.ty ?? 0, diameter: 0, scale: 1, opacity: 0.5, color: red)
        e.width = width; e.height = height; e.cornerRadius = 2
        e.placement = placement
        return e
    }

    static func frame(_ elements: [Element]) -> String {
        String(decoding: SVG.frame(Frame(loader: "t", t: 0, width: 40, height: 40, done: false, elements: elements), background: nil), as: UTF8.self)
    }

    /// The numbers of a path's data, in order.
    static func numbers(_ d: Substring) -> [Double] {
        var out: [Double] = [], token = ""
        for ch in d {
            if ch.isNumber || ch == "." || ch == "-" || ch == "e" {
                if ch == "-", !token.isEmpty, token.last != "e" { out.append(Double(token)!); token = "" }
                token.append(ch)
            } else if !token.isEmpty { out.append(Double(token)!); token = "" }
        }
        if !token.isEmpty { out.append(Double(token)!) }
        return out
    }

    /// A bar squashed to 0.4 of its height (a pill under `transform.scale.y`):
    /// the rect at the origin, unscaled, its round corners too, under the map.
    @Test func fixedTextOfAnyDouble() {
        // Past Int64 at the decimals asked, and not numbers: text, never a trap.
        #expect(SVG.fixed(1e300, decimals: 4) == "1e+300" || SVG.fixed(1e300, decimals: 4) == "1e300")
        #expect(SVG.fixed(-9.3e14, decimals: 4) == "-930000000000000" || SVG.fixed(-9.3e14, decimals: 4).hasPrefix("-9.3e"))
        #expect(SVG.fixed(.nan, decimals: 4) == "0" && SVG.fixed(.infinity, decimals: 2) == "0")
        #expect(SVG.fixed(12.34567, decimals: 2) == "12.35")
    }

    @Test func squashedRectIsItsShapeUnderMatrix() {
        let svg = Self.frame([Self.rect(PlaneTransform(a: 1, b: 0, c: 0, d: 0.4, tx: 20, ty: 10))])
        #expect(svg.contains(##"<g id="bar" transform="matrix(1 0 0 0.4 20 10)" opacity="0.5"><rect x="-2" y="-10" width="4" height="20" rx="2" fill="#FF0000"/></g>"##))
    }

    /// A squashed circle is a `<circle>` of its own diameter (not scaled by
    /// `scale`, which the matrix holds) in a `<g>` under the matrix.
    @Test func squashedCircleIsACircleUnderMatrix() {
        var e = Element(id: ElementID("dot"), x: 5, y: 6, diameter: 10, scale: 0.5, opacity: 1, color: Self.red)
        e.placement = PlaneTransform(a: 0.5, b: 0, c: 0.25, d: 0.5, tx: 5, ty: 6)
        let svg = Self.frame([e])
        #expect(svg.contains(##"<g id="dot" transform="matrix(0.5 0 0.25 0.5 5 6)" opacity="1"><circle r="5" fill="#FF0000"/></g>"##))
    }

    /// Under perspective: one filled path whose corners are the rect's
    /// corners through the homography, worked out here: for
    /// (x, y) ↦ ((x + 20)/(0.02·x + 1), (y + 10)/(0.02·x + 1)), the corner
    /// (2, 10) lands at (22/1.04, 20/1.04).
    @Test func perspectiveIsTheOutlineFilled() throws {
        var e = Self.rect(PlaneTransform(a: 1, b: 0, c: 0, d: 1, tx: 20, ty: 10, px: 0.02, py: 0, pw: 1))
        e.cornerRadius = 0
        let svg = Self.frame([e])
        let start = try #require(svg.firstRange(of: #"<path id="bar" d=""#))
        let rest = svg[start.upperBound...]
        let end = try #require(rest.firstIndex(of: "\""))
        #expect(rest[end...].hasPrefix(##"" fill="#FF0000" opacity="0.5"/>"##))
        let v = Self.numbers(rest[..<end])
        let points = stride(from: 0, to: v.count - 1, by: 2).map { (v[$0], v[$0 + 1]) }
        let corners = [(-2.0, -10.0), (2, -10), (2, 10), (-2, 10)].map { (x, y) in ((x + 20) / (0.02 * x + 1), (y + 10) / (0.02 * x + 1)) }
        for c in corners {
            #expect(points.contains { abs($0.0 - c.0) < 1e-9 && abs($0.1 - c.1) < 1e-9 }, "corner \(c) in \(points)")
        }
        #expect(!svg.contains("matrix("))
    }

    /// SVG's matrices, composed left to right as a transform list does.
    typealias M = (a: Double, b: Double, c: Double, d: Double, e: Double, f: Double)
    static func times(_ m: M, _ n: M) -> M {
        (m.a * n.a + m.c * n.b, m.b * n.a + m.d * n.b, m.a * n.c + m.c * n.d, m.b * n.c + m.d * n.d,
         m.a * n.e + m.c * n.f + m.e, m.b * n.e + m.d * n.f + m.f)
    }
    static func translate(_ x: Double, _ y: Double) -> M { (1, 0, 0, 1, x, y) }
    static func rotate(_ t: Double) -> M { (cos(t), sin(t), -sin(t), cos(t), 0, 0) }
    static func skewX(_ t: Double) -> M { (1, 0, tan(t), 1, 0, 0) }
    static func scale(_ x: Double, _ y: Double) -> M { (x, 0, 0, y, 0, 0) }

    /// The animated SVG's list `translate rotate scale skewX scale` of a
    /// sample gives back the placement, for squashes, skews, turns and a
    /// mirror; a circle's uniform scale is in its radius.
    @Test func sampleDecompositionRecomposes() throws {
        var seed: UInt64 = 48
        func random() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53) * 4 - 2
        }
        var maps = [PlaneTransform(a: 1, b: 0, c: 0, d: 0.4, tx: 3, ty: 4), PlaneTransform(a: 0, b: 2, c: -0.5, d: 0, tx: 0, ty: 0),
                    PlaneTransform(a: -1, b: 0, c: 0, d: 1, tx: 1, ty: 1)]
        for _ in 0..<200 { maps.append(PlaneTransform(a: random(), b: random(), c: random(), d: random(), tx: random() * 10, ty: random() * 10)) }
        for p in maps {
            let s = try #require(SampledLoop.sample(Self.rect(p)))
            let m = [Self.translate(s.x, s.y), Self.rotate(s.rotation), Self.scale(s.scale, s.scale), Self.skewX(s.skew), Self.scale(s.scaleX, s.scaleY)].reduce(Self.translate(0, 0), Self.times)
            let want = [p.a, p.b, p.c, p.d, p.tx, p.ty], got = [m.a, m.b, m.c, m.d, m.e, m.f]
            #expect(zip(want, got).allSatisfy { abs($0 - $1) < 1e-9 }, "\(p): \(got)")

            // Its scale the nearest similarity's, as the engine gives it.
            var dot = Element(id: ElementID("dot"), x: p.tx, y: p.ty, diameter: 10, scale: abs(p.a * p.d - p.b * p.c).squareRoot(), opacity: 1, color: Self.red)
            dot.placement = p
            let c = try #require(SampledLoop.sample(dot))
            let k = c.r / 5   // the drawn radius over the circle's own
            let n = [Self.rotate(c.rotation), Self.scale(k, k), Self.skewX(c.skew), Self.scale(c.scaleX, c.scaleY)].reduce(Self.translate(c.x, c.y), Self.times)
            #expect(c.scale == 1 && zip(want, [n.a, n.b, n.c, n.d, n.e, n.f]).allSatisfy { abs($0 - $1) < 1e-9 }, "circle \(p)")
        }
    }

    /// A placement that is a similarity samples as no placement does, so a
    /// squash passing through scale 1 animates on without a jump.
    @Test func similarityPlacementSamplesAsNone() throws {
        let turn = 0.7, k = 1.5
        var placed = Self.rect(PlaneTransform(a: k * cos(turn), b: k * sin(turn), c: -k * sin(turn), d: k * cos(turn), tx: 3, ty: 4))
        placed.scale = k; placed.rotation = turn
        var plain = placed
        plain.placement = nil
        let a = try #require(SampledLoop.sample(placed)), b = try #require(SampledLoop.sample(plain))
        #expect(a.stray(from: b) < 1e-6)
        #expect(abs(a.skew) < 1e-12 && abs(a.scaleX - 1) < 1e-12 && abs(a.scaleY - 1) < 1e-12)
    }

    /// A squashed bar's track: translate, rotate and scale as before, then
    /// skewX and a scale along each axis, each with the keys' values.
    @Test func squashedTrackAnimatesSkewAndScales() throws {
        let keys = [0.0, 0.4, 1.0].map { sy in SampledLoop.sample(Self.rect(PlaneTransform(a: 1, b: 0, c: 0, d: sy == 0.4 ? 0.4 : 1, tx: 20, ty: 10)))! }
        let track = SampledLoop.Track(element: Self.rect(nil), keys: [(0, keys[0]), (0.5, keys[1]), (1, keys[2])], duration: 1.2)
        let svg = SVG.track(track)
        #expect(svg.hasPrefix(#"<g id="bar" transform="translate(20 10) rotate(0) scale(1) skewX(0) scale(1 1)" opacity="0.5">"#))
        // Scale 0.4 along y is √0.4 uniformly, then (1/√0.4, √0.4) along each axis.
        let u = SVG.fixed(0.4.squareRoot(), decimals: 4), x = SVG.fixed(1 / 0.4.squareRoot(), decimals: 4)
        #expect(svg.contains(#"type="scale" additive="sum" dur="1.2s" repeatCount="indefinite" calcMode="linear" keyTimes="0;0.4166667;0.8333333" values="1;\#(u);1"/>"#))
        #expect(svg.contains(#"type="skewX" additive="sum" dur="1.2s" repeatCount="indefinite" calcMode="linear" keyTimes="0;0.4166667;0.8333333" values="0;0;0"/>"#))
        #expect(svg.contains(#"values="1 1;\#(x) \#(u);1 1"/>"#))
        #expect(svg.hasSuffix(##"<rect x="-2" y="-10" width="4" height="20" rx="2" fill="#FF0000"></rect></g>"##))
    }

    /// A track under perspective: a `<path>` whose `d` takes each key's
    /// outline; an ellipse arc whose axis angle wraps (80°, then −80°, the
    /// same ellipse as 100°) is written 80 then 100, turning the short way.
    @Test func outlinedTrackAnimatesPathData() throws {
        func key(_ angle: Double, _ x: Double) -> SampledLoop.Sample {
            var s = SampledLoop.sample(Self.rect(nil))!
            s.outline = [.move(Point(x: x, y: 0)), .arc(rx: 5, ry: 3, angle: angle * .pi / 180, largeArc: false, sweep: true, to: Point(x: x + 10, y: 0)),
                         .line(Point(x: x + 5, y: 8)), .close]
            return s
        }
        let track = SampledLoop.Track(element: Self.rect(nil), keys: [(0, key(80, 0)), (1, key(-80, 2))], duration: 2)
        #expect(track.outlined)
        let svg = SVG.track(track)
        #expect(svg.hasPrefix(##"<path id="bar" d="M0 0A5 3 80 0 1 10 0L5 8Z" fill="#FF0000" opacity="0.5">"##))
        #expect(svg.contains(#"<animate attributeName="d" dur="2s" repeatCount="indefinite" calcMode="linear" keyTimes="0;0.5" values="M0 0A5 3 80 0 1 10 0L5 8Z;M2 0A5 3 100 0 1 12 0L7 8Z"/>"#))
        #expect(svg.hasSuffix("</path>"))
        // The samples' own interpolation agrees: half way, 90°.
        let middle = SampledLoop.Sample.mix(key(80, 0), key(-80, 2), 0.5)
        guard case let .arc(_, _, angle, _, _, _)? = middle.outline?[1] else { Issue.record("no arc"); return }
        #expect(abs(angle * 180 / .pi - 90) < 1e-9)
    }

    /// Outlines whose arcs' flags differ cannot be interpolated: a jump.
    @Test func outlinesOfAnotherStructureAreAJump() {
        let a: [OutlineSegment] = [.move(Point(x: 0, y: 0)), .arc(rx: 5, ry: 5, angle: 0, largeArc: false, sweep: true, to: Point(x: 10, y: 0)), .close]
        var b = a
        b[1] = .arc(rx: 5, ry: 5, angle: 0, largeArc: true, sweep: true, to: Point(x: 10, y: 0))
        #expect(SampledLoop.Sample.outlineStray(a, b) == nil)
        #expect(SampledLoop.Sample.outlineStray(a, Array(a.dropLast())) == nil)
        #expect(SampledLoop.Sample.outlineStray(a, a) == 0)
    }

    /// A format 1.1 loader with a squashed pill, a skewed dot and a plane
    /// turning under perspective: its loop's keyframes, interpolated as
    /// the animated SVG does (parts of the squash, numbers of the outline),
    /// stay within the tolerances everywhere (checked every 1 ms against the
    /// engine), and each element takes the form its placement needs.
    @Test func placedLoopStaysWithinTolerance() throws {
        let definition = try LoaderDefinition(definition: Array("""
            {"format": 1.1, "name": "placed", "summary": "A squash, a skew and a perspective.", "canvas": {"width": 90, "height": 40},
             "color": "#2060C0", "layers": [
              {"type": "rect", "id": "bar", "position": [12, 20], "bounds": [8, 30], "cornerRadius": 4,
               "animations": [{"type": "keyframe", "keyPath": "transform.scale.y", "values": [1, 0.4, 1], "duration": 1.2, "repeatCount": "infinity"}]},
              {"type": "circle", "id": "dot", "position": [36, 20], "diameter": 20, "animations": [{"type": "basic", "keyPath": "transform",
               "fromValue": [1, 0, 0, 0, -0.6, 0.8, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], "toValue": [1, 0, 0, 0, 0.6, 0.8, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
               "duration": 1.2, "autoreverses": true, "repeatCount": "infinity"}]},
              {"type": "layer", "id": "stage", "position": [68, 20], "bounds": [34, 34],
               "sublayerTransform": {"matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -0.008333333333333333, 0, 0, 0, 1]},
               "sublayers": [{"type": "rect", "id": "plane", "position": [17, 17], "bounds": [26, 26], "cornerRadius": 5,
                "animations": [{"type": "keyframe", "keyPath": "transform.rotation.y", "values": [0, 1.2, 0], "duration": 2.4, "repeatCount": "infinity"}]}]}]}
            """.utf8))
        let loop = try SampledLoop.loop(for: definition, parameters: [], verify: true)
        #expect(loop.maxPositionError <= SampledLoop.positionTolerance * 1.5)
        #expect(loop.maxOpacityError <= SampledLoop.valueTolerance * 1.5)
        #expect(loop.maxRadiusError <= SampledLoop.positionTolerance * 1.5)
        let byID = Dictionary(uniqueKeysWithValues: loop.tracks.map { ($0.element.id.description, $0) })
        let bar = try #require(byID["bar"]), dot = try #require(byID["dot"]), plane = try #require(byID["plane"])
        #expect(SVG.squashed(bar) && !bar.outlined && SVG.squashed(dot) && !dot.outlined && plane.outlined)
        let svg = String(decoding: SVG.animation(loop), as: UTF8.self)
        #expect(svg.contains(#"<g id="bar" transform="translate(12 20) rotate(0) scale(1) skewX(0) scale(1 1)""#))
        #expect(svg.contains(#"<path id="plane" d="M"#) && svg.contains(#"attributeName="d""#))
        #expect(!svg.contains("e-") && !svg.contains("matrix("), "no exponents in SMIL values; matrices as their parts")
    }
}
