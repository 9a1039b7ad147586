// An event-driven load generator for server-sent event streams: N streams at
// F fps for D seconds on one epoll loop (no thread per stream). For each
// frame it checks the schedule: frame k is on time when it arrives within one
// frame interval of `first + (k - kFirst)/fps`, the first frame's arrival and
// id being the stream's start. Prints figures; asserts nothing.
//
//   loaderd-loadgen --port P --pid PID --streams N [--fps 30] [--seconds 10]
//                   [--path /loaders/typing/frames] [--session] [--find-max]
//                   [--ports P2,P3]   (streams spread over P and these too: replicas)
import CLinux
import Glibc

struct Options {
    var port = 8080
    var pid: Int32 = 0
    var streams = 1000
    var fps = 30.0
    var seconds = 10.0
    var path = "/loaders/typing/frames"
    var session = false
    var findMax = false
    /// More replicas: streams are spread over `port` and these.
    var morePorts: [Int] = []
}

func parseOptions() -> Options {
    var o = Options()
    var args = CommandLine.arguments.dropFirst()
    while let a = args.popFirst() {
        switch a {
        case "--port": o.port = Int(args.popFirst() ?? "") ?? o.port
        case "--pid": o.pid = Int32(args.popFirst() ?? "") ?? 0
        case "--streams": o.streams = Int(args.popFirst() ?? "") ?? o.streams
        case "--fps": o.fps = Double(args.popFirst() ?? "") ?? o.fps
        case "--seconds": o.seconds = Double(args.popFirst() ?? "") ?? o.seconds
        case "--path": o.path = args.popFirst() ?? o.path
        case "--session": o.session = true
        case "--find-max": o.findMax = true
        case "--ports": o.morePorts = (args.popFirst() ?? "").split(separator: ",").compactMap { Int($0) }
        default: print("unknown option \(a)"); exit(2)
        }
    }
    return o
}

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// One stream's state: bytes not yet split into lines, and its schedule.
final class Stream {
    let fd: Int32
    var pending: [UInt8] = []
    /// Whether the answer's status line has been checked.
    var headerDone = false
    var firstArrival: Double?
    var firstID = 0
    var frames = 0
    var onTime = 0
    var closed = false
    init(fd: Int32) { self.fd = fd }
}

struct Result {
    var streamsOpen = 0
    /// How long opening them took (before the measured seconds).
    var openSeconds = 0.0
    /// Streams whose answer was not `200` with `text/event-stream`: the
    /// run measures nothing then, and says so.
    var refused = 0
    var frames = 0
    var expected = 0
    var onTime = 0
    var lateness: [Double] = []
    var serverCPU = 0.0
    var serverRSSKiB = 0
    var baselineRSSKiB = 0
    /// On-time frames against what should have arrived (a frame arriving
    /// just past the window still counts in `frames`, so take the larger).
    var onTimeRatio: Double { frames == 0 ? 0 : Double(onTime) / Double(max(expected, frames)) }
}

func rssKiB(_ pid: Int32) -> Int {
    guard pid > 0, let f = fopen("/proc/\(pid)/status", "r") else { return 0 }
    defer { fclose(f) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, 256, f) != nil {
        let s = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if s.hasPrefix("VmRSS:") { return Int(s.split(separator: " ").dropFirst().first ?? "0") ?? 0 }
    }
    return 0
}

func cpuSeconds(_ pid: Int32) -> Double {
    guard pid > 0, let f = fopen("/proc/\(pid)/stat", "r") else { return 0 }
    defer { fclose(f) }
    var line = [CChar](repeating: 0, count: 1024)
    guard fgets(&line, 1024, f) != nil else { return 0 }
    let s = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard let close = s.lastIndex(of: ")") else { return 0 }
    let fields = s[s.index(after: close)...].split(separator: " ")
    let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
    return ((Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)) / ticks
}

