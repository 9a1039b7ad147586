import Glibc

/// An incremental HTTP/1.1 request parser (RFC 9112).
///
/// The connection hands it the unconsumed bytes of its read buffer, starting
/// at the current request; the parser remembers how far it has looked, so
/// bytes arriving one at a time cost no rescanning. It never reads per byte
/// from the socket and does not split strings: it scans bytes with `memchr`
/// and copies the header section once.
public struct HTTPRequestParser: Sendable {
    public enum Event: Sendable {
        /// A complete request, and how many bytes it took.
        case request(HTTPRequest, consumed: Int)
        /// The head asked for `100-continue` and its body is not all here:
        /// send `100 Continue`, then call again when more bytes arrive.
        case sendContinue
        /// Not enough bytes yet.
        case needMore
        /// Not a valid request: answer the status, then close.
        case error(HTTPParseError)
    }

    public let limits: HTTPLimits
    private var state: State = .head(scanned: 0)

    public init(limits: HTTPLimits = HTTPLimits()) { self.limits = limits }

    /// Whether a request has started arriving (its head is complete or some
    /// bytes of it are buffered): decides 408 against a silent close.
    public var isMidRequest: Bool {
        if case .head(let scanned) = state { return scanned > 0 }
        return true
    }

    private struct Head: Sendable {
        var method: HTTPMethod
        var target: String
        /// The target split and decoded, from its bytes.
        var parts: RequestTarget.Parts
        var version: HTTPVersion
        var headers: HTTPHeaders
        var headLength: Int
        var expectsContinue: Bool
        var continueSent = false
    }

    private enum BodyState: Sendable {
        case length(Int)
        case chunked(Chunked)
    }

    private struct Chunked: Sendable {
        enum Phase: Sendable { case size, data(Int), dataEnd, trailers }
        var phase = Phase.size
        /// Position (from the request start) up to which chunks are decoded.
        var position: Int
        var body: [UInt8] = []
        var trailerBytes = 0
    }

    private enum State: Sendable {
        case head(scanned: Int)
        case body(Head, BodyState)
    }

    /// Parses from the start of `bytes` (the current request's first byte).
    public mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Event {
        switch state {
        case .head(let scanned):
            switch parseHead(bytes, scanned: scanned) {
            case .needMore(let newScanned):
                state = .head(scanned: newScanned)
                return .needMore
            case .error(let e):
                return .error(e)
            case .head(let head, .length(0)):
                // No body (most requests): the request is complete now.
                return finish(head, body: [], consumed: head.headLength)
            case .head(let head, let body):
                state = .body(head, body)
                return parseBody(bytes)
            }
        case .body:
            return parseBody(bytes)
        }
    }

    // MARK: Head

    private enum HeadResult {
        case needMore(Int)
        case error(HTTPParseError)
        case head(Head, BodyState)
    }

    private func parseHead(_ bytes: UnsafeBufferPointer<UInt8>, scanned: Int) -> HeadResult {
        guard let start = bytes.baseAddress, bytes.count > 0 else { return .needMore(0) }
        // Empty lines before a request line are ignored (RFC 9112 §2.2); they
        // stay part of this request's bytes.
        var lead = 0
        while lead < bytes.count && (start[lead] == 0x0D || start[lead] == 0x0A) { lead += 1 }
        if lead > limits.maxRequestLineBytes { return .error(HTTPParseError(.badRequest, "too many empty lines before the request")) }
        if lead == bytes.count { return .needMore(0) }
        let base = start + lead
        let count = bytes.count - lead

        // The request line must end within the limit.
        guard let lineEnd = findByte(0x0A, base, from: 0, to: min(count, limits.maxRequestLineBytes + 2)) else {
            if count > limits.maxRequestLineBytes + 1 { return .error(HTTPParseError(.uriTooLong, "the request line is longer than \(limits.maxRequestLineBytes) bytes")) }
            return .needMore(bytes.count)
        }
        // Find the empty line that ends the head, from where we last looked.
        var searchFrom = max(lineEnd, scanned - lead - 3)
        var headEnd: Int? = nil
        while let nl = findByte(0x0A, base, from: searchFrom, to: count) {
            // "\n\n" or "\n\r\n"
            if nl + 1 < count && base[nl + 1] == 0x0A { headEnd = nl + 2; break }
            if nl + 2 < count && base[nl + 1] == 0x0D && base[nl + 2] == 0x0A { headEnd = nl + 3; break }
            if nl + 2 >= count { break }
            searchFrom = nl + 1
        }
        let headerLimit = lineEnd + 1 + limits.maxHeaderBytes
        guard let end = headEnd else {
            if count > headerLimit + 2 { return .error(HTTPParseError(.requestHeaderFieldsTooLarge, "the header section is larger than \(limits.maxHeaderBytes) bytes")) }
            return .needMore(bytes.count)
        }
        if end > headerLimit + 2 { return .error(HTTPParseError(.requestHeaderFieldsTooLarge, "the header section is larger than \(limits.maxHeaderBytes) bytes")) }
        do {
            return try buildHead(UnsafeBufferPointer(start: base, count: end), lineEnd: lineEnd, offset: lead)
        } catch {
            return .error(error)
        }
    }

