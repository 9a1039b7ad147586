import HTTPTestSupport
import Testing
@testable import HTTPServer
@testable import LoaderService

/// Every cache keyed by a query keeps two different queries apart, whatever
/// their values hold: an answer is never served for a query it was not
/// built for.
struct CacheKeyTests {
    /// Queries whose decoded names and values, joined with `&` and `=`,
    /// read the same: each pair was one key once.
    static let lookalikes: [(String, String)] = [
        ("label=a%26speed%3D2", "label=a&speed=2"),
        ("label=a%3Db", "label%3Da=b"),
        ("color=%23fff%26scale%3D2&scale=1", "color=%23fff&scale=2%26scale%3D1"),
    ]

    @Test(arguments: Transport.allCases)
    func anAnimationIsNeverServedForAnotherQuery(_ transport: Transport) throws {
        for (first, second) in Self.lookalikes {
            for file in ["animation.html", "animation.svg"] {
                // What `second` is, asked of a server that has built nothing.
                let fresh = try get(try TestApp(transport), "/loaders/typing/\(file)?\(second)")
                let app = try TestApp(transport)
                _ = try get(app, "/loaders/typing/\(file)?\(first)")
                let after = try get(app, "/loaders/typing/\(file)?\(second)")
                #expect(after.status == fresh.status, "\(file)?\(second) after \(first)")
                let same = after.body == fresh.body
                #expect(same, "\(file)?\(second) after \(first): another query's answer")
            }
        }
    }

    @Test func differentListsNeverMakeOneKey() {
        let lists: [[String]] = [["a&b=c"], ["a", "b", "c"], ["a&b", "c"], ["a", "b=c"], ["", "a"], ["a", ""], ["1:a"], ["1", "a"]]
        let keys = lists.map { list in list.reduce(into: CacheKey()) { $0.append($1) } }
        #expect(Set(keys).count == lists.count)
    }
}
