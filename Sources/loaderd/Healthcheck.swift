import EventLoop
import Glibc
import HTTPServer

/// `loaderd healthcheck`: GET /healthz with a 2-second limit; exit 0 on 200.
func runHealthcheck(host: String, port: Int) -> Int32 {
    guard let address = try? SocketAddress(host: host, port: port) else { return 1 }
    let fd = socket(address.family, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return 1 }
    defer { close(fd) }
    var tv = timeval(tv_sec: 2, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    guard address.connect(fd) else { return 1 }
    let request = Array("GET /healthz HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n".utf8)
    guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else { return 1 }
    var buffer = [UInt8](repeating: 0, count: 64)
    let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    guard n >= 12 else { return 1 }
    return String(decoding: buffer[0..<12], as: UTF8.self) == "HTTP/1.1 200" ? 0 : 1
}
