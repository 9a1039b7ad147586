/// An element's id: a name and an optional index (`indicator`, `dot0`,
/// `drop12`). A built-in loader's name is a compile-time constant, so that no
/// string is built, copied or escaped per frame; a defined loader's ids are
/// made once when it is built (`bar3-1`) and shared by every frame.
public struct ElementID: Sendable, Hashable, CustomStringConvertible {
    @usableFromInline enum Name: Sendable {
        case constant(StaticString)
        case text([UInt8])
    }
    @usableFromInline let storage: Name
    public let index: Int?

    /// `name` is letters, digits, `_` or `-` (written into JSON as is).
    public init(_ name: StaticString, index: Int? = nil) {
        precondition(name.hasPointerRepresentation && UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount).allSatisfy(Self.isNameByte),
                     "element names are ASCII letters, digits, _ and -")
        self.storage = .constant(name)
        self.index = index
    }

    /// A name made at run time, of the same bytes as a constant one.
    public init?(text: String) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.allSatisfy(Self.isNameByte) else { return nil }
        self.storage = .text(bytes)
        self.index = nil
    }

    static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x2D
    }

    @inlinable public func indexed(_ i: Int) -> ElementID { ElementID(storage: storage, index: i) }

    @usableFromInline init(storage: Name, index: Int?) {
        self.storage = storage
        self.index = index
    }

    /// The name's bytes (without the index).
    @inlinable public func withNameBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        switch storage {
        case let .constant(name): return body(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        case let .text(bytes): return bytes.withUnsafeBufferPointer(body)
        }
    }

    var nameByteCount: Int {
        switch storage {
        case let .constant(name): return name.utf8CodeUnitCount
        case let .text(bytes): return bytes.count
        }
    }

    public static func == (a: ElementID, b: ElementID) -> Bool {
        a.index == b.index && a.withNameBytes { x in b.withNameBytes { y in x.elementsEqual(y) } }
    }

    public func hash(into hasher: inout Hasher) {
        withNameBytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        hasher.combine(index)
    }

    public var description: String {
        let base = withNameBytes { String(decoding: $0, as: UTF8.self) }
        if let index { return base + String(index) }
        return base
    }
}

/// One drawn thing at one moment: centre, unscaled size (drawn size is
/// size × `scale`), rotation, opacity and colour. Which size fields count
/// depends on `shape`; the others are 0.
public struct Element: Sendable, Equatable {
    public var id: ElementID
    public var shape: Shape
    public var x: Double
    public var y: Double
    /// circle, ring, segment.
    public var diameter: Double
    public var scale: Double
    /// Radians, clockwise on screen; written only when not 0.
    public var rotation: Double = 0
    public var opacity: Double
    public var color: RGBColor
    /// rect.
    public var width: Double = 0
    public var height: Double = 0
    public var cornerRadius: Double = 0
    /// ring.
    public var lineWidth: Double = 0
    public var strokeStart: Double = 0
    public var strokeEnd: Double = 1
    public var lineCap: LineCap = .butt
    /// segment: its arc's angle, radians (0…2π).
    public var arc: Double = 0
    /// How the shape's own plane (its centre at the origin, sizes before
    /// `scale`) maps to the canvas, when that is more than `x`, `y`,
    /// `scale` and `rotation` say: a squash, a skew or a perspective.
    /// `nil` for a similarity. When set, it is the whole truth: (x, y) is
    /// its image of the centre, and `scale` and `rotation` only its nearest
    /// similarity, for clients that draw no more.
    public var placement: PlaneTransform? = nil

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

    /// The element drawn `factor` times as large on a canvas as many times
    /// larger (the `scale` parameter): position and lengths, not `scale`.
    @inlinable
    public mutating func magnify(by factor: Double) {
        x *= factor; y *= factor
        diameter *= factor; width *= factor; height *= factor
        cornerRadius *= factor; lineWidth *= factor
        // q ↦ f·P(q / f): the linear part stays, the move grows, the
        // projective row shrinks.
        if var p = placement {
            p.tx *= factor; p.ty *= factor
            p.px /= factor; p.py /= factor
            placement = p
        }
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
    /// What is drawn behind the elements (`nil`: nothing, transparent).
    public var background: RGBColor?
    /// The share of a load done, 0 to 1, when the loader knows its whole
    /// (web with `steps`): for a progressbar's value. `nil`: not known.
    public var progress: Double?
    public var elements: [Element]

    public init(loader: String, t: Double, width: Double, height: Double, done: Bool, background: RGBColor? = nil,
                progress: Double? = nil, elements: [Element]) {
        self.loader = loader
        self.t = t
        self.width = width
        self.height = height
        self.done = done
        self.background = background
        self.progress = progress
        self.elements = elements
    }
}
