/// Reads a parsed JSON document with the path of every value kept, so that
/// each refusal says where it is and what is accepted there.
struct DefinitionNode {
    let value: JSONValue
    let path: String

    func fail(_ message: String) -> DefinitionError { DefinitionError(path: path, message: message) }

    func child(_ key: String) -> String { path.isEmpty ? quoted(key) : "\(path).\(quoted(key))" }

    /// The object's fields; any key not in `keys` is refused.
    func object(_ keys: [String]) throws(DefinitionError) -> DefinitionFields {
        guard case let .object(fields) = value else { throw fail("must be an object") }
        for (key, _) in fields where !keys.contains(key) {
            throw DefinitionError(path: child(key), message: "unknown key; accepted here: \(keys.joined(separator: ", "))")
        }
        return DefinitionFields(fields: fields, node: self)
    }

    func array(maxCount: Int = .max) throws(DefinitionError) -> [DefinitionNode] {
        guard case let .array(items) = value else { throw fail("must be an array") }
        guard items.count <= maxCount else { throw fail("must have at most \(maxCount) items") }
        return items.enumerated().map { DefinitionNode(value: $1, path: "\(path)[\($0)]") }
    }

    func number(_ range: ClosedRange<Double> = -1e9...1e9, above lower: Double? = nil) throws(DefinitionError) -> Double {
        guard case let .number(v) = value else { throw fail("must be a number") }
        if let lower, !(v > lower && v <= range.upperBound) {
            throw fail("must be a number greater than \(text(lower)) and at most \(text(range.upperBound))")
        }
        guard range.contains(v) else { throw fail("must be a number from \(text(range.lowerBound)) to \(text(range.upperBound))") }
        return v
    }

    func integer(_ range: ClosedRange<Int>) throws(DefinitionError) -> Int {
        guard case let .number(v) = value, v == v.rounded(), v >= Double(range.lowerBound), v <= Double(range.upperBound) else {
            throw fail("must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return Int(v)
    }

    func string() throws(DefinitionError) -> String {
        guard case let .string(s) = value else { throw fail("must be a string") }
        return s
    }

    func bool() throws(DefinitionError) -> Bool {
        guard case let .bool(b) = value else { throw fail("must be true or false") }
        return b
    }

    func choice(_ words: [String]) throws(DefinitionError) -> String {
        guard case let .string(s) = value, words.contains(s) else {
            throw fail("must be one of " + words.map { "\"\($0)\"" }.joined(separator: ", "))
        }
        return s
    }

    /// `[x, y]`.
    func point(_ range: ClosedRange<Double> = -1e6...1e6) throws(DefinitionError) -> Point {
        guard case let .array(items) = value, items.count == 2, case let .number(x) = items[0], case let .number(y) = items[1],
              range.contains(x), range.contains(y) else {
            throw fail("must be [x, y], two numbers from \(text(range.lowerBound)) to \(text(range.upperBound))")
        }
        return Point(x: x, y: y)
    }

    /// `"#RRGGBB"`, or `"color"` for the loader's colour.
    func color() throws(DefinitionError) -> ColorSpec {
        guard case let .string(s) = value else { throw fail("must be \"#RRGGBB\" or \"color\"") }
        if s == "color" { return .loader }
        guard s.utf8.count == 7, s.hasPrefix("#"), let c = RGBColor(parsing: s) else { throw fail("must be \"#RRGGBB\" or \"color\"") }
        return .fixed(c)
    }

    func text(_ v: Double) -> String {
        var w = JSONWriter(capacity: 24)
        w.value(v)
        return String(decoding: w.bytes, as: UTF8.self)
    }
}

/// An object's fields, read by key with defaults.
struct DefinitionFields {
    let fields: [(String, JSONValue)]
    let node: DefinitionNode

    subscript(key: String) -> DefinitionNode? {
        fields.first { $0.0 == key }.map { DefinitionNode(value: $0.1, path: node.child(key)) }
    }

    func required(_ key: String, _ what: String) throws(DefinitionError) -> DefinitionNode {
        guard let child = self[key] else { throw DefinitionError(path: node.child(key), message: "is required: \(what)") }
        return child
    }

    func number(_ key: String, default value: Double, _ range: ClosedRange<Double> = -1e9...1e9, above lower: Double? = nil) throws(DefinitionError) -> Double {
        guard let child = self[key] else { return value }
        return try child.number(range, above: lower)
    }
}

/// A colour as written: a fixed one, or the loader's (`"color"`).
enum ColorSpec: Sendable, Equatable {
    case loader
    case fixed(RGBColor)

    func resolved(_ loaderColor: RGBColor) -> RGBColor {
        switch self {
        case .loader: return loaderColor
        case let .fixed(c): return c
        }
    }
}
