import LoaderEngine

extension OpenAPI {
    /// `GET /streams`: several loaders on one event stream.
    static func multiplexedStream(_ c: Context) -> [Operation] {
        let configuration = c.configuration
        let reference = ##"{"type":"string","pattern":"^(\##(c.catalog.names.joined(separator: "|")))$","description":"A loader's name; its parameters may follow after ? as a query (switch?count=5&color=%23FF0000), and on the stream's own clock its events."}"##
        let query = #"{"type":"object","additionalProperties":false,"required":["loader"],"properties":{"loader":{"type":"array","minItems":1,"maxItems":\#(LoaderService.maxMultiplexedLoaders),"items":\#(reference)},"stream":{"type":"string","enum":["sse"]},"fps":"#
            + String(decoding: described(numberSchema(min: 1, max: 120), "Frames per second of every loader (default \(configuration.streamDefaultFps))."), as: UTF8.self)
            + #","duration":"# + String(decoding: described(numberSchema(exclusiveMin: 0, max: TimeValue.maximum), "Seconds after which the stream ends with `event: end`."), as: UTF8.self)
            + #","clock":{"type":"string","enum":["stream","shared"],"description":"stream (default): the stream's own clock, every loader from t = 0; shared: the Unix epoch folded into each loader's steady loop."}}}"#
        let parameters = ##"[{"name":"query","in":"query","required":true,"style":"form","explode":true,"description":"The loaders (loader, repeated, 1 to \##(LoaderService.maxMultiplexedLoaders) times) and the stream's own values.","schema":\##(query)},{"name":"Last-Event-ID","in":"header","required":false,"description":"Resume after this tick. A value that is not a frame id is ignored.","schema":{"type":"string"}}]"##
        var w = JSONWriter(capacity: 4096)
        beginOperation(&w, id: "getMultiplexedStream",
                       summary: "One event stream with the frames of up to \(LoaderService.maxMultiplexedLoaders) loaders: each tick k sends one event: frame per loader, data {\"index\": its place among the loader values, \"frame\": the Frame}; the tick's last event carries id: k. Ends with event: end once every loader is done or after duration.")
        w.key("parameters")
        w.rawValue(Array(parameters.utf8))
        w.key("responses")
        w.beginObject()
        w.key("200")
        w.rawValue(Array(#"{"description":"The event stream.","content":{"text/event-stream":{"schema":\#(eventSchema)}}}"#.utf8))
        return [finish(&w, [
            ("204", "A resumed stream that has nothing left to send (EventSource stops).", nil),
            ("400", "A bad or unknown loader, parameter or value, named in the message.", ref("Error")),
            ("406", "The Accept header excludes text/event-stream.", ref("Error")),
            ("429", "This client already has maxStreamsPerClient streams open (Retry-After).", ref("Error")),
            ("503", "The server has maxStreams streams open (Retry-After).", ref("Error")),
        ], path: "/streams", method: "get")]
    }
}
