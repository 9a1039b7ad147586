/// The values of a loader's parameters, in the order of its specs.
public struct ParameterValues: Sendable, Equatable {
    public let specs: [ParameterSpec]
    public private(set) var values: [ParameterValue]

    init(specs: [ParameterSpec]) {
        self.specs = specs
        self.values = specs.map(\.defaultValue)
    }

    mutating func set(_ value: ParameterValue, at index: Int) { values[index] = value }

    public subscript(name: String) -> ParameterValue {
        guard let i = specs.firstIndex(where: { $0.name == name }) else {
            preconditionFailure("no parameter \(name)")
        }
        return values[i]
    }

    public func number(_ name: String) -> Double {
        switch self[name] {
        case let .number(v): return v
        case let .integer(v): return Double(v)
        default: preconditionFailure("\(name) is not a number")
        }
    }

    public func integer(_ name: String) -> Int {
        guard case let .integer(v) = self[name] else { preconditionFailure("\(name) is not an integer") }
        return v
    }

    public func color(_ name: String) -> RGBColor {
        guard case let .color(v) = self[name] else { preconditionFailure("\(name) is not a colour") }
        return v
    }

    public func choice(_ name: String) -> String {
        guard case let .choice(v) = self[name] else { preconditionFailure("\(name) is not a choice") }
        return v
    }

    public func colorOrNone(_ name: String) -> RGBColor? {
        guard case let .colorOrNone(v) = self[name] else { preconditionFailure("\(name) is not a colour or none") }
        return v
    }

    /// `motion=reduced`.
    public var reducedMotion: Bool { choice("motion") == "reduced" }

    /// What is drawn behind the loader (`background`; `nil`: nothing).
    public var background: RGBColor? { colorOrNone("background") }
}

/// The events of one run of a loader, as times in seconds since it started.
public struct LoaderEvents: Sendable, Equatable {
    /// `removeLoader`: from this time on nothing is shown and the loader is done.
    public var stop: Double?
    /// web: loading complete.
    public var finish: Double?
    /// web: one sub-resource loaded, per time.
    public var progress: [Double]

    public init(stop: Double? = nil, finish: Double? = nil, progress: [Double] = []) {
        self.stop = stop
        self.finish = finish
        self.progress = progress
    }
}

/// Something that draws a loader's elements for a time; built once per set of
/// parameters and events, then asked for many frames.
public protocol LoaderScene: Sendable {
    /// Appends the elements shown at `t` (not yet stopped); returns `done`.
    func render(at t: Double, into elements: inout [Element]) -> Bool
    /// Per element, in drawing order: when it is a copy of an earlier
    /// element moved by a constant offset and running later (a replicator's
    /// copies with a translation), which one. Empty: none known.
    func copies() -> [CopyRelation?]
}

extension LoaderScene {
    public func copies() -> [CopyRelation?] { [] }
}

/// Element `base`'s values, `delay` seconds later, moved by `offset`: what a
/// replicator draws for a copy whose instance transform is a translation.
public struct CopyRelation: Sendable, Equatable {
    public let base: Int
    public let delay: Double
    public let offset: Point

    public init(base: Int, delay: Double, offset: Point) {
        self.base = base
        self.delay = delay
        self.offset = offset
    }
}

/// A catalog entry: what a loader is, what it takes, and how to build it.
/// A class of constants: a request hands it on as one reference instead of
/// a dozen.
public final class LoaderDefinition: Sendable {
    public let name: String
    public let summary: String
    public let parameters: [ParameterSpec]
    public let events: [EventSpec]
    /// What `motion=reduced` does, in words.
    public let reducedMotion: String
    /// The loader's own background, the `background` parameter's default
    /// (`nil`: nothing).
    public let background: RGBColor?
    /// The definition it was built from, for a defined loader.
    public let document: LoaderDocument?
    /// Where it comes from: the family of loaders (`SpinKit`) and the
    /// original's name in it (`double-bounce`), when it reproduces one.
    public let family: String?
    public let original: String?
    /// Other names it answers to: names it had before.
    public var aliases: [String] { document?.aliases ?? [] }
    let makePeriod: @Sendable (ParameterValues) -> Double?
    let makeElementPeriods: @Sendable (ParameterValues) -> [Double?]?
    let makeCanvas: @Sendable (ParameterValues) -> (width: Double, height: Double)
    let makeSettle: @Sendable (ParameterValues) -> Double
    let makeScene: @Sendable (ParameterValues, LoaderEvents) -> any LoaderScene
    let makeFrameCost: @Sendable (ParameterValues, LoaderEvents) -> Int

