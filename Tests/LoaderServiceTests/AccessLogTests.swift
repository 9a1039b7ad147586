import EventLoop
import FoundationEssentials
import Glibc
import LoaderEngine
import Synchronization
import HTTPTestSupport
import Testing
@testable import HTTPServer
@testable import LoaderService

/// The access log: one line per request, under load, from every loop.
@Suite(.serialized)
struct AccessLogTests {
    struct Line: Decodable { let time: String; let level: String; let msg: String; let client: String?; let method: String?; let path: String?; let status: Int?; let bytes: Int?; let us: Int?; let traceId: String? }

    func withLogFile(_ body: (Logger) throws -> Void) throws -> [Line] { try withLogFile(as: Line.self, body) }

    func withLogFile<L: Decodable>(as: L.Type, _ body: (Logger) throws -> Void) throws -> [L] {
        var template = Array("/tmp/loaderd-access-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        try #require(fd >= 0)
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        defer { close(fd); unlink(path) }
        let logger = Logger(level: .info, fd: fd)
        try body(logger)
        logger.flush()
        var bytes: [UInt8] = []
        lseek(fd, 0, SEEK_SET)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while case let n = read(fd, &chunk, chunk.count), n > 0 { bytes += chunk[0..<n] }
        return try bytes.split(separator: UInt8(ascii: "\n")).map { try JSONDecoder().decode(L.self, from: Data($0)) }
    }

    /// The line at start: every loader, built in or from its file.
    @Test func theCatalogLineNamesEveryLoaderAndWhereItCameFrom() throws {
        struct CatalogLine: Decodable { let msg: String; let count: Int; let builtIn: String; let loadersDir: String?; let fromFiles: String? }
        let dot = #"{"format": 1, "name": "my-dot", "summary": "A dot.", "canvas": {"width": 20, "height": 20}, "layers": [{"type": "circle", "id": "dot", "position": [10, 10], "diameter": 8}]}"#
        let catalog = try LoaderCatalog.standard.adding(files: [(name: "mine.json", bytes: Array(dot.utf8))])
        let lines = try withLogFile(as: CatalogLine.self) { $0.logCatalog(catalog, loadersDir: "/etc/loaderd/loaders") }
        let line = try #require(lines.first)
        #expect(lines.count == 1 && line.msg == "loaders" && line.count == LoaderCatalog.standard.loaders.count + 1)
        #expect(line.builtIn.split(separator: " ").map(String.init) == LoaderCatalog.standard.names)
        #expect(line.loadersDir == "/etc/loaderd/loaders" && line.fromFiles == "my-dot (mine.json)")
        let plain = try withLogFile(as: CatalogLine.self) { $0.logCatalog(.standard, loadersDir: nil) }
        #expect(plain.first?.fromFiles == nil && plain.first?.loadersDir == nil)
    }

    @Test func oneLinePerRequestUnderLoad() throws {
        let clients = 8, perClient = 600
        let lines = try withLogFile { logger in
            let (server, _) = try startService({ $0.logLevel = .info }, logger: logger)
            defer { server.shutdown(gracePeriod: 1_000_000_000) }
            let answered = Mutex(0)
            let threads = (0..<clients).map { c in
                Thread {
                    guard let client = try? TestClient(port: server.port) else { return }
                    for i in 0..<perClient {
                        // Pipelined in pairs, as a busy client does: several answers per read burst.
                        client.send("GET /loaders/typing/frames?t=\(c).\(i) HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                        guard client.readResponse()?.status == 200, client.readResponse()?.status == 200 else { return }
                        answered.withLock { $0 += 2 }
                    }
                }
            }
            for t in threads { t.join() }
            #expect(answered.withLock { $0 } == clients * perClient * 2)
        }
        let requests = lines.filter { $0.msg == "request" }
        #expect(requests.count == clients * perClient * 2)
        let frames = requests.filter { (line: Line) -> Bool in line.path == "/loaders/typing/frames" && line.status == 200 && line.method == "GET" }
        #expect(frames.count == clients * perClient)
        let wellFormed = requests.filter { (line: Line) -> Bool in
            let bytes: Int = line.bytes ?? 0, us: Int = line.us ?? -1
            return line.level == "info" && line.time.count == 24 && line.time.hasSuffix("Z") && bytes > 0 && us >= 0
        }
        #expect(wellFormed.count == requests.count)
    }

    /// A W3C `traceparent` puts its trace id on the line, on the loop's
    /// buffer and on a deferred answer's (logged off the loop) alike; a
    /// header that is not exactly valid, or comes twice, adds nothing.
    @Test func theTraceIdOfATraceparentIsLogged() throws {
        let valid = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        let lines = try withLogFile { logger in
            let (server, _) = try startService({ $0.logLevel = .info }, logger: logger)
            defer { server.shutdown(gracePeriod: 1_000_000_000) }
            let client = try TestClient(port: server.port)
            for (path, headers) in [("/healthz", "traceparent: \(valid)\r\n"),
                                    ("/readyz", "traceparent: \(valid.uppercased())\r\n"),
                                    ("/version", "traceparent: \(valid)\r\ntraceparent: \(valid)\r\n"),
                                    ("/loaders", "")] {
                client.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\(headers)\r\n")
                #expect(client.readResponse()?.status == 200, "\(path)")
            }
            let body = PreviewTests.definition
            client.send("POST /loaders/preview?t=0 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\ntraceparent: \(valid)\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            #expect(client.readResponse()?.status == 200)
        }
        let requests = lines.filter { $0.msg == "request" }
        #expect(requests.count == 5)
        for line in requests {
            let expected = ["/loaders/preview", "/healthz"].contains(line.path ?? "") ? "4bf92f3577b34da6a3ce929d0e0e4736" : nil
            #expect(line.traceId == expected, "\(line.path ?? "")")
        }
    }

    @Test(arguments: Transport.allCases)
    func anAnswerThatIsAnErrorIsLoggedToo(_ transport: Transport) throws {
        let lines = try withLogFile { logger in
            let app = try TestApp(transport, { $0.logLevel = .info }, logger: logger)
            let response = try get(app, "/no%22such%5Cthing%0A%01")
            #expect(response.status == 404)
        }
        let request = try #require(lines.first { $0.msg == "request" })
        #expect(request.path == "/no%22such%5Cthing%0A%01")  // as the request line had it
        #expect(request.status == 404)
    }

    @Test func digitsAndEscapes() {
        var out: [UInt8] = []
        for n in [0, 7, 10, 99, 100, 123_456_789, -42] {
            out.removeAll()
            JSONWriter.appendInteger(n, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == String(n))
        }
        out.removeAll()
        JSONWriter.appendEscaped("a\"b\\c\u{1F}é", to: &out)
        #expect(String(decoding: out, as: UTF8.self) == #"a\"b\\c\u001Fé"#)
    }
}

/// `trustedProxies` and `X-Forwarded-For`.
struct ClientAddressTests {
    func address(_ text: String) -> SocketAddress { try! SocketAddress(host: text, port: 40000) }
    func ranges(_ texts: [String]) -> [AddressRange] { texts.map { AddressRange($0)! } }

    @Test func rangesMatchTheirAddresses() {
        let cases: [(String, String, Bool)] = [
            ("10.0.0.0/8", "10.255.1.2", true), ("10.0.0.0/8", "11.0.0.1", false),
            ("192.0.2.7", "192.0.2.7", true), ("192.0.2.7", "192.0.2.8", false),
            ("0.0.0.0/0", "203.0.113.9", true), ("0.0.0.0/0", "2001:db8::1", false),
            ("fd00::/8", "fd12:3456::1", true), ("fd00::/8", "fe80::1", false),
            ("::1", "::1", true), ("::/0", "2001:db8::1", true),
            ("10.1.2.0/23", "10.1.3.255", true), ("10.1.2.0/23", "10.1.4.0", false),
            ("2001:db8:0:8000::/65", "2001:db8:0:8000:7fff::1", true), ("2001:db8:0:8000::/65", "2001:db8:0:8000:8000::1", false),
            ("10.0.0.0/8", "::ffff:10.9.9.9", true),
        ]
        for (range, text, expected) in cases {
            #expect(AddressRange(range)!.contains(IPAddress(text)!) == expected, "\(range) ∋ \(text)")
        }
        for bad in ["", "10.0.0.0/33", "::/129", "10.0.0/8", "localhost", "10.0.0.0/-1", "10.0.0.0/8/8", "1.2.3.4/ 8"] {
            #expect(AddressRange(bad) == nil, "\(bad)")
        }
    }

    @Test func theHeaderIsBelievedFromTrustedPeersOnly() {
        let proxies = ranges(["127.0.0.1", "10.0.0.0/8"])
        func client(_ peer: String, _ header: [String], _ trusted: [AddressRange]) -> String {
            ClientAddress.of(peer: address(peer), forwardedFor: header, trusted: trusted).text
        }
        // From a trusted proxy: the first untrusted hop from the right.
        #expect(client("127.0.0.1", ["203.0.113.9"], proxies) == "203.0.113.9")
        #expect(client("127.0.0.1", ["198.51.100.1, 203.0.113.9, 10.0.0.5"], proxies) == "203.0.113.9")
        #expect(client("127.0.0.1", ["198.51.100.1", "203.0.113.9 ,10.1.1.1"], proxies) == "203.0.113.9")
        #expect(client("10.2.3.4", ["2001:db8::7"], proxies) == "2001:db8::7")
        // Every hop trusted: the leftmost.
        #expect(client("127.0.0.1", ["10.0.0.9, 10.0.0.5"], proxies) == "10.0.0.9")
        // A forged header from anyone else, or nobody trusted: the peer.
        #expect(client("192.0.2.44", ["203.0.113.9"], proxies) == "192.0.2.44")
        #expect(client("127.0.0.1", ["203.0.113.9"], []) == "127.0.0.1")
        // No header, or one that is not what a proxy writes: the peer.
        #expect(client("127.0.0.1", [], proxies) == "127.0.0.1")
        #expect(client("127.0.0.1", ["203.0.113.9, <script>"], proxies) == "127.0.0.1")
        #expect(client("127.0.0.1", [" , "], proxies) == "127.0.0.1")
    }

    @Test func theConfigurationRefusesWhatIsNotARange() throws {
        var c = ServiceConfiguration.embeddedDefault()
        #expect(c.trustedProxies.isEmpty)
        try c.apply(environment: ["LOADERD_TRUSTED_PROXIES": "10.0.0.0/8, ::1"])
        #expect(c.trustedProxies == ["10.0.0.0/8", "::1"])
        #expect(throws: ConfigurationError.self) { try c.apply(environment: ["LOADERD_TRUSTED_PROXIES": "10.0.0.0/8, proxy.local"]) }
        #expect(throws: ConfigurationError.self) { try c.apply(json: try JSONValue.parse(#"{"trustedProxies":["300.0.0.1"]}"#), source: "file") }
        try c.apply(json: try JSONValue.parse(#"{"trustedProxies":["192.0.2.0/24"]}"#), source: "file")
        #expect(c.trustedProxies == ["192.0.2.0/24"])
    }
}

extension AccessLogTests {
    /// The access log's `client`: the peer, or from a trusted proxy the
    /// address it forwards; a forged header from an untrusted peer is not
    /// believed.
    @Test func theLogNamesTheClient() throws {
        let proxy = try SocketAddress(host: "10.1.2.3", port: 40_000)
        for (trusted, expected) in [([String](), "10.1.2.3"), (["10.0.0.0/8"], "203.0.113.9"), (["192.0.2.0/24"], "10.1.2.3")] {
            let lines = try withLogFile { logger in
                let app = TestApp({ $0.logLevel = .info; $0.trustedProxies = trusted }, logger: logger)
                let response = try app.request("GET", "/healthz", ["X-Forwarded-For": "198.51.100.1, 203.0.113.9"], from: proxy)
                #expect(response.status == 200)
            }
            let request = try #require(lines.first { $0.msg == "request" })
            #expect(request.client == expected, "trusted \(trusted)")
        }
    }
}
