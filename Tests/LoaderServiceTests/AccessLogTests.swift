import FoundationEssentials
import Glibc
import Synchronization
import HTTPTestSupport
import Testing
@testable import HTTPServer
@testable import LoaderService

/// The access log: one line per request, under load, from every loop.
@Suite(.serialized)
struct AccessLogTests {
    struct Line: Decodable { let time: String; let level: String; let msg: String; let method: String?; let path: String?; let status: Int?; let bytes: Int?; let us: Int? }

    func withLogFile(_ body: (Logger) throws -> Void) throws -> [Line] {
        var template = Array("/tmp/loaderd-access-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        try #require(fd >= 0)
        let path = String(cString: template)
        defer { close(fd); unlink(path) }
        let logger = Logger(level: .info, fd: fd)
        try body(logger)
        logger.flush()
        var bytes: [UInt8] = []
        lseek(fd, 0, SEEK_SET)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while case let n = read(fd, &chunk, chunk.count), n > 0 { bytes += chunk[0..<n] }
        return try bytes.split(separator: UInt8(ascii: "\n")).map { try JSONDecoder().decode(Line.self, from: Data($0)) }
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

    @Test func anAnswerThatIsAnErrorIsLoggedToo() throws {
        let lines = try withLogFile { logger in
            let (server, _) = try startService({ $0.logLevel = .info }, logger: logger)
            defer { server.shutdown(gracePeriod: 1_000_000_000) }
            #expect(try get(server.port, "/no%22such%5Cthing%0A%01").status == 404)
        }
        let request = try #require(lines.first { $0.msg == "request" })
        #expect(request.path == "/no%22such%5Cthing%0A%01")  // as the request line had it
        #expect(request.status == 404)
    }

    @Test func digitsAndEscapes() {
        var out: [UInt8] = []
        for n in [0, 7, 10, 99, 100, 123_456_789, -42] {
            out.removeAll()
            AccessLogBuffer.appendDecimal(n, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == String(n))
        }
        out.removeAll()
        AccessLogBuffer.appendEscaped("a\"b\\c\u{1F}é", to: &out)
        #expect(String(decoding: out, as: UTF8.self) == #"a\"b\\c\u001fé"#)
    }
}