/// A blocking request on a new connection: the body of the answer.
func request(_ port: Int, _ method: String, _ path: String, body: String = "") -> String {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var a = sockaddr_in()
    a.sin_family = sa_family_t(AF_INET)
    a.sin_port = in_port_t(UInt16(port).bigEndian)
    a.sin_addr.s_addr = inet_addr("127.0.0.1")
    _ = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
    let text = "\(method) \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
    _ = Array(text.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
    var out = [UInt8]()
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n <= 0 { break }
        out += chunk[0..<n]
    }
    let all = String(decoding: out, as: UTF8.self)
    return all.split(separator: "\r\n\r\n", maxSplits: 1).last.map(String.init) ?? ""
}

/// Counts a frame if `line` is `id: <k>`, against the stream's schedule.
/// `interval` is the stream's 1/fps; lateness goes to `lateness`.
func frameLine(_ s: Stream, _ line: UnsafeBufferPointer<UInt8>, _ t: Double, interval: Double, lateness: inout [Double]) {
    guard line.count > 4, line[0] == 0x69, line[1] == 0x64, line[2] == 0x3A, line[3] == 0x20 else { return }
    var id = 0
    for i in 4..<line.count where line[i] >= 0x30 && line[i] <= 0x39 { id = id * 10 + Int(line[i] - 0x30) }
    if s.firstArrival == nil { s.firstArrival = t; s.firstID = id }
    let late = t - (s.firstArrival! + Double(id - s.firstID) * interval)
    s.frames += 1
    if late <= interval { s.onTime += 1 }
    if lateness.count < 4_000_000 { lateness.append(max(0, late)) }
}

func run(_ o: Options, streams count: Int) -> Result {
    // One run's state, read by `poll` below.
    let interval = 1 / o.fps
    var lateness: [Double] = []
    var refused = 0
    var path = o.path
    if o.session {
        let created = request(o.port, "POST", "/sessions", body: #"{"loader":"typing"}"#)
        let id = created.split(separator: "\"").dropFirst(3).first.map(String.init) ?? ""
        path = "/sessions/\(id)/frames"
    }
    let separator = path.contains("?") ? "&" : "?"
    let requestBytes = Array("GET \(path)\(separator)fps=\(o.fps) HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n".utf8)
    var result = Result()
    result.baselineRSSKiB = rssKiB(o.pid)
    let epfd = epoll_create1(0)
    defer { close(epfd) }
    var streams: [Int32: Stream] = [:]
    let ports = [o.port] + o.morePorts
    let opening = now()
    for i in 0..<count {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_port = in_port_t(UInt16(ports[i % ports.count]).bigEndian)
        a.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        if rc != 0 { close(fd); continue }
        _ = requestBytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var ev = epoll_event()
        ev.events = CLINUX_EPOLLIN
        ev.data.fd = fd
        epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev)
        streams[fd] = Stream(fd: fd)
    }
    result.streamsOpen = streams.count
    result.openSeconds = now() - opening
    var events = [epoll_event](repeating: epoll_event(), count: 16384)
    var buffer = [UInt8](repeating: 0, count: 65536)
    // What the streams sent while the others were still opening is read
    // once and not counted: a slow opening (a full accept queue costs a
    // second per handshake the server drops) would otherwise count more
    // frames than the run's seconds hold, and hide frames missing later.
    var counting = false
    func poll(timeout: Int32) {
        let n = events.withUnsafeMutableBufferPointer { epoll_wait(epfd, $0.baseAddress, Int32($0.count), timeout) }
        let t = now()
        if n <= 0 { return }
        for i in 0..<Int(n) {
            guard let s = streams[events[i].data.fd], !s.closed else { continue }
            let got = buffer.withUnsafeMutableBytes { recv(s.fd, $0.baseAddress, $0.count, 0) }
            if got <= 0 {
                if got == 0 || (errno != EAGAIN && errno != EINTR) { s.closed = true; epoll_ctl(epfd, EPOLL_CTL_DEL, s.fd, nil) }
                continue
            }
            // The answer must be an event stream before its frames count.
            if !s.headerDone {
                s.headerDone = true
                let head = buffer.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[0..<min(got, 512)]), as: UTF8.self) }
                if !head.hasPrefix("HTTP/1.1 200") || !head.lowercased().contains("content-type: text/event-stream") {
                    refused += 1
                    if refused == 1 { print("not an event stream: \(head.split(separator: "\r\n").first ?? "")") }
                }
            }
            // Each line starting with "id: " is one frame; only an unfinished
            // line is kept between reads.
            if !counting {
                s.pending.removeAll(keepingCapacity: true)
                continue
            }
            buffer.withUnsafeBufferPointer { b in
                var lineStart = 0
                for j in 0..<got where b[j] == 0x0A {
                    if s.pending.isEmpty {
                        frameLine(s, UnsafeBufferPointer(rebasing: b[lineStart..<j]), t, interval: interval, lateness: &lateness)
                    } else {
                        s.pending.append(contentsOf: b[lineStart..<j])
                        s.pending.withUnsafeBufferPointer { frameLine(s, $0, t, interval: interval, lateness: &lateness) }
                        s.pending.removeAll(keepingCapacity: true)
                    }
                    lineStart = j + 1
                }
                if lineStart < got { s.pending.append(contentsOf: b[lineStart..<got]) }
            }
        }
    }
    poll(timeout: 0)
    counting = true
    let cpu0 = cpuSeconds(o.pid)
    let start = now()
    let end = start + o.seconds
    var peakRSS = 0
    var lastRSS = start
    while now() < end {
        // Collect in batches: a short pause between polls means the server's
        // writes find this process busy rather than asleep (no wake-up per
        // frame), at a cost of at most 2 ms of measured lateness.
        usleep(2000)
        poll(timeout: 20)
        if now() - lastRSS > 0.5 { peakRSS = max(peakRSS, rssKiB(o.pid)); lastRSS = now() }
    }
    let elapsed = now() - start
    result.lateness = lateness
    result.refused = refused
    result.serverCPU = (cpuSeconds(o.pid) - cpu0) / elapsed
    result.serverRSSKiB = max(peakRSS, rssKiB(o.pid))
    for s in streams.values {
        result.frames += s.frames
        result.onTime += s.onTime
        close(s.fd)
    }
    // Expected: every stream sends fps frames a second for the whole run.
    result.expected = Int(Double(result.streamsOpen) * o.seconds * o.fps)
    return result
}

