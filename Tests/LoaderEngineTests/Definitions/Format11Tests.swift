import Testing
import Glibc
@testable import LoaderEngine

/// Format 1.1: the full transform, containers, anchor points, whole-matrix
/// animations, and how the engine places them (`Element.placement`).
struct Format11Tests {
    static func document(format: String = "1.1", _ layers: String) -> String {
        #"{"format": \#(format), "name": "plane", "summary": "A test.", "canvas": {"width": 60, "height": 60}, "layers": [\#(layers)]}"#
    }

    static func frame(_ layers: String, at t: Double = 0, format: String = "1.1", query: String = "") throws -> Frame {
        try LoaderDefinition(definition: Array(document(format: format, layers).utf8)).configure(queryItems(query)).frame(at: t)
    }

    func near(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }
    func near(_ a: Point, _ b: Point, _ tolerance: Double = 1e-9) -> Bool { near(a.x, b.x, tolerance) && near(a.y, b.y, tolerance) }

    /// CSS `perspective(d) rotateX(a) rotateY(b)` about the centre `c` of a
    /// box, applied to its point (x, y) from the centre, worked from the
    /// functions' matrices in the CSS Transforms spec (column vectors).
    static func css(_ x: Double, _ y: Double, a: Double, b: Double, d: Double, c: Point) -> Point {
        // rotateY(b): x' = x cos b + z sin b, z' = −x sin b + z cos b (z = 0).
        let x1 = x * cos(b), z1 = -x * sin(b)
        // rotateX(a): y' = y cos a − z sin a, z' = y sin a + z cos a.
        let y2 = y * cos(a) - z1 * sin(a), z2 = y * sin(a) + z1 * cos(a)
        // perspective(d): w = 1 − z/d.
        let w = 1 - z2 / d
        return Point(x: c.x + x1 / w, y: c.y + y2 / w)
    }

    static let perspective120 = "[1,0,0,0, 0,1,0,0, 0,0,1,-0.008333333333333333, 0,0,0,1]"

