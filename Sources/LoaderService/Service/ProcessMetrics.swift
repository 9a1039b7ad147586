import Glibc

/// The `process_*` metrics as the Prometheus client libraries define them
/// (CPU, memory, descriptors, start time), read from /proc at each scrape:
/// one small file read, one directory listing, one getrlimit.
enum ProcessMetrics {
    /// What /proc/<pid>/stat gives, in its own units.
    struct Stat: Equatable {
        /// utime + stime (fields 14 and 15), in clock ticks.
        var cpuTicks: Int
        /// starttime (field 22): clock ticks after boot.
        var startTicks: Int
        /// vsize (field 23), in bytes.
        var virtualBytes: Int
        /// rss (field 24), in pages.
        var residentPages: Int
    }

    /// Parses a /proc/<pid>/stat line (proc(5)). Fields are counted after
    /// the last `)`: the command name before it may hold spaces and
    /// parentheses of its own.
    static func parseStat(_ bytes: [UInt8]) -> Stat? {
        guard let close = bytes.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        // Field 3 (state) is the first after the name; field n is at n - 3.
        let fields = bytes[bytes.index(after: close)...].split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
        guard fields.count > 21 else { return nil }
        func number(_ field: Int) -> Int? { decimal(fields[field - 3]) }
        guard let utime = number(14), let stime = number(15), let start = number(22), let vsize = number(23), let rss = number(24) else {
            return nil
        }
        return Stat(cpuTicks: utime + stime, startTicks: start, virtualBytes: vsize, residentPages: rss)
    }

    /// The `btime` line of /proc/stat: the boot time, in Unix seconds.
    static func parseBootTime(_ bytes: [UInt8]) -> Int? {
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            let words = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
            if words.count == 2, words[0].elementsEqual("btime".utf8) { return decimal(words[1]) }
        }
        return nil
    }

    /// A non-negative decimal of ASCII digits (trailing newline allowed).
    static func decimal(_ digits: some Collection<UInt8>) -> Int? {
        var n = 0
        var any = false
        for b in digits {
            if b == 0x0A { break }
            guard b >= 0x30, b <= 0x39 else { return nil }
            let (times, o1) = n.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(Int(b - 0x30))
            guard !o1, !o2 else { return nil }
            n = sum
            any = true
        }
        return any ? n : nil
    }

    /// A file of /proc, whole (their sizes are reported as 0, so read to the end).
    static func read(_ path: String, limit: Int = 1 << 16) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1024)
        while out.count < limit {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; return nil }
            if n == 0 { break }
            out += chunk[0..<n]
        }
        return out
    }

    static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
    static let pageSize = sysconf(Int32(_SC_PAGESIZE))

    /// Set once: the boot time and the process's start never change.
    static let startTimeSeconds: Double? = {
        // Its `intr` line, before `btime`, grows with the interrupts: tens of KB on large machines.
        guard let boot = read("/proc/stat", limit: 1 << 20).flatMap(parseBootTime), let stat = read("/proc/self/stat").flatMap(parseStat) else { return nil }
        return Double(boot) + Double(stat.startTicks) / ticksPerSecond
    }()

    /// Descriptors open now, the listing's own left out.
    static func openDescriptors() -> Int? {
        guard let dir = opendir("/proc/self/fd") else { return nil }
        var n = 0
        while let entry = readdir(dir) {
            // Every name but `.` and `..` is a descriptor.
            if entry.pointee.d_name.0 != CChar(UInt8(ascii: ".")) { n += 1 }
        }
        closedir(dir)
        return n - 1
    }

    /// The soft limit on descriptors (what `open` and `accept` meet).
    static func maxDescriptors() -> Int? {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        return limit.rlim_cur > rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)  // RLIM_INFINITY is all ones
    }

    /// The series in the text format; one that cannot be read is left out.
    static func text() -> String {
        var out = ""
        func add(_ name: String, _ kind: String, _ help: String, _ value: String?) {
            guard let value else { return }
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(kind)\n\(name) \(value)\n"
        }
        let stat = read("/proc/self/stat", limit: 4096).flatMap(parseStat)
        add("process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.",
            stat.map { "\(Double($0.cpuTicks) / ticksPerSecond)" })
        add("process_open_fds", "gauge", "Number of open file descriptors.", openDescriptors().map { "\($0)" })
        add("process_max_fds", "gauge", "Maximum number of open file descriptors.", maxDescriptors().map { "\($0)" })
        add("process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.", stat.map { "\($0.virtualBytes)" })
        add("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", stat.map { "\($0.residentPages * pageSize)" })
        add("process_start_time_seconds", "gauge", "Start time of the process since unix epoch in seconds.", startTimeSeconds.map { "\($0)" })
        return out
    }
}

/// `loaderd_build_info`: what is known of the build when it is compiled.
enum BuildInfo {
    /// The compiler's major and minor version, from the compiler checks
    /// (its patch level is not visible to the code).
    static let swift: String = {
        #if compiler(>=6.5)
        return "6.5+"
        #elseif compiler(>=6.4)
        return "6.4"
        #elseif compiler(>=6.3)
        return "6.3"
        #elseif compiler(>=6.2)
        return "6.2"
        #elseif compiler(>=6.1)
        return "6.1"
        #else
        return "6.0"
        #endif
    }()

    static let architecture: String = {
        #if arch(x86_64)
        return "x86_64"
        #elseif arch(arm64)
        return "aarch64"
        #else
        return "other"
        #endif
    }()

    static func text(version: String) -> String {
        "# HELP loaderd_build_info The running build: loaderd's version, the Swift compiler (major.minor) and the CPU architecture; always 1.\n"
            + "# TYPE loaderd_build_info gauge\n"
            + "loaderd_build_info{version=\"\(version)\",swift=\"\(BuildInfo.swift)\",arch=\"\(architecture)\"} 1\n"
    }
}
