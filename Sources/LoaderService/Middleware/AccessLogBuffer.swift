import Glibc
import Synchronization

/// One event loop's access log: each answer's line is written straight into
/// this buffer, with no allocation per line, and the logger's thread writes
/// the buffer out every 100 ms, or as a batch once it passes 64 KiB. The
/// lines are the logger's (`time`, `level`, `msg`, then the request's fields).
final class AccessLogBuffer: @unchecked Sendable {  // `lines` is locked; the rest is the loop's
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
    func record(client: ClientAddress, method: String, path: String, status: Int, bytes: Int, microseconds: Int) {
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
            Self.appendEscaped(method, to: &out)
            append(#"","path":""#, to: &out)
            Self.appendEscaped(path, to: &out)
            append(#"","status":"#, to: &out)
            Self.appendDecimal(status, to: &out)
            append(#","bytes":"#, to: &out)
            Self.appendDecimal(bytes, to: &out)
            append(#","us":"#, to: &out)
            Self.appendDecimal(microseconds, to: &out)
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

    /// A JSON string's contents: `"`, `\\` and control characters escaped.
    static func appendEscaped(_ text: String, to out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                out.append(UInt8(ascii: "\\"))
                out.append(byte)
            case 0..<0x20:
                out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                        hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default:
                out.append(byte)
            }
        }
    }

    static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        var n = value
        if n < 0 {
            out.append(UInt8(ascii: "-"))
            n = 0 &- n
        }
        var divisor = 1
        while divisor <= n / 10 { divisor *= 10 }
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(n / divisor % 10))
            divisor /= 10
        }
    }
}
