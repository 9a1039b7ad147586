import HTTPServer

extension LoaderService {
    /// What a web page takes from the service: the demo page and the
    /// `<loader-frames>` module.
    static let browserEndpoints: [Endpoint] = [
        Endpoint(.GET, "/", offers: ["text/html"], document: OpenAPI.demoPage) { _, r in DemoPage.response(r.http) },
        Endpoint(.GET, "/client.js", offers: ["text/javascript"], document: OpenAPI.clientScript) { s, r in try s.clientScript(r.http) },
    ]
}
