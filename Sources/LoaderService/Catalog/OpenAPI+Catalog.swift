import HTTPServer
import LoaderEngine

/// The catalogue's and the service's own operations: the loaders, the
/// health, metrics, this document and the version.
extension OpenAPI {
    static func listLoaders(_ c: Context) -> [Operation] {
        let families = c.catalog.families.map { #""\#($0)""# }.joined(separator: ",")
        let family = #"[{"name":"family","in":"query","required":false,"description":"Only the loaders of this family.","schema":{"type":"string","enum":[\#(families)]}}]"#
        return [operation("/loaders", "get", id: "listLoaders", summary: "The catalog: every loader with its parameters, events and period, or those of one family.",
                          parameters: family, responses: answers([
            ("200", "The catalog.", ref("Catalog")), notModified,
        ], refusing: [Refusal(status: 400, why: "A query parameter other than family, family given twice, or a family the catalogue does not have."), .acceptsNoJSON]))]
    }

    static func getLoader(_ c: Context) -> [Operation] {
        var parameters = JSONWriter(capacity: 256)
        parameters.beginArray()
        nameParameter(&parameters, c.catalog)
        parameters.endArray()
        return [operation("/loaders/{name}", "get", id: "getLoader", summary: "One catalog entry.", parameters: String(decoding: parameters.bytes, as: UTF8.self), responses: answers([
            ("200", "The loader.", ref("Loader")), notModified,
        ], refusing: [.queryGiven, Refusal(status: 404, why: "No loader of that name."), .acceptsNoJSON]))]
    }

    /// `/`: the demo page.
    static func healthz(_ c: Context) -> [Operation] {
        [status("/healthz", "Liveness: the process answers (200 while it shuts down too: it needs no restart).")]
    }

    static func readyz(_ c: Context) -> [Operation] {
        let follows = c.configuration.readinessFollowsSessionStore
        let summary = "Readiness: whether to send this replica work, and which parts are unavailable, each with its reason: the service while it shuts down, the session store while it cannot be reached."
        let ok = "Ready. unavailable may still name the session store" + (follows ? "." : " (readinessFollowsSessionStore is off: frames, exports and streams work without it).")
        let notReady = "Not ready: shutting down" + (follows ? ", or the session store cannot be reached (readinessFollowsSessionStore)." : ".")
            + " The body is the error shape and the readiness one together."
        let readiness = ref("Readiness")
        return [operation("/readyz", "get", summary: summary, responses: answers([
            ("200", ok, readiness), ("503", notReady, #"{"allOf":[\#(ref("Error")),\#(readiness)]}"#),
        ], refusing: [.queryGiven, .acceptsNoJSON]))]
    }

    static func status(_ path: String, _ summary: String) -> Operation {
        let ok = ("200", summary, Optional(#"{"type":"object","properties":{"status":{"type":"string"}},"required":["status"]}"#))
        return operation(path, "get", summary: summary, responses: answers([ok], refusing: [.queryGiven, .acceptsNoJSON]))
    }

    /// `/readyz`'s body, whatever its status.
    static let readinessSchema = #"{"type":"object","required":["status","unavailable"],"properties":{"status":{"type":"string","enum":["ready","not_ready"]},"unavailable":{"type":"array","items":{"type":"object","required":["part","reason"],"properties":{"part":{"type":"string","enum":["service","session_store"]},"reason":{"type":"string"}}}}}}"#

    static func metrics(_ c: Context) -> [Operation] {
        var w = JSONWriter(capacity: 512)
        w.beginObject()
        w.field("summary", "Prometheus metrics: requests by route, method and status, latency histogram, open connections and streams, frames sent and skipped, process_* and build info.")
        w.key("responses")
        w.beginObject()
        w.key("200")
        w.rawValue(Array(#"{"description":"Prometheus text format 0.0.4.","content":{"text/plain":{"schema":{"type":"string"}}}}"#.utf8))
        transportLimits(&w)
        w.endObject()
        w.endObject()
        return [Operation(path: "/metrics", method: "get", json: w.bytes)]
    }

    static func openAPI(_ c: Context) -> [Operation] {
        [operation("/openapi.json", "get", summary: "This document.", responses: answers([
            ("200", "OpenAPI 3.1.", #"{"type":"object"}"#), notModified,
        ], refusing: [.queryGiven, .acceptsNoJSON]))]
    }
}
