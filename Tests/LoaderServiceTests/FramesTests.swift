import FoundationEssentials
import HTTPTestSupport
import LoaderEngine
import Testing
@testable import HTTPServer
@testable import LoaderService

struct FramesTests {
    struct Element: Decodable { let id: String; let x, y, diameter, scale, opacity: Double; let color: String }
    struct Frame: Decodable { let loader: String; let t: Double; let done: Bool; let elements: [Element] }
    struct Batch: Decodable { let loader: String; let fps: Double; let frames: [Frame] }

    @Test(arguments: Transport.allCases)
    func frameMatchesTheSpecVector(_ transport: Transport) throws {
        let app = try TestApp(transport)
        struct Vector: Decodable { let loader: String; let query: String; let done: Bool; let elements: [Element] }
        let vectors = try JSONDecoder().decode([Vector].self, from: vectorsFixture())
        for vector in vectors {
            let r = try get(app, "/loaders/\(vector.loader)/frames?\(vector.query)")
            #expect(r.status == 200, "\(vector.query)")
            #expect(r.headers["content-type"] == "application/json")
            let frame = try JSONDecoder().decode(Frame.self, from: Data(r.body))
            #expect(frame.done == vector.done)
            #expect(frame.elements.map(\.id) == vector.elements.map(\.id))
            for (a, b) in zip(frame.elements, vector.elements) {
                #expect(abs(a.x - b.x) < 1e-3 && abs(a.y - b.y) < 1e-3 && abs(a.opacity - b.opacity) < 1e-6 && abs(a.scale - b.scale) < 1e-6)
            }
        }
    }

    /// A refusal quotes at most 100 characters of what it refuses, and
    /// names a few loaders, not the whole catalogue.
    @Test(arguments: Transport.allCases)
    func refusalsQuoteLittle(_ transport: Transport) throws {
        let app = try TestApp(transport)
        let long = String(repeating: "x", count: 7_000)
        for target in ["/loaders/\(long)", "/loaders/typing/frames?\(long)=1", "/sessions/\(long)"] {
            let answer = try get(app, target)
            #expect(answer.status == 404 || answer.status == 400)
            let message = try decodeError(answer).message
            #expect(message.contains(String(repeating: "x", count: 100) + "… (6900 more characters)"), "\(message)")
            #expect(message.utf8.count < 400, "\(message)")
        }
        // An encoded slash is part of a segment, not a separator.
        #expect(try get(app, "/loaders/typing%2Fframes").status == 404)
        // Control characters are no part of an accessible name.
        for label in ["a%00b", "a%1Bb", "a%C2%85b", "a%7Fb"] {
            #expect(try get(app, "/loaders/typing/animation.html?label=\(label)").status == 400)
        }
        #expect(try get(app, "/loaders/typing/animation.html?label=Chargement%20%E2%80%A6").status == 200)
    }

    /// `/client.js`: a module browsers may keep for a year at its versioned
    /// address and five minutes at the plain one; another version is not here.
    @Test(arguments: Transport.allCases)
    func clientScriptIsCachedByVersion(_ transport: Transport) throws {
        let app = try TestApp(transport)
        let plain = try get(app, "/client.js")
        #expect(plain.status == 200)
        #expect(plain.headers["content-type"] == "text/javascript; charset=utf-8")
        #expect(plain.headers["cache-control"] == "public, max-age=300")
        #expect(plain.text.contains("customElements.define(\"loader-frames\""))
        let versioned = try get(app, "/client.js?v=\(LoaderService.version)")
        #expect(versioned.headers["cache-control"] == "public, max-age=31536000, immutable")
        #expect(versioned.body == plain.body)
        let etag = try #require(plain.headers["etag"])
        #expect(try get(app, "/client.js", ["If-None-Match": etag]).status == 304)
        #expect(try get(app, "/client.js?v=0.0.0-other").status == 404)
        #expect(try get(app, "/client.js?version=1").status == 400)
        // A page of another origin loads it as a module: CORS applies.
        #expect(try get(app, "/client.js", ["Origin": "https://site.example"]).headers["access-control-allow-origin"] == "*")
    }

