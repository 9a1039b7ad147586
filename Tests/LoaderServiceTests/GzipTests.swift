import HTTPTestSupport
import Testing
@testable import HTTPServer
@testable import LoaderService

/// `Content-Encoding: gzip` as RFC 9110 describes it (§8.4, §12.5.3 and
/// §15.4.5 for the 304), through the whole service. The gzip bytes are
/// checked by their RFC 1952 framing here (magic, the CRC-32 and length of
/// the identity body); Python's gzip module decodes whole answers in
/// Tests/system/gzip_test.py.
@Suite struct GzipTests {
    static let asks = ["Accept-Encoding": "gzip, deflate, br"]

    /// The member's framing names exactly `identity`: magic, then CRC-32 and length.
    func isGzip(of identity: [UInt8], _ body: [UInt8]) -> Bool {
        guard body.count > 18, body[0] == 0x1F, body[1] == 0x8B, body[2] == 8 else { return false }
        let trailer = Array(body.suffix(8))
        let word = { (at: Int) in (0..<4).reduce(UInt32(0)) { $0 | UInt32(trailer[at + $1]) << (8 * UInt32($1)) } }
        return word(0) == Self.crc32(identity) && word(4) == UInt32(identity.count)
    }

    /// CRC-32 bit by bit, as RFC 1952 §8 defines it (no table: not the codec's code).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return ~c
    }

    @Test(arguments: Transport.allCases)
    func fixedBodiesAreGzipWhenAsked(_ transport: Transport) throws {
        let app = try TestApp(transport)
        for target in ["/", "/client.js", "/loaders", "/openapi.json", "/loaders/typing/animation.svg", "/loaders/typing/frames?count=60"] {
            let plain = try get(app, target)
            let packed = try get(app, target, Self.asks)
            #expect(plain.status == 200 && packed.status == 200, "\(target)")
            #expect(plain.headers["content-encoding"] == nil, "\(target)")
            #expect(packed.headers["content-encoding"] == "gzip", "\(target)")
            #expect(plain.headers["vary"] == "Accept-Encoding" && packed.headers["vary"] == "Accept-Encoding", "\(target)")
            #expect(packed.headers["content-type"] == plain.headers["content-type"], "\(target)")
            #expect(isGzip(of: plain.body, packed.body), "\(target)")
            #expect(packed.body.count < plain.body.count / 2, "\(target): \(packed.body.count) of \(plain.body.count)")
            #expect(Int(packed.headers["content-length"] ?? "") == packed.body.count, "\(target)")
            if let tag = plain.headers["etag"] {
                // Another representation, another strong tag.
                #expect(packed.headers["etag"] == String(tag.dropLast()) + "-gzip\"", "\(target)")
            }
        }
    }

    @Test func negotiation() throws {
        let app = TestApp()
        let cases: [(String, Bool)] = [
            ("gzip", true), ("x-gzip", true), ("GZip;Q=0.5", true), ("*", true), ("deflate, gzip", true),
            ("gzip;q=0", false), ("br", false), ("", false), ("identity", false), ("*;q=0", false),
            ("identity;q=0", false),            // nothing acceptable but identity refused: identity anyway
            ("identity;q=0, *", true), ("identity, gzip;q=0.5", false), ("gzip;q=2", false),
        ]
        for (value, gzip) in cases {
            let r = try get(app, "/loaders", ["Accept-Encoding": value])
            #expect(r.status == 200, "\(value)")
            #expect((r.headers["content-encoding"] == "gzip") == gzip, "Accept-Encoding: \(value)")
            #expect(r.headers["vary"] == "Accept-Encoding", "\(value)")
        }
    }

    @Test func headAnswersTheGzipLength() throws {
        let app = TestApp()
        let packed = try get(app, "/loaders", Self.asks)
        let head = try app.request("HEAD", "/loaders", Self.asks)
        #expect(head.status == 200 && head.body.isEmpty)
        #expect(head.headers["content-encoding"] == "gzip")
        #expect(head.headers["content-length"] == String(packed.body.count))
        #expect(head.headers["etag"] == packed.headers["etag"])
        let plainHead = try app.request("HEAD", "/loaders")
        #expect(plainHead.headers["content-length"] == String(try get(app, "/loaders").body.count))
    }

    /// Each tag gives 304 for the representation it names (twice each: the
    /// second from the answer cache).
    @Test(arguments: Transport.allCases)
    func eachTagNamesItsRepresentation(_ transport: Transport) throws {
        let app = try TestApp(transport)
        let plainTag = try #require(try get(app, "/loaders").headers["etag"])
        let gzipTag = try #require(try get(app, "/loaders", Self.asks).headers["etag"])
        #expect(gzipTag != plainTag)
        for _ in 0..<3 {
            let a = try get(app, "/loaders", Self.asks.merging(["If-None-Match": gzipTag]) { $1 })
            #expect(a.status == 304 && a.body.isEmpty)
            #expect(a.headers["etag"] == gzipTag && a.headers["vary"] == "Accept-Encoding")
            #expect(a.headers["content-encoding"] == nil && a.headers["content-type"] == nil)
            // Every 304 says the Vary its 200 says (RFC 9110 §15.4.5), whichever tag it names.
            let b = try get(app, "/loaders", ["If-None-Match": plainTag])
            #expect(b.status == 304 && b.headers["etag"] == plainTag && b.headers["vary"] == "Accept-Encoding")
            // The client holds the identity body: 304 names it, gzip or not asked.
            let c = try get(app, "/loaders", Self.asks.merging(["If-None-Match": plainTag]) { $1 })
            #expect(c.status == 304 && c.headers["etag"] == plainTag && c.headers["content-encoding"] == nil)
            #expect(c.headers["vary"] == "Accept-Encoding")
            // The gzip tag from a client that no longer takes gzip: the identity body.
            let d = try get(app, "/loaders", ["If-None-Match": gzipTag])
            #expect(d.status == 200 && d.headers["content-encoding"] == nil && d.headers["etag"] == plainTag)
            let e = try get(app, "/loaders", Self.asks.merging(["If-None-Match": "\"0000000000000000-gzip\", \(gzipTag)"]) { $1 })
            #expect(e.status == 304)
        }
    }

    /// An answer made for the request that names its tag (not kept yet):
    /// its 304 says Vary too, as the 200 would.
    @Test func aFirst304SaysVary() throws {
        let app = try TestApp(.embedded)
        let target = "/loaders/typing/animation.css?color=%23abcdef"
        let tag = try #require(try get(app, target).headers["etag"])
        let other = try TestApp(.embedded)
        let r = try get(other, target, Self.asks.merging(["If-None-Match": tag]) { $1 })
        #expect(r.status == 304 && r.headers["etag"] == tag && r.headers["vary"] == "Accept-Encoding")
    }

    @Test func smallBodiesAndOtherTypesAreSentAsTheyAre() throws {
        let app = TestApp()
        // Under 1 KiB: untouched.
        let small = try get(app, "/loaders/typing/frames?count=2", Self.asks)
        #expect(small.status == 200 && small.body.count < 1024)
        #expect(small.headers["content-encoding"] == nil && small.headers["vary"] == nil)
        #expect(small.body == (try get(app, "/loaders/typing/frames?count=2")).body)
        // Pixels: already compressed, never touched.
        let png = try get(app, "/loaders/typing/frames.png", Self.asks)
        #expect(png.status == 200 && png.headers["content-encoding"] == nil && png.headers["vary"] == nil)
        #expect(png.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        // An error's body is small: identity.
        let missing = try get(app, "/loaders/nothing", Self.asks)
        #expect(missing.status == 404 && missing.headers["content-encoding"] == nil)
    }

    @Test func aStreamIsNeverTouched() throws {
        let app = TestApp()
        let r = try app.request("GET", "/loaders/switch/frames?fps=20&duration=0.5", ["Accept": "text/event-stream", "Accept-Encoding": "gzip"])
        #expect(r.status == 200)
        #expect(r.headers["content-type"]?.hasPrefix("text/event-stream") == true)
        #expect(r.headers["content-encoding"] == nil && r.headers["vary"] == nil)
        #expect(String(decoding: r.body, as: UTF8.self).contains("data:"))
    }

    @Test func varyMergesWithOrigin() throws {
        let app = TestApp { $0.corsAllowedOrigins = ["https://app.example"] }
        let r = try get(app, "/loaders", Self.asks.merging(["Origin": "https://app.example"]) { $1 })
        #expect(r.headers["content-encoding"] == "gzip")
        let names = (r.headers["vary"] ?? "").split(separator: ",").map { String($0.trimmingSpaces) }
        #expect(Set(names) == ["Origin", "Accept-Encoding"])
    }

    /// A body is compressed once while it is kept, and what is kept is bounded.
    @Test func keptBodiesAreBounded() {
        let bodies = GzipBodies(maxBytes: 64 * 1024)
        let a = [UInt8](repeating: 65, count: 8 * 1024)
        let first = bodies.gzip(a, etag: "\"a\"")
        #expect(bodies.gzip(a, etag: "\"a\"") == first)
        #expect(bodies.has(a, etag: "\"a\""))
        // Another body under the same key is not taken for it.
        let b = [UInt8](repeating: 66, count: 8 * 1024)
        #expect(!bodies.has(b, etag: "\"a\""))
        #expect(isGzip(of: b, bodies.gzip(b, etag: "\"a\"")))
        for i in 0..<40 { _ = bodies.gzip([UInt8](repeating: UInt8(i), count: 4 * 1024), etag: "\"\(i)\"") }
        #expect(bodies.keptBytes <= 64 * 1024)
        #expect(!bodies.has(b, etag: "\"a\""))   // the oldest went first
    }
}
