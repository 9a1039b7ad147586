/// How a test reaches a server: in memory through an `EmbeddedServer` (no
/// socket; the loop's clock moves only when the test moves it), or over a
/// real socket to a started server on 127.0.0.1, port 0. A test that takes
/// `Transport.allCases` as its arguments runs one body both ways, as
/// Hummingbird's `.router` and `.live` test modes do, and the report names
/// the transport of each run.
public enum Transport: String, CaseIterable, CustomStringConvertible, Sendable {
    case embedded, live
    public var description: String { rawValue }
}

/// The head of a request as `EmbeddedServer.request` writes it (a Host
/// unless one is given, a Content-Length with a body or on POST and PUT),
/// so that both transports carry the same bytes.
public func requestHead(_ method: String, _ target: String, _ headers: [(String, String)], bodyCount: Int) -> String {
    var head = "\(method) \(target) HTTP/1.1\r\n"
    if !headers.contains(where: { $0.0.lowercased() == "host" }) { head += "Host: embedded\r\n" }
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    if bodyCount > 0 || method == "POST" || method == "PUT" { head += "Content-Length: \(bodyCount)\r\n" }
    return head + "\r\n"
}