    /// `head` runs from the request line to the empty line; `offset` is where
    /// it starts in the request's bytes.
    private func buildHead(_ head: UnsafeBufferPointer<UInt8>, lineEnd: Int, offset: Int) throws(HTTPParseError) -> HeadResult {
        let base = head.baseAddress!
        // Request line: method SP target SP version.
        let lineStop = lineEnd > 0 && base[lineEnd - 1] == 0x0D ? lineEnd - 1 : lineEnd
        guard let sp1 = findByte(0x20, base, from: 0, to: lineStop), sp1 > 0,
              let sp2 = findByte(0x20, base, from: sp1 + 1, to: lineStop), sp2 > sp1 + 1
        else { throw HTTPParseError(.badRequest, "malformed request line") }
        for i in 0..<sp1 where !isTokenChar(base[i]) { throw HTTPParseError(.badRequest, "malformed method") }
        for i in (sp1 + 1)..<sp2 where base[i] <= 0x20 || base[i] >= 0x7F {
            throw HTTPParseError(.badRequest, "malformed request target")
        }
        let method = HTTPMethod.known(base, sp1) ?? HTTPMethod(ascii(base, 0, sp1))
        let targetBytes = UnsafeBufferPointer(start: base + sp1 + 1, count: sp2 - sp1 - 1)
        let target = String(decoding: targetBytes, as: UTF8.self)
        let version = try parseVersion(UnsafeBufferPointer(start: base + sp2 + 1, count: lineStop - sp2 - 1), method: method)
        let parts = try RequestTarget.parse(targetBytes, method: method)

        // Header fields.
        var fields = [HTTPHeaders.Field]()
        fields.reserveCapacity(8)
        var lineStart = lineEnd + 1
        let headerStart = lineStart
        while true {
            guard let nl = findByte(0x0A, base, from: lineStart, to: head.count) else { break }
            let stop = nl > lineStart && base[nl - 1] == 0x0D ? nl - 1 : nl
            if stop == lineStart { break }  // the empty line
            if base[lineStart] == 0x20 || base[lineStart] == 0x09 {
                throw HTTPParseError(.badRequest, "obsolete line folding is not accepted")
            }
            guard let colon = findByte(UInt8(ascii: ":"), base, from: lineStart, to: stop), colon > lineStart else {
                throw HTTPParseError(.badRequest, "malformed header field")
            }
            for i in lineStart..<colon where !isTokenChar(base[i]) {
                throw HTTPParseError(.badRequest, "malformed header field name")
            }
            var vs = colon + 1, ve = stop
            while vs < ve && (base[vs] == 0x20 || base[vs] == 0x09) { vs += 1 }
            while ve > vs && (base[ve - 1] == 0x20 || base[ve - 1] == 0x09) { ve -= 1 }
            for i in vs..<ve where base[i] == 0 || base[i] == 0x0D || base[i] == 0x0A {
                throw HTTPParseError(.badRequest, "invalid byte in a header value")
            }
            fields.append(HTTPHeaders.Field(
                nameStart: Int32(lineStart - headerStart), nameEnd: Int32(colon - headerStart),
                valueStart: Int32(vs - headerStart), valueEnd: Int32(ve - headerStart)))
            if fields.count > limits.maxHeaderCount {
                throw HTTPParseError(.requestHeaderFieldsTooLarge, "more than \(limits.maxHeaderCount) header fields")
            }
            lineStart = nl + 1
        }
        let section = UnsafeBufferPointer(start: base + headerStart, count: head.count - headerStart)
        if section.contains(where: { $0 >= 0x80 }) && !StreamSafe.holds(String(decoding: section, as: UTF8.self)) {
            throw HTTPParseError(.badRequest, "a header value holds more than \(StreamSafe.maxNonStarters) combining marks in a row")
        }
        let headers = HTTPHeaders(bytes: Array(section), fields: fields)

        // Semantics.
        let hosts = headers.count(named: "host")
        if version == .http1_1 && hosts == 0 { throw HTTPParseError(.badRequest, "an HTTP/1.1 request needs a Host header") }
        if hosts > 1 { throw HTTPParseError(.badRequest, "more than one Host header") }

        let body: BodyState
        let encodings = headers.values("transfer-encoding")
        let lengths = headers.values("content-length")
        if !encodings.isEmpty {
            if !lengths.isEmpty { throw HTTPParseError(.badRequest, "both Transfer-Encoding and Content-Length") }
            let codings = encodings.flatMap { $0.split(separator: ",").map { $0.trimmingSpaces.lowercasedASCII } }
            guard codings.last == "chunked" else {
                if codings.contains("chunked") { throw HTTPParseError(.badRequest, "chunked must be the last transfer coding") }
                throw HTTPParseError(.notImplemented, "transfer coding \(codings.joined(separator: ", ")) is not supported")
            }
            guard codings.count == 1 else { throw HTTPParseError(.notImplemented, "only the chunked transfer coding is supported") }
            body = .chunked(Chunked(position: offset + head.count))
        } else if !lengths.isEmpty {
            var length: Int? = nil
            for value in lengths {
                for part in value.split(separator: ",", omittingEmptySubsequences: false) {
                    let text = part.trimmingSpaces
                    guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let n = Int(text) else {
                        throw HTTPParseError(.badRequest, "invalid Content-Length")
                    }
                    if let length, length != n { throw HTTPParseError(.badRequest, "conflicting Content-Length values") }
                    length = n
                }
            }
            if length! > limits.maxBodyBytes {
                throw HTTPParseError(.contentTooLarge, "the body is larger than \(limits.maxBodyBytes) bytes")
            }
            body = .length(length!)
        } else {
            body = .length(0)
        }

        var expectsContinue = false
        if let expect = headers["expect"] {
            guard expect.lowercasedASCII == "100-continue" else {
                throw HTTPParseError(.expectationFailed, "only Expect: 100-continue is supported")
            }
            expectsContinue = version == .http1_1
        }
        return .head(Head(method: method, target: target, parts: parts, version: version, headers: headers,
                          headLength: offset + head.count, expectsContinue: expectsContinue), body)
    }

