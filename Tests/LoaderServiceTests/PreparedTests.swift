import Dispatch
import Synchronization
import Testing
@testable import LoaderService

struct PreparedTests {
    /// Readers that come while the value is being built wait for it: one
    /// build, whoever starts it, and every reader sees its value.
    @Test func oneBuildForEveryReader() {
        let builds = Atomic<Int>(0)
        let prepared = Prepared<[UInt8]> {
            builds.add(1, ordering: .relaxed)
            return Array("built".utf8)
        }
        let seen = Mutex<[[UInt8]]>([])
        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            let value = prepared.get()
            seen.withLock { $0.append(value) }
        }
        #expect(builds.load(ordering: .relaxed) == 1)
        #expect(seen.withLock { $0.count == 64 && $0.allSatisfy { $0 == Array("built".utf8) } })
    }
}
