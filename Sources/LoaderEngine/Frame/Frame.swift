/// An element's id: a constant name and an optional index (`indicator`,
/// `dot0`, `drop12`). Kept as parts, the name a compile-time constant, so
/// that no string is built, copied or escaped per frame.
public struct ElementID: Sendable, Hashable, CustomStringConvertible {
    public let name: StaticString
    public let index: Int?

    /// `name` is letters, digits, `_` or `-` (written into JSON as is).
    public init(_ name: StaticString, index: Int? = nil) {
        precondition(name.hasPointerRepresentation && UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount).allSatisfy {
            ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F || $0 == 0x2D
        }, "element names are ASCII letters, digits, _ and -")
        self.name = name
        self.index = index
    }

    @inlinable public func indexed(_ i: Int) -> ElementID { ElementID(uncheckedName: name, index: i) }

    @usableFromInline init(uncheckedName name: StaticString, index: Int?) {
        self.name = name
        self.index = index
    }

    var nameBytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount) }

    public static func == (a: ElementID, b: ElementID) -> Bool {
        a.index == b.index && a.nameBytes.elementsEqual(b.nameBytes)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes: UnsafeRawBufferPointer(nameBytes))
        hasher.combine(index)
    }

    public var description: String {
        let base = name.description
        if let index { return base + String(index) }
        return base
    }
}

/// The shape an element is drawn as.
public enum Shape: String, Sendable {
    case circle
}

/// One drawn thing at one moment: centre, unscaled diameter (drawn size is
/// `diameter * scale`), opacity and colour.
public struct Element: Sendable, Equatable {
    public var id: ElementID
    public var shape: Shape
    public var x: Double
    public var y: Double
    public var diameter: Double
    public var scale: Double
    public var opacity: Double
    public var color: RGBColor

    @inlinable
    public init(id: ElementID, shape: Shape = .circle, x: Double, y: Double, diameter: Double,
                scale: Double, opacity: Double, color: RGBColor) {
        self.id = id
        self.shape = shape
        self.x = x
        self.y = y
        self.diameter = diameter
        self.scale = scale
        self.opacity = opacity
        self.color = color
    }
}

/// A loader at time `t`: its canvas, whether it is done (nothing will be
/// shown any more), and the elements to draw, back to front.
public struct Frame: Sendable, Equatable {
    public var loader: String
    public var t: Double
    public var width: Double
    public var height: Double
    public var done: Bool
    public var elements: [Element]

    public init(loader: String, t: Double, width: Double, height: Double, done: Bool, elements: [Element]) {
        self.loader = loader
        self.t = t
        self.width = width
        self.height = height
        self.done = done
        self.elements = elements
    }
}
