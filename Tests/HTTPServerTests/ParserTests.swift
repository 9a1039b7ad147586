import Testing
@testable import HTTPServer

/// What a parser made of a byte stream.
enum Outcome: Equatable, CustomStringConvertible {
    case request(String)  // method target version body
    case sendContinue
    case error(Int)

    var description: String {
        switch self {
        case .request(let s): return s
        case .sendContinue: return "100-continue"
        case .error(let s): return "error \(s)"
        }
    }
}

/// Feeds `input` `step` bytes at a time, as a connection would.
func feed(_ input: String, step: Int = .max, limits: HTTPLimits = HTTPLimits()) -> [Outcome] {
    let bytes = Array(input.utf8)
    var parser = HTTPRequestParser(limits: limits)
    var buffer = [UInt8]()
    var start = 0
    var fed = 0
    var outcomes = [Outcome]()
    while fed < bytes.count || start < buffer.count {
        if fed < bytes.count {
            let n = min(step, bytes.count - fed)
            buffer.append(contentsOf: bytes[fed..<(fed + n)])
            fed += n
        }
        parsing: while true {
            let event = buffer.withUnsafeBufferPointer { parser.parse(UnsafeBufferPointer(rebasing: $0[start...])) }
            switch event {
            case .request(let r, let consumed):
                let body = String(decoding: r.body, as: UTF8.self)
                outcomes.append(.request("\(r.method) \(r.target) \(r.version) \(body)"))
                start += consumed
                if start == buffer.count { break parsing }
            case .sendContinue:
                outcomes.append(.sendContinue)
            case .needMore:
                break parsing
            case .error(let e):
                outcomes.append(.error(e.status.code))
                return outcomes
            }
        }
        if fed == bytes.count { break }
    }
    return outcomes
}

func parsesTheSameWholeAndByteByByte(_ input: String, limits: HTTPLimits = HTTPLimits()) -> [Outcome] {
    let whole = feed(input, limits: limits)
    let single = feed(input, step: 1, limits: limits)
    let sevens = feed(input, step: 7, limits: limits)
    #expect(whole == single, "byte by byte differs for \(input.debugDescription)")
    #expect(whole == sevens, "7 bytes at a time differs for \(input.debugDescription)")
    return whole
}

struct ParserTests {
    @Test func simpleGet() {
        #expect(parsesTheSameWholeAndByteByByte("GET /a?b=c HTTP/1.1\r\nHost: x\r\n\r\n") == [.request("GET /a?b=c HTTP/1.1 ")])
    }

    @Test func pipelinedRequestsInOrder() {
        let input = (0..<20).map { "GET /\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined()
        #expect(parsesTheSameWholeAndByteByByte(input) == (0..<20).map { .request("GET /\($0) HTTP/1.1 ") })
    }

    @Test func bareLineFeedsAndLeadingEmptyLines() {
        #expect(parsesTheSameWholeAndByteByByte("\r\n\r\nGET / HTTP/1.1\nHost: x\n\n") == [.request("GET / HTTP/1.1 ")])
    }

    @Test func contentLengthBody() {
        #expect(parsesTheSameWholeAndByteByByte("POST /s HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhelloGET / HTTP/1.0\r\n\r\n")
            == [.request("POST /s HTTP/1.1 hello"), .request("GET / HTTP/1.0 ")])
    }

    @Test func chunkedBodyWithExtensionsAndTrailers() {
        let input = "POST /u HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: y\r\n\r\n"
        #expect(parsesTheSameWholeAndByteByByte(input) == [.request("POST /u HTTP/1.1 hello world")])
    }

    @Test func expectContinueComesBeforeTheBody() {
        let head = "POST /e HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n"
        #expect(feed(head) == [.sendContinue])
        #expect(feed(head + "abc") == [.request("POST /e HTTP/1.1 abc")])
        #expect(feed(head + "abc", step: 1).first == .sendContinue)
        #expect(feed("POST /e HTTP/1.1\r\nHost: x\r\nExpect: something\r\n\r\n") == [.error(417)])
    }

    @Test func headersAreCaseInsensitive() throws {
        var parser = HTTPRequestParser()
        let bytes = Array("GET / HTTP/1.1\r\nhOsT: example\r\nX-Multi: a\r\nx-multi: b\r\nConnection: Keep-Alive, Close\r\n\r\n".utf8)
        let event = bytes.withUnsafeBufferPointer { parser.parse($0) }
        guard case .request(let r, _) = event else { Issue.record("no request"); return }
        #expect(r.headers["HOST"] == "example")
        #expect(r.headers.values("X-MULTI") == ["a", "b"])
        #expect(r.headers.contains("connection", token: "close"))
        #expect(!r.keepAlive)
    }

