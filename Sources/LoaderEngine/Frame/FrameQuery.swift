/// The query of a frames request, split: the endpoint's own values (`t`,
/// `from`, `to`, `fps`, `stream`, `duration`, `clock`) and the rest. The one
/// form of this query: every endpoint that takes it (a loader's frames and
/// picture, the multiplexed stream, a session's frames), the vector tests
/// and the fuzz target parse it here, once a request. What differs between
/// the endpoints (the names each takes, what the rest is, which values are
/// checked where they stand) is data: a `Grammar`.
///
/// One name is shared: a stream's `duration` is its length, while the
/// switch loader has a `duration` parameter (its period). In a stream
/// `duration` is the stream's; in a single frame or a batch it is the
/// loader's. In a stream `loader.<name>` names a loader parameter whose
/// name the stream uses (`loader.duration=2` sets the switch's period);
/// elsewhere the plain name does, and the prefix is refused.
public struct FrameQuery: Sendable {
    /// The names the endpoint takes besides the loader's own.
    public static let ownNames: [String] = ["t", "from", "to", "fps", "stream", "duration", "clock"]
    /// Those a stream uses: a loader parameter of one of these names is
    /// `loader.<name>` in a stream.
    public static let streamNames: Set<String> = ["t", "fps", "stream", "duration", "clock"]

    /// How an endpoint reads the query: the differences between the
    /// endpoints, kept as data so that they parse it in one place.
    public struct Grammar: Sendable {
        /// The own names it takes (of `ownNames`).
        public var own: Set<String>
        /// A name whose values, repeated, are kept in order in `references`.
        public var references: String?
        /// Any other name is refused as `unknown parameter "name"; ` and
        /// this; nil: it is one of the loader's parameters and events.
        public var unknown: String?
        /// Own names that may repeat (their values are checked as they come).
        public var repeatable: Set<String>
        /// `t`, `fps` and `stream` are checked where they stand, so the
        /// first bad item is the one refused.
        public var checksInOrder: Bool

        public init(own: Set<String>, references: String? = nil, unknown: String? = nil, repeatable: Set<String> = [],
                    checksInOrder: Bool = false) {
            self.own = own
            self.references = references
            self.unknown = unknown
            self.repeatable = repeatable
            self.checksInOrder = checksInOrder
        }

        /// A loader's frames and pictures: every own name; the rest is the loader's.
        public static let loader = Grammar(own: Set(FrameQuery.ownNames))
    }

    /// The loader whose parameters the rest is (nil for a grammar with `unknown`).
    public let definition: LoaderDefinition?
    public private(set) var t, from, to, fps, stream, duration, clock: String?
    /// The loader's parameters and events, as given.
    public private(set) var loaderItems: [(name: String, value: String)] = []
    /// The values of the grammar's `references` name, in order.
    public private(set) var references: [String] = []
    /// Whether the request asks for a live stream: `stream=sse`, or
    /// `eventStream` (the client accepts `text/event-stream`).
    public private(set) var streaming = false

    /// Splits `items` as a loader's frames take them. `eventStream` is
    /// asked only for the names whose meaning depends on it.
    public init(_ definition: LoaderDefinition, items: [(name: String, value: String)],
                eventStream: () -> Bool = { false }) throws(ParameterError) {
        self.definition = definition
        var streams: Bool?
        func asksForStream() -> Bool {
            if let streams { return streams }
            let asked = items.first { $0.name == "stream" }?.value == "sse" || eventStream()
            streams = asked
            return asked
        }
        for item in items {
            if item.name.hasPrefix("loader.") {
                let name = String(item.name.dropFirst("loader.".count))
                guard asksForStream(), Self.streamNames.contains(name), definition.hasParameter(named: name) else {
                    throw ParameterError(.unknownParameter, parameter: item.name,
                                         message: "unknown parameter \(quoted(item.name)); loader.<name> names a loader parameter that a stream's own \(quoted(name)) would hide, elsewhere write \(quoted(name))")
                }
                loaderItems.append((name, item.value))
            } else if item.name == "duration" && definition.hasParameter(named: "duration") && !asksForStream() {
                loaderItems.append(item)
            } else if try !take(item.name, item.value, .loader) {
                loaderItems.append(item)
            }
        }
        self.streaming = stream == "sse" || asksForStream()
    }

