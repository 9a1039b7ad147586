// libFuzzer target: the loader-definition parser and what it builds. Any
// input is parsed; a refusal must name a path and say something; a
// definition that parses must build, render frames at a few times (normal
// and reduced motion) with exactly its element ids, all finite, and encode
// to JSON that reads back. Nothing may crash, hang or leak.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDefinition(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    let document: LoaderDocument
    do {
        document = try LoaderDocument.parse(bytes)
    } catch {
        if error.message.isEmpty { fatalError("a refusal without a message") }
        return 0
    }
    let definition = LoaderDefinition(document: document)
    for motion in ["normal", "reduced"] {
        guard let loader = try? definition.configure([(name: "motion", value: motion)]) else { fatalError("defaults refused") }
        for t in [0, 0.37, 1.5, 1e4 + 0.1] {
            let frame = loader.frame(at: t)
            for e in frame.elements where !(e.x.isFinite && e.y.isFinite && e.scale.isFinite && e.opacity >= 0 && e.opacity <= 1) {
                fatalError("element \(e.id) at t=\(t) is not finite: \(e)")
            }
            if motion == "normal" && frame.elements.count != document.elementIDs.count { fatalError("element count differs from the ids") }
            guard (try? JSONValue.parse(FrameEncoder.encode(frame))) != nil else { fatalError("a frame that is not JSON") }
        }
    }
    _ = definition.period(definition.defaults)
    return 0
}
