import HTTPServer
import LoaderSessions
import Synchronization

/// Counters for `/metrics` (Prometheus text format 0.0.4).
public final class Metrics: Sendable {
    /// Upper bounds of the latency histogram, in seconds: from a cached
    /// frame (0.1 ms) to past the longest work allowed (an export may take
    /// up to a minute), so that a slow export lands in a bucket of its own.
    static let buckets: [Double] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
                                    5, 10, 30, 60, 120]

    /// The `method` label: the methods of HTTP's registry that clients
    /// send, and `other` for the rest, so that no client can add series.
    static func methodLabel(_ method: String) -> String {
        switch method {
        case "GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH": return method
        default: return "other"
        }
    }

    /// A series of the request metrics: the router's route and the method.
    struct RouteKey: Equatable, Hashable, Comparable {
        var route: String
        var method: String
        static func < (a: RouteKey, b: RouteKey) -> Bool { (a.route, a.method) < (b.route, b.method) }
    }

    /// A few values by key, in the order first seen, the last key found
    /// checked first: answers come in runs of one route and one status, and
    /// one comparison costs less than hashing the key.
    struct RecentFirst<Key: Equatable, Value> {
        private(set) var entries: [(key: Key, value: Value)] = []
        private var last = 0

        /// Changes `key`'s value, made from `initial` when the key is new.
        mutating func update(_ key: Key, initial: @autoclosure () -> Value, _ change: (inout Value) -> Void) {
            if last >= entries.count || entries[last].key != key {
                if let found = entries.firstIndex(where: { $0.key == key }) {
                    last = found
                } else {
                    entries.append((key, initial()))
                    last = entries.count - 1
                }
            }
            change(&entries[last].value)
        }
    }

    struct RouteStats {
        var byStatus = RecentFirst<Int, Int>()
        var bucketCounts = [Int](repeating: 0, count: Metrics.buckets.count)
        var count = 0
        var sum = 0.0

        mutating func add(status: Int, seconds: Double) {
            byStatus.update(status, initial: 0) { $0 += 1 }
            count += 1
            sum += seconds
            if let i = Metrics.buckets.firstIndex(where: { seconds <= $0 }) { bucketCounts[i] += 1 }
        }

        mutating func merge(_ other: RouteStats) {
            for (status, n) in other.byStatus.entries { byStatus.update(status, initial: 0) { $0 += n } }
            for i in bucketCounts.indices { bucketCounts[i] += other.bucketCounts[i] }
            count += other.count
            sum += other.sum
        }
    }

    /// Counts by route, one shard per event loop (its lock is never
    /// contended) and one for answers completed off the loops. Labels are
    /// the router's (a few dozen at most).
    final class Shard: Sendable {
        let routes = Mutex(RecentFirst<RouteKey, RouteStats>())

        func record(route: String, method: String, status: Int, seconds: Double) {
            let key = RouteKey(route: route, method: Metrics.methodLabel(method))
            routes.withLock { $0.update(key, initial: RouteStats()) { $0.add(status: status, seconds: seconds) } }
        }
    }

    private let shards = Mutex<[Shard]>([])
    /// For answers completed off the loops (deferred ones).
    let offLoopShard = Shard()
    let framesSent = Atomic<Int>(0)
    let framesSkipped = Atomic<Int>(0)

    public init() {
        shards.withLock { $0.append(offLoopShard) }
    }

    /// A shard for one event loop.
    func makeShard() -> Shard {
        let shard = Shard()
        shards.withLock { $0.append(shard) }
        return shard
    }

    func text(openConnections: Int, openStreams: Int, sessions: any SessionStore,
              connections: ConnectionStatistics = ConnectionStatistics()) -> [UInt8] {
        var snapshot: [RouteKey: RouteStats] = [:]
        for shard in shards.withLock({ $0 }) {
            for (route, stats) in shard.routes.withLock({ $0.entries }) { snapshot[route, default: RouteStats()].merge(stats) }
        }
        var out = ""
        let keys = snapshot.keys.sorted()
        out += "# HELP loaderd_http_requests_total HTTP requests answered, by route, method and status.\n"
        out += "# TYPE loaderd_http_requests_total counter\n"
        for key in keys {
            for (status, n) in snapshot[key]!.byStatus.entries.sorted(by: { $0.key < $1.key }) {
                out += "loaderd_http_requests_total{route=\"\(key.route)\",method=\"\(key.method)\",status=\"\(status)\"} \(n)\n"
            }
        }
        out += "# HELP loaderd_http_request_duration_seconds Time to answer a request (to the start of a stream).\n"
        out += "# TYPE loaderd_http_request_duration_seconds histogram\n"
        for key in keys {
            let stats = snapshot[key]!
            let labels = "route=\"\(key.route)\",method=\"\(key.method)\""
            var cumulative = 0
            for (i, bound) in Metrics.buckets.enumerated() {
                cumulative += stats.bucketCounts[i]
                out += "loaderd_http_request_duration_seconds_bucket{\(labels),le=\"\(bound)\"} \(cumulative)\n"
            }
            out += "loaderd_http_request_duration_seconds_bucket{\(labels),le=\"+Inf\"} \(stats.count)\n"
            out += "loaderd_http_request_duration_seconds_sum{\(labels)} \(stats.sum)\n"
            out += "loaderd_http_request_duration_seconds_count{\(labels)} \(stats.count)\n"
        }
        out += "# HELP loaderd_open_connections Open client connections.\n# TYPE loaderd_open_connections gauge\n"
        out += "loaderd_open_connections \(openConnections)\n"
        out += Self.connectionText(connections)
        out += "# HELP loaderd_open_streams Open server-sent event streams.\n# TYPE loaderd_open_streams gauge\n"
        out += "loaderd_open_streams \(openStreams)\n"
        out += "# HELP loaderd_sse_frames_sent_total Frames sent on streams.\n# TYPE loaderd_sse_frames_sent_total counter\n"
        out += "loaderd_sse_frames_sent_total \(framesSent.load(ordering: .relaxed))\n"
        out += "# HELP loaderd_sse_frames_skipped_total Frames skipped because a client was not reading.\n# TYPE loaderd_sse_frames_skipped_total counter\n"
        out += "loaderd_sse_frames_skipped_total \(framesSkipped.load(ordering: .relaxed))\n"
        out += "# HELP loaderd_sessions Live sessions.\n# TYPE loaderd_sessions gauge\n"
        out += "loaderd_sessions \(sessions.count)\n"
        for metric in sessions.metrics {
            out += "# HELP \(metric.name) \(metric.help)\n# TYPE \(metric.name) \(metric.kind.rawValue)\n"
            out += metric.name
            if !metric.labels.isEmpty {
                out += "{" + metric.labels.map { "\($0.name)=\"\(Self.escapeLabel($0.value))\"" }.joined(separator: ",") + "}"
            }
            switch metric.value {
            case .int(let n): out += " \(n)\n"
            case .seconds(let s): out += " \(s)\n"
            }
        }
        return Array(out.utf8)
    }

    /// A label's value as the text format takes it: `\`, `"` and line feeds escaped.
    static func escapeLabel(_ value: String) -> String {
        var out = ""
        for c in value.unicodeScalars {
            switch c {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// Admission (maxConnections, maxConnectionsPerAddress) and accepting.
    static func connectionText(_ c: ConnectionStatistics) -> String {
        var out = ""
        out += "# HELP loaderd_connections_evicted_total Idle keep-alive connections closed to admit new ones into a full table (maxConnections).\n"
        out += "# TYPE loaderd_connections_evicted_total counter\n"
        out += "loaderd_connections_evicted_total \(c.evictedIdle)\n"
        out += "# HELP loaderd_connections_refused_total New connections refused: the table full with none idle (503), or their address over maxConnectionsPerAddress (429).\n"
        out += "# TYPE loaderd_connections_refused_total counter\n"
        out += "loaderd_connections_refused_total{reason=\"max_connections\"} \(c.refusedFull)\n"
        out += "loaderd_connections_refused_total{reason=\"per_address\"} \(c.refusedPerAddress)\n"
        out += "# HELP loaderd_connection_addresses Client addresses with open connections (trusted proxies not counted).\n"
        out += "# TYPE loaderd_connection_addresses gauge\n"
        out += "loaderd_connection_addresses \(c.addresses)\n"
        out += "# HELP loaderd_connections_per_address_max The most connections one client address has open (maxConnectionsPerAddress bounds it).\n"
        out += "# TYPE loaderd_connections_per_address_max gauge\n"
        out += "loaderd_connections_per_address_max \(c.mostFromOneAddress)\n"
        out += "# HELP loaderd_accept_failures_total Failed accepts by reason (EMFILE, ENFILE, ENOBUFS, ENOMEM, other); each pauses accepting on its loop for 100 ms.\n"
        out += "# TYPE loaderd_accept_failures_total counter\n"
        // Every reason, at 0 until it happens, so that an alert can watch it.
        var byReason = Dictionary(uniqueKeysWithValues: ["EMFILE", "ENFILE", "ENOBUFS", "ENOMEM", "other"].map { ($0, 0) })
        for (reason, n) in c.acceptFailures { byReason[reason] = n }
        for (reason, n) in byReason.sorted(by: { $0.key < $1.key }) {
            out += "loaderd_accept_failures_total{reason=\"\(reason)\"} \(n)\n"
        }
        out += "# HELP loaderd_accept_failure_episodes_total Episodes of failing accepts (each ends when an accept works again).\n"
        out += "# TYPE loaderd_accept_failure_episodes_total counter\n"
        out += "loaderd_accept_failure_episodes_total \(c.acceptFailureEpisodes)\n"
        out += "# HELP loaderd_accept_paused 1 from a failed accept until one works again (accepting pauses 100 ms between tries).\n"
        out += "# TYPE loaderd_accept_paused gauge\n"
        out += "loaderd_accept_paused \(c.acceptPaused ? 1 : 0)\n"
        return out
    }
}
