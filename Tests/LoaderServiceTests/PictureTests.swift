import FoundationEssentials
import HTTPTestSupport
import Testing
@testable import HTTPServer
@testable import LoaderEngine
@testable import LoaderService

@Suite(.serialized)
struct PictureTests {
    /// `viewBox="x y w h"` of an SVG.
    func viewBox(_ svg: String) -> [Double] {
        let parts = svg.split(separator: "\"", omittingEmptySubsequences: false)
        guard let i = parts.firstIndex(where: { $0.hasSuffix("viewBox=") }), i + 1 < parts.count else { return [] }
        return parts[i + 1].split(separator: " ").compactMap { Double($0) }
    }

    func count(_ needle: String, in text: String) -> Int {
        var n = 0
        var rest = Substring(text)
        while let i = rest.firstIndex(of: needle.first!) {
            if rest[i...].hasPrefix(needle) { n += 1 }
            rest = rest[rest.index(after: i)...]
        }
        return n
    }

    /// Every loader lists what is served of it, in its entry and in the
    /// catalogue, and every link answers.
    @Test func everyLoaderLinksItsFramesStreamAndExports() throws {
        struct Entry: Decodable { let name: String; let links: [String: String] }
        struct Catalog: Decodable { let loaders: [Entry] }
        let app = TestApp()
        let catalog = try JSONDecoder().decode(Catalog.self, from: Data(get(app, "/loaders").body))
        #expect(catalog.loaders.count == LoaderCatalog.standard.loaders.count)
        let formats = ["self", "frames", "stream", "frames.svg", "frames.png", "animation.svg", "animation.json", "animation.css", "animation.html", "animation.png", "animation.gif"]
        for listed in catalog.loaders {
            let entry = try JSONDecoder().decode(Entry.self, from: Data(get(app, "/loaders/\(listed.name)").body))
            #expect(entry.links == listed.links)
            #expect(Set(entry.links.keys) == Set(formats), "\(entry.name): \(entry.links.keys.sorted())")
            for (name, link) in entry.links where name != "stream" {
                // Animations of pixels at a few frames a second: the whole loop at 50 would be many seconds of a debug build.
                let answer = try get(app, link + (name == "animation.png" || name == "animation.gif" ? "?fps=2&dpr=1" : ""))
                #expect(answer.status == 200, "\(link): \(answer.text.prefix(300))")
            }
            let stream = try app.open(try #require(entry.links["stream"]))
            app.advance(seconds: 0.1)
            #expect(String(decoding: stream.bytes, as: UTF8.self).contains("event: frame"), "\(entry.name)'s stream")
            stream.close()
        }
    }

    @Test(arguments: Transport.allCases)
    func anSVGIsTheCanvasAndShowsWhatReachesPastIt(_ transport: Transport) throws {
        let app = try TestApp(transport)
        let r = try get(app, "/loaders/switch/frames.svg?t=0")
        #expect(r.status == 200 && r.headers["content-type"] == "image/svg+xml")
        #expect(r.headers["cache-control"] == "public, max-age=31536000, immutable")
        let svg = r.text
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.contains("fill=\"#000000\""))  // white dots on black
        #expect(count("<circle", in: svg) == 3)
        // dot0 sits on the left edge at t=0, half past the canvas: the
        // picture is the canvas all the same, and what reaches past it shows.
        #expect(viewBox(svg) == [0, 0, 80, 80])
        #expect(svg.contains("width=\"80\" height=\"80\" overflow=\"visible\""))
        let animation = try get(app, "/loaders/typing/animation.svg").text
        #expect(viewBox(animation) == [0, 0, 70, 20] && animation.contains("width=\"70\" height=\"20\" overflow=\"visible\""))
        let web = try get(app, "/loaders/web/frames?t=0.4&progress=0.1", ["Accept": "image/svg+xml"])
        // No background of its own; the parameter draws one.
        #expect(web.headers["content-type"] == "image/svg+xml" && !web.text.contains("<rect"))
        let backed = try get(app, "/loaders/web/frames.svg?t=0.4&background=%23102030")
        #expect(backed.text.contains("fill=\"#102030\"") && backed.text.contains("<rect"))
        #expect(!(try get(app, "/loaders/typing/frames.svg?t=0.4&background=none")).text.contains("<rect"))
        #expect(web.text.contains("id=\"drop0\""))
        #expect(try get(app, "/loaders/web/frames.svg?fps=3").status == 400)
        #expect(try get(app, "/loaders/web/frames.svg?t=1", ["Accept": "application/json"]).status == 406)
    }

