import Dispatch
import Synchronization

/// A value built once, on a thread of its own from the moment it is made,
/// so that start-up does not wait for it. A reader that comes before it is
/// ready builds it or waits for the build under way (once, at start).
final class Prepared<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)
    private let build: @Sendable () -> Value

    init(_ build: @escaping @Sendable () -> Value) {
        self.build = build
        DispatchQueue.global().async { [self] in _ = get() }
    }

    func get() -> Value {
        value.withLock { value in
            if let value { return value }
            let built = build()
            value = built
            return built
        }
    }
}
