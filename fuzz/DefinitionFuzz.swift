// libFuzzer target: the loader-definition parser and what it builds. Any
// input is parsed; a refusal must name a path and say something; a
// definition that parses must build, render frames at a few times (normal
// and reduced motion) with exactly its element ids, all finite, and encode
// to JSON that reads back. Nothing may crash, hang or leak, and no frame may
// take longer than its counted cost promises (`slowness`).
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
            let took = fastest(of: 3) { _ = loader.frame(at: t) }
            if took > allowance(loader.frameCost) {
                fatalError("a frame of cost \(loader.frameCost) took \(took) at t=\(t), more than the cost promises (\(allowance(loader.frameCost)))")
            }
            for e in frame.elements where !(e.x.isFinite && e.y.isFinite && e.scale.isFinite && e.opacity >= 0 && e.opacity <= 1) {
                fatalError("element \(e.id) at t=\(t) is not finite: \(e)")
            }
            if motion == "normal" && frame.elements.count != document.elementIDs.count { fatalError("element count differs from the ids") }
            guard (try? JSONValue.parse(FrameEncoder.encode(frame))) != nil else { fatalError("a frame that is not JSON") }
        }
    }
    _ = definition.period(definition.defaults)
    // One own period per element, each a whole cycle, or none.
    if let periods = definition.elementPeriods(definition.defaults) {
        if periods.count != document.elementIDs.count { fatalError("\(periods.count) element periods for \(document.elementIDs.count) elements") }
        for p in periods { if let p, !(p >= 0 && p.isFinite) { fatalError("an element period of \(p)") } }
    }
    return 0
}

/// What a frame of `cost` units may take here: release builds take under
/// 80 ns a unit at worst (docs/LOADERS.md); this build has AddressSanitizer
/// and coverage, a few times slower, and a machine has pauses of its own.
/// A frame past this does work its cost does not count: a finding.
func allowance(_ cost: Int) -> Duration { .milliseconds(5) + .nanoseconds(1_000 * cost) }

/// The fastest of `runs` runs of `body` (a pause of the machine is not the frame's).
func fastest(of runs: Int, _ body: () -> Void) -> Duration {
    var best = Duration.seconds(1_000)
    for _ in 0..<runs {
        let start = ContinuousClock.now
        body()
        best = min(best, ContinuousClock.now - start)
    }
    return best
}
