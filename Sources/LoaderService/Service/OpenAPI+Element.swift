import LoaderEngine

extension OpenAPI {
    /// The `Element` schema, written from the element schema (LoaderEngine's
    /// `Shape` and `ElementField`), so that a new shape or field shows here
    /// with nothing else to edit.
    static func elementSchema(_ w: inout JSONWriter) {
        w.beginObject()
        w.field("type", "object")
        w.field("required", ElementField.allCases.filter(\.isRequired).map(\.rawValue))
        w.field("description", elementDescription)
        w.key("properties")
        w.beginObject()
        for field in ElementField.allCases {
            w.key(field.rawValue)
            w.beginObject()
            switch field.kind {
            case .number:
                w.field("type", "number")
            case let .bounded(range):
                w.field("type", "number")
                w.field("minimum", range.lowerBound)
                w.field("maximum", range.upperBound)
            case .text:
                w.field("type", "string")
            case let .word(words):
                w.field("type", "string")
                w.field("enum", words)
            case .color:
                w.field("type", "string")
                w.field("pattern", "^#[0-9A-F]{6}$")
            case let .numbers(count):
                w.field("type", "array")
                w.key("items")
                w.beginObject()
                w.field("type", "number")
                w.endObject()
                w.field("minItems", count)
                w.field("maxItems", count)
            case .pathData:
                w.field("type", "string")
            }
            w.endObject()
        }
        w.endObject()
        w.endObject()
    }

    /// "A circle has diameter; a rect width, height and cornerRadius; …
    /// Sizes are before scale; rotation (radians, clockwise) is left out when 0."
    static var elementDescription: String {
        func named(_ field: ElementField) -> String { field.note.map { "\(field.rawValue) (\($0))" } ?? field.rawValue }
        func list(_ words: [String]) -> String {
            words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " and " + words.last!
        }
        let shapes = Shape.allCases.enumerated().map { i, shape in
            (i == 0 ? "A \(shape.rawValue) has " : "a \(shape.rawValue) ") + list(shape.ownFields.map(named))
        }
        let omitted = ElementField.allCases.filter(\.isOmittedWhenZero).map(named)
        return shapes.joined(separator: "; ") + ". Sizes are before scale; " + list(omitted) + " is left out when 0. "
            + "A squashed or skewed element adds matrix (its affine placement); one in perspective adds matrix3d "
            + "and outline (its exact outline on the canvas) instead; scale and rotation are then the nearest turn and size."
    }
}
