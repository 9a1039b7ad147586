import HTTPServer

/// The trace id of a W3C Trace Context `traceparent` header
/// (`00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>`), for the access
/// log, so one request can be followed from a proxy's log to ours. Only a
/// header of exactly that form counts: its trace id is then 32 lowercase hex
/// digits, safe to log as it is, and anything else a client sends is not
/// logged at all.
enum TraceParent {
    /// The trace id, or nil when there is no single valid header. A later
    /// version may append fields after a `-`; version `ff` is invalid, as
    /// are an all-zero trace id or parent id.
    static func traceID(_ request: HTTPRequest) -> Substring? {
        // Counted first: most requests have none, and then nothing is made.
        guard request.headers.count(named: "traceparent") == 1, let value = request.headers["traceparent"] else { return nil }
        return traceID(value)
    }

    static func traceID(_ value: String) -> Substring? {
        let utf8 = value.utf8
        guard utf8.count >= 55 else { return nil }
        var hexDigits = 0
        var nonZeroTrace = false, nonZeroParent = false
        for (i, c) in utf8.prefix(55).enumerated() {
            switch i {
            case 2, 35, 52:
                guard c == UInt8(ascii: "-") else { return nil }
            default:
                guard isLowerHex(c) else { return nil }
                hexDigits += 1
                if c != UInt8(ascii: "0") {
                    if (3..<35).contains(i) { nonZeroTrace = true }
                    if (36..<52).contains(i) { nonZeroParent = true }
                }
            }
        }
        let version = utf8.prefix(2)
        guard hexDigits == 52, nonZeroTrace, nonZeroParent, !version.elementsEqual("ff".utf8) else { return nil }
        // Version 00 is exactly 55 characters; a later one may go on after a dash.
        if version.elementsEqual("00".utf8) {
            guard utf8.count == 55 else { return nil }
        } else if utf8.count > 55 {
            guard utf8[utf8.index(utf8.startIndex, offsetBy: 55)] == UInt8(ascii: "-") else { return nil }
        }
        let start = value.utf8.index(value.startIndex, offsetBy: 3)
        let end = value.utf8.index(start, offsetBy: 32)
        return value[start..<end]
    }

    private static func isLowerHex(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "f"))
    }
}