    /// `period` and `settle` are on the scene's clock (before `speed`);
    /// the canvas defaults to the `width` and `height` parameters.
    init(name: String, summary: String, parameters: [ParameterSpec], events: [EventSpec], reducedMotion: String,
         background: RGBColor?, document: LoaderDocument? = nil, family: String? = nil, original: String? = nil,
         period: @escaping @Sendable (ParameterValues) -> Double?,
         elementPeriods: @escaping @Sendable (ParameterValues) -> [Double?]? = { _ in nil },
         canvas: @escaping @Sendable (ParameterValues) -> (width: Double, height: Double) = { ($0.number("width"), $0.number("height")) },
         settle: @escaping @Sendable (ParameterValues) -> Double = { _ in 0 },
         frameCost: @escaping @Sendable (ParameterValues, LoaderEvents) -> Int = { _, events in 8 + 4 * events.progress.count },
         scene: @escaping @Sendable (ParameterValues, LoaderEvents) -> any LoaderScene) {
        self.name = name
        self.summary = summary
        self.events = events
        self.reducedMotion = reducedMotion
        self.background = background
        // Every loader takes `background`, its own as the default.
        self.parameters = parameters.contains { $0.name == "background" }
            ? parameters : parameters + [CommonParameters.background(background)]
        self.document = document
        self.family = family ?? document?.family
        self.original = original ?? document?.original
        self.makePeriod = period
        self.makeElementPeriods = elementPeriods
        self.makeCanvas = canvas
        self.makeSettle = settle
        self.makeScene = scene
        self.makeFrameCost = frameCost
    }

    public var defaults: ParameterValues { ParameterValues(specs: parameters) }

    /// The loader's period in seconds for these parameters: frames at `t` and
    /// `t + period` are the same once every element has started (`nil`: not
    /// periodic, or no period that is a whole number of microseconds).
    public func period(_ values: ParameterValues) -> Double? {
        guard let period = makePeriod(values) else { return nil }
        let speed = values.number("speed")
        return speed == 1 ? period : commonPeriod([period / speed])
    }

    /// Each element's own period in seconds, in the order of a frame's
    /// elements, once every element has started: 0 for one that does not
    /// change, nil for one with no period; `nil` for a loader that does not
    /// know them (the built-in three).
    public func elementPeriods(_ values: ParameterValues) -> [Double?]? {
        guard let periods = makeElementPeriods(values) else { return nil }
        let speed = values.number("speed")
        return speed == 1 ? periods : periods.map { p in p.flatMap { $0 == 0 ? 0 : commonPeriod([$0 / speed]) } }
    }

    /// When every element has started (its first copy's delay and its
    /// animations' begin times have passed), in seconds of the loader's clock.
    public func settleTime(_ values: ParameterValues) -> Double { makeSettle(values) / values.number("speed") }

    /// The canvas for these parameters, in points, `scale` applied.
    public func canvas(_ values: ParameterValues) -> (width: Double, height: Double) {
        let (width, height) = makeCanvas(values)
        let scale = values.number("scale")
        return (width * scale, height * scale)
    }

    /// Whether the loader takes a parameter called `name`.
    public func hasParameter(named name: String) -> Bool { parameters.contains { $0.name == name } }

    /// The loader with default parameters and no events.
    public func configure() -> ConfiguredLoader {
        ConfiguredLoader(definition: self, parameters: defaults, events: LoaderEvents())
    }

