import Glibc

/// Everything the server can be told; every limit has a default.
public struct HTTPServerConfiguration: Sendable {
    /// Addresses to listen on (numeric IPv4 or IPv6, or `localhost`).
    public var hosts: [String] = ["127.0.0.1"]
    /// 0 picks a free port (tests).
    public var port: Int = 8080
    /// Event loops (threads); default one per core.
    public var eventLoops: Int = HTTPServerConfiguration.cores
    /// The processors online: the default number of event loops (and of other workers).
    public static let cores = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    public var limits = HTTPLimits()
    /// At this many open connections, a newcomer takes the place of the
    /// connection idle longest between requests (as nginx reuses idle
    /// connections); only when none is idle does it get 503 and close.
    public var maxConnections = 16_384
    /// Open connections of one peer address (IPv4-mapped IPv6 counted as its
    /// IPv4); beyond, 429 and close. Never more than half of
    /// `maxConnections` (`effectiveMaxConnectionsPerAddress`), so that one
    /// address can never hold every connection.
    public var maxConnectionsPerAddress = 128
    /// Peers that `maxConnectionsPerAddress` does not bound: proxies, each
    /// of whose connections speaks for other clients.
    public var perAddressExempt: [AddressRange] = []
    /// After `accept` fails for want of descriptors or memory (EMFILE,
    /// ENFILE, ENOBUFS, ENOMEM), a loop stops accepting for this long (ns)
    /// and goes on serving its open connections.
    public var acceptBackoff: UInt64 = 100_000_000
    /// Told on the loop that sees it when accepting starts failing and when
    /// it works again (once per episode each): for the log.
    public var onAcceptEvent: (@Sendable (AcceptEvent) -> Void)? = nil
    /// A request's head must arrive within this (ns): else 408 and close.
    public var headerTimeout: UInt64 = 10_000_000_000
    /// After an answer to a request that broke the rules (400, 408, 413,
    /// 414, 431), the client's further bytes are read and dropped for at
    /// most this long (ns) and this many bytes, so that the answer reaches
    /// it before the connection closes.
    public var lingerTimeout: UInt64 = 2_000_000_000
    public var maxLingerBytes = 4 << 20
    /// An idle keep-alive connection is closed after this (ns).
    public var idleTimeout: UInt64 = 60_000_000_000
    /// A client that reads nothing for this long (ns) while output waits is dropped.
    public var streamStallTimeout: UInt64 = 30_000_000_000
    /// Stop reading a connection's requests above this many queued bytes…
    public var highWatermark = 256 * 1024
    /// …and start again below this.
    public var lowWatermark = 64 * 1024
    /// Output queued for all clients together: above it, the clients that
    /// have read nothing for `sheddingStall` are dropped, largest first,
    /// and `HTTPServer.isOverBufferCap` tells the responder to refuse new
    /// heavy answers.
    public var maxBufferedBytes = 128 << 20
    /// Over `maxBufferedBytes`, a client whose output has not moved for this
    /// long (ns) is dropped rather than waited for.
    public var sheddingStall: UInt64 = 1_000_000_000
    /// A stream has room for another write below this many queued bytes.
    public var streamHighWatermark = 64 * 1024
    /// The kernel send buffer of a connection once it streams (SO_SNDBUF;
    /// the kernel doubles it). Frames are small and a slow client gets the
    /// latest one, so a stream needs little; without a cap, autotuning lets
    /// a client that stops reading pin megabytes of kernel memory and hides
    /// its stall for seconds.
    public var streamSendBufferBytes = 256 * 1024
    /// Input a connection may hold while its requests wait (behind a slow
    /// answer or full output) before it stops reading.
    public var readBufferSize = 16 * 1024
    public var backlog: Int32 = 4096
    /// The `Server` header, if any.
    public var serverName: String? = nil

    public init() {}

    /// `maxConnectionsPerAddress`, at most half of `maxConnections` (at least 1).
    public var effectiveMaxConnectionsPerAddress: Int {
        min(maxConnectionsPerAddress, max(1, maxConnections / 2))
    }
}

/// The start and the end of an episode of failing `accept`s.
public enum AcceptEvent: Sendable {
    /// `accept` failed with `reason` (`EMFILE`, …): accepting pauses for
    /// `acceptBackoff` at a time until it works again.
    case failing(reason: String, openConnections: Int)
    /// It works again after `failures` failures over `nanoseconds`.
    case recovered(failures: Int, nanoseconds: UInt64)
}
