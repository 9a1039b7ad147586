import Dispatch
import Glibc
import LoaderEngine
import Synchronization

/// JSON-lines logs on standard output. Lines are buffered and written at
/// least every 100 ms (and at once for warnings and errors), so that a busy
/// event loop does not make a system call per request.
public final class Logger: @unchecked Sendable {  // the timer is only resumed and cancelled
    public let level: LogLevel
    private let buffer = Mutex<[UInt8]>([])
    private let fd: Int32
    private let timer: DispatchSourceTimer

    public init(level: LogLevel, fd: Int32 = STDOUT_FILENO) {
        self.level = level
        self.fd = fd
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "loaderd.log"))
        timer.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100))
        timer.setEventHandler { [weak self] in self?.flush() }
        timer.resume()
    }

    deinit {
        timer.cancel()
        flush()
    }

    public func enabled(_ l: LogLevel) -> Bool { l >= level && level != .off }

    /// A line with `time`, `level`, `msg` and the given fields.
    public func log(_ l: LogLevel, _ message: String, _ fields: [(String, LogField)] = []) {
        guard enabled(l) else { return }
        var w = JSONWriter(capacity: 160)
        w.beginObject()
        w.field("time", isoTimestamp())
        w.field("level", l.rawValue)
        w.field("msg", message)
        for (key, value) in fields {
            switch value {
            case .string(let s): w.field(key, s)
            case .int(let n): w.field(key, n)
            case .double(let d): w.field(key, d)
            case .bool(let b): w.field(key, b)
            }
        }
        w.endObject()
        var line = w.bytes
        line.append(0x0A)
        let urgent = l >= .warning
        let full = buffer.withLock { buffered -> Bool in
            buffered.append(contentsOf: line)
            return buffered.count > 64 * 1024
        }
        if urgent || full { flush() }
    }

    public func flush() {
        let bytes = buffer.withLock { buffered -> [UInt8] in
            let taken = buffered
            buffered.removeAll(keepingCapacity: true)
            return taken
        }
        guard !bytes.isEmpty else { return }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n <= 0 { if errno == EINTR { continue }; return }
            offset += n
        }
    }
}

public enum LogField: Sendable {
    case string(String), int(Int), double(Double), bool(Bool)
}

/// `2026-11-29T12:00:00.123Z`, now.
func isoTimestamp() -> String { isoTimestamp(wallClock()) }
