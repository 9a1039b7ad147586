import Glibc

/// The `Date` header value (IMF-fixdate), formatted once a second per loop.
struct HTTPDateCache {
    private(set) var bytes: [UInt8] = []
    private var second: Int = -1

    mutating func refresh() {
        var now = time(nil)
        guard now != second else { return }
        second = now
        var parts = tm()
        gmtime_r(&now, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let text = "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
        bytes = Array(text.utf8)
    }
}
