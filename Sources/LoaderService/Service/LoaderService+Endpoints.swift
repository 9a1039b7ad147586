extension LoaderService {
    /// Every endpoint of the API, each declared once, in its feature's
    /// folder (`Frames/Frames+Endpoints.swift`, …). A new endpoint is one
    /// entry there and its handler: the router, the route labels of
    /// `/metrics` and the log, and `/openapi.json` follow from it.
    static let endpoints: [Endpoint] = catalogEndpoints + frameEndpoints + exportEndpoints + definitionEndpoints + sessionEndpoints + browserEndpoints
}
