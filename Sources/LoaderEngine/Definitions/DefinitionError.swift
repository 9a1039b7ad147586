/// A loader definition that cannot be used: where (a JSON path such as
/// `layers[0].animations[1].keyTimes`) and what is accepted there.
public struct DefinitionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file it came from, when it came from one.
    public var file: String?
    public let path: String
    public let message: String

    public init(file: String? = nil, path: String, message: String) {
        self.file = file
        self.path = path
        self.message = message
    }

    /// `spinner.json: layers[0].keyTimes: must be …`; the path is left out
    /// for the document as a whole.
    public var description: String {
        let located = path.isEmpty ? message : "\(path): \(message)"
        guard let file else { return located }
        return "\(file): \(located)"
    }
}

/// What one definition may hold: a definition past any of these is refused
/// with the limit's name, so that no definition can make a frame slow.
public enum DefinitionLimits {
    public static let maxLayers = 256
    public static let maxElements = 1_000
    /// The work of one frame, in units (`FrameCost`): every layer a frame
    /// visits, each replicated copy apart, plus every animation evaluated
    /// there. Checked from the tree's counts before any copy is walked.
    public static let maxFrameCost = 25_000
    public static let maxKeyframes = 10_000
    public static let maxPathCommands = 10_000
    public static let maxBytes = 1 << 20
}
