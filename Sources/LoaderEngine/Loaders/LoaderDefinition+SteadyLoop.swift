#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a loader plays forever once it has started: `duration` seconds of
/// `loader`'s clock from `start`, over and over. The exports draw this loop,
/// and shared-clock streams fold the time since the Unix epoch into it, so
/// both show the same motion.
public struct SteadyLoop: Sendable {
    /// The loader as it plays the loop: for a loader that finishes (web),
    /// with a sample page load's progress and finish events.
    public let loader: ConfiguredLoader
    /// Where the loop begins on the loader's clock.
    public let start: Double
    /// The loop's length in seconds, at most `maxDuration`.
    public let duration: Double

    /// The longest loop: a longer period, or none, loops its first minute.
    public static let maxDuration = 60.0

    /// The steady loop of `definition` with these parameters (and no events
    /// of the caller's beyond what they give).
    ///
    /// - A periodic loader: one period from when every element has started.
    /// - A loader that finishes: a page load (resources at a steady pace,
    ///   then finish) and 0.4 s after it is done, from 0.
    /// - Neither: its first minute from when every element has started.
    public init(_ definition: LoaderDefinition, parameters: some Collection<(name: String, value: String)>) throws(ParameterError) {
        try self.init(definition, configured: definition.configure(parameters), parameters: parameters)
    }

    /// The same, from `plain`: `definition` configured with `parameters`
    /// already (a caller that checked them first configures them once).
    public init(_ definition: LoaderDefinition, configured plain: ConfiguredLoader,
                parameters: some Collection<(name: String, value: String)>) throws(ParameterError) {
        guard definition.events.contains(where: { $0.name == "finish" }) else {
            loader = plain
            start = definition.settleTime(plain.parameters)
            duration = min(plain.period ?? Self.maxDuration, Self.maxDuration)
            return
        }
        let pulse = plain.parameters.number("pulseDuration")
        let progress = [0.3, 0.9, 1.4, 1.8].map { $0 * pulse / 0.8 }
        let finish = 2.2 * pulse / 0.8
        let events = Array(parameters) + [("progress", progress.map(format).joined(separator: ",")), ("finish", format(finish))]
        let loader = try definition.configure(events)
        var end = finish
        while !loader.frame(at: end).done && end < finish + Self.maxDuration { end += 0.05 }
        self.loader = loader
        start = 0
        duration = min(((end + 0.4) * 1000).rounded() / 1000, Self.maxDuration)
    }

    /// The loader's time for frame `k` of a clock at `fps` frames per
    /// second that began at the Unix epoch: `k / fps` folded into the loop.
    /// Exact for every `k` below 2^53 (the fold is `fmod` on frame counts).
    public func time(ofFrame k: Int, fps: Double) -> Double {
        start + fmod(Double(k), duration * fps) / fps
    }
}
