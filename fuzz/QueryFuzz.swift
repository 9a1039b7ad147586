// libFuzzer target: query strings through the frames query (the parser every
// frames endpoint uses), the parameter parser, the loaders
// and the frame encoder, for every loader; the JSON must be well formed enough
// to start and end as an object, and nothing may crash, hang or leak.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQuery(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: min(count, 4096)), as: UTF8.self)
    var items: [(name: String, value: String)] = []
    for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        items.append((String(parts[0]), parts.count > 1 ? String(parts[1]) : ""))
    }
    for definition in LoaderCatalog.standard.loaders {
        // As the frames endpoint reads it, asked for one frame and for a stream.
        for streaming in [false, true] {
            guard let query = try? FrameQuery(definition, items: items, eventStream: { streaming }),
                  let loader = try? query.configured(), let t = try? query.time("t") ?? 0 else { continue }
            _ = try? query.fps(default: 50)
            let json = FrameEncoder.encode(loader.frame(at: t))
            if json.first != UInt8(ascii: "{") || json.last != UInt8(ascii: "}") { fatalError("malformed frame JSON") }
            var renderer = FrameRenderer(loader)
            _ = renderer.encodedFrame(at: t * 0.5)
        }
    }
    return 0
}
