import Testing
@testable import HTTPServer

/// `Accept` weights as HTTP defines them (RFC 9110, 12.5.1): a type takes
/// the weight of the most specific range that matches it, and 0 excludes.
@Suite struct MediaRangesTests {
    @Test func theSpecificationsExample() {
        // The RFC's example, without the ranges that differ only by parameters
        // (parameters other than q are not told apart here).
        let accept = MediaRanges("text/*;q=0.3, text/plain;q=0.7, */*;q=0.5")
        #expect(accept.quality("text/plain") == 0.7)
        #expect(accept.quality("text/html") == 0.3)
        #expect(accept.quality("image/jpeg") == 0.5)
    }

    @Test func zeroExcludesEvenBesideAWildcard() {
        let accept = MediaRanges("application/json;q=0, */*")
        #expect(!accept.accepts("application/json"))
        #expect(accept.accepts("image/svg+xml"))
        #expect(!accept.names("application/json"))
        #expect(!MediaRanges("*/*;q=0").accepts("text/html"))
        #expect(!MediaRanges("image/*;q=0.0, */*").accepts("image/png"))
        #expect(MediaRanges("image/*;q=0.0, */*").accepts("text/html"))
    }

    @Test func noHeaderTakesAnything() {
        #expect(MediaRanges(nil).accepts("application/json") && MediaRanges("  ").quality("x/y") == 1)
        #expect(!MediaRanges(nil).names("application/json"))
        #expect(MediaRanges("IMAGE/SVG+XML ; Q=0.5").quality("image/svg+xml") == 0.5)
        #expect(MediaRanges("text/event-stream").names("text/event-stream"))
        #expect(MediaRanges("text/html").quality("application/json") == 0)
    }
}