    private func parseVersion(_ v: UnsafeBufferPointer<UInt8>, method: HTTPMethod) throws(HTTPParseError) -> HTTPVersion {
        guard v.count == 8, v[0] == UInt8(ascii: "H"), v[1] == UInt8(ascii: "T"), v[2] == UInt8(ascii: "T"),
              v[3] == UInt8(ascii: "P"), v[4] == UInt8(ascii: "/"), v[6] == UInt8(ascii: "."),
              let major = digit(v[5]), let minor = digit(v[7])
        else { throw HTTPParseError(.badRequest, "malformed HTTP version") }
        if method.rawValue == "PRI" && major == 2 {
            throw HTTPParseError(.httpVersionNotSupported, "HTTP/2 is not supported; use HTTP/1.1")
        }
        guard major == 1 else { throw HTTPParseError(.httpVersionNotSupported, "HTTP/\(major).\(minor) is not supported; use HTTP/1.1") }
        return minor == 0 ? .http1_0 : .http1_1
    }

    // MARK: Body

    private mutating func parseBody(_ bytes: UnsafeBufferPointer<UInt8>) -> Event {
        guard case .body(var head, var body) = state else { return .needMore }
        switch body {
        case .length(let length):
            let available = bytes.count - head.headLength
            if available < length {
                return continueOrWait(&head, body)
            }
            let content = length == 0 ? [] : Array(UnsafeBufferPointer(rebasing: bytes[head.headLength..<(head.headLength + length)]))
            return finish(head, body: content, consumed: head.headLength + length)
        case .chunked(var chunked):
            do {
                let done = try decodeChunks(bytes, &chunked)
                if done {
                    return finish(head, body: chunked.body, consumed: chunked.position)
                }
                body = .chunked(chunked)
                return continueOrWait(&head, body)
            } catch {
                return .error(error)
            }
        }
    }

