/// Encodes frames as JSON by hand, in the shape the service answers:
///
///     {"loader":"typing","t":0.5,"width":70,"height":20,"done":false,
///      "elements":[{"id":"dot0","shape":"circle","x":20,"y":8.25,"diameter":8,
///                   "scale":1.3333333333333333,"opacity":0.6,"color":"#FFFFFF"}]}
///
/// Keys and punctuation are static bytes copied in one move each; numbers are
/// written straight into the output as their shortest round-trip text. The
/// size of a frame is bounded beforehand, so the writer never checks capacity
/// per byte.
public enum FrameEncoder {
    /// One frame as a new byte array.
    public static func encode(_ frame: Frame) -> [UInt8] {
        let bound = byteBound(frame)
        return [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
            var cursor = ByteCursor(buffer.baseAddress!)
            write(frame, to: &cursor)
            count = cursor.p - buffer.baseAddress!
        }
    }

    /// Appends one frame to `bytes`.
    public static func encode(_ frame: Frame, appendingTo bytes: inout [UInt8]) {
        let bound = byteBound(frame)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bound) { buffer in
            var cursor = ByteCursor(buffer.baseAddress!)
            write(frame, to: &cursor)
            bytes.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: cursor.p - buffer.baseAddress!))
        }
    }

    /// A batch: `{"loader":"typing","fps":30,"frames":[{…},{…}]}`.
    public static func encodeBatch(loader: String, fps: Double, frames: some Sequence<Frame>) -> [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(4096)
        appendStatic("{\"loader\":\"", to: &bytes)
        appendEscaped(loader, to: &bytes)
        appendStatic("\",\"fps\":", to: &bytes)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: ShortestDouble.maxLength) { buffer in
            var cursor = ByteCursor(buffer.baseAddress!)
            ShortestDouble.write(fps, to: &cursor)
            bytes.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: cursor.p - buffer.baseAddress!))
        }
        appendStatic(",\"frames\":[", to: &bytes)
        var first = true
        for frame in frames {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            encode(frame, appendingTo: &bytes)
        }
        appendStatic("]}", to: &bytes)
        return bytes
    }

    // MARK: Writing

    static let elementFixedBytes = 128  // keys, punctuation, shape, colour
    static let frameFixedBytes = 96

    static func byteBound(_ frame: Frame) -> Int {
        var bound = frameFixedBytes + 6 * frame.loader.utf8.count + 3 * ShortestDouble.maxLength
        for element in frame.elements {
            bound += elementFixedBytes + 6 * element.id.name.utf8.count + 21 + 6 * ShortestDouble.maxLength
        }
        return bound
    }

    static func write(_ frame: Frame, to cursor: inout ByteCursor) {
        cursor.write("{\"loader\":\"")
        cursor.writeEscaped(frame.loader)
        cursor.write("\",\"t\":")
        ShortestDouble.write(frame.t, to: &cursor)
        cursor.write(",\"width\":")
        ShortestDouble.write(frame.width, to: &cursor)
        cursor.write(",\"height\":")
        ShortestDouble.write(frame.height, to: &cursor)
        cursor.write(frame.done ? ",\"done\":true,\"elements\":[" : ",\"done\":false,\"elements\":[")
        var first = true
        for element in frame.elements {
            if !first { cursor.write(UInt8(ascii: ",")) }
            first = false
            write(element, to: &cursor)
        }
        cursor.write("]}")
    }

    static func write(_ element: Element, to cursor: inout ByteCursor) {
        cursor.write("{\"id\":\"")
        cursor.writeEscaped(element.id.name)
        if let index = element.id.index { cursor.write(index) }
        switch element.shape {
        case .circle: cursor.write("\",\"shape\":\"circle\",\"x\":")
        }
        ShortestDouble.write(element.x, to: &cursor)
        cursor.write(",\"y\":")
        ShortestDouble.write(element.y, to: &cursor)
        cursor.write(",\"diameter\":")
        ShortestDouble.write(element.diameter, to: &cursor)
        cursor.write(",\"scale\":")
        ShortestDouble.write(element.scale, to: &cursor)
        cursor.write(",\"opacity\":")
        ShortestDouble.write(element.opacity, to: &cursor)
        cursor.write(",\"color\":\"")
        cursor.write(element.color)
        cursor.write("\"}")
    }

    static func appendStatic(_ text: StaticString, to bytes: inout [UInt8]) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    static func appendEscaped(_ text: String, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, 6 * text.utf8.count)) { buffer in
            var cursor = ByteCursor(buffer.baseAddress!)
            cursor.writeEscaped(text)
            bytes.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: cursor.p - buffer.baseAddress!))
        }
    }
}
