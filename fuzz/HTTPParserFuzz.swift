// libFuzzer target: the HTTP/1.1 request parser. Each input is parsed whole
// and again split at a point the input chooses (first byte); both must agree,
// and nothing may crash, hang or leak. The input is read as an
// `Accept-Encoding` value too, and each request's own is weighed.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPParser(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    var limits = HTTPLimits()
    limits.maxBodyBytes = 4096
    let whole = outcomes(bytes, split: bytes.count, limits: limits)
    let split = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    let pieces = outcomes(bytes, split: split, limits: limits)
    if whole != pieces { fatalError("parsing whole and in two pieces differ: \(whole) vs \(pieces)") }
    _ = AcceptEncoding.coding(String(decoding: bytes, as: UTF8.self))
    return 0
}

/// Feeds `bytes` in two pieces (at `split`), as a connection would; what came out.
func outcomes(_ bytes: [UInt8], split: Int, limits: HTTPLimits) -> [String] {
    var parser = HTTPRequestParser(limits: limits)
    var buffer: [UInt8] = []
    var start = 0
    var out: [String] = []
    for piece in [bytes[..<split], bytes[split...]] {
        buffer.append(contentsOf: piece)
        loop: while start < buffer.count {
            let event = buffer.withUnsafeBufferPointer { parser.parse(UnsafeBufferPointer(rebasing: $0[start...])) }
            switch event {
            case .request(let r, let consumed):
                out.append("\(r.method) \(r.path) \(r.query.count) \(r.body.count) \(r.keepAlive) \(AcceptEncoding.coding(r.headers))")
                start += consumed
            case .sendContinue: continue
            case .needMore: break loop
            case .error(let e):
                out.append("error \(e.status.code)")
                return out
            }
        }
    }
    return out
}
