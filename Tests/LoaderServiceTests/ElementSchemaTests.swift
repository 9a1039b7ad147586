import HTTPServer
import HTTPTestSupport
import Testing
@testable import LoaderEngine
@testable import LoaderService

/// The element schema's other readers: the OpenAPI document's `Element` and
/// the browser client's painter, which must know every shape and field.
@Suite struct ElementSchemaServiceTests {
    /// `Element` in `/openapi.json`: one property per field in the schema's
    /// order, the required ones, the shapes and each shape's own fields.
    @Test func openAPIElementIsTheSchema() throws {
        let doc = try JSONValue.parse(get(TestApp(), "/openapi.json").body)
        let element = try #require(doc["components"]?["schemas"]?["Element"])
        guard case let .object(properties)? = element["properties"] else { Issue.record("no properties"); return }
        #expect(properties.map(\.0) == ElementField.allCases.map(\.rawValue))
        #expect(element["required"] == .array(ElementField.allCases.filter(\.isRequired).map { .string($0.rawValue) }))
        #expect(element["properties"]?["shape"]?["enum"] == .array(Shape.allCases.map { .string($0.rawValue) }))
        #expect(element["properties"]?["arc"]?["maximum"] == .number(2 * Double.pi))
        guard case let .string(description)? = element["description"] else { Issue.record("no description"); return }
        for shape in Shape.allCases {
            let own = shape.ownFields.map(\.rawValue)
            let listed = own.count < 2 ? own.joined() : own.dropLast().joined(separator: ", ") + " and " + own.last!
            #expect(description.contains("\(shape.rawValue) \(shape == .circle ? "has " : "")\(listed)"), "\(shape)")
        }
    }

    /// The painter: `paint(frame, …)` in the client's script.
    static var painter: Substring {
        let source = ClientScript.source
        guard let start = source.firstRange(of: "  paint(frame, background"), let end = source.firstRange(of: "\nfunction set(") else { return "" }
        return source[start.lowerBound..<end.lowerBound]
    }

    /// Where the painter makes each shape's node and where it draws it. A
    /// switch with no default: a new shape does not compile here until its
    /// place in the client is named, and then the script must have it.
    static func places(_ shape: Shape) -> [String] {
        switch shape {
        // Alone, and in a <g> under its matrix.
        case .circle: [#"else if (e.shape === "circle" && !e.matrix) node = document.createElementNS(svgNS, "circle")"#,
                       #"} else if (e.shape === "circle" && !e.matrix) {"#, #"circle: "circle""#, #"if (e.shape === "circle") {"#]
        case .rect: [#"rect: "rect""#, #"} else if (e.shape === "rect") {"#]
        case .segment: [#"segment: "path""#, #"} else if (e.shape === "segment") {"#]
        case .triangle: [#"triangle: "path""#, #"} else if (e.shape === "triangle") {"#]
        // The last branch of each: a stroked circle.
        case .ring: [#"|| "circle")"#, #""stroke-linecap": e.lineCap"#]
        }
    }

    @Test(arguments: Shape.allCases)
    func painterDrawsTheShape(_ shape: Shape) {
        let painter = Self.painter
        #expect(!painter.isEmpty)
        for place in Self.places(shape) { #expect(painter.contains(place), "\(shape): \(place)") }
    }

    /// Every field a frame gives its elements is read by the painter (its
    /// decoder is the frame's JSON as parsed: `e.<field>`).
    @Test(arguments: ElementField.allCases)
    func painterReadsTheField(_ field: ElementField) {
        #expect(Self.painter.contains("e.\(field.rawValue)"), "\(field)")
    }
}
