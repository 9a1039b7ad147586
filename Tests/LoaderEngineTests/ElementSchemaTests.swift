import FoundationEssentials
import Testing
@testable import LoaderEngine

/// FrameEncoder writes by hand what the element schema declares: for each
/// shape, its fields in the schema's order with the element's values, and
/// the Codable encoding (written from the schema) agrees with it.
@Suite struct ElementSchemaTests {
    /// An element of `shape` whose every field holds a value of its own.
    static func element(_ shape: Shape, rotation: Double = 0.25) -> Element {
        var e = Element(id: ElementID("e", index: 7), shape: shape, x: 1.5, y: 2.5, diameter: 3.5,
                        scale: 1.25, opacity: 0.75, color: RGBColor(rgb: 0x12ABEF))
        e.rotation = rotation
        e.width = 4.5; e.height = 5.5; e.cornerRadius = 0.5; e.lineWidth = 6.5
        e.strokeStart = 0.125; e.strokeEnd = 0.875; e.lineCap = .round; e.arc = 2.0
        return e
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
        for rotation in [0.25, 0] {
            let e = Self.element(shape, rotation: rotation)
            let written = try Self.elementObject(FrameEncoder.encode(Self.frame(e)))
            let expected = shape.fields.filter { $0.isWritten(for: e) }
            #expect(written.map(\.0) == expected.map(\.rawValue))
            #expect(written.contains { $0.0 == "rotation" } == (rotation != 0))
            for ((key, value), field) in zip(written, expected) {
                switch field.value(of: e) {
                case let .number(v): #expect(value == .number(v), "\(shape).\(key)")
                case let .text(v): #expect(value == .string(v), "\(shape).\(key)")
                }
            }
        }
    }

    @Test(arguments: Shape.allCases)
    func codableAgreesWithTheEncoder(_ shape: Shape) throws {
        let e = Self.element(shape)
        let ours = try Self.elementObject(FrameEncoder.encode(Self.frame(e)))
        let theirs = try Self.elementObject(Array(JSONEncoder().encode(Self.frame(e))))
        #expect(ours.map(\.0).sorted() == theirs.map(\.0).sorted())
        for (key, value) in ours { #expect(theirs.first { $0.0 == key }?.1 == value, "\(shape).\(key)") }
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
            case .text, .word, .color: false
            }
        }.count
        #expect(numbers <= 10)
        let frame = Self.frame(e)
        let bytes = FrameEncoder.encode(frame).count
        let empty = FrameEncoder.encode(Frame(loader: "schema", t: 0, width: 10, height: 10, done: false, elements: [])).count
        #expect(bytes - empty - numbers - 1 <= FrameEncoder.elementFixedBytes)
    }

    /// The order the README shows, and the shapes and fields
    /// docs/LOADERS.md lists: what clients were promised.
    @Test func schemaIsTheDocumentedOne() {
        #expect(Shape.circle.fields.map(\.rawValue) == ["id", "shape", "x", "y", "diameter", "scale", "rotation", "opacity", "color"])
        #expect(Shape.allCases.map(\.rawValue) == ["circle", "rect", "ring", "segment", "triangle"])
        #expect(Shape.rect.ownFields == [.width, .height, .cornerRadius])
        #expect(Shape.ring.ownFields == [.diameter, .lineWidth, .strokeStart, .strokeEnd, .lineCap])
        #expect(Shape.segment.ownFields == [.diameter, .arc])
        #expect(Shape.triangle.ownFields == [.width, .height])
        #expect(ElementField.allCases.filter(\.isRequired) == [.id, .shape, .x, .y, .scale, .opacity, .color])
        // Each field is carried by some shape, and each shape's own fields
        // keep the schema's order, so one property list serves them all.
        for field in ElementField.allCases { #expect(!field.shapes.isEmpty, "\(field)") }
        for shape in Shape.allCases {
            let own = shape.ownFields.map { ElementField.allCases.firstIndex(of: $0)! }
            #expect(own == own.sorted(), "\(shape)")
        }
    }
}
