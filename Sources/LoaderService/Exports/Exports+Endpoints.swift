import HTTPServer

extension LoaderService {
    /// Pictures of a loader: a frame as SVG, a loop as SVG, Lottie, CSS and HTML.
    static let exportEndpoints: [Endpoint] = [
        Endpoint(.GET, "/loaders/{name}/frames.svg", document: OpenAPI.getFrameSVG) { s, r in
            try s.frameSVG(s.definition(r[parameter: "name"]), r.http)
        },
        Endpoint(.GET, "/loaders/{name}/animation.svg", document: OpenAPI.getAnimationSVG) { s, r in
            try s.animation(s.definition(r[parameter: "name"]), r.http, .svg, peer: r.context.peer)
        },
        Endpoint(.GET, "/loaders/{name}/animation.json", document: OpenAPI.getAnimationLottie) { s, r in
            try s.animation(s.definition(r[parameter: "name"]), r.http, .lottie, peer: r.context.peer)
        },
        Endpoint(.GET, "/loaders/{name}/animation.css", document: OpenAPI.getAnimationCSS) { s, r in
            try s.animation(s.definition(r[parameter: "name"]), r.http, .css, peer: r.context.peer)
        },
        Endpoint(.GET, "/loaders/{name}/animation.html", document: OpenAPI.getAnimationHTML) { s, r in
            try s.animation(s.definition(r[parameter: "name"]), r.http, .html, peer: r.context.peer)
        },
    ]
}
