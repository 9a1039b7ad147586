import HTTPServer
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
        framesPaths(&w, catalog, configuration)
        picturePaths(&w, catalog)
        simple(&w, "/healthz", "Liveness: the process answers.", okSchema: #"{"status":"ok"}"#, extra503: false)
        simple(&w, "/readyz", "Readiness: accepting work (503 while shutting down).", okSchema: #"{"status":"ready"}"#, extra503: true)
        metricsPath(&w)
        openAPIPath(&w)
        sessionPaths(&w, catalog, configuration)
        w.endObject()
        components(&w, catalog, configuration)
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
        nameParameter(&parameters, catalog)
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

    /// `/loaders/<loader>/frames`, one path per loader: the route is
    /// `/loaders/{name}/frames`, but each loader takes only its own
    /// parameters, and the query has three shapes that exclude each other
    /// (a frame, a batch, a stream). One exploded object parameter with a
    /// `oneOf` of the three says exactly which combinations are accepted.
    static func framesPaths(_ w: inout JSONWriter, _ catalog: LoaderCatalog, _ configuration: ServiceConfiguration) {
        for loader in catalog.loaders {
            let type = typeName(loader)
            beginGet(&w, "/loaders/\(loader.name)/frames", id: "get\(type)Frames",
                     summary: "\(type): one frame at t, a batch (from, to, fps), or a live stream (Accept: text/event-stream or stream=sse).")
            w.field("description", "The query is one of three shapes: \(type)FrameQuery (t), \(type)BatchQuery (from, to, fps) or \(type)StreamQuery (stream=sse, t, fps, duration), each with the loader's parameters and events (see GET /loaders/\(loader.name)). With `Accept: text/event-stream` the stream shape applies without `stream=sse`; with `Accept: image/svg+xml` a frame comes as SVG. A batch has at most \(LoaderService.maxBatchFrames) frames ((to - from) × fps < \(LoaderService.maxBatchFrames)) and `to` >= `from`; otherwise 400. A frame for an explicit t never changes: it is cacheable forever. A stream sends `retry: \(configuration.streamRetryMilliseconds)`, then `id: k`, `event: frame`, `data: <frame>` for the frame at t + k/fps when the clock since the stream began reaches k/fps; `duration` ends it with `event: end`; `Last-Event-ID` resumes at k+1. `loader.<name>` also names a loader parameter in any shape.")
            w.key("parameters")
            w.beginArray()
            w.beginObject()
            w.field("name", "query")
            w.field("in", "query")
            w.field("required", false)
            w.field("style", "form")
            w.field("explode", true)
            w.field("description", "One of the three query shapes; its properties are the query parameters.")
            w.key("schema")
            w.rawValue(Array(##"{"oneOf":[{"$ref":"#/components/schemas/\##(type)FrameQuery"},{"$ref":"#/components/schemas/\##(type)BatchQuery"},{"$ref":"#/components/schemas/\##(type)StreamQuery"}]}"##.utf8))
            w.endObject()
            header(&w, "Last-Event-ID", "Stream: resume after this frame id. A value that is not a frame id (an integer >= 0) is ignored, as are single frames and batches.", #"{"type":"string"}"#)
            w.endArray()
            w.key("responses")
            w.beginObject()
            w.key("200")
            w.beginObject()
            w.field("description", "A frame (FrameQuery), a batch (BatchQuery), or an event stream (StreamQuery).")
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
            w.key("image/svg+xml")
            w.rawValue(Array(#"{"schema":{"type":"string"}}"#.utf8))
            w.endObject()
            w.endObject()
            for (code, text, schema) in [
                ("204", "A resumed stream that has nothing left to send (EventSource stops).", nil),
                ("304", "Not modified (If-None-Match).", nil),
                ("400", "A bad or unknown parameter, or a combination no shape allows, named in the message with the accepted form.", ref("Error")),
                ("406", "The Accept header excludes application/json and text/event-stream.", ref("Error")),
            ] as [(String, String, String?)] {
                response(&w, code, text, schema)
            }
            transportLimits(&w)
            w.endObject()
            w.endObject()
            w.endObject()
        }
    }

    /// The three query shapes of a loader's frames, as component schemas.
    static func frameQuerySchemas(_ w: inout JSONWriter, _ catalog: LoaderCatalog, _ configuration: ServiceConfiguration) {
        let time = numberSchema(min: 0, max: TimeValue.maximum)
        let fps = numberSchema(min: 1, max: 120)
        for loader in catalog.loaders {
            let type = typeName(loader)
            querySchema(&w, "\(type)FrameQuery", "One frame of \(loader.name).", loader, inStream: false, required: [], own: [
                ("t", "Seconds since the loader started (default 0).", time),
            ])
            querySchema(&w, "\(type)BatchQuery", "A batch of \(loader.name) frames at from + k/fps while <= to (1e-9 slack).", loader, inStream: false, required: ["to"], own: [
                ("from", "First frame time (default 0).", time),
                ("to", "Last frame time (inclusive), >= from; (to - from) × fps < \(LoaderService.maxBatchFrames).", time),
                ("fps", "Frames per second (default \(configuration.streamDefaultFps)).", fps),
            ])
            querySchema(&w, "\(type)StreamQuery", "A live stream of \(loader.name) frames.", loader, inStream: true, required: ["stream"], own: [
                ("stream", "`sse`: stream without an Accept header.", enumSchema(["sse"])),
                ("t", "The first frame's time (default 0).", time),
                ("fps", "Frames per second (default \(configuration.streamDefaultFps)).", fps),
                ("duration", "Seconds after which the stream ends with `event: end`.", numberSchema(exclusiveMin: 0, max: TimeValue.maximum)),
            ])
        }
    }

    /// An object schema of query parameters: the shape's own, then the
    /// loader's parameters and events. In a stream a loader parameter whose
    /// name the stream uses (the switch's `duration`) is `loader.<name>`.
    static func querySchema(_ w: inout JSONWriter, _ name: String, _ description: String, _ loader: LoaderDefinition,
                            inStream: Bool, required: [String], own: [(String, String, String)]) {
        w.key(name)
        w.beginObject()
        w.field("type", "object")
        w.field("description", description)
        w.field("additionalProperties", false)
        if !required.isEmpty {
            w.key("required")
            w.beginArray()
            for r in required { w.value(r) }
            w.endArray()
        }
        w.key("properties")
        w.beginObject()
        for (property, text, schema) in own {
            w.key(property)
            w.rawValue(described(schema, text))
        }
        for spec in loader.parameters {
            let shadowed = inStream && own.contains { $0.0 == spec.name }
            w.key(shadowed ? "loader." + spec.name : spec.name)
            w.rawValue(described(schema(spec), parameterText(spec)))
        }
        for event in loader.events {
            w.key(event.name)
            w.rawValue(described(eventSchema(event), event.summary))
        }
        w.endObject()
        w.endObject()
    }

    /// The SVG pictures (one path each per loader) and the demo page.
    static func picturePaths(_ w: inout JSONWriter, _ catalog: LoaderCatalog) {
        for loader in catalog.loaders {
            let type = typeName(loader)
            for (path, operation, summary, takesTime) in [
                ("frames.svg", "get\(type)FrameSVG", "One \(loader.name) frame as SVG (\(loader.name == "web" ? "blue on white" : "white dots on black")); the viewBox holds every element.", true),
                ("animation.svg", "get\(type)AnimationSVG", "A self-contained animated SVG (SMIL) of \(loader.name) sampled from the engine: \(loader.name == "web" ? "a sample page load" : "one period"), at most a minute; loops in an <img>.", false),
            ] {
                beginGet(&w, "/loaders/\(loader.name)/\(path)", id: operation, summary: summary)
                w.key("parameters")
                w.beginArray()
                if takesTime {
                    query(&w, "t", "Seconds since the loader started (default 0).", numberSchema(min: 0, max: TimeValue.maximum))
                }
                for spec in loader.parameters {
                    query(&w, spec.name, parameterText(spec), schema(spec))
                }
                if takesTime {
                    for event in loader.events {
                        query(&w, event.name, event.summary, eventSchema(event))
                    }
                }
                w.endArray()
                w.key("responses")
                w.beginObject()
                w.key("200")
                w.rawValue(Array(#"{"description":"The picture.","content":{"image/svg+xml":{"schema":{"type":"string"}}}}"#.utf8))
                for (code, text) in [("304", "Not modified (If-None-Match)."), ("400", "A bad or unknown parameter."),
                                     ("406", "The Accept header excludes image/svg+xml.")] {
                    response(&w, code, text, code == "304" ? nil : ref("Error"))
                }
                transportLimits(&w)
                w.endObject()
                w.endObject()
                w.endObject()
            }
        }
        beginGet(&w, "/", id: "demoPage", summary: "The demo page: every loader live through EventSource on canvases, with controls and a web-session panel.")
        w.key("responses")
        w.beginObject()
        w.key("200")
        w.rawValue(Array(#"{"description":"HTML, with its CSS and JavaScript inline.","content":{"text/html":{"schema":{"type":"string"}}}}"#.utf8))
        transportLimits(&w)
        w.endObject()
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
        transportLimits(&w)
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

    static func sessionPaths(_ w: inout JSONWriter, _ catalog: LoaderCatalog, _ configuration: ServiceConfiguration) {
        let idParameter = #"{"name":"id","in":"path","required":true,"description":"Session id: 128 random bits, URL-safe, after the owning replica's name and a dot when replicaName is set.","schema":{"type":"string"}}"#
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
            ("421", "The session belongs to another replica (its name is the id's part before the dot): the load balancer routed it wrongly.", ref("Error")),
            ("406", "The Accept header excludes application/json.", ref("Error")),
            ("410", "The session expired (no activity for the time-to-live).", ref("Error")),
        ])
        operation(&w, "delete", id: "deleteSession", summary: "Delete a session (its token required); afterwards it answers 404.",
                  bearer: true, parameters: "[\(idParameter)]", responses: [
            ("204", "Deleted.", nil),
            ("400", "A query parameter was given; this resource takes none.", ref("Error")),
            ("401", "Missing or wrong token.", ref("Error")),
            ("404", "No such session.", ref("Error")),
            ("421", "The session belongs to another replica (its name is the id's part before the dot): the load balancer routed it wrongly.", ref("Error")),
            ("410", "The session expired.", ref("Error")),
        ])
        w.endObject()

        beginGet(&w, "/sessions/{id}/frames", id: "getSessionFrames",
                 summary: "The frame at the session's clock now (or an earlier t), or its live stream (ends with event: end once done).")
        w.key("parameters")
        // Two query shapes: a frame (t) or a stream (stream=sse, fps).
        let frameQuery = #"{"type":"object","additionalProperties":false,"description":"A frame: now, or an earlier t.","properties":{"t":"#
            + String(decoding: described(numberSchema(min: 0, max: TimeValue.maximum), "A moment on the session clock, not later than now."), as: UTF8.self) + "}}"
        let streamQuery = #"{"type":"object","additionalProperties":false,"required":["stream"],"description":"The live stream (also with Accept: text/event-stream and no stream=sse).","properties":{"stream":{"type":"string","enum":["sse"]},"fps":"#
            + String(decoding: described(numberSchema(min: 1, max: 120), "Frames per second (default \(configuration.streamDefaultFps))."), as: UTF8.self) + "}}"
        w.rawValue(Array(("[\(idParameter)," + #"{"name":"query","in":"query","required":false,"style":"form","explode":true,"description":"One of the two query shapes; its properties are the query parameters.","schema":{"oneOf":["#
            + frameQuery + "," + streamQuery + "]}}]").utf8))
        w.key("responses")
        w.beginObject()
        w.key("200")
        w.rawValue(Array(##"{"description":"A frame, or the event stream (frame ids are the session's: every viewer at one fps gets the same).","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Frame"}},"text/event-stream":{"schema":"## .utf8) + Array(eventSchema.utf8) + Array("}}}".utf8))
        for (code, text) in [("400", "A bad or unknown parameter, or a combination neither shape allows."), ("404", "No such session."),
                             ("421", "The session belongs to another replica: the load balancer routed it wrongly."),
                             ("409", "t is later than the session's clock: that frame is not known yet."),
                             ("406", "The Accept header excludes application/json and text/event-stream."),
                             ("410", "The session expired."), ("503", "The viewer limit is reached.")] {
            response(&w, code, text, ref("Error"))
        }
        transportLimits(&w)
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
            ("421", "The session belongs to another replica (its name is the id's part before the dot): the load balancer routed it wrongly.", ref("Error")),
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

    static func components(_ w: inout JSONWriter, _ catalog: LoaderCatalog, _ configuration: ServiceConfiguration) {
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
        frameQuerySchemas(&w, catalog, configuration)
        w.endObject()
        w.key("securitySchemes")
        w.rawValue(Array(#"{"bearer":{"type":"http","scheme":"bearer","description":"The token returned when the session was created."}}"#.utf8))
        w.endObject()
    }

    // MARK: Pieces

    /// `"<path>": {"get": {operationId, summary, …`: the caller writes the
    /// rest of the operation and closes both objects.
    static func beginGet(_ w: inout JSONWriter, _ path: String, id: String, summary: String) {
        w.key(path)
        w.beginObject()
        w.key("get")
        w.beginObject()
        w.field("operationId", id)
        w.field("summary", summary)
    }

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
        transportLimits(&w)
        w.endObject()
    }

    /// The server's own limits, which any request can meet: in every
    /// operation's responses.
    static func transportLimits(_ w: inout JSONWriter) {
        let limits = HTTPLimits()
        response(&w, "414", "The request line (method, path and query) is longer than \(limits.maxRequestLineBytes) bytes.", ref("Error"))
        response(&w, "431", "The header section is larger than \(limits.maxHeaderBytes) bytes or has more than \(limits.maxHeaderCount) fields.", ref("Error"))
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

    static func nameParameter(_ w: inout JSONWriter, _ catalog: LoaderCatalog) {
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

    /// "View width in points: a number from 1 to 10000."
    static func parameterText(_ spec: ParameterSpec) -> String {
        (spec.summary.hasSuffix(".") ? String(spec.summary.dropLast()) : spec.summary) + ": " + spec.acceptedForm + "."
    }

    /// `TypingFrameQuery`, `getSwitchFrames`: the loader's name as a type name.
    static func typeName(_ loader: LoaderDefinition) -> String {
        loader.name.prefix(1).uppercased() + loader.name.dropFirst()
    }

    /// A schema with a description added (`schema` is a JSON object).
    static func described(_ schema: String, _ description: String) -> [UInt8] {
        var w = JSONWriter(capacity: 64)
        w.beginObject()
        w.field("description", description)
        w.endObject()
        var bytes = w.bytes
        bytes.removeLast()
        return bytes + [UInt8(ascii: ",")] + schema.utf8.dropFirst()
    }

    /// An event's value: one time, or a comma-separated list of at most
    /// `TimeValue.maximumListCount` times.
    static func eventSchema(_ event: EventSpec) -> String {
        switch event.kind {
        case .time:
            return numberSchema(min: 0, max: TimeValue.maximum)
        case .timeList:
            // Each time 0…1e9 seconds: at most 9 integer digits, or 1000000000.
            let time = #"(1000000000(\\.0+)?|[0-9]{1,9}(\\.[0-9]+)?)"#
            return #"{"type":"string","pattern":"^$|^\#(time)(,\#(time)){0,\#(TimeValue.maximumListCount - 1)}$"}"#
        }
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
