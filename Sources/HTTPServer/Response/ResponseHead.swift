/// Writes a response's status line and header section.
package enum ResponseHead {
    /// `contentLength` nil: no Content-Length (streams, 204, 304).
    package static func encode(status: HTTPStatus, headers: HTTPResponseHeaders, caching: Caching? = nil, version: HTTPVersion,
                       date: [UInt8], contentLength: Int?, keepAlive: Bool, serverName: String?) -> [UInt8] {
        let control = caching?.control
        // The exact size is known up front: one allocation, then copies.
        let fields = headers.fields
        var capacity = 9 + 20 + 1 + status.reason.utf8.count + 8 + date.count + 19 + 20 + 24 + 4
        if let serverName { capacity += 10 + serverName.utf8.count }
        let encoded = headers.encoded
        capacity += encoded?.count ?? fieldsByteCount(fields)
        if let caching, let control { capacity += 25 + control.utf8.count + caching.etag.utf8.count }
        return [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            var w = HeadWriter(base: buffer.baseAddress!)
            w.write(version == .http1_0 ? "HTTP/1.0 " : "HTTP/1.1 ")
            w.writeInt(status.code)
            w.write(" ")
            w.write(status.reason)
            w.write("\r\nDate: ")
            date.withUnsafeBufferPointer { w.write($0) }
            if let serverName {
                w.write("\r\nServer: ")
                w.write(serverName)
            }
            if let encoded {
                encoded.withUnsafeBufferPointer { w.write($0) }
            } else {
                w.writeFields(fields)
            }
            if let caching, let control {
                w.write("\r\nCache-Control: ")
                w.write(control)
                w.write("\r\nETag: ")
                w.write(caching.etag)
            }
            if let contentLength {
                w.write("\r\nContent-Length: ")
                w.writeInt(contentLength)
            }
            if !keepAlive {
                w.write("\r\nConnection: close")
            } else if version == .http1_0 {
                w.write("\r\nConnection: keep-alive")
            }
            w.write("\r\n\r\n")
            assert(w.offset <= capacity)
            count = w.offset
        }
    }

    /// `\r\nName: value` for each field, appended to `bytes`.
    static func appendFields(_ fields: [(name: String, value: String)], to bytes: inout [UInt8]) {
        let count = fieldsByteCount(fields)
        bytes.reserveCapacity(bytes.count + count)
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: count))
        bytes.withUnsafeMutableBufferPointer { buffer in
            var w = HeadWriter(base: buffer.baseAddress! + start)
            w.writeFields(fields)
        }
    }

    /// What `\r\nName: value` takes for each field.
    private static func fieldsByteCount(_ fields: [(name: String, value: String)]) -> Int {
        fields.reduce(0) { $0 + 4 + $1.name.utf8.count + $1.value.utf8.count }
    }

    /// Copies into memory sized beforehand by `encode`.
    private struct HeadWriter {
        let base: UnsafeMutablePointer<UInt8>
        var offset = 0

        mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let source = bytes.baseAddress else { return }
            (base + offset).update(from: source, count: bytes.count)
            offset += bytes.count
        }

        mutating func write(_ text: StaticString) {
            text.withUTF8Buffer { write($0) }
        }

        mutating func write(_ text: String) {
            if text.utf8.withContiguousStorageIfAvailable({ write($0) }) == nil {
                for byte in text.utf8 { base[offset] = byte; offset += 1 }
            }
        }

        mutating func writeFields(_ fields: [(name: String, value: String)]) {
            for (name, value) in fields {
                write("\r\n")
                write(name)
                write(": ")
                let valueStart = offset
                write(value)
                // A value never carries CR or LF into the head.
                for i in valueStart..<offset where base[i] == 0x0D || base[i] == 0x0A { base[i] = 0x20 }
            }
        }

        mutating func writeInt(_ value: Int) {
            var v = value
            var digits = 1
            while v >= 10 { v /= 10; digits += 1 }
            v = value
            for i in stride(from: offset + digits - 1, through: offset, by: -1) {
                base[i] = UInt8(truncatingIfNeeded: v % 10) + 0x30
                v /= 10
            }
            offset += digits
        }
    }
}
