import Testing
@testable import HTTPServer

/// `Accept-Encoding` as RFC 9110 §12.5.3 reads it, and the service's
/// choices where it leaves one (absent header, nothing acceptable).
@Suite struct AcceptEncodingTests {
    func coding(_ value: String) -> ContentCoding { AcceptEncoding.coding(value) }

    @Test func whatBrowsersAndToolsSend() {
        #expect(coding("gzip, deflate, br, zstd") == .gzip)   // Chromium
        #expect(coding("gzip, deflate") == .gzip)              // Python's requests
        #expect(coding("deflate, gzip") == .gzip)              // curl --compressed
        #expect(coding("br") == .identity)
        #expect(coding("") == .identity)                       // §12.5.3: only identity
        #expect(AcceptEncoding.coding(HTTPHeaders()) == .identity)   // no header: identity (our choice)
    }

    @Test func theSpecificationsExamples() {
        // §12.5.3's examples.
        #expect(coding("compress, gzip") == .gzip)
        #expect(coding("*") == .gzip)
        #expect(coding("compress;q=0.5, gzip;q=1.0") == .gzip)
        #expect(coding("gzip;q=1.0, identity; q=0.5, *;q=0") == .gzip)
    }

    @Test func weightsRefuseAndRank() {
        #expect(coding("gzip;q=0") == .identity)
        #expect(coding("gzip;q=0.000, *") == .identity)          // gzip named: `*` does not apply to it
        #expect(coding("*;q=0") == .identity)                      // nothing acceptable: identity anyway (our choice)
        #expect(coding("identity;q=0") == .identity)               // gzip not listed and no `*`
        #expect(coding("identity;q=0, gzip;q=0") == .identity)
        #expect(coding("identity;q=0, *") == .gzip)
        #expect(coding("identity, gzip;q=0.5") == .identity)       // identity preferred
        #expect(coding("identity;q=0.5, gzip;q=0.5") == .gzip)     // a tie: the smaller body
        #expect(coding("gzip;q=0.001") == .gzip)
        #expect(coding("*;q=0.2, identity;q=0.1") == .gzip)
    }

    @Test func namesAndWhiteSpace() {
        #expect(coding("x-gzip") == .gzip)                         // §8.4.1.3
        #expect(coding("GZIP") == .gzip && coding("X-Gzip;Q=0.3") == .gzip)
        #expect(coding(" \tgzip \t; \tq=0.5 \t, br") == .gzip)
        #expect(coding("gzip ; q = 0") == .identity)
        #expect(coding(",,, gzip ,,") == .gzip)
        #expect(coding("gzipx, xgzip, gzi") == .identity)
        #expect(coding("gzip;level=9;q=1") == .gzip)               // other parameters ignored
        // The higher of two weights for one coding.
        #expect(coding("gzip;q=0, x-gzip;q=0.4") == .gzip)
    }

    @Test func aWeightThatIsNoQvalueDropsItsElement() {
        for bad in ["2", "1.5", "1.001", "0.0001", "-1", "0,5", "abc", "", "0.5.", "1.0000", "+1", " .5"] {
            #expect(coding("gzip;q=\(bad)") == .identity, "q=\(bad)")
        }
        for good in ["1", "1.", "1.000", "0.5", "0.99", "0.999", "0.1"] {
            #expect(coding("gzip;q=\(good)") == .gzip, "q=\(good)")
        }
    }

    @Test func fieldsAreOneList() {
        let headers = HTTPHeaders([("Accept-Encoding", "br"), ("accept-encoding", "gzip;q=0.5")])
        #expect(AcceptEncoding.coding(headers) == .gzip)
        let refused = HTTPHeaders([("Accept-Encoding", "*"), ("Accept-Encoding", "gzip;q=0")])
        #expect(AcceptEncoding.coding(refused) == .identity)
    }

    /// Inputs of every shape, 256 KiB each, are read in one pass (no
    /// time is measured: a quadratic reader would not end in the test's run).
    @Test func longInputsOfAnyShape() {
        let shapes = [";", ",", "=", " ", "q", ";q=", "gzip;q=0,", "*;q=1;q=0;", "x-gzip ", "\t;\t=\t,"]
        for shape in shapes {
            let value = String(repeating: shape, count: 1 << 18 / shape.utf8.count)
            _ = coding(value)
            _ = coding(value + ",gzip")
        }
        #expect(coding(String(repeating: "br;q=0.5, ", count: 100_000) + "gzip") == .gzip)
        #expect(coding(String(repeating: "gzip;q=0.5;", count: 100_000) + "q=0") == .identity)
    }
}
