/// Encodes frames as JSON by hand, in the shape the service answers:
///
///     {"loader":"typing","t":0.5,"width":70,"height":20,"done":false,"background":"#000000",
///      "elements":[{"id":"dot0","shape":"circle","x":20,"y":8.25,"diameter":8,
///                   "scale":1.3333333333333333,"opacity":0.6,"color":"#FFFFFF"}]}
///
/// Keys and punctuation are static bytes copied in one move each; numbers are
/// written straight into the output as their shortest round-trip text. The
/// size of a frame is bounded beforehand, so the writer never checks capacity
/// per byte. `background` is written only when one is drawn: absent means
/// transparent; `progress` only when the loader knows its whole.
public enum FrameEncoder {
    /// One frame as a new byte array.
    public static func encode(_ frame: Frame) -> [UInt8] {
        encode(loader: frame.loader, t: frame.t, width: frame.width, height: frame.height,
               done: frame.done, background: frame.background, progress: frame.progress, elements: frame.elements)
    }

    /// Appends one frame to `bytes`.
    public static func encode(_ frame: Frame, appendingTo bytes: inout [UInt8]) {
        append(loader: frame.loader, t: frame.t, width: frame.width, height: frame.height,
               done: frame.done, background: frame.background, progress: frame.progress, elements: frame.elements, to: &bytes)
    }

