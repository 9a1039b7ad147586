// The element schema: the shapes an element is drawn as and the fields a
// frame's JSON gives each of them, declared once. The OpenAPI document's
// Element is written from it, the Codable encoding follows it, and tests
// hold FrameEncoder and the browser client's painter to it. A new shape is
// a case here and its fields in `ownFields`; every writer switches over
// `Shape` without a default, so the compiler names each one still missing.

/// The shape an element is drawn as.
public enum Shape: String, Sendable, CaseIterable {
    /// A filled circle of `diameter`.
    case circle
    /// A filled rectangle of `width` × `height` with `cornerRadius`.
    case rect
    /// A stroked circle of `diameter` and `lineWidth`, drawn from
    /// `strokeStart` to `strokeEnd` (12 o'clock, clockwise).
    case ring
    /// A filled circular segment: the part of a circle of `diameter` that a
    /// chord cuts off, its arc `arc` radians long and centred on 12 o'clock
    /// (π is the upper half); the element's centre is the circle's.
    case segment
    /// A filled triangle in a `width` × `height` box centred on the
    /// element: its apex at the top middle, its base along the bottom.
    case triangle

    /// The fields that only this shape's elements carry, in the order a
    /// frame writes them (between `y` and `scale`).
    public var ownFields: [ElementField] {
        switch self {
        case .circle: [.diameter]
        case .rect: [.width, .height, .cornerRadius]
        case .ring: [.diameter, .lineWidth, .strokeStart, .strokeEnd, .lineCap]
        case .segment: [.diameter, .arc]
        case .triangle: [.width, .height]
        }
    }

    /// Every field of this shape's elements, in the order a frame writes them.
    public var fields: [ElementField] { ElementField.leading + ownFields + ElementField.trailing }
}

/// How a ring's stroke ends (`CAShapeLayerLineCap`).
public enum LineCap: String, Sendable, CaseIterable {
    case butt, round
}

/// A field of an element in a frame's JSON. The cases' order is the order
/// of the OpenAPI schema's properties (common fields around the shapes' own).
public enum ElementField: String, Sendable, CaseIterable {
    case id, shape, x, y
    case diameter, width, height, cornerRadius, lineWidth, strokeStart, strokeEnd, lineCap, arc
    case scale, rotation, matrix, matrix3d, outline, opacity, color

    /// What a field holds, as JSON.
    public enum Kind: Sendable, Equatable {
        case number
        /// A number within bounds.
        case bounded(ClosedRange<Double>)
        case text
        /// One of a fixed set of words.
        case word([String])
        /// `#RRGGBB`, upper case.
        case color
        /// A list of exactly this many numbers.
        case numbers(Int)
        /// SVG path data of `M`, `L`, `A` and `Z` (Element.outline).
        case pathData
    }

    public var kind: Kind {
        switch self {
        case .id: .text
        case .shape: .word(Shape.allCases.map(\.rawValue))
        case .lineCap: .word(LineCap.allCases.map(\.rawValue))
        case .color: .color
        case .strokeStart, .strokeEnd, .opacity: .bounded(0...1)
        case .arc: .bounded(0...(2 * Double.pi))
        case .x, .y, .diameter, .width, .height, .cornerRadius, .lineWidth, .scale, .rotation: .number
        case .matrix: .numbers(6)
        case .matrix3d: .numbers(16)
        case .outline: .pathData
        }
    }

    /// The unit of a number: `pt` for positions and sizes (before `scale`),
    /// `rad` for angles, `nil` for ratios and what is not a number.
    public var unit: String? {
        switch self {
        case .x, .y, .diameter, .width, .height, .cornerRadius, .lineWidth: "pt"
        case .rotation, .arc: "rad"
        case .id, .shape, .lineCap, .color, .strokeStart, .strokeEnd, .scale, .opacity, .matrix, .matrix3d, .outline: nil
        }
    }

    /// The fields every element has, before and after its shape's own.
    public static let leading: [ElementField] = [.id, .shape, .x, .y]
    public static let trailing: [ElementField] = [.scale, .rotation, .matrix, .matrix3d, .outline, .opacity, .color]

    /// The shapes whose elements carry this field.
    public var shapes: [Shape] { Shape.allCases.filter { $0.fields.contains(self) } }

    /// Whether every element writes it: the common fields but `rotation`
    /// and the placement's.
    public var isRequired: Bool { (Self.leading + Self.trailing).contains(self) && !isOmittedWhenZero && !isPlacement }

    /// Written only for an element with a placement: `matrix` when it is
    /// affine, `matrix3d` and `outline` when it is projective.
    public var isPlacement: Bool { self == .matrix || self == .matrix3d || self == .outline }

    /// Left out of an element when its value is 0.
    public var isOmittedWhenZero: Bool { self == .rotation }

    /// What the OpenAPI description adds after the field's name, if anything.
    public var note: String? {
        switch self {
        case .arc: "radians, centred on 12 o'clock"
        case .rotation: "radians, clockwise"
        case .matrix: "a, b, c, d, tx, ty: an affine placement, when there is one"
        case .matrix3d: "CSS matrix3d order: a projective placement, when there is one"
        case .outline: "SVG path data on the canvas, with matrix3d"
        default: nil
        }
    }

    /// A field's value in `element`, as its JSON holds it.
    public enum Value: Sendable, Equatable {
        case number(Double)
        case text(String)
        case numbers([Double])
    }

    public func value(of e: Element) -> Value {
        switch self {
        case .id: .text(e.id.description)
        case .shape: .text(e.shape.rawValue)
        case .x: .number(e.x)
        case .y: .number(e.y)
        case .diameter: .number(e.diameter)
        case .width: .number(e.width)
        case .height: .number(e.height)
        case .cornerRadius: .number(e.cornerRadius)
        case .lineWidth: .number(e.lineWidth)
        case .strokeStart: .number(e.strokeStart)
        case .strokeEnd: .number(e.strokeEnd)
        case .lineCap: .text(e.lineCap.rawValue)
        case .arc: .number(e.arc)
        case .scale: .number(e.scale)
        case .rotation: .number(e.rotation)
        case .opacity: .number(e.opacity)
        case .color: .text(e.color.description)
        case .matrix:
            if let p = e.placement { .numbers([p.a, p.b, p.c, p.d, p.tx, p.ty]) } else { .numbers([]) }
        case .matrix3d: .numbers(e.placement?.normalized.matrix3d ?? [])
        case .outline: .text(e.placement == nil ? "" : Element.pathData(e.outline()))
        }
    }

    /// Whether `element` writes this field.
    public func isWritten(for e: Element) -> Bool {
        guard e.shape.fields.contains(self) else { return false }
        switch self {
        case .matrix: return e.placement?.isAffine == true
        case .matrix3d, .outline: return e.placement.map { !$0.isAffine } ?? false
        default: return !(isOmittedWhenZero && value(of: e) == .number(0))
        }
    }
}
