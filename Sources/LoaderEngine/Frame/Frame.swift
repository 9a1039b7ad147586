/// An element's id: a constant name and an optional index (`indicator`,
/// `dot0`, `drop12`). Kept as parts so that no string is built per frame.
public struct ElementID: Sendable, Hashable, CustomStringConvertible {
    public let name: String
    public let index: Int?

    public init(_ name: String, index: Int? = nil) {
        self.name = name
        self.index = index
    }

    @inlinable public func indexed(_ i: Int) -> ElementID { ElementID(name, index: i) }

    public var description: String {
        if let index { return name + String(index) }
        return name
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
