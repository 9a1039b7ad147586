import FoundationEssentials
import LoaderEngine
import LoaderFormats
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

    /// The costliest definitions of other shapes that `maxFrameCost`
    /// allows: (name, definition), each within a unit of the limit.
    static func atTheLimit() -> [(String, String)] {
        let limit = DefinitionLimits.maxFrameCost
        func document(_ layers: String) -> String {
            #"{"format": 1, "name": "limit", "summary": "At the limit.", "canvas": {"width": 100, "height": 100}, "layers": [\#(layers)]}"#
        }
        let eased = #"{"type": "basic", "keyPath": "transform.scale", "fromValue": 1, "toValue": 0.2, "duration": 0.7, "autoreverses": true, "repeatCount": "infinity", "timingFunction": [0.2, 0.68, 0.18, 1.08]}"#
        // 1,000 circles with as many eased animations each as fit.
        let perElement = limit / 1_000 - 2
        let animated = #"{"type": "replicator", "id": "r", "bounds": [100, 100], "instanceCount": 1000, "instanceDelay": 0.001, "instanceTransform": {"rotation": 0.01}, "sublayers": [{"type": "circle", "id": "d", "position": [50, 10], "diameter": 2, "animations": [\#(Array(repeating: eased, count: perElement).joined(separator: ","))]}]}"#
        // Replicators four deep (5⁴ = 625 dots), each level animated.
        let level = 5
        func nest(_ depth: Int) -> String {
            guard depth > 0 else { return #"{"type": "circle", "id": "d", "position": [50, 10], "diameter": 2, "animations": [\#(eased)]}"# }
            return #"{"type": "replicator", "id": "r\#(depth)", "bounds": [100, 100], "instanceCount": \#(level), "instanceDelay": 0.01, "instanceTransform": {"rotation": 0.3, "scale": 0.99}, "animations": [\#(eased)], "sublayers": [\#(nest(depth - 1))]}"#
        }
        // One dot whose keyframe animations fill the limit, nested in groups.
        let keyframes = #"{"type": "keyframe", "keyPath": "opacity", "values": [\#((0..<100).map { "\($0 % 2)" }.joined(separator: ","))], "duration": 1, "repeatCount": "infinity", "timingFunctions": [\#(Array(repeating: "[0.4, 0, 0.2, 1]", count: 99).joined(separator: ","))]}"#
        let grouped = #"{"type": "circle", "id": "d", "diameter": 2, "animations": [{"type": "group", "duration": 1, "repeatCount": "infinity", "animations": [\#(Array(repeating: keyframes, count: 90).joined(separator: ","))]}]}"#
        // Format 1.1: as many squares in perspective as fit, each turning
        // about x and y, placed by plane maps and written with outlines.
        func document11(_ layers: String) -> String {
            #"{"format": 1.1, "name": "limit", "summary": "At the limit.", "canvas": {"width": 100, "height": 100}, "layers": [\#(layers)]}"#
        }
        let turn = { (path: String) in #"{"type": "basic", "keyPath": "\#(path)", "fromValue": 0, "toValue": 1, "duration": 0.7, "autoreverses": true, "repeatCount": "infinity", "timingFunction": [0.2, 0.68, 0.18, 1.08]}"# }
        let planeCount = limit / (3 + FrameCost.spaceUnits)
        let perPlane = max(0, limit / planeCount - 2 - FrameCost.spaceUnits)
        let turns = (0..<perPlane).map { turn($0 % 2 == 0 ? "transform.rotation.x" : "transform.rotation.y") }
        let planes = #"{"type": "replicator", "id": "r", "bounds": [100, 100], "instanceCount": \#(planeCount), "instanceDelay": 0.001, "instanceTransform": {"rotation": 0.01}, "sublayers": [{"type": "rect", "id": "p", "position": [50, 20], "bounds": [8, 8], "cornerRadius": 2, "transform": {"matrix": [1,0,0,0, 0,1,0,0, 0,0,1,-0.01, 0,0,0,1]}, "animations": [\#(turns.joined(separator: ","))]}]}"#
        // Whole-matrix keyframes: round-capped rings, two animations each.
        let matrix = "[0.5,0.2,0,0, -0.2,0.5,0,0, 0,0,1,-0.01, 0,0,0,1]"
        let wholes = #"{"type": "keyframe", "keyPath": "transform", "values": [[1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1], \#(matrix)], "duration": 1, "repeatCount": "infinity"}"#
        let perRing = 2
        let ringCount = limit / (1 + FrameCost.spaceUnits + perRing * FrameCost.matrixUnits)
        let rings = #"{"type": "replicator", "id": "r", "bounds": [100, 100], "instanceCount": \#(ringCount), "instanceDelay": 0.001, "instanceTransform": {"rotation": 0.01}, "sublayers": [{"type": "ring", "id": "q", "position": [50, 20], "diameter": 6, "lineWidth": 1, "strokeEnd": 0.7, "lineCap": "round", "animations": [\#(Array(repeating: wholes, count: perRing).joined(separator: ","))]}]}"#
        return [("1000 eased dots", document(animated)), ("4 nested levels", document(nest(4))),
                ("groups of keyframes", document(Array(repeating: grouped, count: 1).joined(separator: ","))),
                ("planes in perspective", document11(planes)), ("rings of whole matrices", document11(rings))]
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
        print("maxFrameCost \(DefinitionLimits.maxFrameCost) units; each definition's cost beside its name")
        measure("largest", definition, rounds: 5, frames: 200)
        for (name, text) in atTheLimit() {
            do {
                measure(name, try LoaderDefinition(definition: Array(text.utf8)), rounds: 5, frames: 200)
            } catch {
                print(name, "refused:", error)
            }
        }
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
        let cost = definition.document.map { " (\($0.frameCost) units)" } ?? ""
        print(EngineBenchmark.pad(name + cost, 34), "compute", EngineBenchmark.pad(String(format2(median(compute))) + " µs", 12),
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
            let loop = try! SampledLoop.loop(for: definition, parameters: [])
            let animation = SVG.animation(loop)
            let path = directory + "/" + definition.name + ".svg"
            try! Data(animation).write(to: URL(fileURLWithPath: path))
            print("\(path): \(animation.count) bytes, \(SVG.n(loop.duration)) s loop")
        }
    }
}
