// libFuzzer target: the RESP reply parser. Each input is read as a stream
// of replies, whole and with only a prefix available first (split at a
// point the input chooses); both must agree, each reply must survive being
// written back and read again, and nothing may crash, hang or leak. The
// stream is also fed in pieces (sizes the input chooses), the measure
// resumed across them as a connection does: it must read the same replies.
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
    let pieces = resumed(bytes, parser, piece: bytes.count < 2 ? 1 : 1 + Int(bytes[1]) % 7)
    guard pieces.values == whole.values, pieces.failed == whole.failed else { fatalError("replies read in pieces differ from the whole stream's") }
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

/// The replies in `bytes` as a connection reads them: `piece` bytes at a
/// time appended to a buffer, the measure resumed, whole replies removed.
func resumed(_ bytes: [UInt8], _ parser: RESPParser, piece: Int) -> (values: [RESPValue], failed: Bool) {
    var values: [RESPValue] = []
    var input: [UInt8] = []
    var progress = RESPParser.Progress()
    var fed = 0
    while fed < bytes.count {
        let n = min(piece, bytes.count - fed)
        input += bytes[fed..<(fed + n)]
        fed += n
        var start = 0
        while start < input.count {
            do {
                let next = try input.withUnsafeBufferPointer { (b) throws(RESPError) in
                    try parser.next(UnsafeBufferPointer(rebasing: b[start...]), resuming: &progress)
                }
                guard let next else { break }
                values.append(next.value)
                start += next.consumed
            } catch {
                return (values, true)
            }
        }
        input.removeFirst(start)
    }
    return (values, false)
}
