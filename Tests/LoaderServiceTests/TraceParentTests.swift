import Testing
@testable import LoaderService

/// The W3C Trace Context examples and its rules for what a receiver drops.
@Suite struct TraceParentTests {
    @Test func takesTheTraceIdOfAValidHeader() {
        // The specification's own example.
        #expect(TraceParent.traceID("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01") == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(TraceParent.traceID("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00") == "0af7651916cd43dd8448eb211c80319c")
        // A later version may carry more after a dash.
        #expect(TraceParent.traceID("01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00-extra") == "0af7651916cd43dd8448eb211c80319c")
    }

    @Test func dropsEveryInvalidForm() {
        for value in [
            "", "00", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-",           // version 00 is exactly 55
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",            // version ff
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",            // all-zero trace id
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",            // all-zero parent id
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",            // upper case
            "00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01",            // not hex
            "00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",            // wrong separator
            "01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00x",           // later version, no dash
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01\"}\n{\"x\":1",  // an injection attempt
            "00-4bf92f3577b34da6a3ce929d0e0e47é-00f067aa0ba902b7-01",
        ] {
            #expect(TraceParent.traceID(value) == nil, "\(value)")
        }
    }
}
