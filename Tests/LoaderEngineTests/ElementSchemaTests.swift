import FoundationEssentials
import Testing
@testable import LoaderEngine

/// FrameEncoder writes by hand what the element schema declares: for each
/// shape, its fields in the schema's order with the element's values, and
/// the Codable encoding (written from the schema) agrees with it.
@Suite struct ElementSchemaTests {
    /// An element of `shape` whose every field holds a value of its own.
    static func element(_ shape: Shape, rotation: Double = 0.25, placement: PlaneTransform? = nil) -> Element {
        var e = Element(id: ElementID("e", index: 7), shape: shape, x: 1.5, y: 2.5, diameter: 3.5,
                        scale: 1.25, opacity: 0.75, color: RGBColor(rgb: 0x12ABEF))
        e.rotation = rotation
        e.width = 4.5; e.height = 5.5; e.cornerRadius = 0.5; e.lineWidth = 6.5
        e.strokeStart = 0.125; e.strokeEnd = 0.875; e.lineCap = .round; e.arc = 2.0
        e.placement = placement
        return e
    }

    /// None, a squash (affine) and a perspective (projective, pw ≠ 1).
    static let placements: [PlaneTransform?] = [
        nil,
        PlaneTransform(a: 1.5, b: 0.25, c: -0.125, d: 0.5, tx: 1.5, ty: 2.5),
        PlaneTransform(a: 1.2, b: 0.1, c: -0.3, d: 0.9, tx: 3, ty: 5, px: 0.01, py: -0.02, pw: 2),
    ]

    static func json(_ value: ElementField.Value) -> JSONValue {
        switch value {
        case let .number(v): .number(v)
        case let .text(v): .string(v)
        case let .numbers(v): .array(v.map { .number($0) })
        }
    }

    static func elementObject(_ bytes: [UInt8]) throws -> [(String, JSONValue)] {
        guard case let .object(frame) = try JSONValue.parse(bytes),
              case let .array(elements)? = frame.first(where: { $0.0 == "elements" })?.1,
              case let .object(element)? = elements.first else {
            Issue.record("no element in \(String(decoding: bytes, as: UTF8.self))")
            return []
        }
        return element
    }

    static func frame(_ e: Element) -> Frame {
        Frame(loader: "schema", t: 0, width: 10, height: 10, done: false, elements: [e])
    }

