import HTTPServer
import LoaderEngine
import LoaderSessions

/// The sessions' operations.
extension OpenAPI {
    static let idParameter = #"{"name":"id","in":"path","required":true,"description":"Session id: 128 random bits, URL-safe, after the owning replica's name and a dot when replicaName is set.","schema":{"type":"string"}}"#

    static func createSession(_ c: Context) -> [Operation] {
        [operation("/sessions", "post", id: "createSession", summary: "Create a live session of a loader; the token in the answer authorizes its events.",
                  requestBody: sessionBody(c.catalog), responses: answers([
            ("201", "Created; Location names it. Made durable (journaled) before this answer when a data directory is set.", ref("SessionCreated")),
        ], refusing: [.badBody, Refusal(status: 400, why: "An unknown loader or a bad parameter."), .acceptsNoJSON, .bodyNotJSON,
                      Refusal(status: 429, why: "This client address creates sessions faster than sessionCreateRate allows, without sessionCreateKey (Retry-After).")] +
                      SessionError.failures(of: .create).map(refusal)))]
    }

    static func getSession(_ c: Context) -> [Operation] {
        [operation("/sessions/{id}", "get", id: "getSession", summary: "A session's loader, params, creation time, clock now (t), done, viewers and a page of its events.",
                  parameters: "[\(idParameter)," + #"{"name":"after","in":"query","required":false,"description":"Events to skip: the page holds the events from this index on (at most \#(LoaderService.sessionEventsPage)).","schema":{"type":"integer","minimum":0,"maximum":999999999}}]"#, responses: answers([
            ("200", "The session, with a next link while more events follow the page.", ref("SessionState")),
        ], refusing: [Refusal(status: 400, why: "An unknown query parameter, or after is not a whole number."), .acceptsNoJSON] +
                      SessionError.failures(of: .read).map(refusal)))]
    }

    static func deleteSession(_ c: Context) -> [Operation] {
        [operation("/sessions/{id}", "delete", id: "deleteSession", summary: "Delete a session (its token required); afterwards it answers 404.",
                  bearer: true, parameters: "[\(idParameter)]", responses: answers([("204", "Deleted.", nil)],
                                                                     refusing: [.queryGiven] + SessionError.failures(of: .delete).map(refusal)))]
    }

    static func getSessionFrames(_ c: Context) -> [Operation] {
        let configuration = c.configuration
        var w = JSONWriter(capacity: 4096)
        beginOperation(&w, id: "getSessionFrames",
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
        let refusals = [
            Refusal(status: 400, why: "A bad or unknown parameter, or a combination neither shape allows."),
            Refusal(status: 409, why: "t is later than the session's clock: that frame is not known yet."),
            Refusal(status: 406, why: "The Accept header excludes application/json and text/event-stream."),
            Refusal(status: 429, why: "This client already has maxStreamsPerClient streams open (Retry-After)."),
            Refusal(status: 503, why: "maxStreams is reached (Retry-After)."),
        ] + SessionError.failures(of: .watch).map(refusal) + [
            Refusal(status: 503, why: "A stream this replica cannot start while the store is away is a 200 event stream of retry: and event: end with reason unavailable, so that EventSource retries."),
        ]
        return [finish(&w, answers([], refusing: refusals), path: "/sessions/{id}/frames", method: "get")]
    }

    static func postSessionEvent(_ c: Context) -> [Operation] {
        [operation("/sessions/{id}/events", "post", id: "postSessionEvent", summary: "Report progress or finish (web) or stop (every loader), at the session clock now.",
                  bearer: true, parameters: "[\(idParameter)]",
                  requestBody: Array(#"{"required":true,"content":{"application/json":{"schema":{"type":"object","required":["type"],"additionalProperties":false,"properties":{"type":{"type":"string","enum":["progress","finish","stop"]}}}}}}"#.utf8),
                  responses: answers([
            ("202", "Accepted, with the event's time on the session clock; durable before this answer when a data directory is set.", #"{"type":"object","required":["type","t"],"properties":{"type":{"type":"string"},"t":{"type":"number"}}}"#),
        ], refusing: [.badBody, .bodyNotJSON] + SessionError.failures(of: .post).map(refusal)))]
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
        for subject in subjects(catalog) {
            let loader = subject.loader
            w.beginObject()
            w.field("type", "object")
            w.key("required")
            w.rawValue(Array(#"["loader"]"#.utf8))
            w.field("additionalProperties", false)
            w.key("properties")
            w.beginObject()
            w.key("loader")
            w.rawValue(Array(enumSchema(subject.names).utf8))
            w.key("params")
            w.beginObject()
            w.field("type", "object")
            w.field("description", "The loader's parameters, as in \(subject.entry).")
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
}