    /// Parses parameters and events from query items. Every name must be a
    /// parameter or event of this loader and appear once.
    public func configure(_ items: some Sequence<(name: String, value: String)>) throws(ParameterError) -> ConfiguredLoader {
        var values = defaults
        var events = LoaderEvents()
        var seen = Set<String>()
        for (name, value) in items {
            guard seen.insert(name).inserted else {
                throw ParameterError(parameter: name, message: "\(quoted(name)) is given more than once")
            }
            if let i = parameters.firstIndex(where: { $0.name == name }) {
                values.set(try parameters[i].parse(value), at: i)
            } else if let event = eventSpec(named: name) {
                switch event.kind {
                case .time:
                    let time = try TimeValue.parse(name, value)
                    if name == "stop" { events.stop = time } else { events.finish = time }
                case .timeList:
                    events.progress = try TimeValue.parseList(name, value)
                }
            } else {
                throw unknown(name)
            }
        }
        return ConfiguredLoader(definition: self, parameters: values, events: events)
    }

    func eventSpec(named name: String) -> EventSpec? { self.events.first { $0.name == name } }

    func unknown(_ name: String) -> ParameterError {
        let accepted = (parameters.map(\.name) + events.map(\.name)).joined(separator: ", ")
        return ParameterError(
            .unknownParameter, parameter: name,
            message: "unknown parameter \(quoted(name)) for loader \(self.name); accepted: \(accepted)")
    }
}

/// A loader with its parameters and events: asks its scene for frames.
public struct ConfiguredLoader: Sendable {
    public let definition: LoaderDefinition
    public let parameters: ParameterValues
    public let events: LoaderEvents
    public let width: Double
    public let height: Double
    /// `speed` (multiplies the clock) and `scale` (multiplies the canvas).
    public let speed: Double
    public let magnification: Double
    /// What is drawn behind the elements: the `background` parameter
    /// (`nil`: nothing, transparent).
    public let background: RGBColor?
    let scene: any LoaderScene
    /// `steps` (web): how many progress events make the whole load; 0: unknown.
    let steps: Int
    /// The progress times that count towards `steps` (before any finish or
    /// stop), ascending: a frame's share is found by bisection.
    let stepTimes: [Double]

    init(definition: LoaderDefinition, parameters: ParameterValues, events: LoaderEvents) {
        self.definition = definition
        self.parameters = parameters
        self.events = events
        (self.width, self.height) = definition.canvas(parameters)
        self.speed = parameters.number("speed")
        self.magnification = parameters.number("scale")
        self.background = parameters.background
        // The scene runs on the clock times `speed`; so do its events.
        let s = speed
        let sceneEvents = s == 1 ? events
            : LoaderEvents(stop: events.stop.map { $0 * s }, finish: events.finish.map { $0 * s }, progress: events.progress.map { $0 * s })
        self.scene = definition.makeScene(parameters, sceneEvents)
        steps = definition.parameters.contains { $0.name == "steps" } ? parameters.integer("steps") : 0
        let cutoff = min(events.finish ?? .infinity, events.stop ?? .infinity)
        stepTimes = steps > 0 ? events.progress.filter { $0 < cutoff }.sorted() : []
    }