    @Test func animationsLoopAndStayCloseToTheEngine() throws {
        let app = TestApp()
        for name in ["typing", "switch", "web"] {
            let r = try get(app, "/loaders/\(name)/animation.svg")
            #expect(r.status == 200 && r.headers["content-type"] == "image/svg+xml")
            #expect(r.text.contains("repeatCount=\"indefinite\""))
            #expect(!r.text.contains("e-"), "no exponents in SMIL values")
        }
        #expect(try get(app, "/loaders/typing/animation.svg?count=5&color=ff0000").text.contains("id=\"dot4\""))
        #expect(try get(app, "/loaders/typing/animation.svg?t=1").status == 400)
        // A period longer than a minute loops a minute of it.
        #expect(try get(app, "/loaders/typing/animation.svg?opacityDuration=3599&bounceDuration=3583").status == 200)
        #expect(try get(app, "/loaders/switch/animation.svg?duration=3600").text.contains("dur=\"60s\""))
        #expect(try get(app, "/loaders/web/animation.svg?pulseDuration=193.19").text.contains("dur=\"60s\""))
        #expect(try get(app, "/loaders/web/animation.svg?progress=1").status == 400)
        for definition in LoaderCatalog.standard.loaders {
            let a = try SampledLoop.loop(for: definition, parameters: [], verify: true)
            #expect(a.maxPositionError <= SampledLoop.positionTolerance * 1.5, "\(definition.name)")
            #expect(a.maxOpacityError <= SampledLoop.valueTolerance * 1.5, "\(definition.name)")
            #expect(a.maxRadiusError <= SampledLoop.positionTolerance * 1.5, "\(definition.name)")
        }
        // One period: the loop's two ends show the same frame.
        let typing = try SampledLoop.loop(for: LoaderCatalog.standard["typing"]!, parameters: [])
        let first = typing.loader.frame(at: typing.start), last = typing.loader.frame(at: typing.start + typing.duration)
        for (a, b) in zip(first.elements, last.elements) {
            #expect(abs(a.x - b.x) < 1e-9 && abs(a.y - b.y) < 1e-9 && abs(a.scale - b.scale) < 1e-9 && abs(a.opacity - b.opacity) < 1e-9)
        }
    }

    @Test(arguments: Transport.allCases)
    func theDemoPageIsSelfContained(_ transport: Transport) throws {
        let app = try TestApp(transport)
        let r = try get(app, "/")
        #expect(r.status == 200 && r.headers["content-type"] == "text/html; charset=utf-8")
        // Built on <loader-frames>, from this service's /client.js at its version.
        #expect(r.text.contains("<loader-frames"))
        #expect(r.text.contains("src=\"/client.js?v=\(LoaderService.version)\""))
        #expect(r.headers["content-security-policy"]?.contains("script-src 'self'") == true)
        #expect(r.text.contains("new EventSource"))   // the snippet for those who draw themselves
        #expect(r.text.contains("prefers-reduced-motion"))
        #expect(r.text.contains("data-frames") || r.text.contains("dataset.frames"))
        // Nothing is fetched from elsewhere.
        #expect(!r.text.contains("http://") && !r.text.contains("https://"))
        #expect(!r.text.contains("src=\"http") && !r.text.contains("href=\"http"))
    }
}

extension PictureTests {
    @Test(arguments: Transport.allCases)
    func lottieExport(_ transport: Transport) throws {
        let app = try TestApp(transport)
        let lottie = try get(app, "/loaders/pacman/animation.json")
        #expect(lottie.status == 200 && lottie.headers["content-type"] == "application/json")
        #expect(lottie.headers["cache-control"] == "public, max-age=86400")
        let document = try JSONValue.parse(lottie.body)
        #expect(document["ver"] == .number(10000) && document["ip"] == .number(0) && document["fr"] == .number(60))
        // Integers as integers, and one shape layer per element.
        #expect(lottie.text.contains(#""w":60,"h":60"#))
        guard case let .array(layers)? = document["layers"] else { Issue.record("no layers"); return }
        #expect(layers.count == 2)  // pacman, food: no background of its own
        #expect(layers.first?["nm"] == .string("pacman"))
        // The background parameter adds a layer behind them.
        let backed = try JSONValue.parse(get(app, "/loaders/pacman/animation.json?background=%23102030").body)
        guard case let .array(backedLayers)? = backed["layers"] else { Issue.record("no layers"); return }
        #expect(backedLayers.count == 3 && backedLayers.last?["nm"] == .string("background"))
        // Cached with its ETag; from moves the loop; bad input is refused.
        let etag = try #require(lottie.headers["etag"])
        #expect(try get(app, "/loaders/pacman/animation.json", ["If-None-Match": etag]).status == 304)
        #expect(try get(app, "/loaders/pacman/animation.json?from=0.25").body != lottie.body)
        #expect(try get(app, "/loaders/pacman/animation.json?from=-1").status == 400)
        #expect(try get(app, "/loaders/pacman/animation.json?t=1").status == 400)
        #expect(try get(app, "/loaders/pacman/animation.json", ["Accept": "image/svg+xml"]).status == 406)
        // The loop's length follows speed: half as many frames at twice the speed.
        let fast = try JSONValue.parse(get(app, "/loaders/typing/animation.json?speed=2").body)
        let plain = try JSONValue.parse(get(app, "/loaders/typing/animation.json").body)
        #expect(plain["op"] == .number(360) && fast["op"] == .number(180))
    }
}

