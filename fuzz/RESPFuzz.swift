// libFuzzer target: the RESP reply parser. Each input is read as a stream
// of replies, whole and with only a prefix available first (split at a
// point the input chooses); both must agree, each reply must survive being
// written back and read again, and nothing may crash, hang or leak.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRESP(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    var limits = RESPLimits()
    limits.maxBulkBytes = 1 << 16
    limits.maxArrayCount = 1 << 10
    let parser = RESPParser(limits: limits)
    let whole = replies(bytes, parser)
    let split = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    // With only the first `split` bytes, every reply found is one of the
    // whole stream's, and ends within the prefix.
    let early = replies(Array(bytes[..<split]), parser)
    for (i, r) in early.values.enumerated() {
        guard i < whole.values.count, whole.values[i] == r else { fatalError("a prefix read a reply the whole stream does not have") }
    }
    if early.failed && !whole.failed { fatalError("a prefix failed where the whole stream did not") }
    for value in whole.values {
        var out: [UInt8] = []
        RESP.encode(value, to: &out)
        let again = out.withUnsafeBufferPointer { try? parser.next($0) }
        guard let again, again.value == value, again.consumed == out.count else { fatalError("a reply did not survive writing and reading back") }
    }
    return 0
}

/// The replies in `bytes`, in order, and whether reading stopped on an error.
func replies(_ bytes: [UInt8], _ parser: RESPParser) -> (values: [RESPValue], failed: Bool) {
    var values: [RESPValue] = []
    var start = 0
    while start < bytes.count {
        do {
            let next = try bytes.withUnsafeBufferPointer { (b) throws(RESPError) in try parser.next(UnsafeBufferPointer(rebasing: b[start...])) }
            guard let next else { break }
            values.append(next.value)
            start += next.consumed
        } catch {
            return (values, true)
        }
    }
    return (values, false)
}
