import Dispatch
import Glibc
import LoaderEngine
import LoaderSessions
import Synchronization

/// JSON-lines logs on standard output. Lines are buffered and written at
/// least every 100 ms by the logger's own thread (warnings and errors at
/// once), so that a busy event loop makes no system call for them; each
/// loop's access log (`AccessLogBuffer`) is written the same way.
public final class Logger: SessionLogger, Sendable {
    public let level: LogLevel
    private let buffer = Mutex<[UInt8]>([])
    private let accessLogs = Mutex<[AccessLogBuffer]>([])
    private let fd: Int32
    /// Every write happens here, in order.
    private let queue = DispatchQueue(label: "loaderd.log")
    /// Locked only to be Sendable: it is touched at start and at the end.
    private let timer: Mutex<any DispatchSourceTimer>

    public init(level: LogLevel, fd: Int32 = STDOUT_FILENO) {
        self.level = level
        self.fd = fd
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100))
        self.timer = Mutex(timer)
        self.timer.withLock { timer in
            timer.setEventHandler { [weak self] in self?.drain() }
            timer.resume()
        }
    }

    deinit {
        timer.withLock { $0.cancel() }
        // Not `queue.sync`: the last reference may go on the queue itself (the
        // timer's handler). A batch still queued holds `self`, so none is left.
        drain()
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
        if urgent { flush() } else if full { queue.async { self.drain() } }
    }

    /// A buffer for one event loop's access log lines, drained with the rest.
    func makeAccessLog() -> AccessLogBuffer {
        let log = AccessLogBuffer(logger: self)
        accessLogs.withLock { $0.append(log) }
        return log
    }

    /// A full batch of access log lines, written off the loop that made it.
    func write(batch: [UInt8]) {
        queue.async { self.write(batch) }
    }

    /// Writes everything buffered now, and waits for it.
    public func flush() {
        queue.sync { drain() }
    }

    /// On `queue`: every buffer's lines out.
    private func drain() {
        for log in accessLogs.withLock({ $0 }) { write(log.take()) }
        write(buffer.withLock { buffered -> [UInt8] in
            let taken = buffered
            buffered.removeAll(keepingCapacity: true)
            return taken
        })
    }

    private func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n <= 0 { if errno == EINTR { continue }; return }
            offset += n
        }
    }
}

/// `2026-11-29T12:00:00.123Z`, now.
func isoTimestamp() -> String { isoTimestamp(WallClock.system.now()) }

/// `2026-11-29T12:00:00.123Z` for seconds since the epoch.
func isoTimestamp(_ seconds: Double) -> String {
    var whole = Int(seconds.rounded(.down))
    var parts = tm()
    gmtime_r(&whole, &parts)
    func pad(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }
    let millis = Int(((seconds - Double(whole)) * 1000).rounded(.down))
    return "\(pad(Int(parts.tm_year) + 1900, 4))-\(pad(Int(parts.tm_mon) + 1, 2))-\(pad(Int(parts.tm_mday), 2))T"
        + "\(pad(Int(parts.tm_hour), 2)):\(pad(Int(parts.tm_min), 2)):\(pad(Int(parts.tm_sec), 2)).\(pad(millis, 3))Z"
}