    @Test func persistence() throws {
        func keepAlive(_ head: String) -> Bool? {
            var parser = HTTPRequestParser()
            let bytes = Array(head.utf8)
            if case .request(let r, _) = bytes.withUnsafeBufferPointer({ parser.parse($0) }) { return r.keepAlive }
            return nil
        }
        #expect(keepAlive("GET / HTTP/1.1\r\nHost: x\r\n\r\n") == true)
        #expect(keepAlive("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n") == false)
        #expect(keepAlive("GET / HTTP/1.0\r\n\r\n") == false)
        #expect(keepAlive("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n") == true)
    }

    @Test func aRepeatedRequestMatchesOnlyItsExactBytes() throws {
        var memo = RepeatedRequest()
        let bytes = Array("GET /a?b=c HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        let request = try HTTPRequest(method: .GET, target: "/a?b=c", headers: HTTPHeaders([("Host", "x")]))
        func match(_ input: [UInt8]) -> Int? { input.withUnsafeBufferPointer { memo.match($0)?.consumed } }
        #expect(match(bytes) == nil)  // nothing kept yet
        bytes.withUnsafeBufferPointer { memo.remember(request, parsedFrom: $0) }
        #expect(match(bytes) == bytes.count)
        #expect(match(bytes + Array("GET /".utf8)) == bytes.count)  // the next request follows
        #expect(match(Array(bytes.dropLast())) == nil)  // not all here yet
        var other = bytes
        other[6] = UInt8(ascii: "d")
        #expect(match(other) == nil)
        let big = [UInt8](repeating: 0x61, count: RepeatedRequest.maxBytes + 1)
        big.withUnsafeBufferPointer { memo.remember(request, parsedFrom: $0) }
        #expect(match(bytes) == nil && match(big) == nil)  // too big to keep, and the old one is gone
    }

    @Test func targetsAndDecoding() throws {
        let r = try HTTPRequest(method: .GET, target: "/loaders/a%20b/frames?color=%230f0&x=1+2&flag&e=")
        #expect(r.path == "/loaders/a%20b/frames")
        #expect(r.pathSegments == ["loaders", "a b", "frames"])
        #expect(r.query.map(\.name) == ["color", "x", "flag", "e"])
        #expect(r.query.map(\.value) == ["#0f0", "1 2", "", ""])
        let absolute = try HTTPRequest(method: .GET, target: "http://example.com:8080/loaders?t=1")
        #expect(absolute.pathSegments == ["loaders"] && absolute.queryValue("t") == "1")
        #expect(try HTTPRequest(method: .OPTIONS, target: "*").path == "*")
        #expect(try HTTPRequest(method: .GET, target: "/a%2Fb").pathSegments == ["a/b"])
        #expect(throws: HTTPParseError.self) { try HTTPRequest(method: .GET, target: "/bad%zz") }
        #expect(throws: HTTPParseError.self) { try HTTPRequest(method: .GET, target: "/?q=%e2%82") }
        #expect(throws: HTTPParseError.self) { try HTTPRequest(method: .GET, target: "*") }
        #expect(throws: HTTPParseError.self) { try HTTPRequest(method: .GET, target: "ftp://x/") }
    }

    /// Targets with nothing to decode take a shorter path; it must split
    /// them exactly as the decoding one does.
    @Test func plainTargetsSplitAsDecodedOnes() throws {
        let r = try HTTPRequest(method: .GET, target: "//loaders//typing/?t=0.5&&a==b&c#frag?x=1")
        #expect(r.path == "//loaders//typing/")
        #expect(r.pathSegments == ["loaders", "typing"])
        #expect(r.query.map(\.name) == ["t", "a", "c"])
        #expect(r.query.map(\.value) == ["0.5", "=b", ""])
        let fragmentOnly = try HTTPRequest(method: .GET, target: "/a#b?c=d")
        #expect(fragmentOnly.pathSegments == ["a"] && fragmentOnly.query.isEmpty)
        let emptyQuery = try HTTPRequest(method: .GET, target: "/a?")
        #expect(emptyQuery.path == "/a" && emptyQuery.query.isEmpty)
        let plus = try HTTPRequest(method: .GET, target: "/a+b?x=a+b")
        #expect(plus.pathSegments == ["a+b"] && plus.queryValue("x") == "a b")
        var parser = HTTPRequestParser()
        for method in ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "PROPFIND", "GE"] {
            let bytes = Array("\(method) / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n".utf8)
            guard case .request(let request, _) = bytes.withUnsafeBufferPointer({ parser.parse($0) }) else {
                Issue.record("\(method) did not parse")
                continue
            }
            #expect(request.method.rawValue == method)
        }
    }

