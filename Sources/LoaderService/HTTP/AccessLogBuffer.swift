import Glibc
import LoaderEngine
import Synchronization

/// One event loop's access log: each answer's line is written straight into
/// this buffer, with no allocation per line, and the logger's thread writes
/// the buffer out every 100 ms, or as a batch once it passes 64 KiB. The
/// lines are the logger's (`time`, `level`, `msg`, then the request's fields),
/// their strings escaped and numbers written by the same `JSONWriter`.
// unchecked: `lines` is locked; `prefix` and `second` are touched only by its loop's `record`.
final class AccessLogBuffer: @unchecked Sendable {
    /// Weak: the logger keeps its buffers (to drain them).
    private weak var logger: Logger?
    private let lines = Mutex<[UInt8]>([])
    /// `{"time":"2026-12-01T18:35:00.` for the second in `second`.
    private var prefix: [UInt8] = []
    private var second = -1
    static let batchBytes = 64 << 10

    init(logger: Logger) {
        self.logger = logger
        lines.withLock { $0.reserveCapacity(Self.batchBytes + 1024) }
    }

    /// Appends one request's line. Loop thread only.
    func record(client: ClientAddress, method: String, path: String, status: Int, bytes: Int, microseconds: Int, traceID: Substring? = nil) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        if now.tv_sec != second {
            second = now.tv_sec
            prefix = Array(#"{"time":""#.utf8) + Array(isoTimestamp(Double(now.tv_sec)).utf8.dropLast(4))
        }
        let milliseconds = Int(now.tv_nsec) / 1_000_000
        let batch = lines.withLock { out -> [UInt8]? in
            out.append(contentsOf: prefix)
            out.append(UInt8(ascii: "0") + UInt8(milliseconds / 100))
            out.append(UInt8(ascii: "0") + UInt8(milliseconds / 10 % 10))
            out.append(UInt8(ascii: "0") + UInt8(milliseconds % 10))
            append(#"Z","level":"info","msg":"request","client":""#, to: &out)
            client.append(to: &out)
            append(#"","method":""#, to: &out)
            JSONWriter.appendEscaped(method, to: &out)
            append(#"","path":""#, to: &out)
            JSONWriter.appendEscaped(path, to: &out)
            append(#"","status":"#, to: &out)
            JSONWriter.appendInteger(status, to: &out)
            append(#","bytes":"#, to: &out)
            JSONWriter.appendInteger(bytes, to: &out)
            append(#","us":"#, to: &out)
            JSONWriter.appendInteger(microseconds, to: &out)
            if let traceID {
                // 32 lowercase hex digits (TraceParent checked them): nothing to escape.
                append(#","traceId":""#, to: &out)
                out.append(contentsOf: traceID.utf8)
                append(#"""#, to: &out)
            }
            append("}\n", to: &out)
            guard out.count >= Self.batchBytes else { return nil }
            var full: [UInt8] = []
            full.reserveCapacity(Self.batchBytes + 1024)
            swap(&full, &out)
            return full
        }
        if let batch { logger?.write(batch: batch) }
    }

    /// What is buffered now (the logger's thread).
    func take() -> [UInt8] {
        lines.withLock { out in
            let taken = out
            out.removeAll(keepingCapacity: true)
            return taken
        }
    }

    private func append(_ text: StaticString, to out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }
}
