import LoaderEngine

/// `GET /openapi.json`: OpenAPI 3.1, built from the catalog so that every
/// loader parameter, range and default is the one the engine enforces.
enum OpenAPI {
    static func document(catalog: LoaderCatalog, configuration: ServiceConfiguration) -> [UInt8] {
        var w = JSONWriter(capacity: 32 * 1024)
        w.beginObject()
        w.field("openapi", "3.1.0")
        w.key("info")
        w.beginObject()
        w.field("title", "loaderd")
        w.field("version", LoaderService.version)
        w.field("description", "Exact frames of loading animations (typing, switch, web) computed with Core Animation's timing model: JSON frames, batches and server-sent event streams.")
        w.endObject()
        w.key("paths")
        w.beginObject()
        catalogPath(&w)
        loaderPath(&w, catalog)
        framesPath(&w, catalog, configuration)
        picturePaths(&w, catalog)
        simple(&w, "/healthz", "Liveness: the process answers.", okSchema: #"{"status":"ok"}"#, extra503: false)
        simple(&w, "/readyz", "Readiness: accepting work (503 while shutting down).", okSchema: #"{"status":"ready"}"#, extra503: true)
        metricsPath(&w)
        openAPIPath(&w)
        sessionPaths(&w, catalog)
        w.endObject()
        components(&w, catalog)
        w.endObject()
        return w.bytes
    }

    // MARK: Paths

    static func catalogPath(_ w: inout JSONWriter) {
        w.key("/loaders")
        w.beginObject()
        operation(&w, "get", id: "listLoaders", summary: "The catalog: every loader with its parameters, events and period.", responses: [
            ("200", "The catalog.", ref("Catalog")),
            ("304", "Not modified (If-None-Match).", nil),
            ("400", "A query parameter was given; this resource takes none.", ref("Error")),
            ("406", "The Accept header excludes application/json.", ref("Error")),
        ])
        w.endObject()
    }

    static func loaderPath(_ w: inout JSONWriter, _ catalog: LoaderCatalog) {
        w.key("/loaders/{name}")
        w.beginObject()
        var parameters = JSONWriter(capacity: 256)
        parameters.beginArray()
        nameParameter(&parameters, catalog, strict: false)
        parameters.endArray()
        operation(&w, "get", id: "getLoader", summary: "One catalog entry.", parameters: String(decoding: parameters.bytes, as: UTF8.self), responses: [
            ("200", "The loader.", ref("Loader")),
            ("304", "Not modified (If-None-Match).", nil),
            ("400", "A query parameter was given; this resource takes none.", ref("Error")),
            ("404", "No loader of that name.", ref("Error")),
            ("406", "The Accept header excludes application/json.", ref("Error")),
        ])
        w.endObject()
    }

    static func framesPath(_ w: inout JSONWriter, _ catalog: LoaderCatalog, _ configuration: ServiceConfiguration) {
        w.key("/loaders/{name}/frames")
        w.beginObject()
        w.key("get")
        w.beginObject()
        w.field("operationId", "getFrames")
        w.field("summary", "One frame at t, a batch (from, to, fps), or a live stream (Accept: text/event-stream or stream=sse).")
        w.field("description", "Loader parameters and events are query parameters; each loader takes only its own (see GET /loaders). `t` cannot be combined with `from`/`to`; `fps` and `duration` need a batch or a stream. A frame for an explicit t never changes: it is cacheable forever. A stream sends `retry: 1000`, then `id: k`, `event: frame`, `data: <frame>` for the frame at t + k/fps when the clock since the stream began reaches k/fps; `duration` ends it with `event: end`; `Last-Event-ID` resumes at k+1.")
        w.key("parameters")
        w.beginArray()
        nameParameter(&w, catalog, strict: false)
        query(&w, "t", "Seconds since the loader started (default 0); a stream's first frame.", numberSchema(min: 0, max: TimeValue.maximum))
        query(&w, "from", "Batch: first frame time (default 0).", numberSchema(min: 0, max: TimeValue.maximum))
        query(&w, "to", "Batch: last frame time (inclusive, 1e-9 slack). At most 10,000 frames.", numberSchema(min: 0, max: TimeValue.maximum))
        query(&w, "fps", "Batch or stream: frames per second (default \(configuration.streamDefaultFps)).", numberSchema(min: 1, max: 120))
        query(&w, "duration", "Stream: seconds after which the stream ends with `event: end`.", numberSchema(exclusiveMin: 0, max: TimeValue.maximum))
        query(&w, "stream", "`sse` streams without an Accept header.", enumSchema(["sse"]))
        // The union of every loader's parameters and events.
        var seen = Set<String>()
        for loader in catalog.loaders {
            for spec in loader.parameters where seen.insert(spec.name).inserted {
                let takers = catalog.loaders.filter { $0.parameters.contains { $0.name == spec.name } }.map(\.name)
                query(&w, spec.name, "\(spec.summary) (\(takers.joined(separator: ", ")); \(spec.acceptedForm).", schema(spec))
            }
            for event in loader.events where seen.insert(event.name).inserted {
                let takers = catalog.loaders.filter { $0.events.contains { $0.name == event.name } }.map(\.name)
                let s = event.kind == .time
                    ? numberSchema(min: 0, max: TimeValue.maximum)
                    : #"{"type":"string","pattern":"^$|^[0-9]+(\\.[0-9]+)?(,[0-9]+(\\.[0-9]+)?)*$"}"#
                query(&w, event.name, "\(event.summary) (\(takers.joined(separator: ", "))).", s)
            }
        }
        header(&w, "Last-Event-ID", "Stream: resume after this frame id (an integer; ignored by single frames and batches).", #"{"type":"string"}"#)
        w.endArray()
        w.key("responses")
        w.beginObject()
        w.key("200")
        w.beginObject()
        w.field("description", "A frame (with t or nothing), a batch (with from/to), or an event stream.")
        w.key("headers")
        w.beginObject()
        w.key("ETag")
        w.rawValue(Array(#"{"schema":{"type":"string"},"description":"Strong entity tag of the body (JSON answers)."}"#.utf8))
        w.endObject()
        w.key("content")
        w.beginObject()
        w.key("application/json")
        w.rawValue(Array(##"{"schema":{"oneOf":[{"$ref":"#/components/schemas/Frame"},{"$ref":"#/components/schemas/Batch"}]}}"##.utf8))
        w.key("text/event-stream")
        w.rawValue(Array(#"{"schema":\#(eventSchema)}"#.utf8))
        w.endObject()
        w.endObject()
        for (code, text, schema) in [
            ("204", "A resumed stream that has nothing left to send (EventSource stops).", nil),
            ("304", "Not modified (If-None-Match).", nil),
            ("400", "A bad or unknown parameter, named in the message with the accepted form.", ref("Error")),
            ("404", "No loader of that name.", ref("Error")),
            ("406", "The Accept header excludes application/json and text/event-stream.", ref("Error")),
        ] as [(String, String, String?)] {
            response(&w, code, text, schema)
        }
        w.endObject()
        w.endObject()
        w.endObject()
    }

    /// The SVG pictures and the demo page.
    static func picturePaths(_ w: inout JSONWriter, _ catalog: LoaderCatalog) {
        for (path, operation, summary, takesTime) in [
            ("/loaders/{name}/frames.svg", "getFrameSVG", "One frame as SVG (white dots on black for typing and switch, blue on white for web); the viewBox holds every element.", true),
            ("/loaders/{name}/animation.svg", "getAnimationSVG", "A self-contained animated SVG (SMIL) sampled from the engine: one period (typing, switch) or a sample page load (web); loops in an <img>.", false),
        ] {
            w.key(path)
            w.beginObject()
            w.key("get")
            w.beginObject()
            w.field("operationId", operation)
            w.field("summary", summary)
            w.key("parameters")
            w.beginArray()
            nameParameter(&w, catalog, strict: false)
            if takesTime {
                query(&w, "t", "Seconds since the loader started (default 0).", numberSchema(min: 0, max: TimeValue.maximum))
            }
            var seen = Set<String>()
            for loader in catalog.loaders {
                for spec in loader.parameters where seen.insert(spec.name).inserted {
                    query(&w, spec.name, "\(spec.summary) \(spec.acceptedForm).", schema(spec))
                }
                if takesTime {
                    for event in loader.events where seen.insert(event.name).inserted {
                        let s = event.kind == .time
                            ? numberSchema(min: 0, max: TimeValue.maximum)
                            : #"{"type":"string","pattern":"^$|^[0-9]+(\\.[0-9]+)?(,[0-9]+(\\.[0-9]+)?)*$"}"#
                        query(&w, event.name, "\(event.summary)", s)
                    }
                }
            }
            w.endArray()
            w.key("responses")
            w.beginObject()
            w.key("200")
            w.rawValue(Array(#"{"description":"The picture.","content":{"image/svg+xml":{"schema":{"type":"string"}}}}"#.utf8))
            for (code, text) in [("304", "Not modified (If-None-Match)."), ("400", "A bad or unknown parameter."),
                                 ("404", "No loader of that name."), ("406", "The Accept header excludes image/svg+xml.")] {
                response(&w, code, text, code == "304" ? nil : ref("Error"))
            }
            w.endObject()
            w.endObject()
            w.endObject()
        }
        w.key("/")
        w.beginObject()
        w.key("get")
        w.beginObject()
        w.field("operationId", "demoPage")
        w.field("summary", "The demo page: every loader live through EventSource on canvases, with controls and a web-session panel.")
        w.key("responses")
        w.rawValue(Array(#"{"200":{"description":"HTML, with its CSS and JavaScript inline.","content":{"text/html":{"schema":{"type":"string"}}}}}"#.utf8))
        w.endObject()
        w.endObject()
    }

    static func simple(_ w: inout JSONWriter, _ path: String, _ summary: String, okSchema: String, extra503: Bool) {
        w.key(path)
        w.beginObject()
        var list: [(String, String, String?)] = [("200", summary, #"{"type":"object","properties":{"status":{"type":"string"}},"required":["status"]}"#)]
        list.append(("400", "A query parameter was given; this resource takes none.", ref("Error")))
        list.append(("406", "The Accept header excludes application/json.", ref("Error")))
        if extra503 { list.append(("503", "Shutting down.", ref("Error"))) }
        operation(&w, "get", summary: summary, responses: list)
        w.endObject()
    }

    static func metricsPath(_ w: inout JSONWriter) {
        w.key("/metrics")
        w.beginObject()
        w.key("get")
        w.beginObject()
        w.field("summary", "Prometheus metrics: requests by route and status, latency histogram, open connections and streams, frames sent and skipped.")
        w.key("responses")
        w.beginObject()
        w.key("200")
        w.rawValue(Array(#"{"description":"Prometheus text format 0.0.4.","content":{"text/plain":{"schema":{"type":"string"}}}}"#.utf8))
        w.endObject()
        w.endObject()
        w.endObject()
    }

    static func openAPIPath(_ w: inout JSONWriter) {
        w.key("/openapi.json")
        w.beginObject()
        operation(&w, "get", summary: "This document.", responses: [
            ("200", "OpenAPI 3.1.", #"{"type":"object"}"#),
            ("304", "Not modified (If-None-Match).", nil),
            ("400", "A query parameter was given; this resource takes none.", ref("Error")),
            ("406", "The Accept header excludes application/json.", ref("Error")),
        ])
        w.endObject()
    }

    static func sessionPaths(_ w: inout JSONWriter, _ catalog: LoaderCatalog) {
        let idParameter = #"{"name":"id","in":"path","required":true,"description":"Session id (128 random bits, URL-safe).","schema":{"type":"string"}}"#
        w.key("/sessions")
        w.beginObject()
        operation(&w, "post", id: "createSession", summary: "Create a live session of a loader; the token in the answer authorizes its events.",
                  requestBody: sessionBody(catalog), responses: [
            ("201", "Created; Location names it. Made durable (journaled) before this answer when a data directory is set.", ref("SessionCreated")),
            ("400", "A malformed body or a bad parameter.", ref("Error")),
            ("406", "The Accept header excludes application/json.", ref("Error")),
            ("415", "The body is not application/json.", ref("Error")),
            ("503", "The session limit is reached.", ref("Error")),
        ])
        w.endObject()

        w.key("/sessions/{id}")
        w.beginObject()
        operation(&w, "get", id: "getSession", summary: "A session's loader, params, creation time, clock now (t), done, viewers and events.",
                  parameters: "[\(idParameter)]", responses: [
            ("200", "The session.", ref("SessionState")),
            ("400", "A query parameter was given; this resource takes none.", ref("Error")),
            ("404", "No such session.", ref("Error")),
            ("406", "The Accept header excludes application/json.", ref("Error")),
            ("410", "The session expired (no activity for the time-to-live).", ref("Error")),
        ])
        operation(&w, "delete", id: "deleteSession", summary: "Delete a session (its token required); afterwards it answers 404.",
                  bearer: true, parameters: "[\(idParameter)]", responses: [
            ("204", "Deleted.", nil),
            ("400", "A query parameter was given; this resource takes none.", ref("Error")),
            ("401", "Missing or wrong token.", ref("Error")),
            ("404", "No such session.", ref("Error")),
            ("410", "The session expired.", ref("Error")),
        ])
        w.endObject()

        w.key("/sessions/{id}/frames")
        w.beginObject()
        w.key("get")
        w.beginObject()
        w.field("operationId", "getSessionFrames")
        w.field("summary", "The frame at the session's clock now (or an earlier t), or its live stream (ends with event: end once done).")
        w.key("parameters")
        w.rawValue(Array(("[\(idParameter)," + #"{"name":"t","in":"query","required":false,"description":"An earlier moment on the session clock.","schema":"# + numberSchema(min: 0, max: TimeValue.maximum) + "},"
            + #"{"name":"fps","in":"query","required":false,"description":"Stream: frames per second.","schema":"# + numberSchema(min: 1, max: 120) + "},"
            + #"{"name":"stream","in":"query","required":false,"schema":{"type":"string","enum":["sse"]}}]"#).utf8))
        w.key("responses")
        w.beginObject()
        w.key("200")
        w.rawValue(Array(##"{"description":"A frame, or the event stream (frame ids are the session's: every viewer at one fps gets the same).","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Frame"}},"text/event-stream":{"schema":"## .utf8) + Array(eventSchema.utf8) + Array("}}}".utf8))
        for (code, text) in [("400", "A bad parameter, or t later than the session's clock."), ("404", "No such session."),
                             ("406", "The Accept header excludes application/json and text/event-stream."),
                             ("410", "The session expired."), ("503", "The viewer limit is reached.")] {
            response(&w, code, text, ref("Error"))
        }
        w.endObject()
        w.endObject()
        w.endObject()

        w.key("/sessions/{id}/events")
        w.beginObject()
        operation(&w, "post", id: "postSessionEvent", summary: "Report progress or finish (web) or stop (every loader), at the session clock now.",
                  bearer: true, parameters: "[\(idParameter)]",
                  requestBody: Array(#"{"required":true,"content":{"application/json":{"schema":{"type":"object","required":["type"],"additionalProperties":false,"properties":{"type":{"type":"string","enum":["progress","finish","stop"]}}}}}}"#.utf8),
                  responses: [
            ("202", "Accepted, with the event's time on the session clock; durable before this answer when a data directory is set.", #"{"type":"object","required":["type","t"],"properties":{"type":{"type":"string"},"t":{"type":"number"}}}"#),
            ("400", "A malformed body, or progress/finish for a loader other than web.", ref("Error")),
            ("401", "Missing or wrong token.", ref("Error")),
            ("404", "No such session.", ref("Error")),
            ("409", "The session is done, or progress after finish.", ref("Error")),
            ("410", "The session expired.", ref("Error")),
            ("415", "The body is not application/json.", ref("Error")),
            ("429", "The per-session event limit is reached.", ref("Error")),
        ])
        w.endObject()
    }

    /// The body of POST /sessions: one branch per loader, its own parameters only.
    static func sessionBody(_ catalog: LoaderCatalog) -> [UInt8] {
        var w = JSONWriter(capacity: 4096)
        w.beginObject()
        w.field("required", true)
        w.key("content")
        w.beginObject()
        w.key("application/json")
        w.beginObject()
        w.key("schema")
        w.beginObject()
        w.key("oneOf")
        w.beginArray()
        for loader in catalog.loaders {
            w.beginObject()
            w.field("type", "object")
            w.key("required")
            w.rawValue(Array(#"["loader"]"#.utf8))
            w.field("additionalProperties", false)
            w.key("properties")
            w.beginObject()
            w.key("loader")
            w.rawValue(Array(enumSchema([loader.name]).utf8))
            w.key("params")
            w.beginObject()
            w.field("type", "object")
            w.field("description", "The loader's parameters, as in GET /loaders/\(loader.name).")
            w.field("additionalProperties", false)
            w.key("properties")
            w.beginObject()
            for spec in loader.parameters {
                w.key(spec.name)
                w.rawValue(Array(schema(spec).utf8))
            }
            w.endObject()
            w.endObject()
            w.endObject()
            w.endObject()
        }
        w.endArray()
        w.endObject()
        w.endObject()
        w.endObject()
        w.endObject()
        return w.bytes
    }

    // MARK: Components

    static func components(_ w: inout JSONWriter, _ catalog: LoaderCatalog) {
        w.key("components")
        w.beginObject()
        w.key("schemas")
        w.beginObject()
        w.key("Error")
        w.rawValue(Array(#"{"type":"object","required":["error"],"properties":{"error":{"type":"object","required":["status","code","message"],"properties":{"status":{"type":"integer"},"code":{"type":"string"},"message":{"type":"string"}}}}}"#.utf8))
        w.key("Element")
        w.rawValue(Array(#"{"type":"object","required":["id","shape","x","y","diameter","scale","opacity","color"],"properties":{"id":{"type":"string"},"shape":{"type":"string","enum":["circle"]},"x":{"type":"number"},"y":{"type":"number"},"diameter":{"type":"number"},"scale":{"type":"number"},"opacity":{"type":"number","minimum":0,"maximum":1},"color":{"type":"string","pattern":"^#[0-9A-F]{6}$"}}}"#.utf8))
        w.key("Frame")
        w.rawValue(Array(##"{"type":"object","required":["loader","t","width","height","done","elements"],"properties":{"loader":{"type":"string"},"t":{"type":"number"},"width":{"type":"number"},"height":{"type":"number"},"done":{"type":"boolean"},"elements":{"type":"array","items":{"$ref":"#/components/schemas/Element"}}}}"##.utf8))
        w.key("Batch")
        w.rawValue(Array(##"{"type":"object","required":["loader","fps","frames"],"properties":{"loader":{"type":"string"},"fps":{"type":"number"},"frames":{"type":"array","items":{"$ref":"#/components/schemas/Frame"}}}}"##.utf8))
        w.key("Loader")
        w.rawValue(Array(#"{"type":"object","required":["name","description","canvas","period","parameters","events","reducedMotion"],"properties":{"name":{"type":"string"},"description":{"type":"string"},"canvas":{"type":"object","required":["width","height"],"properties":{"width":{"type":"number"},"height":{"type":"number"}}},"period":{"type":["number","null"]},"parameters":{"type":"array","items":{"type":"object","required":["name","type","default","description"]}},"events":{"type":"array","items":{"type":"object","required":["name","type"]}},"reducedMotion":{"type":"string"}}}"#.utf8))
        w.key("SessionCreated")
        w.rawValue(Array(#"{"type":"object","required":["id","token","loader","createdAt"],"properties":{"id":{"type":"string"},"token":{"type":"string","description":"Secret: send as Authorization: Bearer <token> to post events or delete."},"loader":{"type":"string"},"createdAt":{"type":"string","format":"date-time"}}}"#.utf8))
        w.key("SessionState")
        w.rawValue(Array(#"{"type":"object","required":["id","loader","params","createdAt","t","done","viewers","events"],"properties":{"id":{"type":"string"},"loader":{"type":"string"},"params":{"type":"object"},"createdAt":{"type":"string","format":"date-time"},"t":{"type":"number","description":"The session clock now: seconds since createdAt."},"done":{"type":"boolean"},"viewers":{"type":"integer"},"events":{"type":"array","items":{"type":"object","required":["type","t"],"properties":{"type":{"type":"string","enum":["progress","finish","stop"]},"t":{"type":"number"}}}}}}"#.utf8))
        w.key("Catalog")
        w.rawValue(Array(##"{"type":"object","required":["loaders"],"properties":{"loaders":{"type":"array","items":{"$ref":"#/components/schemas/Loader"}}}}"##.utf8))
        w.endObject()
        w.key("securitySchemes")
        w.rawValue(Array(#"{"bearer":{"type":"http","scheme":"bearer","description":"The token returned when the session was created."}}"#.utf8))
        w.endObject()
    }

    // MARK: Pieces

    /// `"<method>": {operationId, summary, security, parameters, requestBody, responses}`,
    /// inside the current path object.
    static func operation(_ w: inout JSONWriter, _ method: String, id: String? = nil, summary: String, bearer: Bool = false,
                          parameters: String? = nil, requestBody: [UInt8]? = nil, responses list: [(String, String, String?)]) {
        w.key(method)
        w.beginObject()
        if let id { w.field("operationId", id) }
        w.field("summary", summary)
        if bearer {
            w.key("security")
            w.rawValue(Array(#"[{"bearer":[]}]"#.utf8))
        }
        if let parameters {
            w.key("parameters")
            w.rawValue(Array(parameters.utf8))
        }
        if let requestBody {
            w.key("requestBody")
            w.rawValue(requestBody)
        }
        responses(&w, list)
        w.endObject()
    }

    /// What each server-sent event of a stream holds (OpenAPI 3.1: the
    /// event-stream media type's schema describes one event).
    static let eventSchema = #"{"type":"object","description":"One event: frames (event: frame, id k, data: a Frame as JSON), then event: end (data: an object with the reason); a first retry: and comment lines are not events.","properties":{"id":{"type":"string"},"event":{"type":"string","enum":["frame","end"]},"data":{"type":"string"},"retry":{"type":"integer"}}}"#

    static func ref(_ name: String) -> String { ##"{"$ref":"#/components/schemas/"## + name + #""}"# }

    static func responses(_ w: inout JSONWriter, _ list: [(String, String, String?)]) {
        w.key("responses")
        w.beginObject()
        for (code, text, schema) in list { response(&w, code, text, schema) }
        w.endObject()
    }

    static func response(_ w: inout JSONWriter, _ code: String, _ text: String, _ schema: String?) {
        w.key(code)
        w.beginObject()
        w.field("description", text)
        if let schema {
            w.key("content")
            w.beginObject()
            w.key("application/json")
            w.beginObject()
            w.key("schema")
            w.rawValue(Array(schema.utf8))
            w.endObject()
            w.endObject()
        }
        w.endObject()
    }

    static func nameParameter(_ w: inout JSONWriter, _ catalog: LoaderCatalog, strict: Bool) {
        w.beginObject()
        w.field("name", "name")
        w.field("in", "path")
        w.field("required", true)
        w.field("description", "Loader name: " + catalog.names.joined(separator: ", ") + ".")
        w.key("schema")
        w.rawValue(Array(enumSchema(catalog.names).utf8))
        w.endObject()
    }

    static func query(_ w: inout JSONWriter, _ name: String, _ description: String, _ schema: String) {
        w.beginObject()
        w.field("name", name)
        w.field("in", "query")
        w.field("required", false)
        w.field("description", description)
        w.key("schema")
        w.rawValue(Array(schema.utf8))
        w.endObject()
    }

    static func header(_ w: inout JSONWriter, _ name: String, _ description: String, _ schema: String) {
        w.beginObject()
        w.field("name", name)
        w.field("in", "header")
        w.field("required", false)
        w.field("description", description)
        w.key("schema")
        w.rawValue(Array(schema.utf8))
        w.endObject()
    }

    static func numberSchema(min: Double? = nil, exclusiveMin: Double? = nil, max: Double) -> String {
        var w = JSONWriter(capacity: 64)
        w.beginObject()
        w.field("type", "number")
        if let min { w.field("minimum", min) }
        if let exclusiveMin { w.field("exclusiveMinimum", exclusiveMin) }
        w.field("maximum", max)
        w.endObject()
        return String(decoding: w.bytes, as: UTF8.self)
    }

    static func enumSchema(_ values: [String]) -> String {
        var w = JSONWriter(capacity: 64)
        w.beginObject()
        w.field("type", "string")
        w.key("enum")
        w.beginArray()
        for v in values { w.value(v) }
        w.endArray()
        w.endObject()
        return String(decoding: w.bytes, as: UTF8.self)
    }

    static func schema(_ spec: ParameterSpec) -> String {
        switch spec.kind {
        case let .number(min, max, exclusive):
            return exclusive ? numberSchema(exclusiveMin: min, max: max) : numberSchema(min: min, max: max)
        case let .integer(min, max):
            return #"{"type":"integer","minimum":\#(min),"maximum":\#(max)}"#
        case .color:
            return #"{"type":"string","pattern":"^#?([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$"}"#
        case let .choice(words):
            return enumSchema(words)
        }
    }
}

extension LoaderService {
    public static let version = "0.1.0"
}
