import HTTPServer
import LoaderEngine

/// The frames endpoint's operations (one a loader) and its query shapes.
extension OpenAPI {
    /// `/loaders/<loader>/frames`, one path per built-in loader and one for
    /// every loader written as a definition (`Subject`): each takes only its
    /// own parameters, and the query has three shapes that exclude each
    /// other (a frame, a batch, a stream). One exploded object parameter with
    /// a `oneOf` of the three says exactly which combinations are accepted.
    static func getFrames(_ c: Context) -> [Operation] {
        let configuration = c.configuration
        return subjects(c.catalog).map { subject in
            let type = subject.type
            var w = JSONWriter(capacity: 4096)
            beginOperation(&w, id: "get\(type)Frames",
                     summary: "\(type): one frame at t, a batch (from, to, fps), or a live stream (Accept: text/event-stream or stream=sse).")
            w.field("description", "The query is one of four shapes: \(type)FrameQuery (t), \(type)BatchQuery (from, to, fps), \(type)StreamQuery (stream=sse, t, fps, duration) or \(type)SharedStreamQuery (stream=sse, clock=shared, fps, duration), each with the loader's parameters and events (see \(subject.entry)). With `Accept: text/event-stream` the stream shape applies without `stream=sse`; with `Accept: image/svg+xml` a frame comes as SVG. A batch answers at most \(LoaderService.maxBatchFrames) frames and \(LoaderService.maxBatchBytes >> 20) MiB; past either it answers the frames that fit and `next`, the same query from the following frame on (also as `Link: <…>; rel=\"next\"`). A `to` before `from` gives no frames. A frame for an explicit t never changes: it is cacheable forever. A stream sends `retry: \(configuration.streamRetryMilliseconds)`, then `id: k`, `event: frame`, `data: <frame>` for the frame at t + k/fps when the clock since the stream began reaches k/fps; `duration` ends it with `event: end`; `Last-Event-ID` resumes at k+1. With clock=shared, frame k is due at k/fps seconds since the Unix epoch and shows that moment folded into the loader's steady loop (docs/FRAMES.md), so every viewer gets the same id and frame at the same moment; a resumed stream continues at the frame due now. In a stream, a loader parameter whose name the stream uses (the switch's duration) is `loader.<name>`; elsewhere the prefix is refused.")
            w.key("parameters")
            w.beginArray()
            subjectParameters(&w, subject)
            w.beginObject()
            w.field("name", "query")
            w.field("in", "query")
            w.field("required", false)
            w.field("style", "form")
            w.field("explode", true)
            w.field("description", "One of the four query shapes; its properties are the query parameters.")
            w.key("schema")
            w.rawValue(Array(##"{"oneOf":[{"$ref":"#/components/schemas/\##(type)FrameQuery"},{"$ref":"#/components/schemas/\##(type)BatchQuery"},{"$ref":"#/components/schemas/\##(type)StreamQuery"},{"$ref":"#/components/schemas/\##(type)SharedStreamQuery"}]}"##.utf8))
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
            w.key("Link")
            w.rawValue(Array(#"{"schema":{"type":"string"},"description":"A batch that continues: <next>; rel=\"next\"."}"#.utf8))
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
            let unknown: [(String, String, String?)] = subject.shared ? [("404", "No loader of that name (the message names the nearest).", ref("Error"))] : []
            return finish(&w, [
                ("204", "A resumed stream that has nothing left to send (EventSource stops).", nil),
                ("304", "Not modified (If-None-Match).", nil),
                ("400", "A bad or unknown parameter, or a combination no shape allows, named in the message with the accepted form; a stream whose frames would cost more than maxStreamWorkPerSecond (too_costly).", ref("Error")),
            ] + unknown + [
                ("406", "The Accept header excludes application/json, text/event-stream and image/svg+xml.", ref("Error")),
                ("429", "A costly batch while this client already has maxHeavyRequestsPerClient heavy requests running and maxHeavyWaitingPerClient waiting, or a stream while it has maxStreamsPerClient open (Retry-After).", ref("Error")),
                ("503", "A costly batch while the server holds more than maxBufferedBytes of unread answers or that waited heavyWaitSeconds for a worker, or a stream while it has maxStreams open (Retry-After).", ref("Error")),
            ], path: "\(subject.path)/frames", method: "get")
        }
    }

    /// The three query shapes of each loader's frames (and of a preview's),
    /// as component schemas.
    static func frameQuerySchemas(_ w: inout JSONWriter, _ catalog: LoaderCatalog, _ configuration: ServiceConfiguration) {
        for subject in subjects(catalog) {
            frameQuerySchemas(&w, subject.type, subject.label, subject.loader.parameters, subject.loader.events, configuration, shared: true)
        }
        frameQuerySchemas(&w, "Preview", "the definition in the body", LoaderDefinition.definedParameters(color: .white),
                          LoaderDefinition.definedEvents, configuration, shared: false)
    }

    static func frameQuerySchemas(_ w: inout JSONWriter, _ type: String, _ name: String, _ parameters: [ParameterSpec],
                                  _ events: [EventSpec], _ configuration: ServiceConfiguration, shared: Bool) {
        let time = numberSchema(min: 0, max: TimeValue.maximum)
        let fps = numberSchema(min: 1, max: 120)
        let takes = (parameters, events)
        querySchema(&w, "\(type)FrameQuery", "One frame of \(name).", takes, inStream: false, required: [], own: [
            ("t", "Seconds since the loader started (default 0).", time),
        ])
        querySchema(&w, "\(type)BatchQuery", "A batch of \(name) frames at from + k/fps while <= to (1e-9 slack).", takes, inStream: false, required: ["to"], own: [
            ("from", "First frame time (default 0).", time),
            ("to", "Last frame time (inclusive); before from, the batch has no frames.", time),
            ("fps", "Frames per second (default \(configuration.streamDefaultFps)).", fps),
        ])
        querySchema(&w, "\(type)StreamQuery", "A live stream of \(name) frames.", takes, inStream: true, required: ["stream"], own: [
            ("stream", "`sse`: stream without an Accept header.", enumSchema(["sse"])),
            ("t", "The first frame's time (default 0).", time),
            ("fps", "Frames per second (default \(configuration.streamDefaultFps)).", fps),
            ("duration", "Seconds after which the stream ends with `event: end`.", numberSchema(exclusiveMin: 0, max: TimeValue.maximum)),
            ("clock", "`stream` (the default): the stream's own clock, from t.", enumSchema(["stream"])),
        ])
        guard shared else { return }
        querySchema(&w, "\(type)SharedStreamQuery", "A live stream of \(name) frames on the shared clock: the Unix epoch folded into the loader's steady loop.",
                    (parameters, []), inStream: true, required: ["stream", "clock"], own: [
            ("stream", "`sse`: stream without an Accept header.", enumSchema(["sse"])),
            ("clock", "`shared`: every viewer's frame k is due at k/fps seconds since the Unix epoch.", enumSchema(["shared"])),
            ("fps", "Frames per second (default \(configuration.streamDefaultFps)).", fps),
            ("duration", "Seconds after which the stream ends with `event: end`.", numberSchema(exclusiveMin: 0, max: TimeValue.maximum)),
        ])
    }

    /// An object schema of query parameters: the shape's own, then the
    /// loader's parameters and events. In a stream a loader parameter whose
    /// name the stream uses (the switch's `duration`) is `loader.<name>`.
    static func querySchema(_ w: inout JSONWriter, _ name: String, _ description: String, _ takes: ([ParameterSpec], [EventSpec]),
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
        for spec in takes.0 {
            let shadowed = inStream && own.contains { $0.0 == spec.name }
            w.key(shadowed ? "loader." + spec.name : spec.name)
            w.rawValue(described(schema(spec), parameterText(spec)))
        }
        for event in takes.1 {
            w.key(event.name)
            w.rawValue(described(eventSchema(event), event.summary))
        }
        w.endObject()
        w.endObject()
    }
}