    @Test(arguments: [
        ("GARBAGE\r\n\r\n", 400),
        ("GET /\r\nHost: x\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\n\r\n", 400),  // no Host
        ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost : x\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n", 400),
        ("GET /a b HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ("G(T / HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ("GET / HTTP/3.0\r\nHost: x\r\n\r\n", 505),
        ("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 505),
        ("GET / HTTX/1.1\r\nHost: x\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
        ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, gzip\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabXX", 400),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n", 413),
    ])
    func errors(_ input: String, _ status: Int) {
        #expect(parsesTheSameWholeAndByteByByte(input) == [.error(status)], "\(input.debugDescription)")
    }

    /// Unicode's Stream-Safe Text Format (UAX #15): 30 combining marks in
    /// a row are text; 31 are refused, in a header value and in a decoded
    /// path or query alike; any number of runs of 30 is fine.
    @Test func combiningMarksBeyondThirtyInARowAreRefused() {
        let marks = String(repeating: "\u{301}\u{316}", count: 16)
        func encoded(_ text: String) -> String {
            let hex = Array("0123456789ABCDEF")
            return text.utf8.map { "%" + String(hex[Int($0 >> 4)]) + String(hex[Int($0 & 15)]) }.joined()
        }
        for n in [30, 31] {
            let run = "x" + String(marks.unicodeScalars.prefix(n).map(Character.init))
            let header = parsesTheSameWholeAndByteByByte("GET / HTTP/1.1\r\nHost: x\r\nX-A: \(run)\r\n\r\n")
            let query = parsesTheSameWholeAndByteByByte("GET /a?q=\(encoded(run)) HTTP/1.1\r\nHost: x\r\n\r\n")
            let path = parsesTheSameWholeAndByteByByte("GET /\(encoded(run)) HTTP/1.1\r\nHost: x\r\n\r\n")
            if n == 30 {
                #expect(header.count == 1 && query.count == 1 && path.count == 1)
                #expect(![header, query, path].contains([.error(400)]))
            } else {
                #expect(header == [.error(400)] && query == [.error(400)] && path == [.error(400)])
            }
        }
        let many = String(repeating: "x" + String(marks.unicodeScalars.prefix(30).map(Character.init)), count: 100)
        #expect(parsesTheSameWholeAndByteByByte("GET / HTTP/1.1\r\nHost: x\r\nX-A: \(many)\r\n\r\n").count == 1)
    }

    @Test func limits() {
        var limits = HTTPLimits()
        limits.maxRequestLineBytes = 64
        limits.maxHeaderBytes = 128
        limits.maxHeaderCount = 3
        limits.maxBodyBytes = 10
        let longLine = "GET /" + String(repeating: "a", count: 100) + " HTTP/1.1\r\nHost: x\r\n\r\n"
        #expect(parsesTheSameWholeAndByteByByte(longLine, limits: limits) == [.error(414)])
        let bigHeaders = "GET / HTTP/1.1\r\nHost: x\r\nX-A: " + String(repeating: "b", count: 200) + "\r\n\r\n"
        #expect(parsesTheSameWholeAndByteByByte(bigHeaders, limits: limits) == [.error(431)])
        let manyHeaders = "GET / HTTP/1.1\r\nHost: x\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n"
        #expect(parsesTheSameWholeAndByteByByte(manyHeaders, limits: limits) == [.error(431)])
        let bigBody = "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\nhello world"
        #expect(parsesTheSameWholeAndByteByByte(bigBody, limits: limits) == [.error(413)])
        let bigChunks = "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nhello \r\n5\r\nworld\r\n0\r\n\r\n"
        #expect(parsesTheSameWholeAndByteByByte(bigChunks, limits: limits) == [.error(413)])
        // Exactly at the limits is fine.
        let fits = "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nhelloworld"
        #expect(parsesTheSameWholeAndByteByByte(fits, limits: limits) == [.request("POST / HTTP/1.1 helloworld")])
    }
}