    /// The share of the load done at `t`, 0 to 1, when `steps` says how many
    /// progress events make it: each one counts 1/steps (at most the whole),
    /// and a finish the whole. `nil` when the whole is not known.
    public func progress(at t: Double) -> Double? {
        guard steps > 0 else { return nil }
        if let finish = events.finish, finish <= t, finish < (events.stop ?? .infinity) { return 1 }
        var lo = 0, hi = stepTimes.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if stepTimes[mid] <= t { lo = mid + 1 } else { hi = mid }
        }
        return Double(min(lo, steps)) / Double(steps)
    }

    public var name: String { definition.name }

    /// The work of one frame in `maxFrameCost`'s units (layers visited and
    /// animations evaluated), at least 1: what batches, streams and exports
    /// multiply by their frame counts to bound a request before it starts.
    public var frameCost: Int { max(1, definition.makeFrameCost(parameters, events)) }

    /// Which elements are moved, delayed copies of others (see
    /// `CopyRelation`), on this loader's clock and canvas.
    public var copies: [CopyRelation?] {
        scene.copies().map { relation in
            relation.map { CopyRelation(base: $0.base, delay: $0.delay / speed,
                                        offset: Point(x: $0.offset.x * magnification, y: $0.offset.y * magnification)) }
        }
    }

    /// The same loader with other events (a live session's as they arrive).
    public func with(events: LoaderEvents) -> ConfiguredLoader {
        ConfiguredLoader(definition: definition, parameters: parameters, events: events)
    }
    public var period: Double? { definition.period(parameters) }
    /// Each element's own period (`LoaderDefinition.elementPeriods`).
    public var elementPeriods: [Double?]? { definition.elementPeriods(parameters) }

    /// Appends the elements shown at `t`; returns `done`. After `stop` nothing
    /// is shown and the loader is done, for every loader.
    public func render(at t: Double, into elements: inout [Element]) -> Bool {
        if let stop = events.stop, t >= stop { return true }
        if speed == 1 && magnification == 1 { return scene.render(at: t, into: &elements) }
        let first = elements.count
        let done = scene.render(at: t * speed, into: &elements)
        if magnification != 1 {
            for i in first..<elements.count { elements[i].magnify(by: magnification) }
        }
        return done
    }

    public func frame(at t: Double) -> Frame {
        var elements = [Element]()
        elements.reserveCapacity(4)
        let done = render(at: t, into: &elements)
        return Frame(loader: name, t: t, width: width, height: height, done: done, background: background,
                     progress: progress(at: t), elements: elements)
    }
}

/// The shared parameters every loader takes.
enum CommonParameters {
    static func canvas(width: Double, height: Double) -> [ParameterSpec] {
        [
            ParameterSpec("width", .number(min: 1, max: 10000), default: .number(width), "View width in points."),
            ParameterSpec("height", .number(min: 1, max: 10000), default: .number(height), "View height in points."),
        ]
    }

    static func color(_ color: RGBColor) -> ParameterSpec {
        ParameterSpec("color", .color, default: .color(color), "Colour of the dots.")
    }

    static let motion = ParameterSpec(
        "motion", .choice(["normal", "reduced"]), default: .choice("normal"),
        "reduced: a still pose of the loop, only opacity pulses (prefers-reduced-motion).")

    /// Added to every loader's parameters, last; `own` is its default.
    static func background(_ own: RGBColor?) -> ParameterSpec {
        ParameterSpec(
            "background", .colorOrNone, default: .colorOrNone(own),
            "What is drawn behind the loader in frames and every export: a colour, or none for nothing (transparent); the default is the loader's own.")
    }

    static func duration(_ name: String, _ value: Double, _ summary: String) -> ParameterSpec {
        ParameterSpec(name, .number(min: 0.01, max: 3600), default: .number(value), summary)
    }

    static func size(_ name: String, _ value: Double, _ summary: String) -> ParameterSpec {
        ParameterSpec(name, .number(min: 0, max: 1000, minExclusive: true), default: .number(value), summary)
    }

    static let speed = ParameterSpec(
        "speed", .number(min: 0.01, max: 100), default: .number(1),
        "Multiplies the loader's clock, as the root layer's speed (2: twice as fast).")

    static let scale = ParameterSpec(
        "scale", .number(min: 0.01, max: 100), default: .number(1),
        "Multiplies the canvas, positions and every length; an element's own scale field is unchanged.")

    static let stop = EventSpec("stop", .time, "Time the loader is removed: from then on no elements, done.")
}

/// The least common multiple of durations that are whole numbers of
/// microseconds; `nil` otherwise.
func commonPeriod(_ durations: [Double]) -> Double? {
    var result: Int64 = 1
    for d in durations {
        let micros = (d * 1e6).rounded()
        guard abs(micros - d * 1e6) < 1e-6 * max(1, micros), micros >= 1, micros < 1e12 else { return nil }
        let m = Int64(micros)
        var a = result, b = m
        while b != 0 { (a, b) = (b, a % b) }
        let (lcm, overflow) = (result / a).multipliedReportingOverflow(by: m)
        guard !overflow, lcm < 1_000_000_000_000_000 else { return nil }
        result = lcm
    }
    return Double(result) / 1e6
}
