import HTTPServer

extension LoaderService {
    /// Live sessions: a backend reports events, viewers watch their frames.
    static let sessionEndpoints: [Endpoint] = [
        Endpoint(.POST, "/sessions", document: OpenAPI.createSession) { s, r in try s.createSession(r.http, peer: r.context.peer) },
        Endpoint(.GET, "/sessions/{id}", document: OpenAPI.getSession) { s, r in try s.sessionState(r[parameter: "id"], r.http) },
        Endpoint(.DELETE, "/sessions/{id}", offers: [], document: OpenAPI.deleteSession) { s, r in try s.deleteSession(r[parameter: "id"], r.http) },
        Endpoint(.GET, "/sessions/{id}/frames", offers: ["application/json", "text/event-stream"], document: OpenAPI.getSessionFrames) { s, r in try s.sessionFrames(r[parameter: "id"], r.http, r.caches) },
        Endpoint(.POST, "/sessions/{id}/events", document: OpenAPI.postSessionEvent) { s, r in
            try s.postSessionEvent(r[parameter: "id"], r.http, peer: r.context.peer)
        },
    ]
}