    /// A 30 × 30 plane turning over x, then over y, 1 s each, under its
    /// own perspective(120px) (SpinKit's rotating-plane's keyframes).
    static let plane = #"""
    {"type": "rect", "id": "plane", "position": [30, 30], "bounds": [30, 30],
     "transform": {"matrix": \#(perspective120)},
     "animations": [
       {"type": "keyframe", "keyPath": "transform.rotation.x", "values": [0, -3.141592653589793, -3.141592653589793], "duration": 2, "repeatCount": "infinity"},
       {"type": "keyframe", "keyPath": "transform.rotation.y", "values": [0, 0, -3.141592653589793], "duration": 2, "repeatCount": "infinity"}]}
    """#

    @Test(arguments: [0.0, 0.2, 0.45, 0.5, 0.8, 1, 1.3, 1.7, 1.99])
    func rotatingPlaneIsCSSPerspectiveRotateXRotateY(_ t: Double) throws {
        let e = try Self.frame(Self.plane, at: t).elements[0]
        let a = -Double.pi * min(t, 1), b = -Double.pi * max(t - 1, 0)
        if t == 0 {
            // No turn: a similarity, said as before.
            #expect(e.placement == nil && e.x == 30 && e.y == 30 && e.scale == 1)
            return
        }
        let p = try #require(e.placement)
        for (x, y) in [(-15.0, -15.0), (15, -15), (15, 15), (-15, 15), (0, 0)] {
            let expected = Self.css(x, y, a: a, b: b, d: 120, c: Point(x: 30, y: 30))
            #expect(near(p.apply(Point(x: x, y: y)), expected, 1e-9), "t \(t) corner \(x), \(y)")
        }
        #expect(e.x == p.tx && e.y == p.ty && p.pw == 1)
    }

    @Test(arguments: [0.3, 0.9, 1.4])
    func perspectiveFromAContainersSublayerTransformIsTheSame(_ t: Double) throws {
        // The same plane in a 60 × 60 layer whose sublayerTransform is the
        // perspective, about its anchor (its centre, where the plane is).
        let inContainer = #"""
        {"type": "layer", "id": "box", "position": [30, 30], "bounds": [60, 60], "sublayerTransform": {"matrix": \#(Self.perspective120)},
         "sublayers": [\#(Self.plane.replacing(#""transform": {"matrix": \#(Self.perspective120)},"#, with: ""))]}
        """#
        let own = try Self.frame(Self.plane, at: t).elements[0]
        let contained = try Self.frame(inContainer, at: t).elements[0]
        #expect(contained.id.description == "plane")
        let p = try #require(own.placement), q = try #require(contained.placement)
        for (x, y) in [(-15.0, -15.0), (15, -15), (15, 15), (-15, 15)] {
            #expect(near(p.apply(Point(x: x, y: y)), q.apply(Point(x: x, y: y)), 1e-9))
        }
    }

    @Test func squashIsAnAffinePlacement() throws {
        // scale.y 0.5 on a 10 × 20 rect turned a quarter: x ↦ (0, 1)·x, y ↦ (−0.5, 0)·y.
        let e = try Self.frame(#"{"type": "rect", "id": "bar", "position": [30, 20], "bounds": [10, 20], "transform": {"scale.y": 0.5, "rotation": 1.5707963267948966}}"#).elements[0]
        let p = try #require(e.placement)
        #expect(p.isAffine && near(p.a, 0, 1e-15) && near(p.b, 1) && near(p.c, -0.5) && near(p.d, 0, 1e-15))
        #expect(e.x == 30 && e.y == 20)
        // The nearest similarity: sqrt(|det|) = sqrt(0.5), turned a quarter.
        #expect(near(e.scale, 0.5.squareRoot()) && near(e.rotation, .pi / 2))
    }

    @Test func similarityStaysWithoutPlacement() throws {
        // Format-1.1 parts that leave a similarity: x, y, scale, rotation as before.
        let old = try Self.frame(#"{"type": "rect", "id": "bar", "position": [30, 20], "bounds": [10, 20], "transform": {"scale": 2, "rotation": 0.5}}"#, format: "1").elements[0]
        let new = try Self.frame(#"{"type": "rect", "id": "bar", "position": [25, 20], "bounds": [10, 20], "anchorPoint": [0.5, 0.5], "transform": {"scale.x": 2, "scale.y": 2, "rotation.z": 0.5, "translation.x": 5}}"#).elements[0]
        #expect(new.placement == nil)
        #expect(near(new.x, old.x) && near(new.y, old.y) && near(new.scale, old.scale) && near(new.rotation, old.rotation))
    }

    @Test func formatOnePointOneWithoutNewPartsIsFormatOne() throws {
        let layers = #"""
        {"type": "replicator", "id": "r", "bounds": [60, 60], "instanceCount": 3, "instanceDelay": 0.2, "instanceTransform": {"rotation": 2.0943951023931953},
         "sublayers": [{"type": "circle", "id": "dot", "position": [30, 10], "diameter": 8,
           "animations": [{"type": "basic", "keyPath": "transform.scale", "fromValue": 0, "toValue": 1, "duration": 1, "repeatCount": "infinity"}]}]}
        """#
        for t in [0.0, 0.3, 0.77] {
            #expect(try Self.frame(layers, at: t, format: "1") == Self.frame(layers, at: t, format: "1.1"))
        }
    }

    @Test func anchorPointIsWherePositionPutsTheLayer() throws {
        // Anchor at the top left: the 20 × 10 box's top left at (10, 10);
        // a quarter turn about it puts the centre (10, 5) from it at (−5, 10).
        let e = try Self.frame(#"{"type": "rect", "id": "bar", "position": [10, 10], "bounds": [20, 10], "anchorPoint": [0, 0], "transform": {"rotation": 1.5707963267948966}}"#).elements[0]
        #expect(e.placement == nil)
        #expect(near(Point(x: e.x, y: e.y), Point(x: 5, y: 20), 1e-12) && near(e.rotation, .pi / 2))
    }

    @Test func behindTheEyeIsNotDrawn() throws {
        // Moved 130 towards the viewer under perspective(120): w = 1 − 130/120 < 0.
        let layer = #"{"type": "circle", "id": "dot", "position": [30, 30], "diameter": 10, "transform": {"translation.z": 130, "matrix": \#(Self.perspective120)}}"#
        #expect(try Self.frame(layer).elements.isEmpty)
        // 60 towards it: twice as large, w = 1/2.
        let near60 = try Self.frame(layer.replacing("130", with: "60")).elements[0]
        #expect(near60.placement == nil && near(near60.scale, 2) && near(near60.x, 30))
    }

    @Test func wholeMatrixAnimationInterpolatesDecomposed() throws {
        // From none to a quarter turn about z, linear over 1 s: an eighth at 0.5 s.
        let layer = #"""
        {"type": "rect", "id": "sq", "position": [30, 30], "bounds": [10, 10],
         "animations": [{"type": "basic", "keyPath": "transform", "toValue": [0,1,0,0, -1,0,0,0, 0,0,1,0, 0,0,0,1], "duration": 1}]}
        """#
        let e = try Self.frame(layer, at: 0.5).elements[0]
        let corner = (e.placement ?? PlaneTransform(a: cos(e.rotation) * e.scale, b: sin(e.rotation) * e.scale, c: -sin(e.rotation) * e.scale,
                                                   d: cos(e.rotation) * e.scale, tx: e.x, ty: e.y)).apply(Point(x: 5, y: 0))
        #expect(near(corner, Point(x: 30 + 5 * cos(Double.pi / 4), y: 30 + 5 * sin(Double.pi / 4)), 1e-12))
    }

    @Test func triangleIsDrawnInItsBox() throws {
        // A 20 × 10 triangle, half as wide: its apex (0, −5) goes to (30, 25), its base corners to (25, 35) and (35, 35).
        let e = try Self.frame(##"{"type": "triangle", "id": "tri", "position": [30, 30], "bounds": [20, 10], "fillColor": "#FF0000", "transform": {"scale.x": 0.5}}"##).elements[0]
        #expect(e.shape == .triangle && e.width == 20 && e.height == 10 && e.color == RGBColor(rgb: 0xFF0000))
        let p = try #require(e.placement)
        #expect(p.apply(Point(x: 0, y: -5)) == Point(x: 30, y: 25) && p.apply(Point(x: -10, y: 5)) == Point(x: 25, y: 35))
        // Format 1 has no triangle.
        #expect(throws: DefinitionError.self) { try LoaderDocument.parse(Self.document(format: "1", #"{"type": "triangle", "id": "tri", "bounds": [1, 1]}"#)) }
    }

    @Test func containerIdsHaveNoCopyIndex() throws {
        // As in Core Animation, the layer's centre (its anchor) sits at its position.
        let frame = try Self.frame(#"{"type": "layer", "id": "box", "position": [30, 30], "bounds": [60, 60], "sublayers": [{"type": "circle", "id": "dot", "position": [30, 30], "diameter": 8}]}"#)
        #expect(frame.elements.map(\.id.description) == ["dot"])
        #expect(frame.elements[0].x == 30 && frame.elements[0].placement == nil)
    }

    @Test func reducedMotionHoldsAThreeDFrame() throws {
        let definition = try LoaderDefinition(definition: Array(Self.document(Self.plane).replacing(#""layers""#, with: #""reducedPose": 0.5, "layers""#).utf8))
        let still = try definition.configure(queryItems("motion=reduced")).frame(at: 0).elements[0]
        let normal = definition.configure().frame(at: 0.5).elements[0]
        #expect(still.placement == normal.placement && still.placement != nil)
    }

    @Test func reducedPoseWeighsASquash() throws {
        // A bar squashed by scale.y 1 → 0.2 → 1 draws most at scale.y 1: the
        // default reduced pose (LOADERS.md: the moment it draws the most) holds
        // it whole, at its full 10 × 40, not squashed.
        let bar = #"{"type": "rect", "id": "bar", "position": [30, 30], "bounds": [10, 40], "animations": [{"type": "keyframe", "keyPath": "transform.scale.y", "values": [0.2, 1, 0.2], "keyTimes": [0, 0.5, 1], "duration": 1, "repeatCount": "infinity"}]}"#
        let definition = try LoaderDefinition(definition: Array(Self.document(bar).utf8))
        let still = try definition.configure(queryItems("motion=reduced")).frame(at: 0).elements[0]
        let whole = still.placement.map { $0.d } ?? still.scale
        #expect(near(whole, 1, 1e-3) && still.height == 40)
    }

    @Test(arguments: [0.0, 1e-12, 1e-9, 1e-6])
    func edgeOnCurvesStayFinite(_ off: Double) throws {
        // A circle, a rounded rect, a round-capped ring and a segment turned
        // to within `off` of edge-on under perspective: the outline is a
        // sliver; every number in the frame is a finite number and every
        // arc's radii are (JSON has no NaN: a non-number would be `null`).
        let turn = Double.pi / 2 - off
        let shapes = [#"{"type": "circle", "id": "a", "position": [30, 30], "diameter": 40, "transform": {"rotation.x": \#(turn), "rotation.y": 0.3}}"#,
                      #"{"type": "rect", "id": "b", "position": [30, 30], "bounds": [30, 20], "cornerRadius": 8, "transform": {"rotation.x": \#(turn)}}"#,
                      #"{"type": "ring", "id": "c", "position": [30, 30], "diameter": 30, "lineWidth": 4, "strokeEnd": 0.7, "lineCap": "round", "transform": {"rotation.y": \#(turn), "rotation.x": 0.2}}"#,
                      #"{"type": "segment", "id": "d", "position": [30, 30], "diameter": 30, "transform": {"rotation.x": \#(turn)}}"#]
        let container = #"{"type": "layer", "id": "l", "position": [30, 30], "bounds": [60, 60], "sublayerTransform": {"matrix": [1,0,0,0, 0,1,0,0, 0,0,1,-0.01, 0,0,0,1]}, "sublayers": [\#(shapes.joined(separator: ","))]}"#
        let frame = try Self.frame(container)
        let json = String(decoding: FrameEncoder.encode(frame), as: UTF8.self)
        #expect(!json.contains("null") && !json.contains("nan") && !json.contains("inf"))
        for e in frame.elements {
            for segment in e.outline() {
                if case let .arc(rx, ry, angle, _, _, to) = segment {
                    #expect(rx.isFinite && ry.isFinite && angle.isFinite && rx >= 0 && ry >= 0 && to.x.isFinite && to.y.isFinite)
                }
            }
        }
    }

    @Test func everyOutlineFitsTheEncodersBound() throws {
        // Every shape (a ring whole, trimmed with butt and with round caps),
        // under maps from plain to edge-on within rounding, squashed to
        // nothing, stretched 10¹⁵ and mirrored: no outline has more segments
        // than the encoder's buffer is sized for, and the frame holds only
        // numbers.
        func element(_ shape: Shape, _ p: PlaneTransform) -> [Element] {
            var e = Element(id: ElementID("e"), shape: shape, x: p.tx, y: p.ty, diameter: 40, scale: 1, opacity: 1, color: RGBColor(rgb: 0))
            e.width = 40; e.height = 30; e.cornerRadius = 8; e.lineWidth = 4; e.arc = 2
            e.placement = p
            var trimmed = e, capped = e
            trimmed.strokeStart = 0.1; trimmed.strokeEnd = 0.8
            capped.strokeStart = 0.1; capped.strokeEnd = 0.8; capped.lineCap = .round
            return shape == .ring ? [e, trimmed, capped] : [e]
        }
        var maps: [PlaneTransform] = []
        for off in [1.0, 1e-4, 1e-7, 1e-10, 1e-13, 0] {
            let c = sin(off) // cos(π/2 − off): the squash of a turn about x or y near edge-on
            maps.append(PlaneTransform(a: 1, b: 0, c: 0, d: c, tx: 50, ty: 50))
            maps.append(PlaneTransform(a: c, b: 0, c: 0, d: 1, tx: 50, ty: 50, px: 0.005 * cos(off), py: 0, pw: 1))
            maps.append(PlaneTransform(a: 1, b: 0, c: 0, d: c, tx: 50, ty: 50, px: 0, py: -0.005 * cos(off), pw: 1))
            maps.append(PlaneTransform(a: -1e15 * c, b: 3, c: 2, d: 1e15, tx: 50, ty: 50))
        }
        var checked = 0
        for shape in Shape.allCases {
            for p in maps {
                for e in element(shape, p) {
                    #expect(e.outline().count <= Element.outlineMaxSegments)
                    let frame = Frame(loader: "t", t: 0, width: 100, height: 100, done: false, elements: [e])
                    let json = String(decoding: FrameEncoder.encode(frame), as: UTF8.self)
                    #expect(!json.contains("null"), "\(shape) under \(p)")
                    checked += 1
                }
            }
        }
        #expect(checked == 24 * (Shape.allCases.count + 2))
    }

    /// (definition, the error's path suffix, a part of its message).
    static let refusals: [(String, String, String)] = [
        (document(format: "1", #"{"type": "rect", "id": "a", "bounds": [1, 1], "transform": {"rotation.x": 1}}"#), "transform.rotation.x", "needs \"format\": 1.1"),
        (document(format: "1", #"{"type": "rect", "id": "a", "bounds": [1, 1], "anchorPoint": [0, 0]}"#), "anchorPoint", "needs \"format\": 1.1"),
        (document(format: "1", #"{"type": "layer", "id": "a", "bounds": [1, 1], "sublayers": []}"#), "type", "needs \"format\": 1.1"),
        (document(format: "1", #"{"type": "replicator", "id": "a", "bounds": [1, 1], "sublayerTransform": {}, "sublayers": [{"type": "circle", "id": "b", "diameter": 1}]}"#), "sublayerTransform", "needs \"format\": 1.1"),
        (document(format: "1", #"{"type": "circle", "id": "a", "diameter": 1, "animations": [{"type": "basic", "keyPath": "transform.scale.y", "toValue": 1}]}"#), "keyPath", "needs \"format\": 1.1"),
        (document(format: "1.2", #"{"type": "circle", "id": "a", "diameter": 1}"#), "format", "must be 1 or 1.1"),
        (document(#"{"type": "rect", "id": "a", "bounds": [1, 1], "transform": {"matrix": [1, 0]}}"#), "transform.matrix", "16 numbers"),
        (document(#"{"type": "rect", "id": "a", "bounds": [1, 1], "transform": {"rotation": 1, "rotation.z": 1}}"#), "transform.rotation", "rotation or rotation.z, not both"),
        (document(#"{"type": "rect", "id": "a", "bounds": [1, 1], "transform": {"skew": 1}}"#), "transform.skew", "unknown key"),
        (document(#"{"type": "rect", "id": "a", "bounds": [1, 1], "anchorPoint": [2, 0]}"#), "anchorPoint", "from 0 to 1"),
        (document(#"{"type": "rect", "id": "a", "bounds": [1, 1], "sublayerTransform": {}}"#), "sublayerTransform", "unknown key"),
        (document(#"{"type": "rect", "id": "a", "bounds": [1, 1], "animations": [{"type": "basic", "keyPath": "sublayerTransform", "toValue": 1}]}"#), "keyPath", "a rect layer animates"),
        (document(#"{"type": "rect", "id": "a", "bounds": [1, 1], "animations": [{"type": "basic", "keyPath": "transform", "byValue": [1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]}]}"#), "byValue", "no byValue"),
        (document(#"{"type": "rect", "id": "a", "bounds": [1, 1], "animations": [{"type": "keyframe", "keyPath": "transform", "values": [[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]], "calculationMode": "paced"}]}"#), "calculationMode", "\"linear\" or \"discrete\""),
        (document(#"{"type": "rect", "id": "a", "bounds": [1, 1], "animations": [{"type": "keyframe", "keyPath": "transform", "values": [[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]], "path": "M0 0 L1 1"}]}"#), "path", "position only"),
        (document(#"{"type": "rect", "id": "a", "bounds": [1, 1], "animations": [{"type": "keyframe", "keyPath": "transform", "values": [[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1], 3]}]}"#), "values[1]", "must be an array"),
        (document(#"{"type": "rect", "id": "a", "bounds": [1, 1], "animations": [{"type": "keyframe", "keyPath": "transform", "values": [[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]], "keyTimes": [0, 1]}]}"#), "keyTimes", "one key time per value"),
        (document(#"{"type": "layer", "id": "a", "bounds": [1, 1]}"#), "sublayers", "is required"),
        (document(#"{"type": "circle", "id": "a", "diameter": 1, "animations": [{"type": "basic", "keyPath": "transform.translation", "toValue": 1}]}"#), "toValue", "[x, y]"),
    ]

    @Test(arguments: refusals.indices)
    func refused(_ i: Int) {
        let (text, path, message) = Self.refusals[i]
        do {
            _ = try LoaderDocument.parse(text)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.path.hasSuffix(path), "\(error)")
            #expect(error.description.contains(message), "\(error)")
        }
    }

    @Test func everyNewFieldIsRead() throws {
        let text = Self.document(#"""
        {"type": "layer", "id": "box", "bounds": [60, 60], "anchorPoint": [0.25, 0.75], "position": [15, 45],
         "sublayerTransform": {"matrix": \#(Self.perspective120)},
         "transform": {"rotation.x": 0.1, "rotation.y": 0.2, "rotation.z": 0.3, "scale": 0.9, "scale.x": 1.1, "scale.y": 1.2, "scale.z": 1.3,
                       "translation.x": 1, "translation.y": 2, "translation.z": 3},
         "animations": [
           {"type": "basic", "keyPath": "sublayerTransform", "fromValue": \#(Self.perspective120), "duration": 1},
           {"type": "keyframe", "keyPath": "transform", "values": [[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1], [2,0,0,0,0,2,0,0,0,0,1,0,0,0,0,1]], "calculationMode": "discrete", "keyTimes": [0, 0.5, 1], "duration": 1},
           {"type": "basic", "keyPath": "transform.translation", "toValue": [1, 2]},
           {"type": "basic", "keyPath": "transform.rotation.x", "toValue": 1}, {"type": "basic", "keyPath": "transform.rotation.y", "toValue": 1},
           {"type": "basic", "keyPath": "transform.scale.x", "toValue": 1}, {"type": "basic", "keyPath": "transform.scale.y", "toValue": 1},
           {"type": "basic", "keyPath": "transform.scale.z", "toValue": 1}, {"type": "basic", "keyPath": "transform.translation.x", "toValue": 1},
           {"type": "basic", "keyPath": "transform.translation.y", "toValue": 1}, {"type": "basic", "keyPath": "transform.translation.z", "toValue": 1}],
         "sublayers": [{"type": "rect", "id": "sq", "bounds": [10, 10], "position": [30, 30]}]}
        """#)
        let document = try LoaderDocument.parse(text)
        let box = document.layers[0]
        #expect(box.anchor == Point(x: 0.25, y: 0.75))
        let space = try #require(box.space)
        #expect(space.rotationX == 0.1 && space.rotationY == 0.2 && box.model.rotation == 0.3 && box.model.scale == 0.9)
        #expect(space.scaleX == 1.1 && space.scaleY == 1.2 && space.scaleZ == 1.3)
        #expect(space.translationX == 1 && space.translationY == 2 && space.translationZ == 3)
        #expect(space.sublayerTransform == Transform3D([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -0.008333333333333333, 0, 0, 0, 1]))
        #expect(box.animations.count == 11 && box.usesSpace)
        // A container counts as a layer; its 3D placement and whole-matrix animations cost more.
        #expect(document.frameCost == (1 + FrameCost.spaceUnits + 2 * FrameCost.matrixUnits + 9) + 1)
        #expect(document.elementIDs.map(\.description) == ["sq"])
    }
}
