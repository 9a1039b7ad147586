import LoaderEngine
import LoaderFormats
import LoaderService

/// How close each default animation.svg is to the engine's frames.
enum SVGReport {
    static func run() {
        print("loader              loop s   keyframes   bytes    max position error (pt)   max radius error (pt)   max opacity error")
        for definition in LoaderCatalog.standard.loaders {
            let a = try! SampledLoop.loop(for: definition, parameters: [], verify: true)
            print(EngineBenchmark.pad(definition.name, 19), EngineBenchmark.pad(SVG.n(a.duration), 8),
                  EngineBenchmark.pad(String(a.keyframeCount), 11), EngineBenchmark.pad(String(SVG.animation(a).count), 8),
                  EngineBenchmark.pad(SVG.fixed(a.maxPositionError, decimals: 4), 25),
                  EngineBenchmark.pad(SVG.fixed(a.maxRadiusError, decimals: 4), 23), SVG.fixed(a.maxOpacityError, decimals: 4))
        }
        print("(errors checked every 1 ms against the engine, away from the 0.1 ms that bracket each jump)")
    }
}
