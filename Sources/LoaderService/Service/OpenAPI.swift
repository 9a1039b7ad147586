import HTTPServer
import LoaderEngine
import LoaderSessions

/// `GET /openapi.json`: OpenAPI 3.1, built from the endpoint table and the
/// catalog, so that every path, parameter, range and default is the one the
/// service enforces. Each endpoint writes its own operations
/// (`Endpoint.document`); here are the document around them and the pieces
/// they share.
enum OpenAPI {
    /// What operations are written from.
    struct Context: Sendable {
        let catalog: LoaderCatalog
        let configuration: ServiceConfiguration
    }

    /// One operation of the document: its path (a loader's own, or the
    /// route's pattern), its method, and its JSON object.
    struct Operation {
        let path: String
        let method: String
        let json: [UInt8]
    }

    static func document(_ endpoints: [Endpoint], _ context: Context) -> [UInt8] {
        var w = JSONWriter(capacity: 32 * 1024)
        w.beginObject()
        w.field("openapi", "3.1.0")
        w.key("info")
        w.beginObject()
        w.field("title", "loaderd")
        w.field("version", LoaderService.version)
        w.field("description", "Exact frames of loading animations (the catalogue at /loaders) computed with Core Animation's timing model: JSON frames, batches and server-sent event streams, live sessions, pictures and exports. While a replica shuts down, every request but /healthz and /readyz is answered at once with 503 (code shutting_down), Retry-After and Connection: close, so that it can go to another replica.")
        w.endObject()
        // Paths in the table's order, each with its operations.
        var paths: [String] = []
        var operations: [String: [Operation]] = [:]
        for endpoint in endpoints {
            for operation in endpoint.document(context) {
                if operations[operation.path] == nil { paths.append(operation.path) }
                operations[operation.path, default: []].append(operation)
            }
        }
        w.key("paths")
        w.beginObject()
        for path in paths {
            w.key(path)
            w.beginObject()
            for operation in operations[path]! {
                w.key(operation.method)
                w.rawValue(operation.json)
            }
            w.endObject()
        }
        w.endObject()
        components(&w, context.catalog, context.configuration)
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
        w.rawValue(Array(#"{"type":"object","required":["error"],"properties":{"error":{"type":"object","required":["status","code","message"],"properties":{"status":{"type":"integer"},"code":{"type":"string"},"message":{"type":"string"},"path":{"type":"string","description":"Where in the request body the problem is (a JSON path), for a loader definition."}}}}}"#.utf8))
        w.key("Readiness")
        w.rawValue(Array(readinessSchema.utf8))
        w.key("Element")
        elementSchema(&w)
        w.key("Frame")
        w.rawValue(Array(##"{"type":"object","required":["loader","t","width","height","done","elements"],"properties":{"loader":{"type":"string"},"t":{"type":"number"},"width":{"type":"number"},"height":{"type":"number"},"done":{"type":"boolean"},"background":{"type":"string","pattern":"^#[0-9A-F]{6}$","description":"The colour drawn behind the elements, present only when one is drawn (the background parameter, or the loader's own); absent: transparent."},"progress":{"type":"number","minimum":0,"maximum":1,"description":"The share of the load done (web with steps: each progress event 1/steps, finish 1), present only when the loader knows its whole."},"elements":{"type":"array","items":{"$ref":"#/components/schemas/Element"}}}}"##.utf8))
        w.key("Batch")
        w.rawValue(Array(##"{"type":"object","required":["loader","fps","frames"],"properties":{"loader":{"type":"string"},"fps":{"type":"number"},"frames":{"type":"array","items":{"$ref":"#/components/schemas/Frame"}},"next":{"type":"string","description":"The rest of the batch (path and query), when this answer holds only its first frames."}}}"##.utf8))
        w.key("Loader")
        w.rawValue(Array(#"{"type":"object","required":["name","description","family","original","canvas","period","parameters","events","reducedMotion","links"],"properties":{"name":{"type":"string"},"description":{"type":"string"},"family":{"type":["string","null"],"description":"The family of loaders this one reproduces one of (SpinKit, NVActivityIndicatorView, Material), or null."},"original":{"type":["string","null"],"description":"The original's name in its family (ballPulse, double-bounce), or null."},"aliases":{"type":"array","items":{"type":"string"},"description":"Other names the loader answers to, in paths and loader values: names it had before."},"canvas":{"type":"object","required":["width","height"],"properties":{"width":{"type":"number"},"height":{"type":"number"}}},"period":{"type":["number","null"]},"parameters":{"type":"array","items":{"type":"object","required":["name","type","default","description"]}},"events":{"type":"array","items":{"type":"object","required":["name","type"]}},"reducedMotion":{"type":"string"},"background":{"type":["string","null"],"description":"The loader's own background (#RRGGBB), or null for none: the background parameter's default."},"links":{"type":"object","required":["self","frames","stream"],"additionalProperties":{"type":"string"},"description":"What the service serves of this loader, by name: self, frames, stream (frames?stream=sse), frames.svg and each export (animation.svg, .json, .css, .html)."}}}"#.utf8))
        w.key("SessionCreated")
        w.rawValue(Array(#"{"type":"object","required":["id","token","loader","createdAt"],"properties":{"id":{"type":"string"},"token":{"type":"string","description":"Secret: send as Authorization: Bearer <token> to post events or delete."},"loader":{"type":"string"},"createdAt":{"type":"string","format":"date-time"}}}"#.utf8))
        w.key("SessionState")
        w.rawValue(Array(#"{"type":"object","required":["id","loader","params","createdAt","t","done","viewers","eventCount","events"],"properties":{"id":{"type":"string"},"loader":{"type":"string"},"params":{"type":"object"},"createdAt":{"type":"string","format":"date-time"},"t":{"type":"number","description":"The session clock now: seconds since createdAt."},"done":{"type":"boolean"},"viewers":{"type":"integer"},"eventCount":{"type":"integer","minimum":0,"description":"Events the session has had; events holds at most \#(LoaderService.sessionEventsPage) of them, from after."},"next":{"type":"string","description":"The next page of events, while there are more."},"events":{"type":"array","maxItems":\#(LoaderService.sessionEventsPage),"items":{"type":"object","required":["type","t"],"properties":{"type":{"type":"string","enum":["progress","finish","stop"]},"t":{"type":"number"}}}}}}"#.utf8))
        w.key("Catalog")
        w.rawValue(Array(##"{"type":"object","required":["loaders"],"properties":{"loaders":{"type":"array","items":{"$ref":"#/components/schemas/Loader"}}}}"##.utf8))
        frameQuerySchemas(&w, catalog, configuration)
        definitionSchemas(&w)
        w.endObject()
        w.key("securitySchemes")
        w.rawValue(Array(#"{"bearer":{"type":"http","scheme":"bearer","description":"The token returned when the session was created."}}"#.utf8))
        w.endObject()
    }

    // MARK: Pieces

    /// `{operationId, summary, …`: the caller writes the rest of the
    /// operation and closes it.
    static func beginOperation(_ w: inout JSONWriter, id: String, summary: String) {
        w.beginObject()
        w.field("operationId", id)
        w.field("summary", summary)
    }

    /// `{operationId, summary, security, parameters, requestBody, responses}`.
    static func operation(_ path: String, _ method: String, id: String? = nil, summary: String, bearer: Bool = false,
                          parameters: String? = nil, requestBody: [UInt8]? = nil, responses list: [(String, String, String?)]) -> Operation {
        var w = JSONWriter(capacity: 2048)
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
        return Operation(path: path, method: method, json: w.bytes)
    }

    /// A way an operation refuses a request: its status and when.
    struct Refusal {
        let status: Int
        let why: String

        /// Checks the service makes of many requests, each described once.
        static let queryGiven = Refusal(status: 400, why: "A query parameter was given; this resource takes none.")
        static let acceptsNoJSON = Refusal(status: 406, why: "The Accept header excludes application/json.")
        static let bodyNotJSON = Refusal(status: 415, why: "The body is not application/json.")
        static let badBody = Refusal(status: 400, why: "A malformed body.")
    }

    /// The answer to a request whose `If-None-Match` holds the ETag.
    static let notModified: (String, String, String?) = ("304", "Not modified (If-None-Match).", nil)

    /// A session store's failure, with the status the API gives it.
    static func refusal(_ error: SessionError) -> Refusal { Refusal(status: ServiceError(error).status.code, why: error.summary) }

    /// An operation's answers: `success`, then each status it refuses with
    /// once, in order, its reasons joined.
    static func answers(_ success: [(String, String, String?)], refusing refusals: [Refusal]) -> [(String, String, String?)] {
        var reasons: [Int: [String]] = [:]
        for r in refusals where !(reasons[r.status]?.contains(r.why) ?? false) { reasons[r.status, default: []].append(r.why) }
        return success + reasons.keys.sorted().map { (String($0), reasons[$0]!.joined(separator: " "), ref("Error")) }
    }

    /// Ends an operation written by hand after its 200: the other
    /// `answers`, the transport's limits, and the operation's close.
    static func finish(_ w: inout JSONWriter, _ answers: [(String, String, String?)], path: String, method: String) -> Operation {
        for (code, text, schema) in answers { response(&w, code, text, schema) }
        transportLimits(&w)
        w.endObject()
        w.endObject()
        return Operation(path: path, method: method, json: w.bytes)
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
        nameParameter(&w, catalog.names, "Loader name")
    }

    /// The path's `{name}`: one of `names`, listed after `what`.
    static func nameParameter(_ w: inout JSONWriter, _ names: [String], _ what: String) {
        w.beginObject()
        w.field("name", "name")
        w.field("in", "path")
        w.field("required", true)
        w.field("description", what + ": " + names.joined(separator: ", ") + ".")
        w.key("schema")
        w.rawValue(Array(enumSchema(names).utf8))
        w.endObject()
    }

    static func query(_ w: inout JSONWriter, _ name: String, _ description: String, _ schema: String) {
        parameter(&w, in: "query", name, description, schema)
    }

    static func header(_ w: inout JSONWriter, _ name: String, _ description: String, _ schema: String) {
        parameter(&w, in: "header", name, description, schema)
    }

    /// An optional parameter `name` in `location` (query, header).
    static func parameter(_ w: inout JSONWriter, in location: String, _ name: String, _ description: String, _ schema: String) {
        w.beginObject()
        w.field("name", name)
        w.field("in", location)
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
        // activity-indicator → ActivityIndicator
        loader.name.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
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
        case .colorOrNone:
            return #"{"type":"string","pattern":"^(none|#?([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6}))$"}"#
        case let .choice(words):
            return enumSchema(words)
        }
    }
}
