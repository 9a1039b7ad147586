import Dispatch

/// `transform` of each of 0..<count, in order, spread over the machine's
/// cores: the frames of one animation are drawn and compressed apart from
/// each other, so a cold picture takes its time divided by the cores that
/// are idle (and no longer when none are).
public func concurrentMap<T: Sendable>(_ count: Int, _ transform: @Sendable (Int) -> T) -> [T] {
    guard count > 1 else { return (0..<count).map(transform) }
    var results = [T?](repeating: nil, count: count)
    results.withUnsafeMutableBufferPointer { slots in
        nonisolated(unsafe) let slots = slots  // unsafe: each index writes its own slot only, and the pass ends before `results` is read.
        DispatchQueue.concurrentPerform(iterations: count) { i in slots[i] = transform(i) }
    }
    return results.map { $0! }
}
