/// A value that belongs to one event loop (SwiftNIO's `NIOLoopBound`): it
/// may be handed to a `@Sendable` closure that runs on that loop later (a
/// stream's start, a timer), but it is read and changed only on its loop,
/// which every access checks, in release builds too (a thread-id compare).
/// The one place such state is declared `Sendable`; the check replaces a
/// comment saying "loop thread only".
// unchecked: `stored` is touched only on `loop`, which every access checks.
public struct LoopBound<Value>: @unchecked Sendable {
    public let loop: EventLoop
    private var stored: Value

    /// Binds `value` to `loop` (from any thread: a preview's caches are
    /// made off the loop, for the stream that starts on it).
    public init(_ value: Value, loop: EventLoop) {
        self.loop = loop
        stored = value
    }

    public var value: Value {
        get {
            loop.preconditionInLoop()
            return stored
        }
        set {
            loop.preconditionInLoop()
            stored = newValue
        }
    }
}
