/// A small hand-written JSON writer into `[UInt8]`, for documents that are
/// not on the per-frame hot path (catalog, errors, session state). Numbers
/// use the same shortest round-trip text as frames.
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8]
    /// Whether the next value in the current object or array needs a comma.
    private var needsComma = false

    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    // MARK: Structure

    public mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); needsComma = false }
    public mutating func endObject() { bytes.append(UInt8(ascii: "}")); needsComma = true }
    public mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); needsComma = false }
    public mutating func endArray() { bytes.append(UInt8(ascii: "]")); needsComma = true }

    /// Writes `"name":`; the value follows.
    public mutating func key(_ name: String) {
        separate()
        writeString(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    // MARK: Values

    public mutating func value(_ text: String) { separate(); writeString(text); needsComma = true }
    /// A number as the writer writes it (shortest round-trip digits).
    public static func number(_ value: Double) -> String {
        var w = JSONWriter(capacity: 32)
        w.value(value)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    public mutating func value(_ number: Double) {
        separate()
        withCursor(ShortestDouble.maxLength) { ShortestDouble.write(number, to: &$0) }
        needsComma = true
    }
    public mutating func value(_ number: Int) {
        separate()
        withCursor(21) { $0.write(number) }
        needsComma = true
    }
    public mutating func value(_ flag: Bool) { separate(); append(flag ? "true" : "false"); needsComma = true }
    public mutating func null() { separate(); append("null"); needsComma = true }

    /// Bytes that are already one complete JSON value (a frame, say).
    public mutating func rawValue(_ json: some Collection<UInt8>) {
        separate()
        bytes.append(contentsOf: json)
        needsComma = true
    }

    // Conveniences for `"name": value` pairs.
    public mutating func field(_ name: String, _ text: String) { key(name); value(text) }
    public mutating func field(_ name: String, _ number: Double) { key(name); value(number) }
    public mutating func field(_ name: String, _ number: Int) { key(name); value(number) }
    public mutating func field(_ name: String, _ flag: Bool) { key(name); value(flag) }
    /// An array of strings (a schema's `enum`).
    public mutating func field(_ name: String, _ texts: [String]) {
        key(name)
        beginArray()
        for text in texts { value(text) }
        endArray()
    }

    /// A string's contents as a JSON string holds them (no quotes), escaped
    /// as `value(_:)` escapes them, appended to `bytes`: for a caller that
    /// writes its own JSON lines (the access log).
    public static func appendEscaped(_ text: String, to bytes: inout [UInt8]) {
        withCursor(text.utf8.count * 6, appendingTo: &bytes) { $0.writeEscaped(text) }
    }

    /// An integer as `value(_:)` writes it, appended to `bytes`.
    public static func appendInteger(_ number: Int, to bytes: inout [UInt8]) {
        withCursor(21, appendingTo: &bytes) { $0.write(number) }
    }

    // MARK: Internals

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        withCursor(text.utf8.count * 6) { $0.writeEscaped(text) }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func withCursor(_ bound: Int, _ body: (inout ByteCursor) -> Void) {
        Self.withCursor(bound, appendingTo: &bytes, body)
    }

    private static func withCursor(_ bound: Int, appendingTo bytes: inout [UInt8], _ body: (inout ByteCursor) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(bound, 1)) { buffer in
            var cursor = ByteCursor(buffer.baseAddress!)
            body(&cursor)
            bytes.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: cursor.p - buffer.baseAddress!))
        }
    }
}