    /// A frame from its parts, as a new byte array of exactly its size
    /// (written to scratch memory first: the byte bound is generous).
    static func encode(loader: String, t: Double, width: Double, height: Double, done: Bool,
                       background: RGBColor?, progress: Double? = nil, elements: [Element]) -> [UInt8] {
        let bound = byteBound(loader: loader, elements: elements)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bound) { buffer in
            encode(loader: loader, t: t, width: width, height: height, done: done, background: background,
                   progress: progress, elements: elements, scratch: buffer)
        }
    }

    /// As above, in caller-provided scratch memory of at least `byteBound` bytes.
    static func encode(loader: String, t: Double, width: Double, height: Double, done: Bool, background: RGBColor?,
                       progress: Double? = nil, elements: [Element], scratch buffer: UnsafeMutableBufferPointer<UInt8>) -> [UInt8] {
        var cursor = ByteCursor(buffer.baseAddress!)
        write(loader: loader, t: t, width: width, height: height, done: done, background: background,
              progress: progress, elements: elements, to: &cursor)
        return Array(UnsafeBufferPointer(start: buffer.baseAddress, count: cursor.p - buffer.baseAddress!))
    }

    /// A frame from its parts, appended to `bytes`.
    static func append(loader: String, t: Double, width: Double, height: Double, done: Bool, background: RGBColor?,
                       progress: Double? = nil, elements: [Element], to bytes: inout [UInt8]) {
        let bound = byteBound(loader: loader, elements: elements)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bound) { buffer in
            var cursor = ByteCursor(buffer.baseAddress!)
            write(loader: loader, t: t, width: width, height: height, done: done, background: background,
                  progress: progress, elements: elements, to: &cursor)
            bytes.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: cursor.p - buffer.baseAddress!))
        }
    }

    /// A batch: `{"loader":"typing","fps":30,"frames":[{…},{…}]}`.
    public static func encodeBatch(loader: String, fps: Double, frames: some Sequence<Frame>) -> [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(4096)
        appendBatchOpening(loader: loader, fps: fps, to: &bytes)
        var first = true
        for frame in frames {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            encode(frame, appendingTo: &bytes)
        }
        appendStatic("]}", to: &bytes)
        return bytes
    }

    /// `{"loader":"…","fps":…,"frames":[` — a batch up to its first frame.
    static func appendBatchOpening(loader: String, fps: Double, to bytes: inout [UInt8]) {
        appendStatic("{\"loader\":\"", to: &bytes)
        appendEscaped(loader, to: &bytes)
        appendStatic("\",\"fps\":", to: &bytes)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: ShortestDouble.maxLength) { buffer in
            var cursor = ByteCursor(buffer.baseAddress!)
            ShortestDouble.write(fps, to: &cursor)
            bytes.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: cursor.p - buffer.baseAddress!))
        }
        appendStatic(",\"frames\":[", to: &bytes)
    }

    // MARK: Writing

    // Keys, punctuation, shape and colour: at most 160 (a ring) and 99
    // (with a background and a progress) bytes as written.
    static let elementFixedBytes = 176
    static let frameFixedBytes = 112

    /// The most bytes a frame can take: each number at its longest.
    static func byteBound(loader: String, elements: [Element]) -> Int {
        var bound = frameFixedBytes + 6 * loader.utf8.count + 4 * ShortestDouble.maxLength
        for element in elements {
            bound += elementFixedBytes + element.id.nameByteCount + 20 + 10 * ShortestDouble.maxLength
            if element.placement != nil { bound += placementBytes }
        }
        return bound
    }

    static func write(loader: String, t: Double, width: Double, height: Double, done: Bool, background: RGBColor?,
                      progress: Double? = nil, elements: [Element], to cursor: inout ByteCursor) {
        cursor.write("{\"loader\":\"")
        cursor.writeEscaped(loader)
        cursor.write("\",\"t\":")
        ShortestDouble.write(t, to: &cursor)
        cursor.write(",\"width\":")
        ShortestDouble.write(width, to: &cursor)
        cursor.write(",\"height\":")
        ShortestDouble.write(height, to: &cursor)
        cursor.write(done ? ",\"done\":true" : ",\"done\":false")
        if let background {
            cursor.write(",\"background\":\"")
            cursor.write(background)
            cursor.write(UInt8(ascii: "\""))
        }
        if let progress {
            cursor.write(",\"progress\":")
            ShortestDouble.write(progress, to: &cursor)
        }
        cursor.write(",\"elements\":[")
        var first = true
        for element in elements {
            if !first { cursor.write(UInt8(ascii: ",")) }
            first = false
            write(element, to: &cursor)
        }
        cursor.write("]}")
    }

    /// `{"id":…,"shape":…,"x":…,"y":…,<sizes>,"scale":…[,"rotation":…],"opacity":…,"color":…}`;
    /// a circle's fields and order are the built-in loaders'.
    static func write(_ element: Element, to cursor: inout ByteCursor) {
        cursor.write("{\"id\":\"")
        element.id.withNameBytes { cursor.write($0) }
        if let index = element.id.index { cursor.write(index) }
        switch element.shape {
        case .circle: cursor.write("\",\"shape\":\"circle\",\"x\":")
        case .rect: cursor.write("\",\"shape\":\"rect\",\"x\":")
        case .ring: cursor.write("\",\"shape\":\"ring\",\"x\":")
        case .segment: cursor.write("\",\"shape\":\"segment\",\"x\":")
        case .triangle: cursor.write("\",\"shape\":\"triangle\",\"x\":")
        }
        ShortestDouble.write(element.x, to: &cursor)
        cursor.write(",\"y\":")
        ShortestDouble.write(element.y, to: &cursor)
        switch element.shape {
        case .circle:
            cursor.write(",\"diameter\":")
            ShortestDouble.write(element.diameter, to: &cursor)
        case .rect:
            cursor.write(",\"width\":")
            ShortestDouble.write(element.width, to: &cursor)
            cursor.write(",\"height\":")
            ShortestDouble.write(element.height, to: &cursor)
            cursor.write(",\"cornerRadius\":")
            ShortestDouble.write(element.cornerRadius, to: &cursor)
        case .ring:
            cursor.write(",\"diameter\":")
            ShortestDouble.write(element.diameter, to: &cursor)
            cursor.write(",\"lineWidth\":")
            ShortestDouble.write(element.lineWidth, to: &cursor)
            cursor.write(",\"strokeStart\":")
            ShortestDouble.write(element.strokeStart, to: &cursor)
            cursor.write(",\"strokeEnd\":")
            ShortestDouble.write(element.strokeEnd, to: &cursor)
            cursor.write(element.lineCap == .round ? ",\"lineCap\":\"round\"" : ",\"lineCap\":\"butt\"")
        case .segment:
            cursor.write(",\"diameter\":")
            ShortestDouble.write(element.diameter, to: &cursor)
            cursor.write(",\"arc\":")
            ShortestDouble.write(element.arc, to: &cursor)
        case .triangle:
            cursor.write(",\"width\":")
            ShortestDouble.write(element.width, to: &cursor)
            cursor.write(",\"height\":")
            ShortestDouble.write(element.height, to: &cursor)
        }
        cursor.write(",\"scale\":")
        ShortestDouble.write(element.scale, to: &cursor)
        if element.rotation != 0 {
            cursor.write(",\"rotation\":")
            ShortestDouble.write(element.rotation, to: &cursor)
        }
        if let p = element.placement { write(placement: p, of: element, to: &cursor) }
        cursor.write(",\"opacity\":")
        ShortestDouble.write(element.opacity, to: &cursor)
        cursor.write(",\"color\":\"")
        cursor.write(element.color)
        cursor.write("\"}")
    }

    /// `,"matrix":[a,b,c,d,tx,ty]` for an affine placement; for a
    /// projective one `,"matrix3d":[…16]` (pw = 1) and `,"outline":"…"`.
    static func write(placement p: PlaneTransform, of element: Element, to cursor: inout ByteCursor) {
        if p.isAffine {
            cursor.write(",\"matrix\":[")
            writeNumbers(p.a, p.b, p.c, p.d, to: &cursor)
            cursor.write(UInt8(ascii: ","))
            ShortestDouble.write(p.tx, to: &cursor)
            cursor.write(UInt8(ascii: ","))
            ShortestDouble.write(p.ty, to: &cursor)
            cursor.write(UInt8(ascii: "]"))
            return
        }
        let n = p.normalized
        cursor.write(",\"matrix3d\":[")
        // PlaneTransform.matrix3d's order, without building the array.
        writeNumbers(n.a, n.b, 0, n.px, to: &cursor)
        cursor.write(UInt8(ascii: ","))
        writeNumbers(n.c, n.d, 0, n.py, to: &cursor)
        cursor.write(",0,0,1,0,")
        writeNumbers(n.tx, n.ty, 0, n.pw, to: &cursor)
        cursor.write("],\"outline\":\"")
        Element.writePathData(element.outline(), to: &cursor)
        cursor.write(UInt8(ascii: "\""))
    }

    /// Four numbers, comma-separated.
    private static func writeNumbers(_ v0: Double, _ v1: Double, _ v2: Double, _ v3: Double, to cursor: inout ByteCursor) {
        ShortestDouble.write(v0, to: &cursor)
        cursor.write(UInt8(ascii: ","))
        ShortestDouble.write(v1, to: &cursor)
        cursor.write(UInt8(ascii: ","))
        ShortestDouble.write(v2, to: &cursor)
        cursor.write(UInt8(ascii: ","))
        ShortestDouble.write(v3, to: &cursor)
    }

    /// The most bytes a placement adds: keys, 16 numbers and the outline.
    static let placementBytes = 40 + 16 * (ShortestDouble.maxLength + 1) + Element.pathDataBound(Element.outlineMaxSegments)

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
