import HTTPServer
import LoaderEngine

/// The exports' operations: a frame as SVG, a loop as SVG, Lottie, CSS and HTML.
extension OpenAPI {
    /// `/loaders/<loader>/frames.svg`, one path per `Subject`.
    static func getFrameSVG(_ c: Context) -> [Operation] {
        subjects(c.catalog).map { subject in
            picture(subject, "frames.svg", id: "get\(subject.type)FrameSVG", takesTime: true,
                    summary: "One \(subject.label) frame as SVG on the loader's background; the viewBox holds every element.")
        }
    }

    /// `/loaders/<loader>/animation.svg`, one path per `Subject`.
    static func getAnimationSVG(_ c: Context) -> [Operation] {
        subjects(c.catalog).map { subject in
            picture(subject, "animation.svg", id: "get\(subject.type)AnimationSVG", takesTime: false,
                    summary: "A self-contained animated SVG (SMIL) of \(subject.label) sampled from the engine: \(loopText(subject.loader)); loops in an <img>.")
        }
    }

    /// `/loaders/<loader>/animation.json`, one path per `Subject`.
    static func getAnimationLottie(_ c: Context) -> [Operation] {
        subjects(c.catalog).map { subject in
            picture(subject, "animation.json", id: "get\(subject.type)AnimationLottie", takesTime: false,
                    summary: "A Lottie document (Lottie specification 1.0, \"ver\": 10000) of \(subject.label) sampled from the engine: \(loopText(subject.loader)); frame f shows the engine's frame at from + f/fr. Plays in lottie-web, lottie-ios, lottie-android and rlottie.",
                    contentType: "application/json", schema: #"{"type":"object","required":["ver","fr","ip","op","w","h","layers"]}"#)
        }
    }

    /// `/loaders/<loader>/animation.css`, one path per `Subject`.
    static func getAnimationCSS(_ c: Context) -> [Operation] {
        subjects(c.catalog).map { subject in
            picture(subject, "animation.css", id: "get\(subject.type)AnimationCSS", takesTime: false,
                    summary: "CSS for \(subject.label): @keyframes per element and their rules, from the engine: \(loopText(subject.loader)); custom properties --ld-color, --ld-speed and --ld-scale on the container; a prefers-reduced-motion block equal to motion=reduced. The markup is animation.html's.",
                    contentType: "text/css; charset=utf-8")
        }
    }

    /// `/loaders/<loader>/animation.html`, one path per `Subject`.
    static func getAnimationHTML(_ c: Context) -> [Operation] {
        subjects(c.catalog).map { subject in
            picture(subject, "animation.html", id: "get\(subject.type)AnimationHTML", takesTime: false,
                    summary: "A self-contained HTML snippet for \(subject.label): a <style> with animation.css and the markup, one container role=\"status\" with an aria-label (label=, default Loading) and one node per element with data-element=\"<id>\".",
                    contentType: "text/html; charset=utf-8", label: true)
        }
    }

    static func loopText(_ loader: LoaderDefinition) -> String {
        (loader.events.contains { $0.name == "finish" } ? "a sample page load" : "one period, from when every element has started")
            + " (or from `from`), at most a minute"
    }

    /// A picture of one loader: its parameters, and with `takesTime` a
    /// moment `t` and the loader's events.
    static func picture(_ subject: Subject, _ file: String, id: String, takesTime: Bool, summary: String,
                        contentType: String = "image/svg+xml", schema body: String = #"{"type":"string"}"#, label: Bool = false) -> Operation {
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
        if label {
            query(&w, "label", "The container's aria-label (default Loading), 1 to 200 characters, no control characters.",
                  #"{"type":"string","minLength":1,"maxLength":200,"pattern":"^[^\u0000-\u001F\u007F-\u009F]*$"}"#)
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
        w.rawValue(Array(#"{"description":"The picture.","content":{"\#(contentType)":{"schema":\#(body)}}}"#.utf8))
        var statuses = [("304", "Not modified (If-None-Match)."), ("400", "A bad or unknown parameter."),
                        ("406", "The Accept header excludes \(contentType).")]
        if subject.shared { statuses.insert(("404", "No loader of that name (the message names the nearest)."), at: 2) }
        if !takesTime {
            statuses[1].1 = "A bad or unknown parameter, or a loop whose build would cost more than maxWorkPerRequest (too_costly)."
            statuses.append(("429", "This client already has maxHeavyRequestsPerClient heavy requests running (Retry-After)."))
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
