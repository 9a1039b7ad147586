import FoundationEssentials
import Glibc
import LoaderEngine
import Testing
@testable import HTTPServer
@testable import LoaderService

/// A build that fails after its checks passed answers a 500 that names the
/// export, and the log says why; never an empty 200.
struct ExportFailureTests {
    /// An export whose every build fails: the seam a real failure would take.
    struct BrokenExport: FrameExport {
        let file = "broken.svg"
        let title = "Broken"
        let mediaType = "image/svg+xml"
        let operationName = "Broken"
        func summary(_ label: String, loop: String) -> String { "never listed" }
        func write(_ frame: Frame, background: RGBColor?, options: PictureOptions) throws(ExportFailure) -> [UInt8] {
            throw ExportFailure(reason: "made to fail by the test")
        }
    }

    struct Line: Decodable { let level: String; let msg: String; let export: String?; let loader: String?; let reason: String? }
    struct Body: Decodable {
        struct Inner: Decodable { let status: Int; let code: String; let message: String }
        let error: Inner
    }

    @Test func aFailedBuildAnswers500NamingTheExportAndIsLogged() throws {
        var template = Array("/tmp/loaderd-export-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        try #require(fd >= 0)
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        defer { close(fd); unlink(path) }
        let logger = Logger(level: .info, fd: fd)
        var configuration = ServiceConfiguration.embeddedDefault()
        configuration.accessLog = false
        let service = LoaderService(configuration: configuration, logger: logger)

        let request = try HTTPRequest(method: .GET, target: "/loaders/typing/broken.svg?t=0.5")
        var answer: HTTPResponse?
        do {
            answer = try service.serve(BrokenExport(), service.definition("typing"), request, peer: nil)
        } catch {
            answer = ServiceError(answering: error).response
        }
        let response = try #require(answer)
        #expect(response.status.code == 500)
        guard case .bytes(let bytes) = response.body else { throw TestFailure("no body") }
        #expect(!bytes.isEmpty)
        // The error format every refusal has (docs: `{"error":{status, code, message}}`).
        let body = try JSONDecoder().decode(Body.self, from: Data(bytes))
        #expect(body.error.status == 500)
        #expect(body.error.code == "export_failed")
        #expect(body.error.message.contains("broken.svg"))
        #expect(body.error.message.contains("typing"))

        logger.flush()
        var logged: [UInt8] = []
        lseek(fd, 0, SEEK_SET)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while case let n = read(fd, &chunk, chunk.count), n > 0 { logged += chunk[0..<n] }
        let lines = try logged.split(separator: UInt8(ascii: "\n")).map { try JSONDecoder().decode(Line.self, from: Data($0)) }
        let line = try #require(lines.first { $0.msg == "export failed" })
        #expect(line.level == "error")
        #expect(line.export == "broken.svg")
        #expect(line.loader == "typing")
        #expect(line.reason == "made to fail by the test")
    }
}
