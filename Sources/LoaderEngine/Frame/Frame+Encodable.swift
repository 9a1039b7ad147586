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
    enum CodingKeys: String, CodingKey {
        case id, shape, x, y, diameter, width, height, cornerRadius, lineWidth, strokeStart, strokeEnd, lineCap, arc
        case scale, rotation, opacity, color
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(shape, forKey: .shape)
        try c.encode(x, forKey: .x)
        try c.encode(y, forKey: .y)
        switch shape {
        case .circle:
            try c.encode(diameter, forKey: .diameter)
        case .rect:
            try c.encode(width, forKey: .width)
            try c.encode(height, forKey: .height)
            try c.encode(cornerRadius, forKey: .cornerRadius)
        case .ring:
            try c.encode(diameter, forKey: .diameter)
            try c.encode(lineWidth, forKey: .lineWidth)
            try c.encode(strokeStart, forKey: .strokeStart)
            try c.encode(strokeEnd, forKey: .strokeEnd)
            try c.encode(lineCap, forKey: .lineCap)
        case .segment:
            try c.encode(diameter, forKey: .diameter)
            try c.encode(arc, forKey: .arc)
        }
        try c.encode(scale, forKey: .scale)
        if rotation != 0 { try c.encode(rotation, forKey: .rotation) }
        try c.encode(opacity, forKey: .opacity)
        try c.encode(color, forKey: .color)
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
