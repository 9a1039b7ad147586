import HTTPServer
import LoaderEngine

/// `POST /loaders/preview` and the loader format's JSON Schema.
extension OpenAPI {
    static func previewLoader(_ c: Context) -> [Operation] {
        var w = JSONWriter(capacity: 4096)
        beginOperation(&w, id: "previewLoader",
                       summary: "The frames of the loader definition in the body, without installing it: one frame at t, a batch (from, to, fps), or a live stream (stream=sse).")
        w.field("description", "The body is a loader definition (docs/LOADERS.md); the query is one of PreviewFrameQuery, PreviewBatchQuery and PreviewStreamQuery, as for GET /loaders/{name}/frames, with the parameters every defined loader takes. A definition that breaks a rule JSON Schema cannot state (key times in order, one timing function fewer than values, unique element ids, the limits on layers, elements, keyframes and path commands) is a 400 whose error names the JSON path (error.path).")
        w.key("parameters")
        w.beginArray()
        w.rawValue(Array(##"{"name":"query","in":"query","required":false,"style":"form","explode":true,"description":"One of the three query shapes; its properties are the query parameters.","schema":{"oneOf":[{"$ref":"#/components/schemas/PreviewFrameQuery"},{"$ref":"#/components/schemas/PreviewBatchQuery"},{"$ref":"#/components/schemas/PreviewStreamQuery"}]}}"##.utf8))
        w.endArray()
        w.key("requestBody")
        w.rawValue(Array(##"{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/LoaderDefinition"}}}}"##.utf8))
        w.key("responses")
        w.beginObject()
        w.key("200")
        w.rawValue(Array(##"{"description":"A frame, a batch, or an event stream, as GET /loaders/{name}/frames answers them (never cached).","content":{"application/json":{"schema":{"oneOf":[{"$ref":"#/components/schemas/Frame"},{"$ref":"#/components/schemas/Batch"}]}},"text/event-stream":{"schema":\##(eventSchema)}}}"##.utf8))
        return [finish(&w, [
            ("204", "A resumed stream that has nothing left to send.", nil),
            ("304", "Not modified (If-None-Match).", nil),
            ("400", "Bad JSON, a bad definition (error.path says where) or a bad query parameter.", ref("Error")),
            ("406", "The Accept header excludes application/json and text/event-stream.", ref("Error")),
            ("413", "The body is larger than the server's maxBodyBytes.", ref("Error")),
            ("415", "The body is not application/json.", ref("Error")),
            ("429", "This client already has maxHeavyRequestsPerClient heavy requests running and maxHeavyWaitingPerClient waiting, or a stream while it has maxStreamsPerClient open (Retry-After).", ref("Error")),
            ("503", "The server holds more than maxBufferedBytes of unread answers, the preview waited heavyWaitSeconds for a worker, or the server has maxStreams streams open (Retry-After).", ref("Error")),
        ], path: "/loaders/preview", method: "post")]
    }

    /// The loader format (format 1) as JSON Schema. It states what a schema
    /// can; the parser also checks the rest (see `previewLoader`).
    static func definitionSchemas(_ w: inout JSONWriter) {
        let number = { (min: String, max: String) in #"{"type":"number","minimum":\#(min),"maximum":\#(max)}"# }
        let positive = { (max: String) in #"{"type":"number","exclusiveMinimum":0,"maximum":\#(max)}"# }
        let point = #"{"type":"array","minItems":2,"maxItems":2,"items":{"type":"number","minimum":-1000000,"maximum":1000000}}"#
        let size = #"{"type":"array","minItems":2,"maxItems":2,"items":{"type":"number","minimum":0,"maximum":10000}}"#
        let hex = ##"{"type":"string","pattern":"^#[0-9A-Fa-f]{6}$"}"##
        let color = ##"{"type":"string","pattern":"^(color|#[0-9A-Fa-f]{6})$","description":"#RRGGBB, or \"color\": the loader's colour."}"##
        let layers = ##"{"type":"array","minItems":1,"items":{"$ref":"#/components/schemas/DefinitionLayer"}}"##
        w.key("LoaderDefinition")
        w.rawValue(Array(##"{"type":"object","description":"A loader in Core Animation's terms (docs/LOADERS.md).","additionalProperties":false,"required":["format","name","summary","canvas","layers"],"properties":{"format":{"const":1},"name":{"type":"string","pattern":"^[a-z][a-z0-9-]{0,39}$","not":{"const":"preview"}},"summary":{"type":"string","minLength":1,"maxLength":300},"canvas":{"type":"object","additionalProperties":false,"required":["width","height"],"properties":{"width":\##(positive("10000")),"height":\##(positive("10000"))}},"background":\##(hex),"color":\##(hex),"layers":\##(layers),"reducedMotion":\##(layers)}}"##.utf8))

        let common = ##""id":{"type":"string","pattern":"^[a-z][a-z0-9]{0,19}$"},"position":\##(point),"opacity":\##(number("0", "1")),"transform":{"type":"object","additionalProperties":false,"properties":{"scale":\##(number("0", "1000")),"rotation":\##(number("-1000", "1000"))}},"animations":{"type":"array","items":{"$ref":"#/components/schemas/DefinitionAnimation"}},"beginTime":\##(number("-1000000", "1000000"))"##
        func layer(_ type: String, _ required: [String], _ own: String) -> String {
            let names = (["type", "id"] + required).map { "\"\($0)\"" }.joined(separator: ",")
            return ##"{"type":"object","additionalProperties":false,"required":[\##(names)],"properties":{"type":{"const":"\##(type)"},\##(common),\##(own)}}"##
        }
        let variants = [
            layer("circle", ["diameter"], ##""diameter":\##(positive("10000")),"backgroundColor":\##(color)"##),
            layer("rect", ["bounds"], ##""bounds":\##(size),"cornerRadius":\##(number("0", "10000")),"backgroundColor":\##(color)"##),
            layer("ring", ["diameter"], ##""diameter":\##(positive("10000")),"lineWidth":\##(number("0", "10000")),"strokeColor":\##(color),"strokeStart":\##(number("0", "1")),"strokeEnd":\##(number("0", "1")),"lineCap":{"enum":["butt","round"]}"##),
            layer("segment", ["diameter"], ##""diameter":\##(positive("10000")),"arc":\##(number("0", "6.283185307179586")),"fillColor":\##(color)"##),
            layer("replicator", ["bounds", "sublayers"], ##""bounds":\##(size),"instanceCount":{"type":"integer","minimum":0,"maximum":\##(DefinitionLimits.maxElements)},"instanceDelay":\##(number("-1000000", "1000000")),"instanceTransform":{"type":"object","additionalProperties":false,"properties":{"translation":\##(point),"rotation":\##(number("-1000", "1000")),"scale":\##(number("0", "1000"))}},"instanceAlphaOffset":\##(number("-1", "1")),"sublayers":\##(layers)"##),
        ]
        w.key("DefinitionLayer")
        w.rawValue(Array(#"{"oneOf":[\#(variants.joined(separator: ","))]}"#.utf8))

        let timing = ##""beginTime":\##(number("-1000000", "1000000")),"duration":\##(positive("1000000")),"repeatCount":{"anyOf":[\##(number("0", "1000000000")),{"const":"infinity"}]},"repeatDuration":\##(positive("1000000000")),"autoreverses":{"type":"boolean"},"speed":\##(positive("1000")),"timeOffset":\##(number("-1000000", "1000000")),"fillMode":{"enum":["removed","forwards","backwards","both"]},"removedOnCompletion":{"type":"boolean"}"##
        let function = #"{"anyOf":[{"enum":["linear","easeIn","easeOut","easeInEaseOut","default"]},{"type":"array","minItems":4,"maxItems":4,"items":{"type":"number","minimum":-100,"maximum":100}}]}"#
        let value = #"{"anyOf":[{"type":"number"},\#(point),\#(color)]}"#
        let keyPath = #"{"enum":["opacity","position","position.x","position.y","transform.scale","transform.rotation.z","transform.rotation","backgroundColor","strokeColor","strokeStart","strokeEnd","lineWidth","fillColor","cornerRadius","bounds.size.width","bounds.size.height"]}"#
        func animation(_ type: String, _ required: [String], _ own: String) -> String {
            let names = (["type"] + required).map { "\"\($0)\"" }.joined(separator: ",")
            return ##"{"type":"object","additionalProperties":false,"required":[\##(names)],"not":{"required":["repeatCount","repeatDuration"]},"properties":{"type":{"const":"\##(type)"},\##(timing),\##(own)}}"##
        }
        let animations = [
            animation("basic", ["keyPath"], ##""keyPath":\##(keyPath),"fromValue":\##(value),"toValue":\##(value),"byValue":\##(value),"timingFunction":\##(function)"##),
            animation("keyframe", ["keyPath"], ##""keyPath":\##(keyPath),"values":{"type":"array","minItems":1,"items":\##(value)},"path":{"type":"string","description":"SVG path data: M, then L H V C Q A Z, absolute or relative."},"keyTimes":{"type":"array","items":\##(number("0", "1"))},"timingFunctions":{"type":"array","items":\##(function)},"timingFunction":\##(function),"calculationMode":{"enum":["linear","discrete","paced"]}"##),
            animation("group", ["animations"], ##""animations":{"type":"array","items":{"$ref":"#/components/schemas/DefinitionAnimation"}},"timingFunction":\##(function)"##),
        ]
        w.key("DefinitionAnimation")
        w.rawValue(Array(#"{"oneOf":[\#(animations.joined(separator: ","))]}"#.utf8))
    }
}
