/// Request header fields, kept as ranges into one copy of the header bytes:
/// no allocation per field. Names compare case-insensitively.
public struct HTTPHeaders: Sendable, Sequence {
    struct Field: Sendable {
        let nameStart: Int32, nameEnd: Int32, valueStart: Int32, valueEnd: Int32
    }

    let bytes: [UInt8]
    let fields: [Field]

    init(bytes: [UInt8], fields: [Field]) {
        self.bytes = bytes
        self.fields = fields
    }

    /// Headers built from pairs (tests, internal requests).
    public init(_ pairs: [(String, String)] = []) {
        var bytes = [UInt8]()
        var fields = [Field]()
        for (name, value) in pairs {
            let ns = Int32(bytes.count)
            bytes.append(contentsOf: name.utf8)
            let ne = Int32(bytes.count)
            bytes.append(contentsOf: value.utf8)
            fields.append(Field(nameStart: ns, nameEnd: ne, valueStart: ne, valueEnd: Int32(bytes.count)))
        }
        self.init(bytes: bytes, fields: fields)
    }

    public var count: Int { fields.count }

    /// The first value of `name`, if present.
    public subscript(name: String) -> String? {
        guard let field = first(named: name) else { return nil }
        return string(field.valueStart, field.valueEnd)
    }

    /// Every value of `name`, in order (no allocation when there is none).
    public func values(_ name: String) -> [String] {
        var found: [String] = []
        for field in fields where matches(field, name) { found.append(string(field.valueStart, field.valueEnd)) }
        return found
    }

    /// How many fields are named `name` (no strings made).
    public func count(named name: String) -> Int {
        var n = 0
        for field in fields where matches(field, name) { n += 1 }
        return n
    }

    /// Whether a comma-separated header (`Connection`, `Transfer-Encoding`)
    /// lists `token`, case-insensitively.
    public func contains(_ name: String, token: String) -> Bool {
        for field in fields where matches(field, name) {
            for part in string(field.valueStart, field.valueEnd).split(separator: ",") {
                if part.trimmingSpaces.lowercasedASCII == token.lowercasedASCII { return true }
            }
        }
        return false
    }

    public func makeIterator() -> AnyIterator<(name: String, value: String)> {
        var i = 0
        return AnyIterator {
            guard i < fields.count else { return nil }
            defer { i += 1 }
            let f = fields[i]
            return (string(f.nameStart, f.nameEnd), string(f.valueStart, f.valueEnd))
        }
    }

    func first(named name: String) -> Field? { fields.first { matches($0, name) } }

    func matches(_ field: Field, _ name: String) -> Bool {
        let length = Int(field.nameEnd - field.nameStart)
        guard length == name.utf8.count else { return false }
        return bytes.withUnsafeBufferPointer { stored in
            name.utf8.withContiguousStorageIfAvailable { wanted in
                var i = Int(field.nameStart)
                for c in wanted {
                    if asciiLower(stored[i]) != asciiLower(c) { return false }
                    i += 1
                }
                return true
            } ?? name.utf8.elementsEqual(stored[Int(field.nameStart)..<Int(field.nameEnd)]) { asciiLower($0) == asciiLower($1) }
        }
    }

    func string(_ start: Int32, _ end: Int32) -> String {
        String(decoding: bytes[Int(start)..<Int(end)], as: UTF8.self)
    }
}

@inline(__always) func asciiLower(_ c: UInt8) -> UInt8 {
    c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z") ? c | 0x20 : c
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (HTTP's optional white space).
    public var trimmingSpaces: Substring {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
        return s
    }

    var lowercasedASCII: String {
        String(decoding: utf8.map(asciiLower), as: UTF8.self)
    }
}
