import EventLoop
import Glibc
import HTTPServer

/// A real `redis-server` (Debian's, installed by `.ci/run`) for one test: a
/// free port on 127.0.0.1, its own directory, the append-only file on.
/// Tests that need one are skipped where no `redis-server` is installed.
public final class RedisServerProcess {
    public static let binary: String? = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].first { access($0, X_OK) == 0 }
    public static var available: Bool { binary != nil }

    public let port: Int
    public let directory: String
    private(set) var pid: pid_t = 0
    /// Arguments after the usual ones (`--replicaof host port`).
    private let extra: [String]
    /// A Sentinel's configuration file (it rewrites it), instead of arguments.
    private var sentinelConfig: String?

    public init(arguments: [String] = []) throws {
        port = Self.freePort()
        directory = "/tmp/loaderd-redis-\(getpid())-\(port)"
        extra = arguments
        mkdir(directory, 0o700)
        try start()
    }

    /// A Sentinel (`redis-server … --sentinel`) monitoring each primary
    /// named, with a quorum of 1 and down-after of 1 s.
    public init(sentinelMonitoring primaries: [(name: String, port: Int)]) throws {
        port = Self.freePort()
        directory = "/tmp/loaderd-redis-\(getpid())-\(port)"
        extra = []
        mkdir(directory, 0o700)
        var config = "port \(port)\nbind 127.0.0.1\ndir \(directory)\n"
        for p in primaries {
            config += "sentinel monitor \(p.name) 127.0.0.1 \(p.port) 1\nsentinel down-after-milliseconds \(p.name) 1000\n"
            config += "sentinel failover-timeout \(p.name) 3000\n"
        }
        let path = directory + "/sentinel.conf"
        guard let f = fopen(path, "w") else { throw SystemError("fopen \(path)") }
        fputs(config, f)
        fclose(f)
        sentinelConfig = path
        try start()
    }

    deinit {
        stop(signal: SIGKILL)
        _ = system("rm -rf '\(directory)'")
    }

    public var url: String { "redis://127.0.0.1:\(port)" }

    /// Starts it (again, on the same directory) and waits until it answers.
    public func start() throws {
        let arguments = sentinelConfig.map { [$0, "--sentinel", "--daemonize", "no", "--logfile", directory + "/log"] }
            ?? ["--port", String(port), "--bind", "127.0.0.1", "--dir", directory, "--appendonly", "yes",
                "--appendfsync", "always", "--save", "", "--daemonize", "no", "--logfile", directory + "/log"] + extra
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let argv = ([Self.binary!] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        guard posix_spawn(&pid, Self.binary!, &actions, nil, argv, environ) == 0 else { throw SystemError("posix_spawn redis-server") }
        // Ready when it accepts a connection (polled, with a deadline).
        let deadline = monotonicNanoseconds() + 5_000_000_000
        while monotonicNanoseconds() < deadline {
            let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(s) }
            if (try? SocketAddress(host: "127.0.0.1", port: port))?.connect(s) == true { return }
            usleep(5_000)
        }
        throw SystemError("redis-server did not start", errno: ETIMEDOUT)
    }

    /// Sends `signal` without waiting for the process (SIGSTOP, SIGCONT).
    public func send(signal: Int32) {
        guard pid > 0 else { return }
        kill(pid, signal)
    }

    public func stop(signal: Int32) {
        guard pid > 0 else { return }
        kill(pid, signal)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        pid = 0
    }

    public static func freePort() -> Int {
        let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(s) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(s, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(s, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
