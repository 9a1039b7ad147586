import Glibc

/// Chunks waiting for a socket, the first partly sent. Taking written bytes
/// off the front is O(1) per chunk: a head index moves, and the array is
/// compacted only when the consumed part is large.
struct OutputQueue {
    private var chunks: [[UInt8]] = []
    private var head = 0
    /// Bytes of `chunks[head]` already sent.
    private var offset = 0
    /// Bytes queued and not yet sent.
    private(set) var bytes = 0

    var isEmpty: Bool { head == chunks.count }

    mutating func append(_ chunk: [UInt8]) {
        guard !chunk.isEmpty else { return }
        chunks.append(chunk)
        bytes += chunk.count
    }

    /// Drops `written` bytes from the front.
    mutating func consume(_ written: Int) {
        var n = written
        bytes -= written
        while n > 0, head < chunks.count {
            let left = chunks[head].count - offset
            if n >= left {
                n -= left
                chunks[head] = []  // free it now, not at compaction
                head += 1
                offset = 0
            } else {
                offset += n
                n = 0
            }
        }
        if head == chunks.count {
            chunks.removeAll(keepingCapacity: chunks.count <= 64)
            head = 0
        } else if head >= 64 && head * 2 >= chunks.count {
            chunks.removeFirst(head)
            head = 0
        }
    }

    mutating func removeAll() {
        chunks.removeAll()
        head = 0
        offset = 0
        bytes = 0
    }

    /// Calls `body` with iovecs over up to `limit` chunks from the front.
    /// The chunks stay in place, unmodified, for the whole call, so their
    /// storage addresses stay valid.
    func withIOVecs<R>(limit: Int, _ body: (UnsafeMutableBufferPointer<iovec>) -> R) -> R {
        let count = min(chunks.count - head, limit)
        return withUnsafeTemporaryAllocation(of: iovec.self, capacity: count) { iov -> R in
            for i in 0..<count {
                chunks[head + i].withUnsafeBytes { raw in
                    let skip = i == 0 ? offset : 0
                    iov[i] = iovec(iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress! + skip), iov_len: raw.count - skip)
                }
            }
            return body(iov)
        }
    }
}