    /// Every loader says its family and original; `?family=` lists one
    /// family (the families as the issue names them).
    @Test(arguments: Transport.allCases)
    func catalogueByFamily(_ transport: Transport) throws {
        let app = try TestApp(transport)
        struct Catalog: Decodable { struct L: Decodable { let name: String; let family: String?; let original: String? }; let loaders: [L] }
        let all = try JSONDecoder().decode(Catalog.self, from: Data(get(app, "/loaders").body)).loaders
        #expect(all.allSatisfy { $0.family != nil && $0.original != nil })
        let spinKit = try get(app, "/loaders?family=SpinKit")
        #expect(spinKit.status == 200)
        let listed = try JSONDecoder().decode(Catalog.self, from: Data(spinKit.body)).loaders
        #expect(Set(["fading-circle", "three-bounce", "wave", "double-bounce", "cube-grid"]).isSubset(of: listed.map(\.name)))
        #expect(listed.allSatisfy { $0.family == "SpinKit" })
        let nv = try JSONDecoder().decode(Catalog.self, from: Data(get(app, "/loaders?family=NVActivityIndicatorView").body)).loaders
        #expect(nv.first { $0.name == "ball-pulse" }?.original == "ballPulse")
        // The originals' own lists: NVActivityIndicatorView 5.2.0's
        // Sources/Base/Animations holds 34 types, of which `blank` draws
        // nothing; SpinKit 1.2.5's css/spinners holds 11; with Material's
        // spinner and the three iOS articles' loaders, 48.
        #expect(Set(nv.compactMap(\.original)).count == 33 && nv.count == 33)
        #expect(Set(listed.compactMap(\.original)).count == 11 && listed.count == 11)
        #expect(all.count == 48)
        let unknown = try get(app, "/loaders?family=Bootstrap")
        let message = try decodeError(unknown).message
        #expect(unknown.status == 400 && message.contains("the families are iOS articles, NVActivityIndicatorView, Material, SpinKit"), "\(message)")
        #expect(try get(app, "/loaders?family=SpinKit&family=Material").status == 400)
        #expect(try get(app, "/loaders?name=typing").status == 400)
    }

    /// A classic's former name still answers, as the loader of its new one.
    @Test(arguments: Transport.allCases)
    func formerNamesAreAliases(_ transport: Transport) throws {
        let app = try TestApp(transport)
        let entry = try JSONValue.parse(get(app, "/loaders/pulse-dots").body)
        #expect(entry["name"] == .string("ball-pulse"))
        #expect(entry["aliases"] == .array([.string("pulse-dots")]))
        let frame = try JSONValue.parse(get(app, "/loaders/spinning-arc/frames?t=0.1").body)
        #expect(frame["loader"] == .string("ball-clip-rotate"))
        #expect(try get(app, "/loaders/ripple/animation.svg").status == 200)
        // Only names are listed; aliases are not loaders of their own.
        #expect(try get(app, "/loaders").text.contains(#""name":"pulse-dots""#) == false)
    }

