import Glibc
import Testing
@testable import HTTPServer

struct OutputQueueTests {
    /// What the iovecs of the queue hold now, in order.
    func pending(_ q: OutputQueue) -> [UInt8] {
        q.withIOVecs(limit: 1 << 20) { iov in
            iov.flatMap { Array(UnsafeRawBufferPointer(start: $0.iov_base, count: $0.iov_len)) }
        }
    }

    @Test func consumesAcrossChunksAndKeepsTheRestInOrder() {
        var q = OutputQueue()
        #expect(q.isEmpty)
        q.append([1, 2, 3])
        q.append([])
        q.append([4, 5])
        q.append([6])
        #expect(q.bytes == 6 && !q.isEmpty)
        q.consume(2)
        #expect(pending(q) == [3, 4, 5, 6] && q.bytes == 4)
        q.consume(2)
        #expect(pending(q) == [5, 6])
        q.consume(2)
        #expect(q.isEmpty && q.bytes == 0)
    }

    /// Thousands of small writes taken off one at a time: the order holds
    /// through compaction, and a limit caps the iovecs of one call.
    @Test func manyChunksThroughCompaction() {
        var q = OutputQueue()
        var expected: [UInt8] = []
        for i in 0..<5000 {
            let chunk = [UInt8(truncatingIfNeeded: i), UInt8(truncatingIfNeeded: i >> 8)]
            q.append(chunk)
            expected += chunk
            if i % 3 == 0 && expected.count >= 3 {
                q.consume(3)
                expected.removeFirst(3)
            }
        }
        #expect(pending(q) == expected && q.bytes == expected.count)
        #expect(q.withIOVecs(limit: 64) { $0.count } == 64)
        q.removeAll()
        #expect(q.isEmpty && q.bytes == 0)
    }
}
