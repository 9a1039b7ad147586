import FoundationEssentials
import LoaderEngine
import LoaderService

/// The largest definition the limits allow, in microseconds per frame (the
/// target is under 1 ms in release), and each catalogue loader's frame.
enum DefinitionBenchmark {
    /// 250 circles in a replicator of 4 (1,000 elements, 251 layers), each
    /// moving along a paced path of 37 cubic curves and fading: 10,000
    /// keyframes and 9,250 path commands, the costliest kinds to evaluate.
    static func largest() -> String {
        var layers: [String] = []
        for i in 0..<250 {
            var path = "M\(i % 50) \(i / 50)"
            for k in 0..<37 { path += " C\(k) 0 \(k + 1) 5 \(k + 2) \(k % 7)" }
            layers.append(#"{"type": "circle", "id": "d\#(i)", "position": [10, 10], "diameter": 2, "animations": [{"type": "keyframe", "keyPath": "position", "path": "\#(path)", "calculationMode": "paced", "duration": 3.7, "repeatCount": "infinity"}, {"type": "basic", "keyPath": "opacity", "fromValue": 1, "toValue": 0.2, "duration": 1, "autoreverses": true, "repeatCount": "infinity"}]}"#)
        }
        return #"{"format": 1, "name": "largest", "summary": "The limits.", "canvas": {"width": 100, "height": 100}, "layers": [{"type": "replicator", "id": "r", "position": [50, 50], "bounds": [100, 100], "instanceCount": 4, "instanceDelay": 0.1, "instanceTransform": {"rotation": 1.5707963267948966}, "sublayers": [\#(layers.joined(separator: ","))]}]}"#
    }

    static func run(arguments: [String]) {
        #if DEBUG
        print("warning: debug build; run with -c release for real figures")
        #endif
        let text = largest()
        let started = ContinuousClock.now
        let definition = try! LoaderDefinition(definition: Array(text.utf8))
        let parse = ContinuousClock.now - started
        print("largest definition: \(text.utf8.count) bytes, parsed and built in \(micros(parse)) µs")
        measure("largest", definition, rounds: 5, frames: 200)
        for loader in LoaderCatalog.standard.loaders where loader.document != nil {
            measure(loader.name, loader, rounds: 5, frames: 20_000)
        }
    }

    /// Median of `rounds` rounds: µs to compute one frame, and to compute and encode it.
    static func measure(_ name: String, _ definition: LoaderDefinition, rounds: Int, frames: Int) {
        let loader = definition.configure()
        var renderer = FrameRenderer(loader)
        var compute: [Double] = [], encode: [Double] = []
        var sink = 0
        for _ in 0..<rounds {
            let a = ContinuousClock.now
            for n in 0..<frames { sink &+= loader.frame(at: Double(n) * 0.0137).elements.count }
            let b = ContinuousClock.now
            for n in 0..<frames { sink &+= renderer.encodedFrame(at: Double(n) * 0.0137).json.count }
            let c = ContinuousClock.now
            compute.append(micros(b - a) / Double(frames))
            encode.append(micros(c - b) / Double(frames))
        }
        let median = { (v: [Double]) in v.sorted()[v.count / 2] }
        print(EngineBenchmark.pad(name, 19), "compute", EngineBenchmark.pad(String(format2(median(compute))) + " µs", 12),
              "compute+encode", String(format2(median(encode))) + " µs", sink == 0 ? "" : "")
    }

    static func micros(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12
    }

    static func format2(_ v: Double) -> String { SVG.fixed(v, decimals: 2) }
}

/// Writes each defined loader's animated SVG (default parameters) into a
/// directory: the pictures of docs/LOADERS.md.
enum Pictures {
    static func run(arguments: [String]) {
        let directory = arguments.first ?? "docs/loaders"
        for definition in LoaderCatalog.standard.loaders {
            let animation = try! SVGAnimation.loop(for: definition, parameters: [])
            let path = directory + "/" + definition.name + ".svg"
            try! Data(animation.svg).write(to: URL(fileURLWithPath: path))
            print("\(path): \(animation.svg.count) bytes, \(SVG.n(animation.duration)) s loop")
        }
    }
}
