/// Writes a response's status line and header section.
enum ResponseHead {
    /// `contentLength` nil: no Content-Length (streams, 204, 304).
    static func encode(status: HTTPStatus, headers: HTTPResponseHeaders, version: HTTPVersion,
                       date: [UInt8], contentLength: Int?, keepAlive: Bool, serverName: String?) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(160 + headers.fields.count * 48)
        out.append(contentsOf: version == .http1_0 ? "HTTP/1.0 ".utf8 : "HTTP/1.1 ".utf8)
        appendInt(status.code, to: &out)
        out.append(0x20)
        out.append(contentsOf: status.reason.utf8)
        out.append(contentsOf: "\r\nDate: ".utf8)
        out.append(contentsOf: date)
        if let serverName {
            out.append(contentsOf: "\r\nServer: ".utf8)
            out.append(contentsOf: serverName.utf8)
        }
        for (name, value) in headers.fields {
            out.append(contentsOf: "\r\n".utf8)
            out.append(contentsOf: name.utf8)
            out.append(contentsOf: ": ".utf8)
            // A value never carries CR or LF into the head.
            for byte in value.utf8 { out.append(byte == 0x0D || byte == 0x0A ? 0x20 : byte) }
        }
        if let contentLength {
            out.append(contentsOf: "\r\nContent-Length: ".utf8)
            appendInt(contentLength, to: &out)
        }
        if !keepAlive {
            out.append(contentsOf: "\r\nConnection: close".utf8)
        } else if version == .http1_0 {
            out.append(contentsOf: "\r\nConnection: keep-alive".utf8)
        }
        out.append(contentsOf: "\r\n\r\n".utf8)
        return out
    }

    static func appendInt(_ value: Int, to out: inout [UInt8]) {
        if value < 10 {
            out.append(UInt8(truncatingIfNeeded: value) + 0x30)
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = 0
        var v = value
        withUnsafeMutableBytes(of: &digits) { raw in
            while v > 0 {
                raw[n] = UInt8(truncatingIfNeeded: v % 10) + 0x30
                v /= 10
                n += 1
            }
            for i in stride(from: n - 1, through: 0, by: -1) { out.append(raw[i]) }
        }
    }
}