    @Test(arguments: Transport.allCases)
    func catalogEntriesHealthReadinessMetricsAndOpenAPI(_ transport: Transport) throws {
        let app = try TestApp(transport)
        let service = app.service
        let catalog = try get(app, "/loaders")
        #expect(catalog.status == 200)
        struct Catalog: Decodable { struct L: Decodable { let name: String; let period: Double? }; let loaders: [L] }
        #expect(try JSONDecoder().decode(Catalog.self, from: Data(catalog.body)).loaders.map(\.name) == LoaderCatalog.standard.names)
        #expect(try get(app, "/loaders/web").status == 200)
        let missing = try get(app, "/loaders/typnig")
        #expect(missing.status == 404)
        #expect(try decodeError(missing).message.hasPrefix("no loader named typnig; nearest: typing, "))
        #expect(try decodeError(missing).message.hasSuffix("(GET /loaders lists all \(LoaderCatalog.standard.names.count))"))
        #expect(try get(app, "/loaders/spinner/frames").status == 404)
        #expect(try get(app, "/healthz").text == #"{"status":"ok"}"#)
        #expect(try get(app, "/readyz").status == 200)
        #expect(try get(app, "/version").text == #"{"name":"loaderd","version":"\#(LoaderService.version)"}"#)
        _ = try get(app, "/loaders/typing/frames?t=1")
        let metrics = try get(app, "/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.text.contains(#"loaderd_http_requests_total{route="/loaders/{name}/frames",method="GET",status="200"} 1"#))
        #expect(metrics.text.contains("loaderd_http_request_duration_seconds_bucket"))
        #expect(metrics.text.contains("loaderd_open_connections "))
        #expect(metrics.text.contains("loaderd_sse_frames_skipped_total"))
        let openapi = try get(app, "/openapi.json")
        #expect(openapi.status == 200)
        let doc = try JSONValue.parse(openapi.body)
        #expect(doc["openapi"] == .string("3.1.0"))
        #expect(doc["paths"]?["/loaders/typing/frames"] != nil)
        service.markNotReady()
        let notReady = try get(app, "/readyz")
        #expect(notReady.status == 503)
        #expect(try decodeError(notReady).code == "not_ready")
    }

    @Test(arguments: Transport.allCases)
    func metricsCountEachStatusOfARoute(_ transport: Transport) throws {
        let app = try TestApp(transport)
        for target in ["t=1", "t=1", "t=-1", "t=1", "t=x", "t=2"] {
            _ = try get(app, "/loaders/typing/frames?\(target)")
        }
        _ = try get(app, "/loaders/typing/frames?t=1", method: "HEAD")
        _ = try get(app, "/loaders/typing/frames?t=1", method: "POST")
        // A method outside HTTP's usual ones is counted as `other`: clients cannot add series.
        _ = try get(app, "/loaders/typing/frames?t=1", method: "BREW")
        let text = try get(app, "/metrics").text
        let frames = text.split(separator: "\n").filter { $0.hasPrefix(#"loaderd_http_requests_total{route="/loaders/{name}/frames""#) }
        #expect(frames == [#"loaderd_http_requests_total{route="/loaders/{name}/frames",method="GET",status="200"} 4"#,
                           #"loaderd_http_requests_total{route="/loaders/{name}/frames",method="GET",status="400"} 2"#,
                           #"loaderd_http_requests_total{route="/loaders/{name}/frames",method="HEAD",status="200"} 1"#])
        // A method the path does not take is refused (405) before it has a route.
        #expect(text.contains(#"loaderd_http_requests_total{route="unmatched",method="POST",status="405"} 1"#))
        #expect(text.contains(#"loaderd_http_requests_total{route="unmatched",method="other","#))
        #expect(!text.contains("BREW"))
        // The latency buckets reach past the longest work allowed (an export, up to 60 s).
        let bounds = text.split(separator: "\n")
            .filter { $0.hasPrefix(#"loaderd_http_request_duration_seconds_bucket{route="/loaders/{name}/frames",method="GET","#) }
            .compactMap { line in line.split(separator: "\"").dropFirst(5).first.flatMap { Double($0) } }.filter(\.isFinite)
        #expect(bounds.count >= 14 && (bounds.max() ?? 0) >= 60)
        // The build and the process, as the Prometheus client libraries name them.
        #expect(text.contains(#"loaderd_build_info{version="\#(LoaderService.version)","#))
        for name in ["process_cpu_seconds_total", "process_open_fds", "process_max_fds", "process_virtual_memory_bytes",
                     "process_resident_memory_bytes", "process_start_time_seconds"] {
            #expect(text.contains("\n\(name) "), "\(name)")
        }
    }

    @Test(arguments: Transport.allCases)
    func batchesCountFramesInclusively(_ transport: Transport) throws {
        let app = try TestApp(transport)
        let r = try get(app, "/loaders/typing/frames?from=0&to=1&fps=10")
        #expect(r.status == 200)
        let batch = try JSONDecoder().decode(Batch.self, from: Data(r.body))
        #expect(batch.frames.count == 11 && batch.fps == 10)
        #expect(batch.frames.map(\.t).last == 1)
        // 0.1 * 3 is 0.30000000000000004: the 1e-9 slack keeps the last frame.
        #expect(try JSONDecoder().decode(Batch.self, from: Data(get(app, "/loaders/switch/frames?from=0.2&to=0.5&fps=10").body)).frames.count == 4)
        // `to` before `from`: no frames.
        let empty = try get(app, "/loaders/typing/frames?from=2&to=1")
        #expect(empty.status == 200)
        #expect(try JSONDecoder().decode(Batch.self, from: Data(empty.body)).frames.isEmpty)
    }

    /// A batch past 10,000 frames answers those and a `next` link (field and
    /// Link header) that continues from the following frame.
    @Test(arguments: Transport.allCases)
    func largeBatchesComeInPagesLinkedByNext(_ transport: Transport) throws {
        struct Page: Decodable { let frames: [Frame]; let next: String? }
        let app = try TestApp(transport)
        let whole = try get(app, "/loaders/web/frames?to=333.3&fps=30")
        #expect(whole.status == 200 && whole.headers["link"] == nil)
        #expect(try JSONDecoder().decode(Page.self, from: Data(whole.body)).next == nil)
        var target = "/loaders/web/frames?to=400&fps=30&color=%23ff0000"
        var times: [Double] = []
        var pages = 0
        while true {
            let r = try get(app, target)
            #expect(r.status == 200)
            let page = try JSONDecoder().decode(Page.self, from: Data(r.body))
            #expect(page.frames.count <= 10_000)
            times += page.frames.map(\.t)
            pages += 1
            guard let next = page.next else { break }
            #expect(r.headers["link"] == "<\(next)>; rel=\"next\"")
            #expect(next.contains("color=%23ff0000") && next.hasPrefix("/loaders/web/frames?"))
            target = next
        }
        #expect(pages == 2 && times.count == 12_001)
        for (k, t) in times.enumerated() { #expect(abs(t - Double(k) / 30) < 1e-9) }
    }

    /// (target, Accept, message, code): a bad parameter gets the JSON 400
    /// before anything is streamed, whatever the Accept.
    @Test(arguments: [
        ("/loaders/typing/frames?t=x", nil, "t must be a finite number >= 0 and <= 1e9", "invalid_parameter"),
        ("/loaders/typing/frames?t=-1", nil, "t must be a finite number >= 0 and <= 1e9", "invalid_parameter"),
        ("/loaders/typing/frames?count=0", nil, "count must be an integer from 1 to 64", "invalid_parameter"),
        ("/loaders/typing/frames?progress=1", nil, "unknown parameter progress for loader typing", "unknown_parameter"),
        ("/loaders/typing/frames?t=1&from=0&to=1", nil, "t cannot be combined with from and to", "invalid_parameter"),
        ("/loaders/typing/frames?from=0", nil, "to is required", "invalid_parameter"),
        ("/loaders/typing/frames?from=0&to=1&fps=121", nil, "fps must be a number from 1 to 120", "invalid_parameter"),
        ("/loaders/typing/frames?fps=10", nil, "fps applies to batches", "invalid_parameter"),
        ("/loaders/typing/frames?stream=yes", nil, "stream must be sse", "invalid_parameter"),
        ("/loaders/typing/frames?stream=sse&fps=1000", nil, "fps must be a number from 1 to 120", "invalid_parameter"),
        ("/loaders/switch/frames?fps=1000", "text/event-stream", "fps must be a number from 1 to 120", "invalid_parameter"),
        ("/loaders/switch/frames?count=2", "text/event-stream", "unknown parameter count for loader switch", "unknown_parameter"),
        ("/loaders/switch/frames?from=1", "text/event-stream", "from and to are for batches", "invalid_parameter"),
        ("/loaders/typing/frames?stream=sse&duration=0", nil, "duration must be a number of seconds > 0", "invalid_parameter"),
        ("/loaders/typing/frames?t=1&t=2", nil, "t is given more than once", "invalid_parameter"),
        ("/loaders/web/frames?color=%23zzz", nil, "color must be a colour", "invalid_parameter"),
        ("/loaders?x=1", nil, "unknown parameter x", "unknown_parameter"),
    ] as [(String, String?, String, String)], Transport.allCases)
    func parameterErrors(_ refusal: (target: String, accept: String?, message: String, code: String), _ transport: Transport) throws {
        let (target, accept, message, code) = refusal
        let app = try TestApp(transport)
        let r = try get(app, target, accept.map { ["Accept": $0] } ?? [:])
        #expect(r.status == 400)
        #expect(r.headers["content-type"] == "application/json")
        let e = try decodeError(r)
        #expect(e.status == 400 && e.code == code)
        #expect(e.message.contains(message), "\(e.message)")
    }

    @Test(arguments: Transport.allCases)
    func explicitTimesAreImmutableAndRevalidate(_ transport: Transport) throws {
        let app = try TestApp(transport)
        let r = try get(app, "/loaders/typing/frames?t=0.5")
        #expect(r.headers["cache-control"] == "public, max-age=31536000, immutable")
        let etag = try #require(r.headers["etag"])
        #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))
        let again = try get(app, "/loaders/typing/frames?t=0.5", ["If-None-Match": etag])
        #expect(again.status == 304 && again.body.isEmpty && again.headers["etag"] == etag)
        #expect(try get(app, "/loaders/typing/frames?t=0.5", ["If-None-Match": "\"other\", W/\(etag)"]).status == 304)
        #expect(try get(app, "/loaders/typing/frames?t=0.6", ["If-None-Match": etag]).status == 200)
        #expect(try get(app, "/loaders/typing/frames").headers["cache-control"] == "no-cache")
        let head = try get(app, "/loaders/typing/frames?t=0.5", method: "HEAD")
        #expect(head.status == 200 && head.headers["content-length"] == String(r.body.count))
    }

    @Test(arguments: Transport.allCases)
    func corsReadsAndPreflight(_ transport: Transport) throws {
        let app = try TestApp(transport)
        let r = try get(app, "/loaders/typing/frames?t=1", ["Origin": "https://example.com"])
        #expect(r.headers["access-control-allow-origin"] == "*")
        #expect(r.headers["access-control-allow-credentials"] == nil)
        let preflight = try get(app, "/loaders/typing/frames", [
            "Origin": "https://example.com", "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "last-event-id",
        ], method: "OPTIONS")
        #expect(preflight.status == 204)
        #expect(preflight.headers["access-control-allow-origin"] == "*")
        #expect(preflight.headers["access-control-allow-methods"]?.contains("GET") == true)
        #expect(preflight.headers["access-control-allow-headers"] == "last-event-id")
        #expect(preflight.headers["access-control-max-age"] == "600")
        // Answers produced later (off the loop) carry the headers too.
        let deferred = try get(app, "/loaders/switch/animation.svg", ["Origin": "https://example.com"])
        #expect(deferred.status == 200 && deferred.headers["access-control-allow-origin"] == "*")
        let metrics = try get(app, "/metrics").text
        #expect(metrics.contains(#"loaderd_http_requests_total{route="/loaders/{name}/animation.svg",method="GET",status="200"} 1"#))
        let plain = try get(app, "/loaders", method: "OPTIONS")
        #expect(plain.status == 204 && plain.headers["allow"] == "GET, HEAD, OPTIONS")
        #expect(try get(app, "/nowhere", method: "OPTIONS").status == 404)
    }

    @Test(arguments: Transport.allCases)
    func corsWithAnAllowList(_ transport: Transport) throws {
        let app = try TestApp(transport) { $0.corsAllowedOrigins = ["https://good.example"] }
        let good = try get(app, "/loaders", ["Origin": "https://good.example"])
        #expect(good.headers["access-control-allow-origin"] == "https://good.example")
        // The catalog may also come in gzip (RFC 9110 §12.5.5: both named).
        #expect(good.headers["vary"] == "Origin, Accept-Encoding")
        let bad = try get(app, "/loaders", ["Origin": "https://evil.example"])
        #expect(bad.headers["access-control-allow-origin"] == nil)
        // A preflight is judged by its Origin (Fetch's CORS check), never by
        // the method it asks for.
        let asked = ["Access-Control-Request-Method": "GET"]
        let goodPreflight = try get(app, "/loaders", asked.merging(["Origin": "https://good.example"]) { $1 }, method: "OPTIONS")
        #expect(goodPreflight.status == 204)
        #expect(goodPreflight.headers["access-control-allow-origin"] == "https://good.example")
        #expect(goodPreflight.headers["vary"] == "Origin")
        #expect(goodPreflight.headers["access-control-allow-methods"]?.contains("GET") == true)
        #expect(goodPreflight.headers["access-control-allow-headers"]?.contains("content-type") == true)
        #expect(goodPreflight.headers["access-control-max-age"] == "600")
        let badPreflight = try get(app, "/loaders", asked.merging(["Origin": "https://evil.example"]) { $1 }, method: "OPTIONS")
        #expect(badPreflight.status == 204 && badPreflight.headers["access-control-allow-origin"] == nil)
        #expect(badPreflight.headers["access-control-allow-methods"] == nil)
    }

    @Test(arguments: Transport.allCases)
    func resumeByLastEventIDAnd204AtTheEnd(_ transport: Transport) throws {
        let app = try TestApp(transport)
        let resumed = try get(app, "/loaders/typing/frames?fps=10&duration=1&stream=sse", ["Last-Event-ID": "6"])
        let ids = parseEventStream(resumed.text).events.filter { $0.type == "frame" }.map(\.lastEventID)
        #expect(ids == ["7", "8", "9"])
        let finished = try get(app, "/loaders/typing/frames?fps=10&duration=1&stream=sse", ["Last-Event-ID": "9"])
        #expect(finished.status == 204)
        // An id that is not ours starts afresh (a 400 would stop EventSource for good).
        for foreign in ["x", "-1", "99999999999999999999999"] {
            let fresh = try get(app, "/loaders/typing/frames?fps=10&duration=0.3&stream=sse", ["Last-Event-ID": foreign])
            #expect(fresh.status == 200)
            #expect(parseEventStream(fresh.text).events.filter { $0.type == "frame" }.map(\.lastEventID) == ["0", "1", "2"])
        }
    }

    @Test(arguments: Transport.allCases)
    func durationIsTheStreamLengthInAStreamAndTheSwitchPeriodOtherwise(_ transport: Transport) throws {
        let app = try TestApp(transport)
        let single = try get(app, "/loaders/switch/frames?t=0.7&duration=2&width=100&height=40")
        #expect(single.status == 200)
        let frame = try JSONDecoder().decode(Frame.self, from: Data(single.body))
        #expect(abs(frame.elements[0].x - 39.69463130731182) < 1e-9)
        let stream = try get(app, "/loaders/switch/frames?fps=10&duration=0.3&t=0.7&loader.duration=2&width=100&height=40&stream=sse")
        let events = parseEventStream(stream.text).events
        #expect(events.filter { $0.type == "frame" }.count == 3)
        let first = try JSONDecoder().decode(Frame.self, from: Data(events[0].data.utf8))
        #expect(abs(first.elements[0].x - 39.69463130731182) < 1e-9)
        #expect(try get(app, "/loaders/switch/frames?duration=2&loader.duration=3").status == 400)
        // Outside a stream the prefix is not needed, and the schema has no such name.
        for target in ["/loaders/switch/frames?loader.duration=2", "/loaders/switch/frames?loader.color=000000",
                       "/loaders/typing/frames?fps=10&stream=sse&loader.color=fff", "/loaders/switch/animation.svg?loader.duration=2"] {
            let r = try get(app, target)
            #expect(r.status == 400, "\(target)")
            #expect(try decodeError(r).code == "unknown_parameter")
        }
    }

    @Test(arguments: Transport.allCases)
    func aDoneLoaderEndsItsStream(_ transport: Transport) throws {
        let app = try TestApp(transport)
        let r = try get(app, "/loaders/typing/frames?fps=50&stop=0.1&stream=sse")
        let events = parseEventStream(r.text).events
        #expect(events.last?.data == #"{"reason":"done"}"#)
        #expect(events.filter { $0.type == "frame" }.count == 6)  // t = 0, 0.02, … 0.1 (done)
    }

    @Test func manyStreamsShareEncodedFrames() throws {
        let app = TestApp()
        let streams = try (0..<8).map { _ in try app.open("/loaders/switch/frames?fps=30&duration=0.3&stream=sse") }
        app.advance(seconds: 1)
        let bodies = streams.map { parseEventStream($0.text).events }
        for b in bodies { #expect(b.filter { $0.type == "frame" }.map(\.data) == bodies[0].filter { $0.type == "frame" }.map(\.data)) }
        #expect(streams.allSatisfy { $0.isFinished })
        #expect(app.service.metrics.framesSent.load(ordering: .relaxed) == 8 * 9)
    }

    /// Frame k leaves when the stream's clock reaches k/fps, not before.
    @Test func framesLeaveOnTheStreamsClock() throws {
        let app = TestApp()
        let stream = try app.open("/loaders/switch/frames?fps=20&duration=0.5&t=0.3", ["Accept": "text/event-stream"])
        func frames() -> [DispatchedEvent] { parseEventStream(stream.text).events.filter { $0.type == "frame" } }
        #expect(frames().map(\.lastEventID) == ["0"])
        app.advance(seconds: 0.049)
        #expect(frames().count == 1)
        app.advance(seconds: 0.001)
        #expect(frames().map(\.lastEventID) == ["0", "1"])
        app.advance(seconds: 0.4)
        #expect(frames().count == 10 && stream.isOpen)
        app.advance(seconds: 0.05)
        #expect(!stream.isOpen && stream.isFinished)
        let (events, retry) = parseEventStream(stream.text)
        #expect(retry == 1000)
        for (k, event) in frames().enumerated() {
            let frame = try JSONDecoder().decode(Frame.self, from: Data(event.data.utf8))
            #expect(abs(frame.t - (0.3 + Double(k) / 20)) < 1e-12)
        }
        #expect(events.last?.data == #"{"reason":"duration"}"#)
    }

    /// A client that stops reading misses frames (the ids show the gap) and
    /// gets the latest one when it reads again; a heartbeat keeps it alive.
    @Test func aSlowClientSkipsToTheLatestFrame() throws {
        let app = TestApp(server: { $0.streamHighWatermark = 1 })
        let stream = try app.open("/loaders/typing/frames?fps=10&stream=sse")
        stream.reading = false
        app.advance(seconds: 1)
        let before = parseEventStream(stream.text).events.count
        #expect(before <= 2)
        #expect(app.service.metrics.framesSkipped.load(ordering: .relaxed) >= 8)
        stream.reading = true
        app.advance(seconds: 0.1)
        let ids = parseEventStream(stream.text).events.filter { $0.type == "frame" }.map(\.lastEventID)
        #expect(ids.last == "11" && ids.count <= 3)
        app.advance(seconds: 20)
        #expect(stream.text.contains(": keep-alive"))
        stream.close()
    }

    @Test func shutdownEndsStreamsWithAnEndEvent() throws {
        let app = TestApp()
        let stream = try app.open("/loaders/typing/frames?stream=sse")
        app.service.markNotReady()
        #expect(try get(app, "/readyz").status == 503)
        app.server.shutdown()
        #expect(stream.isFinished)
        #expect(stream.text.hasSuffix("event: end\ndata: {\"reason\":\"shutdown\"}\n\n"))
    }
}