    /// Splits `items` as an endpoint without a loader of its own takes
    /// them (`grammar.unknown` set): the first item it refuses, in order, is thrown.
    public init(items: [(name: String, value: String)], grammar: Grammar) throws(ParameterError) {
        precondition(grammar.unknown != nil, "a grammar without a loader refuses the names it does not take")
        definition = nil
        for item in items {
            if item.name == grammar.references {
                references.append(item.value)
            } else if grammar.own.contains(item.name) {
                _ = try take(item.name, item.value, grammar)
            } else {
                throw ParameterError(.unknownParameter, parameter: item.name,
                                     message: "unknown parameter \(quoted(item.name)); " + (grammar.unknown ?? ""))
            }
        }
        streaming = stream == "sse"
    }

    /// The value of one of the endpoint's own names.
    public subscript(name: String) -> String? {
        switch name {
        case "t": t
        case "from": from
        case "to": to
        case "fps": fps
        case "stream": stream
        case "duration": duration
        case "clock": clock
        default: nil
        }
    }

    /// Keeps `value` when `name` is one of the endpoint's own names (false
    /// when it is not); a name given twice is refused, unless `grammar`
    /// lets it repeat.
    private mutating func take(_ name: String, _ value: String, _ grammar: Grammar) throws(ParameterError) -> Bool {
        func keep(_ slot: inout String?) throws(ParameterError) {
            if slot != nil {
                guard grammar.repeatable.contains(name) else { throw ParameterError(parameter: name, message: "\(name) is given more than once") }
            } else {
                slot = value
            }
        }
        switch name {
        case "t": try keep(&t)
        case "from": try keep(&from)
        case "to": try keep(&to)
        case "fps": try keep(&fps)
        case "stream": try keep(&stream)
        case "duration": try keep(&duration)
        case "clock": try keep(&clock)
        default: return false
        }
        if grammar.checksInOrder {
            switch name {
            case "t": _ = try TimeValue.parse("t", value)
            case "fps": _ = try Self.fps(value)
            case "stream" where value != "sse": throw ParameterError(parameter: "stream", message: "stream must be sse")
            default: break
            }
        }
        return true
    }

    /// A time (`t`, `from`, `to`), when given.
    public func time(_ name: String) throws(ParameterError) -> Double? {
        guard let text = self[name] else { return nil }
        return try TimeValue.parse(name, text)
    }

    /// Frames per second of a batch or stream: 1…120, or `value` when not given.
    public func fps(default value: Double) throws(ParameterError) -> Double {
        guard let text = fps else { return value }
        return try Self.fps(text)
    }

    /// Frames per second, as every endpoint that streams or batches takes it: 1…120.
    public static func fps(_ text: String) throws(ParameterError) -> Double {
        guard let fps = Double(text), fps.isFinite, fps >= 1, fps <= 120, isPlainNumber(text) else {
            throw ParameterError(parameter: "fps", message: "fps must be a number from 1 to 120")
        }
        return fps
    }

    /// The loader with the query's parameters.
    public func configured() throws(ParameterError) -> ConfiguredLoader {
        guard let definition else { throw ParameterError(parameter: "loader", message: "this query names no loader") }
        return try definition.configure(loaderItems)
    }

    /// The frame at `t` (0 when not given).
    public func frame() throws(ParameterError) -> Frame {
        try configured().frame(at: time("t") ?? 0)
    }
}

/// A plain decimal (the engine's grammar: no hex, inf or nan).
public func isPlainNumber(_ text: String) -> Bool {
    !text.isEmpty && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x65 || $0 == 0x45 || $0 == 0x2B || $0 == 0x2D }
}
