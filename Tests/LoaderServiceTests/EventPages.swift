import FoundationEssentials
import HTTPTestSupport
import Testing

/// A session's events page by page, as the API documents them: at most 1000
/// an answer from `after`, a `next` link while more follow, `eventCount` the
/// whole. `get` answers a target; the session has `count` events, all
/// `progress`. Any store gives the same pages.
func expectEventPages(of id: String, count: Int, _ get: (String) throws -> TestResponse) throws {
    struct Page: Decodable {
        struct Event: Decodable { let type: String; let t: Double }
        let eventCount: Int; let events: [Event]; let next: String?
    }
    var target: String? = "/sessions/\(id)"
    var all: [Page.Event] = [], sizes: [Int] = []
    while let t = target, sizes.count <= count / 1000 + 1 {
        let r = try get(t)
        #expect(r.status == 200, "\(t): \(r.text)")
        let page = try JSONDecoder().decode(Page.self, from: Data(r.body))
        #expect(page.eventCount == count)
        all += page.events
        sizes.append(page.events.count)
        target = page.next
    }
    var expected = Array(repeating: 1000, count: count / 1000)
    if count % 1000 != 0 || count == 0 { expected.append(count % 1000) }
    #expect(sizes == expected)
    #expect(all.count == count && all.allSatisfy { $0.type == "progress" })
    // In the order they were posted.
    #expect(zip(all, all.dropFirst()).allSatisfy { $0.t <= $1.t })
    // Past the end: no events yet, and no next link.
    let past = try JSONDecoder().decode(Page.self, from: Data(get("/sessions/\(id)?after=\(count + 5)").body))
    #expect(past.events.isEmpty && past.next == nil && past.eventCount == count)
    if count > 0 {
        let tail = try JSONDecoder().decode(Page.self, from: Data(get("/sessions/\(id)?after=\(count - 1)").body))
        #expect(tail.events.count == 1 && tail.events[0].t == all.last?.t)
    }
    for bad in ["after=-1", "after=x", "after=", "after=1&after=2", "after=1e3", "since=3", "after=1234567890"] {
        #expect(try get("/sessions/\(id)?\(bad)").status == 400, "\(bad)")
    }
}