func report(_ o: Options, _ n: Int, _ r: Result) {
    if r.refused > 0 {
        print("FAILED: \(r.refused) of \(r.streamsOpen) streams were not answered 200 with text/event-stream")
        exit(1)
    }
    let sorted = r.lateness.sorted()
    let p99 = sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
    let perStream = r.streamsOpen == 0 ? 0 : Double(r.serverRSSKiB - r.baselineRSSKiB) / Double(r.streamsOpen)
    print("streams \(n) (\(r.streamsOpen) open, in \(fmt(r.openSeconds)) s) at \(o.fps) fps for \(o.seconds) s: frames \(r.frames) of \(r.expected) expected, "
          + "on time \(fmt(100 * r.onTimeRatio))%, p99 lateness \(fmt(p99 * 1000)) ms, server CPU \(fmt(100 * r.serverCPU))%, "
          + "server RSS \(r.serverRSSKiB / 1024) MiB (\(fmt(perStream)) KiB per stream)")
}

func fmt(_ v: Double) -> String {
    let x = (v * 10).rounded() / 10
    return x == x.rounded() ? String(Int(x)) + ".0" : String(x)
}

var limit = rlimit()
getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
limit.rlim_cur = limit.rlim_max
setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)

let options = parseOptions()
if options.findMax {
    // The largest N with at least 99% of frames on time (bisection).
    var lo = 0, hi = options.streams
    var best: (Int, Result)? = nil
    while hi - lo > max(50, lo / 20) {
        let mid = (lo + hi) / 2
        let r = run(options, streams: mid)
        report(options, mid, r)
        if r.onTimeRatio >= 0.99 { lo = mid; best = (mid, r) } else { hi = mid }
        usleep(500_000)
    }
    print("largest N with >= 99% on time: \(best?.0 ?? 0)")
} else {
    report(options, options.streams, run(options, streams: options.streams))
}
