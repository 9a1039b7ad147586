import LoaderEngine

/// The pages and scripts a browser takes: the demo page and `/client.js`.
extension OpenAPI {
    static func demoPage(_ c: Context) -> [Operation] {
        var w = JSONWriter(capacity: 512)
        beginOperation(&w, id: "demoPage", summary: "The demo page: every loader live on <loader-frames> elements, with controls, a web-session panel, ready-to-copy snippets and a definition editor.")
        w.key("responses")
        w.beginObject()
        w.key("200")
        w.rawValue(Array(#"{"description":"HTML, with its CSS and JavaScript inline (and /client.js).","content":{"text/html":{"schema":{"type":"string"}}}}"#.utf8))
        transportLimits(&w)
        w.endObject()
        w.endObject()
        return [Operation(path: "/", method: "get", json: w.bytes)]
    }

    static func clientScript(_ c: Context) -> [Operation] {
        let version = #"[{"name":"v","in":"query","required":false,"description":"The service's version (\#(LoaderService.version)): with it the answer is cached for a year.","schema":{"type":"string","enum":["\#(LoaderService.version)"]}}]"#
        var w = JSONWriter(capacity: 1024)
        beginOperation(&w, id: "getClientScript", summary: "An ES module with no dependencies that defines <loader-frames>, a live loader drawn as SVG (docs/CLIENT.md).")
        w.key("parameters")
        w.rawValue(Array(version.utf8))
        w.key("responses")
        w.beginObject()
        w.key("200")
        w.rawValue(Array(#"{"description":"The module.","content":{"text/javascript":{"schema":{"type":"string"}}}}"#.utf8))
        return [finish(&w, [
            notModified,
            ("400", "A query parameter other than v.", ref("Error")),
            ("404", "v names another version than the service's.", ref("Error")),
        ], path: "/client.js", method: "get")]
    }
}
