import FoundationEssentials
import LoaderEngine

/// Per loader: ns per frame to compute, to compute and encode by hand, and to
/// encode the same frame with JSONEncoder, with the ratio.
enum EngineBenchmark {
    static func run(arguments: [String]) {
        var iterations = 200_000
        if let i = arguments.firstIndex(of: "--iterations"), i + 1 < arguments.count, let n = Int(arguments[i + 1]) {
            iterations = n
        }
        // `--profile typing`: only compute and encode that loader, for perf or callgrind.
        if let i = arguments.firstIndex(of: "--profile"), i + 1 < arguments.count {
            let loader = LoaderCatalog.standard[arguments[i + 1]]!.configure()
            var sink = 0
            for n in 0..<iterations { sink &+= FrameEncoder.encode(loader.frame(at: Double(n % 10_000) * 0.001)).count }
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
        print("loader   compute ns/frame   compute+encode ns/frame   JSONEncoder ns/frame   JSONEncoder/(compute+encode)")
        for (name, query) in cases {
            let items = query.split(separator: "&").map { pair -> (name: String, value: String) in
                let parts = pair.split(separator: "=", maxSplits: 1)
                return (String(parts[0]), String(parts[1]))
            }
            let loader = try! LoaderCatalog.standard[name]!.configure(items)
            let r = measure(loader, iterations: iterations)
            print(pad(name, 8), pad(fmt(r.compute), 18), pad(fmt(r.computeEncode), 25), pad(fmt(r.jsonEncoder), 22),
                  fmt(r.jsonEncoder / r.computeEncode) + "×")
        }
    }

    struct Result { var compute, computeEncode, jsonEncoder: Double }

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
        let encoder = JSONEncoder()
        let jsonIterations = max(1, iterations / 10)
        let frames = (0..<100).map { CodableFrame(loader.frame(at: time($0 * 37))) }
        let jsonElapsed = clock.measure {
            for i in 0..<jsonIterations { sink &+= (try! encoder.encode(frames[i % 100])).count }
        }
        if sink == 42 { print("") }  // keep the work observable
        return Result(
            compute: nanoseconds(computeElapsed) / Double(iterations),
            computeEncode: nanoseconds(encodeElapsed) / Double(iterations),
            jsonEncoder: nanoseconds(jsonElapsed) / Double(jsonIterations))
    }

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

/// The same frame, in a Codable mirror, for JSONEncoder.
struct CodableFrame: Encodable {
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
