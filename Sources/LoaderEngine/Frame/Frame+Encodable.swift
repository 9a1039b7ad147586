// Codable conformance for callers that want it (and for the benchmark that
// compares JSONEncoder with FrameEncoder). The service's hot paths use
// FrameEncoder, which writes the same JSON shape by hand.

extension ElementID: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension RGBColor: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension Shape: Encodable {}

extension LineCap: Encodable {}

extension Element: Encodable {
    struct FieldKey: CodingKey {
        let stringValue: String
        init(_ field: ElementField) { stringValue = field.rawValue }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    /// The fields the element schema gives its shape, in its order.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: FieldKey.self)
        for field in shape.fields where field.isWritten(for: self) {
            switch field.value(of: self) {
            case let .number(v): try c.encode(v, forKey: FieldKey(field))
            case let .text(v): try c.encode(v, forKey: FieldKey(field))
            case let .numbers(v): try c.encode(v, forKey: FieldKey(field))
            }
        }
    }
}

extension Frame: Encodable {
    enum CodingKeys: String, CodingKey { case loader, t, width, height, done, background, progress, elements }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(loader, forKey: .loader)
        try c.encode(t, forKey: .t)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        try c.encode(done, forKey: .done)
        try c.encodeIfPresent(background, forKey: .background)
        try c.encodeIfPresent(progress, forKey: .progress)
        try c.encode(elements, forKey: .elements)
    }
}
