import FoundationEssentials
import LoaderEngine

/// Per loader: ns per frame to compute, to compute and encode by hand, and to
/// encode the same frame with JSONEncoder, with the ratio.
enum EngineBenchmark {
    static func run(arguments: [String]) {
        let iterations = iterationCount(arguments, default: 200_000)
        // `--profile typing`: only compute and encode that loader, for perf or callgrind.
        if let i = arguments.firstIndex(of: "--profile"), i + 1 < arguments.count {
            var renderer = FrameRenderer(LoaderCatalog.standard[arguments[i + 1]]!.configure())
            var sink = 0
            for n in 0..<iterations { sink &+= renderer.encodedFrame(at: Double(n % 10_000) * 0.001 + 0.5).json.count }
            print("encoded \(sink) bytes")
            return
        }
        #if DEBUG
        print("warning: debug build; run with -c release for real figures")
        #endif
        let cases: [(String, String)] = [
            ("typing", ""),
            ("switch", ""),
            ("web", "progress=0.2,0.5,0.9,1.3,1.35&finish=4"),
        ]
        print("median of 5 rounds, \(iterations) frames per round")
        print("ns per frame: compute = loader.frame(at:); +encode = FrameEncoder.encode(loader.frame(at:));")
        print("renderer = FrameRenderer.encodedFrame(at:) (reused element buffer, as streams use it);")
        print("JSON(Frame) = JSONEncoder().encode(frame) on the same Frame values (Frame: Encodable);")
        print("JSON(mirror) = JSONEncoder on a copy whose ids and colours are already Strings (no conversion cost).")
        print("Target: compute + encode of a typing frame at least 20× faster than JSONEncoder.")
        print("loader   compute  +encode  renderer  JSON(Frame)  JSON(mirror) Frame/+encode   Frame/renderer mirror/renderer")
        for (name, query) in cases {
            let items = query.split(separator: "&").map { pair -> (name: String, value: String) in
                let parts = pair.split(separator: "=", maxSplits: 1)
                return (String(parts[0]), String(parts[1]))
            }
            let loader = try! LoaderCatalog.standard[name]!.configure(items)
            // Five rounds; each figure is the median round (shared machines are noisy).
            let rounds = (0..<5).map { _ in measure(loader, iterations: iterations) }
            let r = Result(compute: median(rounds.map(\.compute)), computeEncode: median(rounds.map(\.computeEncode)),
                           rendererEncode: median(rounds.map(\.rendererEncode)), jsonEncoder: median(rounds.map(\.jsonEncoder)),
                           jsonEncoderMirror: median(rounds.map(\.jsonEncoderMirror)))
            print(pad(name, 8), pad(fmt(r.compute), 9), pad(fmt(r.computeEncode), 9), pad(fmt(r.rendererEncode), 10),
                  pad(fmt(r.jsonEncoder), 13), pad(fmt(r.jsonEncoderMirror), 13),
                  pad(fmt(r.jsonEncoder / r.computeEncode) + "×", 15), pad(fmt(r.jsonEncoder / r.rendererEncode) + "×", 15),
                  fmt(r.jsonEncoderMirror / r.rendererEncode) + "×")
        }
    }

    struct Result { var compute, computeEncode, rendererEncode, jsonEncoder, jsonEncoderMirror: Double }

    static func measure(_ loader: ConfiguredLoader, iterations: Int) -> Result {
        let clock = ContinuousClock()
        var sink = 0
        // Times spread over 10 s at 1/1000 s steps, as a stream would ask.
        func time(_ i: Int) -> Double { Double(i % 10_000) * 0.001 + 0.5 }

        for i in 0..<1000 { sink &+= FrameEncoder.encode(loader.frame(at: time(i))).count }  // warm up

        let computeElapsed = clock.measure {
            for i in 0..<iterations { sink &+= loader.frame(at: time(i)).elements.count }
        }
        let encodeElapsed = clock.measure {
            for i in 0..<iterations { sink &+= FrameEncoder.encode(loader.frame(at: time(i))).count }
        }
        var renderer = FrameRenderer(loader)
        let rendererElapsed = clock.measure {
            for i in 0..<iterations { sink &+= renderer.encodedFrame(at: time(i)).json.count }
        }
        let encoder = JSONEncoder()
        let jsonIterations = max(1, iterations / 10)
        let frames = (0..<100).map { loader.frame(at: time($0 * 37)) }
        let jsonElapsed = clock.measure {
            for i in 0..<jsonIterations { sink &+= (try! encoder.encode(frames[i % 100])).count }
        }
        let mirrors = frames.map(StringFrame.init)
        let mirrorElapsed = clock.measure {
            for i in 0..<jsonIterations { sink &+= (try! encoder.encode(mirrors[i % 100])).count }
        }
        if sink == 42 { print("") }  // keep the work observable
        return Result(
            compute: nanoseconds(computeElapsed) / Double(iterations),
            computeEncode: nanoseconds(encodeElapsed) / Double(iterations),
            rendererEncode: nanoseconds(rendererElapsed) / Double(iterations),
            jsonEncoder: nanoseconds(jsonElapsed) / Double(jsonIterations),
            jsonEncoderMirror: nanoseconds(mirrorElapsed) / Double(jsonIterations))
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    static func nanoseconds(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1e9 + Double(d.components.attoseconds) / 1e9
    }

    static func fmt(_ v: Double) -> String {
        let tenths = (v * 10).rounded()
        return "\(Int(tenths) / 10).\(Int(tenths) % 10)"
    }

    static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
    }
}

/// The frame with ids and colours already converted to strings, so that
/// JSONEncoder is measured on its encoding work alone.
struct StringFrame: Encodable {
    struct Element: Encodable {
        let id: String, shape: String
        let x, y, diameter, scale, opacity: Double
        let color: String
    }
    let loader: String
    let t, width, height: Double
    let done: Bool
    let elements: [Element]

    init(_ f: Frame) {
        loader = f.loader; t = f.t; width = f.width; height = f.height; done = f.done
        elements = f.elements.map {
            Element(id: $0.id.description, shape: $0.shape.rawValue, x: $0.x, y: $0.y, diameter: $0.diameter,
                    scale: $0.scale, opacity: $0.opacity, color: $0.color.description)
        }
    }
}
