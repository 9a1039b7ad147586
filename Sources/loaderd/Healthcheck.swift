import EventLoop
import Glibc
import HTTPServer

/// `loaderd healthcheck`: GET /healthz with a 2-second limit; exit 0 on
/// 200. Otherwise exit 1 with one line on standard error saying why, so
/// that a container's health log tells refused from slow from unwell.
func runHealthcheck(host: String, port: Int) -> Int32 {
    switch healthcheckFailure(host: host, port: port) {
    case nil:
        return 0
    case let reason?:
        FileHandleOutput.standardError("loaderd healthcheck: \(reason)\n")
        return 1
    }
}

/// Nil when /healthz answered 200; else what went wrong.
func healthcheckFailure(host: String, port: Int) -> String? {
    guard let address = try? SocketAddress(host: host, port: port) else {
        return "bad address \(host) port \(port): the host must be a numeric IPv4 or IPv6 address (--host, LOADERD_HOST)"
    }
    let fd = socket(address.family, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return "cannot make a socket: \(String(cString: strerror(errno)))" }
    defer { close(fd) }
    var tv = timeval(tv_sec: 2, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    func failed(_ what: String) -> String {
        // With SO_SNDTIMEO, connect(2) gives up with EINPROGRESS; a read or write with EAGAIN.
        let e = errno
        let why = e == EINPROGRESS || e == EAGAIN || e == EWOULDBLOCK ? "timed out after 2 s" : String(cString: strerror(e))
        return "\(what) \(address): \(why)"
    }
    guard address.connect(fd) else { return failed("cannot connect to") }
    let request = Array("GET /healthz HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n".utf8)
    guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else {
        return failed("cannot send the request to")
    }
    // The status line, however the answer is cut into reads.
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 256)
    while received.count < 256, !received.contains(0x0A) {
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n < 0 {
            if errno == EINTR { continue }
            return failed("no answer from")
        }
        if n == 0 { break }
        received += buffer[0..<n]
    }
    guard !received.isEmpty else { return "\(address) closed the connection without answering" }
    let statusLine = String(decoding: received.prefix { $0 != 0x0D && $0 != 0x0A }.prefix(120), as: UTF8.self)
    guard statusLine.hasPrefix("HTTP/1."), statusLine.split(separator: " ").dropFirst().first == "200" else { return "\(address)/healthz answered \"\(statusLine)\", not 200" }
    return nil
}
