import FoundationEssentials
import HTTPServer
import HTTPTestSupport
import Testing
@testable import LoaderEngine
@testable import LoaderService

/// Every catalogue loader's default pictures keep their size and their
/// weight (docs/LOADERS.md, "Size and weight of the exports"): a GIF or an
/// APNG at most 300 KB, the CSS (and so the HTML that holds it) at most
/// 64 KB; the pictures of pixels are the canvas at dpr 1 and say their
/// frame rate.
@Suite(.serialized)
struct ExportWeightTests {
    static let maxPictureBytes = 300_000
    static let maxCSSBytes = 64_000

    /// One request, its answer waited for up to 5 minutes (a minute-long
    /// loop's pictures take tens of seconds in a debug build).
    func fetch(_ app: TestApp, _ target: String) -> TestResponse {
        let r = app.server.request(.GET, target, timeoutSeconds: 300)
        var names: [String: String] = [:]
        for (name, value) in r.headers { names[name.lowercased()] = value }
        return TestResponse(status: r.status, headers: names, body: r.body)
    }

    /// A PNG's width and height (IHDR), a GIF's (its screen descriptor).
    func size(_ b: [UInt8], gif: Bool) -> (Int, Int) {
        guard b.count >= 24 else { return (0, 0) }
        return gif ? (Int(b[6]) | Int(b[7]) << 8, Int(b[8]) | Int(b[9]) << 8)
            : (Int(b[16]) << 24 | Int(b[17]) << 16 | Int(b[18]) << 8 | Int(b[19]), Int(b[20]) << 24 | Int(b[21]) << 16 | Int(b[22]) << 8 | Int(b[23]))
    }

    @Test func everyCatalogueLoadersDefaultExportsAreWithinTheirWeight() throws {
        let app = TestApp()
        for definition in LoaderCatalog.standard.loaders {
            let name = definition.name
            let loader = try definition.configure([])
            let canvas = (Int((loader.width - 1e-9).rounded(.up)), Int((loader.height - 1e-9).rounded(.up)))
            for file in ["animation.gif", "animation.png"] {
                let r = fetch(app, "/loaders/\(name)/\(file)")
                #expect(r.status == 200, "\(name)/\(file): \(r.status)")
                #expect(r.body.count <= Self.maxPictureBytes, "\(name)/\(file): \(r.body.count) bytes")
                #expect(size(r.body, gif: file.hasSuffix(".gif")) == canvas, "\(name)/\(file): \(size(r.body, gif: file.hasSuffix(".gif"))), the canvas \(canvas)")
                let rate = Double(r.headers["loader-frame-rate"] ?? "")
                #expect(rate.map { $0 > 0 && $0 <= FrameTimes.defaultFPS + 1 } == true, "\(name)/\(file): Loader-Frame-Rate \(r.headers["loader-frame-rate"] ?? "none")")
            }
            let css = fetch(app, "/loaders/\(name)/animation.css")
            #expect(css.status == 200 && css.body.count <= Self.maxCSSBytes, "\(name)/animation.css: \(css.body.count) bytes")
        }
    }

    /// `/openapi.json` declares the header on the pictures of frames only.
    @Test(arguments: Transport.allCases)
    func theFrameRateIsDeclared(_ transport: Transport) throws {
        let doc = try JSONValue.parse(get(TestApp(transport), "/openapi.json").body)
        for (file, declared) in [("animation.gif", true), ("animation.png", true), ("frames.png", false), ("animation.svg", false)] {
            let ok = doc["paths"]?["/loaders/typing/\(file)"]?["get"]?["responses"]?["200"]
            #expect(ok != nil, "\(file)")
            #expect((ok?["headers"]?["Loader-Frame-Rate"]?["required"] == .bool(true)) == declared, "\(file)")
        }
    }
}