    private mutating func continueOrWait(_ head: inout Head, _ body: BodyState) -> Event {
        if head.expectsContinue && !head.continueSent {
            head.continueSent = true
            state = .body(head, body)
            return .sendContinue
        }
        state = .body(head, body)
        return .needMore
    }

    private mutating func finish(_ head: Head, body: [UInt8], consumed: Int) -> Event {
        state = .head(scanned: 0)
        return .request(HTTPRequest(method: head.method, target: head.target, parts: head.parts, version: head.version,
                                    headers: head.headers, body: body), consumed: consumed)
    }

    /// Decodes as many chunks as are here; true once the last chunk and the
    /// trailers have been read.
    private func decodeChunks(_ bytes: UnsafeBufferPointer<UInt8>, _ c: inout Chunked) throws(HTTPParseError) -> Bool {
        let base = bytes.baseAddress!
        let count = bytes.count
        while true {
            switch c.phase {
            case .size:
                guard let nl = findByte(0x0A, base, from: c.position, to: min(count, c.position + 1024)) else {
                    if count - c.position >= 1024 { throw HTTPParseError(.badRequest, "chunk size line too long") }
                    return false
                }
                var stop = nl > c.position && base[nl - 1] == 0x0D ? nl - 1 : nl
                if let semicolon = findByte(UInt8(ascii: ";"), base, from: c.position, to: stop) { stop = semicolon }
                while stop > c.position && (base[stop - 1] == 0x20 || base[stop - 1] == 0x09) { stop -= 1 }
                guard stop > c.position, stop - c.position <= 15 else { throw HTTPParseError(.badRequest, "malformed chunk size") }
                var size = 0
                for i in c.position..<stop {
                    guard let h = hexValue(base[i]) else { throw HTTPParseError(.badRequest, "malformed chunk size") }
                    size = size << 4 | Int(h)
                }
                if c.body.count + size > limits.maxBodyBytes {
                    throw HTTPParseError(.contentTooLarge, "the body is larger than \(limits.maxBodyBytes) bytes")
                }
                c.position = nl + 1
                c.phase = size == 0 ? .trailers : .data(size)
            case .data(let remaining):
                let available = count - c.position
                if available == 0 { return false }
                let n = min(available, remaining)
                c.body.append(contentsOf: UnsafeBufferPointer(start: base + c.position, count: n))
                c.position += n
                c.phase = n == remaining ? .dataEnd : .data(remaining - n)
            case .dataEnd:
                if count - c.position < 1 { return false }
                if base[c.position] == 0x0A { c.position += 1 } else {
                    if count - c.position < 2 { return false }
                    guard base[c.position] == 0x0D && base[c.position + 1] == 0x0A else {
                        throw HTTPParseError(.badRequest, "chunk data not followed by CRLF")
                    }
                    c.position += 2
                }
                c.phase = .size
            case .trailers:
                guard let nl = findByte(0x0A, base, from: c.position, to: count) else {
                    if count - c.position + c.trailerBytes > limits.maxHeaderBytes {
                        throw HTTPParseError(.requestHeaderFieldsTooLarge, "trailers too large")
                    }
                    return false
                }
                let empty = nl == c.position || (nl == c.position + 1 && base[c.position] == 0x0D)
                c.trailerBytes += nl + 1 - c.position
                if c.trailerBytes > limits.maxHeaderBytes {
                    throw HTTPParseError(.requestHeaderFieldsTooLarge, "trailers too large")
                }
                c.position = nl + 1
                if empty { return true }  // trailer fields are read and dropped
            }
        }
    }
}

// MARK: Byte helpers

@inline(__always)
func findByte(_ byte: UInt8, _ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int? {
    guard from < to else { return nil }
    guard let hit = memchr(base + from, Int32(byte), to - from) else { return nil }
    return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
}

@inline(__always) func digit(_ c: UInt8) -> Int? {
    c >= 0x30 && c <= 0x39 ? Int(c - 0x30) : nil
}

/// RFC 9110 tchar.
@inline(__always) func isTokenChar(_ c: UInt8) -> Bool {
    switch c {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        return true
    case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
         UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
         UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
        return true
    default:
        return false
    }
}

func ascii(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> String {
    String(decoding: UnsafeBufferPointer(start: base + start, count: end - start), as: UTF8.self)
}