extension PictureTests {
    /// ball-grid-pulse's dots repeat on 0.72, 1.02, … s (NVActivityIndicatorView's
    /// list), with no common period: each loops on its own in every export.
    @Test(arguments: Transport.allCases)
    func elementsOnCyclesOfTheirOwnLoopOnThem(_ transport: Transport) throws {
        let app = try TestApp(transport)
        let cycles = ["0.72", "1.02", "1.28", "1.42", "1.45", "1.18", "0.87", "1.45", "1.06"]
        let svg = try get(app, "/loaders/ball-grid-pulse/animation.svg").text
        for (k, cycle) in cycles.enumerated() {
            let element = try #require(svg.split(separator: "<circle id=\"dot\(k)\"").dropFirst().first)
            let own = element.split(separator: "</circle>")[0]
            #expect(own.contains("dur=\"\(cycle)s\"") && !own.contains("dur=\"60s\""), "dot\(k) loops every \(cycle) s")
        }
        let css = try get(app, "/loaders/ball-grid-pulse/animation.css").text
        #expect(css.contains("animation-duration: calc(720ms / var(--ld-speed))") && css.contains("calc(1060ms / var(--ld-speed))"))
        // Lottie: one timeline of the minute; each dot's cycle a precomposition, its time remapped.
        let lottie = try JSONValue.parse(get(app, "/loaders/ball-grid-pulse/animation.json").body)
        #expect(lottie["op"] == .number(3600))
        guard case let .array(assets)? = lottie["assets"], case let .array(layers)? = lottie["layers"] else { Issue.record("no assets"); return }
        #expect(assets.count == 9 && layers.filter { $0["ty"] == .number(0) && $0["tm"] != nil }.count == 9)
        // Loaders with a common period are unchanged: one loop, no precompositions.
        let pacman = try JSONValue.parse(get(app, "/loaders/pacman/animation.json").body)
        #expect(pacman["assets"] == .array([]))
    }

    @Test(arguments: Transport.allCases)
    func cssExport(_ transport: Transport) throws {
        let app = try TestApp(transport)
        let css = try get(app, "/loaders/typing/animation.css")
        #expect(css.status == 200 && css.headers["content-type"] == "text/css; charset=utf-8")
        // typing draws white on its own black, whatever the page's colour.
        #expect(css.text.contains("--ld-color: #FFFFFF; --ld-speed: 1; --ld-scale: 1;") && css.text.contains("@media (prefers-reduced-motion: reduce)"))
        #expect(try get(app, "/loaders/typing/animation.css?background=none").text.contains("--ld-color: currentColor;"))
        #expect(try get(app, "/loaders/three-bounce/animation.css").text.contains("--ld-color: currentColor;"))
        #expect(css.text.contains("animation-duration: calc(6000ms / var(--ld-speed))"))
        let html = try get(app, "/loaders/typing/animation.html?label=Sending%20%3Cmessage%3E")
        #expect(html.status == 200 && html.headers["content-type"] == "text/html; charset=utf-8")
        #expect(html.text.contains(#"<div class="ld-typing" role="progressbar" aria-label="Sending &lt;message&gt;">"#))
        #expect(html.text.contains(#"<div class="ld-typing-0" data-element="dot0"></div>"#))
        // Parameters change the export as they change the frames.
        #expect(try get(app, "/loaders/typing/animation.css?color=%23FF0000").text.contains("--ld-color: #FF0000;"))
        #expect(try get(app, "/loaders/typing/animation.css?speed=2").text.contains("calc(3000ms / var(--ld-speed))"))
        #expect(try get(app, "/loaders/typing/animation.css?scale=2").text.contains("width: calc(140px * var(--ld-scale)); height: calc(40px * var(--ld-scale));"))
        #expect(try get(app, "/loaders/typing/animation.html?label=").status == 400)
        #expect(try get(app, "/loaders/typing/animation.css?label=x").status == 400)
        let etag = try #require(css.headers["etag"])
        #expect(try get(app, "/loaders/typing/animation.css", ["If-None-Match": etag]).status == 304)
        #expect(try get(app, "/loaders/typing/animation.css", ["Accept": "text/css"]).status == 200)
        #expect(try get(app, "/loaders/typing/animation.html", ["Accept": "text/html,application/xhtml+xml;q=0.9"]).status == 200)
        #expect(try get(app, "/loaders/typing/animation.css", ["Accept": "text/html"]).status == 406)
    }
}
