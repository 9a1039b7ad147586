import HTTPServer
import LoaderEngine

/// The exports' operations: one per export and `Subject`.
extension OpenAPI {
    /// `/loaders/<loader>/<file>` for each `Subject`.
    static func export(_ export: any LoaderExport, _ c: Context) -> [Operation] {
        subjects(c.catalog).map { subject in
            picture(subject, export.file, id: "get\(subject.type)\(export.operationName)", takesTime: export.source == .frame,
                    summary: export.summary(subject.label, loop: loopText(subject.loader)),
                    contentType: export.contentType, schema: export.schema, options: export.options, heavy: export.heavy)
        }
    }

    static func loopText(_ loader: LoaderDefinition) -> String {
        (loader.events.contains { $0.name == "finish" } ? "a sample page load" : "one period, from when every element has started")
            + " (or from `from`), at most a minute"
    }

    /// A picture of one loader: its parameters, and with `takesTime` a
    /// moment `t` and the loader's events.
    static func picture(_ subject: Subject, _ file: String, id: String, takesTime: Bool, summary: String,
                        contentType: String, schema body: String, options: [ExportOption], heavy: Bool) -> Operation {
        var w = JSONWriter(capacity: 2048)
        beginOperation(&w, id: id, summary: summary)
        let loader = subject.loader
        w.key("parameters")
        w.beginArray()
        subjectParameters(&w, subject)
        if takesTime {
            query(&w, "t", "Seconds since the loader started (default 0).", numberSchema(min: 0, max: TimeValue.maximum))
        } else {
            query(&w, "from", "The loader time the loop's first frame shows (default: once every element has started; 0 for a page load).",
                  numberSchema(min: 0, max: TimeValue.maximum))
        }
        for option in options {
            query(&w, option.name, option.summary, option.schema)
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
        // A picture of frames says the rate it is drawn at.
        let headers = options.contains { $0.name == "fps" }
            ? #","headers":{"Loader-Frame-Rate":{"description":"The frames a second drawn: the frames over the loop's length, to two decimals (fps asked, 30 by default, or fewer to fit the limits and, without fps, 300 KB).","required":true,"schema":{"type":"string","pattern":"^[0-9]+(\\.[0-9]{1,2})?$"}}}"#
            : ""
        w.rawValue(Array(#"{"description":"The picture.""#.utf8) + Array(headers.utf8) + Array(#","content":{"\#(contentType)":{"schema":\#(body)}}}"#.utf8))
        var statuses = [("304", "Not modified (If-None-Match)."), ("400", "A bad or unknown parameter."),
                        ("406", "The Accept header excludes \(contentType).")]
        if subject.shared { statuses.insert(("404", "No loader of that name (the message names the nearest)."), at: 2) }
        if heavy {
            statuses[1].1 = takesTime
                ? "A bad or unknown parameter, a picture of more pixels than its limit (too_large), or one whose drawing would cost more than maxWorkPerRequest (too_costly)."
                : "A bad or unknown parameter, a loop whose build would cost more than maxWorkPerRequest (too_costly), or an animation of more pixels than its limit (too_large)."
            statuses.append(("429", "This client already has maxHeavyRequestsPerClient heavy requests running and maxHeavyWaitingPerClient waiting (Retry-After)."))
            statuses.append(("503", "The server holds more than maxBufferedBytes of answers clients have not read, or the build waited heavyWaitSeconds for a worker (Retry-After)."))
        }
        for (code, text) in statuses {
            response(&w, code, text, code == "304" ? nil : ref("Error"))
        }
        transportLimits(&w)
        w.endObject()
        w.endObject()
        return Operation(path: "\(subject.path)/\(file)", method: "get", json: w.bytes)
    }
}
