/// Unicode's Stream-Safe Text Format (UAX #15): at most 30 non-starters
/// (combining marks) in a row. Comparing, hashing or lower-casing a string
/// puts each such run in canonical order, at a cost of the square of its
/// length, so one header or query value of a thousand marks would hold an
/// event loop for milliseconds on every comparison. No text needs more.
enum StreamSafe {
    static let maxNonStarters = 30

    static func holds(_ text: some StringProtocol) -> Bool {
        var run = 0
        for scalar in text.unicodeScalars {
            if scalar.value < 0x300 || scalar.properties.canonicalCombiningClass == .notReordered {
                run = 0
            } else {
                run += 1
                if run > maxNonStarters { return false }
            }
        }
        return true
    }
}