    @Test(arguments: Shape.allCases)
    func encoderWritesTheSchemasFields(_ shape: Shape) throws {
        for rotation in [0.25, 0] { for placement in Self.placements {
            let e = Self.element(shape, rotation: rotation, placement: placement)
            let written = try Self.elementObject(FrameEncoder.encode(Self.frame(e)))
            let expected = shape.fields.filter { $0.isWritten(for: e) }
            #expect(written.map(\.0) == expected.map(\.rawValue))
            #expect(written.contains { $0.0 == "rotation" } == (rotation != 0))
            #expect(written.contains { $0.0 == "matrix" } == (placement?.isAffine == true))
            #expect(written.contains { $0.0 == "outline" } == (placement.map { !$0.isAffine } ?? false))
            for ((key, value), field) in zip(written, expected) { #expect(value == Self.json(field.value(of: e)), "\(shape).\(key)") }
        } }
    }

    @Test(arguments: Shape.allCases)
    func codableAgreesWithTheEncoder(_ shape: Shape) throws {
        for placement in Self.placements {
        let e = Self.element(shape, placement: placement)
        let ours = try Self.elementObject(FrameEncoder.encode(Self.frame(e)))
        let theirs = try Self.elementObject(Array(JSONEncoder().encode(Self.frame(e))))
        #expect(ours.map(\.0).sorted() == theirs.map(\.0).sorted())
        for (key, value) in ours { #expect(theirs.first { $0.0 == key }?.1 == value, "\(shape).\(key)") }
        }
    }

    /// FrameEncoder writes into memory sized beforehand: per element its
    /// fixed bytes, the id and at most 10 numbers. Every shape's fields fit.
    @Test(arguments: Shape.allCases)
    func encoderBoundHoldsTheShapesFields(_ shape: Shape) throws {
        var e = Self.element(shape)
        e.id = ElementID("e")
        // Every number one character long ("1"), so the rest is fixed.
        e.x = 1; e.y = 1; e.diameter = 1; e.scale = 1; e.rotation = 1; e.opacity = 1
        e.width = 1; e.height = 1; e.cornerRadius = 1; e.lineWidth = 1; e.strokeStart = 1; e.strokeEnd = 1; e.arc = 1
        let numbers = shape.fields.filter {
            switch $0.kind {
            case .number, .bounded: true
            case .text, .word, .color, .numbers, .pathData: false
            }
        }.count
        #expect(numbers <= 10)
        let frame = Self.frame(e)
        let bytes = FrameEncoder.encode(frame).count
        let empty = FrameEncoder.encode(Frame(loader: "schema", t: 0, width: 10, height: 10, done: false, elements: [])).count
        #expect(bytes - empty - numbers - 1 <= FrameEncoder.elementFixedBytes)
    }

    /// A placement's fields fit the bound at their longest: every number of
    /// 17 significant digits and a negative exponent.
    @Test(arguments: Shape.allCases)
    func encoderBoundHoldsAPlacement(_ shape: Shape) {
        var e = Self.element(shape)
        e.cornerRadius = 1.2345678901234567; e.strokeStart = 0.0123456789012345; e.strokeEnd = 0.9876543210987654
        e.lineWidth = 12.345678901234567; e.lineCap = .round
        for p in [PlaneTransform(a: -1.2345678901234567e-7, b: 0.1, c: -0.3, d: 0.9, tx: -3.3333333333333335, ty: -5.555555555555555e-9),
                  PlaneTransform(a: 1.2345678901234567, b: 0.1234567890123457, c: -0.3333333333333333, d: 0.9876543210987654,
                                 tx: -3.3333333333333335, ty: -5.555555555555556, px: -0.012345678901234567, py: 0.023456789012345678, pw: 3)] {
            e.placement = p
            let bound = FrameEncoder.byteBound(loader: "schema", elements: [e])
            #expect(FrameEncoder.encode(Self.frame(e)).count <= bound)
            let bare = FrameEncoder.byteBound(loader: "schema", elements: [Self.element(shape)])
            let plain = FrameEncoder.encode(Self.frame(Self.element(shape))).count
            // What the placement adds stays within what the bound adds for it.
            #expect(FrameEncoder.encode(Self.frame(e)).count - plain <= bound - bare, "\(shape)")
        }
    }

    /// The projective fields: matrix3d is CSS's order with pw = 1, outline
    /// the element's outline as path data.
    @Test func projectiveFieldsAreTheNormalisedMatrixAndTheOutline() throws {
        var e = Self.element(.rect, placement: PlaneTransform(a: 2, b: 0, c: 0, d: 2, tx: 4, ty: 6, px: 0.5, py: 0, pw: 2))
        e.width = 2; e.height = 2; e.cornerRadius = 0
        let written = try Self.elementObject(FrameEncoder.encode(Self.frame(e)))
        let m3 = written.first { $0.0 == "matrix3d" }?.1
        #expect(m3 == .array([1, 0, 0, 0.25, 0, 1, 0, 0, 0, 0, 1, 0, 2, 3, 0, 1].map { .number($0) }))
        // Corners (±1, ±1) ↦ (2x + 4, 2y + 6) / (x/2 + 2): W is 2.5 on the right, 1.5 on the left.
        #expect(written.first { $0.0 == "outline" }?.1 == .string("M1.3333333333333333 2.6666666666666665L2.4 1.6L2.4 3.2L1.3333333333333333 5.333333333333333L1.3333333333333333 2.6666666666666665Z"))
        let keys = written.map(\.0)
        #expect(keys.firstIndex(of: "matrix3d")! > keys.firstIndex(of: "rotation")! && keys.firstIndex(of: "outline")! < keys.firstIndex(of: "opacity")!)
    }

    /// The order the README shows, and the shapes and fields
    /// docs/LOADERS.md lists: what clients were promised.
    @Test func schemaIsTheDocumentedOne() {
        #expect(Shape.circle.fields.map(\.rawValue) == ["id", "shape", "x", "y", "diameter", "scale", "rotation", "matrix", "matrix3d", "outline", "opacity", "color"])
        #expect(Shape.allCases.map(\.rawValue) == ["circle", "rect", "ring", "segment", "triangle"])
        #expect(Shape.rect.ownFields == [.width, .height, .cornerRadius])
        #expect(Shape.ring.ownFields == [.diameter, .lineWidth, .strokeStart, .strokeEnd, .lineCap])
        #expect(Shape.segment.ownFields == [.diameter, .arc])
        #expect(Shape.triangle.ownFields == [.width, .height])
        #expect(ElementField.allCases.filter(\.isRequired) == [.id, .shape, .x, .y, .scale, .opacity, .color])
        #expect(ElementField.allCases.filter(\.isPlacement) == [.matrix, .matrix3d, .outline])
        // Each field is carried by some shape, and each shape's own fields
        // keep the schema's order, so one property list serves them all.
        for field in ElementField.allCases { #expect(!field.shapes.isEmpty, "\(field)") }
        for shape in Shape.allCases {
            let own = shape.ownFields.map { ElementField.allCases.firstIndex(of: $0)! }
            #expect(own == own.sorted(), "\(shape)")
        }
    }
}
