/// What an error message quotes of a request: at most 100 characters, then
/// an ellipsis and how many more there were, so that a refusal never
/// echoes kilobytes of what it refuses.
public func quoted(_ text: some StringProtocol) -> String {
    // Counted in Unicode scalars, not characters: one character can hold
    // thousands of combining marks, and the cap is on what is echoed.
    let limit = 100
    let scalars = Substring(text).unicodeScalars
    var end = scalars.startIndex
    var count = 0
    while end < scalars.endIndex && count < limit {
        end = scalars.index(after: end)
        count += 1
    }
    guard end < scalars.endIndex else { return String(text) }
    return String(Substring(scalars[..<end])) + "… (\(scalars[end...].count) more characters)"
}

/// Up to `most` of `names` nearest to `text` (by edit distance, then in
/// their order), for "did you mean" in a refusal.
public func nearest(_ text: String, in names: [String], most: Int = 3) -> [String] {
    let a = Array(quoted(text).unicodeScalars.prefix(100))
    func distance(_ name: String) -> Int {
        let b = Array(name.unicodeScalars)
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in 1...max(b.count, 1) where !b.isEmpty {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return row[b.count]
    }
    return names.enumerated().map { (distance($0.element), $0.offset, $0.element) }
        .sorted { ($0.0, $0.1) < ($1.0, $1.1) }.prefix(most).map(\.2)
}
