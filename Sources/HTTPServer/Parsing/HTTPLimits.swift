/// Limits on what a client may send; each has its own answer.
public struct HTTPLimits: Sendable, Equatable {
    /// Request line longer than this: 414.
    public var maxRequestLineBytes = 8 * 1024
    /// Header section larger than this: 431.
    public var maxHeaderBytes = 16 * 1024
    /// More header fields than this: 431.
    public var maxHeaderCount = 100
    /// Body larger than this: 413.
    public var maxBodyBytes = 1024 * 1024

    public init() {}
}
