import Glibc

/// The last request a loop parsed, kept with its exact bytes: a request
/// that arrives again byte for byte (a client polling one frame, many
/// clients asking for the same one) is the same `HTTPRequest`, so it is
/// taken without parsing, as the parser is deterministic in those bytes.
/// Only small requests are kept; the buffer is reused. Loop thread only.
struct RepeatedRequest {
    static let maxBytes = 2048
    private var bytes: [UInt8] = []
    private var request: HTTPRequest?

    /// The kept request when `input` starts with its bytes, and how many.
    func match(_ input: UnsafeBufferPointer<UInt8>) -> (HTTPRequest, consumed: Int)? {
        guard let request, input.count >= bytes.count,
              bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, input.baseAddress!, $0.count) == 0 })
        else { return nil }
        return (request, bytes.count)
    }

    /// Keeps `request`, parsed from exactly `raw`.
    /// A request too big to keep leaves nothing kept.
    mutating func remember(_ request: HTTPRequest, parsedFrom raw: UnsafeBufferPointer<UInt8>) {
        bytes.removeAll(keepingCapacity: true)
        guard raw.count <= Self.maxBytes else {
            self.request = nil
            return
        }
        bytes.append(contentsOf: raw)
        self.request = request
    }
}
