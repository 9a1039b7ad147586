import FoundationEssentials
import Glibc
import LoaderEngine
import Testing
@testable import LoaderService
@testable import LoaderSessions

struct ConfigurationTests {
    @Test func embeddedConfigIsTheDocumentedFile() throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let file = try Data(contentsOf: here.appendingPathComponent("../../config/loaderd.json").standardized)
        // The file is the defaults written out, byte for byte, in the table's order.
        #expect(String(decoding: file, as: UTF8.self) == ServiceConfiguration.defaultFile())
        // Every key has a documented default in the file, and reading the
        // file over nothing gives the defaults.
        guard case .object(let fields) = try JSONValue.parse(Array(file)) else { Issue.record("not an object"); return }
        #expect(fields.map(\.0) == ServiceConfiguration.keys.map(\.name))
        var read = ServiceConfiguration()
        try read.apply(json: JSONValue.parse(Array(file)), source: "config/loaderd.json")
        #expect(read == ServiceConfiguration())
    }

    @Test func flagsBeatEnvironmentBeatFileBeatDefaults() throws {
        let path = "/tmp/loaderd-test-\(getpid()).json"
        try Data(#"{"port": 9001, "host": "0.0.0.0", "threads": 3, "logLevel": "warning"}"#.utf8).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        let command = try parseCommand(["--config", path, "--port", "9003"],
                                       environment: ["LOADERD_PORT": "9002", "LOADERD_THREADS": "5", "PATH": "/bin"])
        guard case .serve(let c, _) = command else { Issue.record("not serve"); return }
        #expect(c.port == 9003)       // flag
        #expect(c.threads == 5)       // environment over file
        #expect(c.host == "0.0.0.0")  // file over default
        #expect(c.logLevel == .warning)
        #expect(c.maxConnections == 16_384)  // default
        guard case .serve(let viaEnv, _) = try parseCommand([], environment: ["LOADERD_CONFIG": path], systemConfig: nil) else { return }
        #expect(viaEnv.port == 9001)
        guard case .serve(let equals, _) = try parseCommand(["--port=7000", "--data-dir", "/var/lib/x", "--log-level=debug"], environment: [:], systemConfig: nil) else { return }
        #expect(equals.port == 7000 && equals.dataDir == "/var/lib/x" && equals.logLevel == .debug)
    }

    @Test(arguments: [
        (["--port", "99999"], [:], "port must be an integer from 0 to 65535"),
        (["--bogus"], [:], "unknown option --bogus"),
        (["--port"], [:], "--port needs a value"),
        ([], ["LOADERD_PORTT": "1"], "unknown variable LOADERD_PORTT"),
        ([], ["LOADERD_ACCESS_LOG": "maybe"], "accessLog must be true or false"),
        (["--log-level", "loud"], [:], "logLevel must be one of"),
        (["--config", "/nonexistent/loaderd.json"], [:], "cannot read config file"),
        (["--session-store", "memcached://x:1"], [:], "sessionStore must be local or redis://"),
        (["--session-store", "redis://127.0.0.1:6379", "--data-dir", "/var/lib/x"], [:], "dataDir is for the local session store"),
        ([], ["LOADERD_SESSION_STORE": "redis://redis:6379/1", "LOADERD_REPLICA_NAME": "loaderd-0"], "leave replicaName null"),
        ([], ["LOADERD_SESSION_CREATE_RATE": "fast"], "sessionCreateRate must be a number from 0.001 to 1000000.0"),
        ([], ["LOADERD_REDIS_TIMEOUT_SECONDS": "0"], "redisTimeoutSeconds must be a number of seconds from 0.05 to 60.0"),
        ([], ["LOADERD_REDIS_PASSWORD": "s3cret"], "redisPassword is for a sessionStore in Redis"),
        ([], ["LOADERD_REDIS_PASSWORD": "s3cret", "LOADERD_SESSION_STORE": "redis://:other@redis:6379"], "the Redis password is given twice"),
        ([], ["LOADERD_REDIS_SENTINEL_PASSWORD": "s3cret"], "redisSentinelPassword is for a sessionStore behind Sentinels"),
        ([], ["LOADERD_REDIS_SENTINEL_PASSWORD": "s3cret", "LOADERD_SESSION_STORE": "redis://redis:6379"], "redisSentinelPassword is for a sessionStore behind Sentinels"),
        ([], ["LOADERD_REDIS_PASSWORD": "s3cret", "LOADERD_SESSION_STORE": "redis-sentinel://:other@s1:26379/mymaster"], "the Redis password is given twice"),
        ([], ["LOADERD_SESSION_STORE": "redis-sentinel://s1:26379/mymaster", "LOADERD_DATA_DIR": "/var/lib/x"], "dataDir is for the local session store"),
        ([], ["LOADERD_SESSION_STORE": "redis-sentinel://s1:26379"], "names no primary"),
        ([], ["LOADERD_SESSION_STORE": "redis-sentinel://:s3cretPW@host/mymaster"], "each Sentinel is host:port"),
        (["--session-store", "redis-sentinl://:s3cretPW@host:1/m"], [:], "sessionStore must be local or redis://"),
        ([], ["LOADERD_SESSION_STORE": "redis://:s3cretPW@host"], "needs a port from 1 to 65535"),
        // The host is checked when read, as the listener parses it (numeric only).
        (["--host", "nonsense"], [:], "host must be a numeric IPv4 or IPv6 address"),
        ([], ["LOADERD_HOST": "example.com"], "environment LOADERD_HOST: host must be a numeric IPv4 or IPv6 address"),
        (["--host", "300.1.1.1"], [:], "host must be a numeric IPv4 or IPv6 address"),
    ] as [([String], [String: String], String)])
    func badSettingsNameTheCulprit(_ arguments: [String], _ environment: [String: String], _ message: String) {
        do {
            _ = try parseCommand(arguments, environment: environment, systemConfig: nil)
            Issue.record("accepted \(arguments) \(environment)")
        } catch {
            #expect(error.message.contains(message), "\(error.message)")
            // A password in a setting is never shown.
            #expect(!error.message.contains("s3cret"), "\(error.message)")
        }
    }

    /// The password can come apart from the URL (from a secret), and is
    /// never in what is printed of the store.
    @Test func theRedisPasswordComesFromItsOwnSetting() throws {
        guard case .serve(let c, _) = try parseCommand([], environment: ["LOADERD_SESSION_STORE": "redis://loaderd-redis:6379",
                                                                      "LOADERD_REDIS_PASSWORD": "s3cret-pw"], systemConfig: nil) else {
            Issue.record("not serve")
            return
        }
        let url = try #require(c.redisURL)
        #expect(url.host == "loaderd-redis" && url.port == 6379 && url.password == "s3cret-pw" && url.user == nil)
        #expect(!url.description.contains("s3cret-pw"))
        guard case .serve(let local, _) = try parseCommand([], environment: [:], systemConfig: nil) else { return }
        #expect(local.redisURL == nil)
    }

    /// Behind Sentinels, the Redis servers' password and the Sentinels'
    /// own are two secrets, neither in what is printed of the store.
    @Test func aStoreBehindSentinelsTakesBothPasswords() throws {
        guard case .serve(let c, _) = try parseCommand([], environment: [
            "LOADERD_SESSION_STORE": "redis-sentinel://s1:26379,s2:26379,[::1]:26380/mymaster/2",
            "LOADERD_REDIS_PASSWORD": "data-pw", "LOADERD_REDIS_SENTINEL_PASSWORD": "sentinel-pw",
        ], systemConfig: nil) else {
            Issue.record("not serve")
            return
        }
        #expect(c.redisSentinelPassword == "sentinel-pw" && c.redisPassword == "data-pw")
        #expect(c.redisURL == nil)
        let store = try c.openSessionStore(catalog: .standard, logger: Logger(level: .error))
        let redis = try #require(store as? RedisSessionStore)
        let sentinel = try #require(redis.sentinel)
        #expect(sentinel.url.sentinels.map(\.description) == ["s1:26379", "s2:26379", "[::1]:26380"])
        #expect(sentinel.url.primaryName == "mymaster" && sentinel.url.database == 2 && sentinel.url.password == "data-pw")
        #expect(redis.url.password == "data-pw" && redis.url.database == 2)
        #expect(!sentinel.url.description.contains("pw"))
    }

    @Test func theHostIsANumericAddress() throws {
        var c = ServiceConfiguration()
        for good in ["0.0.0.0", "127.0.0.1", "::", "::1", "[::1]", "localhost"] {
            try c.apply(name: "host", text: good, source: "flag --host")
            #expect(c.host == good)
        }
        #expect(throws: ConfigurationError.self) { try c.apply(json: try JSONValue.parse(#"{"host": "my-host"}"#), source: "f") }
        #expect(throws: ConfigurationError.self) { try c.apply(json: try JSONValue.parse(#"{"host": ""}"#), source: "f") }
    }

    /// A secret of the wrong type is refused without being shown, whatever
    /// it is: every setting the table marks secret, every JSON scalar.
    @Test func aSecretOfTheWrongTypeIsNotShown() throws {
        let secrets = ServiceConfiguration.keys.filter { $0.kind == .secret }.map(\.name)
        #expect(Set(secrets) == ["sessionCreateKey", "redisPassword", "redisSentinelPassword"])
        for name in secrets {
            for value in ["987654", "55555.5", "true", "-7e3"] {
                var c = ServiceConfiguration()
                let json = try JSONValue.parse("{\"\(name)\": \(value)}")
                do {
                    try c.apply(json: json, source: "f")
                    Issue.record("\(name): \(value) taken")
                } catch {
                    #expect(error.message.contains(name) && !error.message.contains(value) && !error.message.contains("7000"), "\(error.message)")
                }
            }
        }
    }

    /// The start log's account: the file, the data directory, the store
    /// without its password, then what differs from the defaults, by the
    /// names of the settings table; never a secret.
    @Test func theEffectiveConfigurationHidesSecrets() throws {
        let path = "/tmp/loaderd-effective-\(getpid()).json"
        try Data(#"{"maxStreams": 500, "accessLog": false}"#.utf8).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        guard case .serve(let c, let file) = try parseCommand(["--config", path, "--port", "9000", "--log-level", "debug"], environment: [
            "LOADERD_SESSION_STORE": "redis://loaderd-redis:6379/2", "LOADERD_REDIS_PASSWORD": "s3cret-pw",
            "LOADERD_SESSION_CREATE_KEY": "s3cret-key", "LOADERD_HEAVY_WAIT_SECONDS": "2.5",
            "LOADERD_TRUSTED_PROXIES": "10.0.0.0/8,::1",
        ], systemConfig: nil) else {
            Issue.record("not serve")
            return
        }
        #expect(file == path)
        let fields = c.effectiveFields(configFile: file)
        let shown = fields.map { name, value -> String in
            switch value {
            case .string(let s): return "\(name)=\(s)"
            case .int(let n): return "\(name)=\(n)"
            case .double(let d): return "\(name)=\(d)"
            case .bool(let b): return "\(name)=\(b)"
            }
        }
        #expect(shown == [
            "configFile=\(path)", "dataDir=none", "sessionStore=redis://loaderd-redis:6379/2",
            "port=9000", "logLevel=debug", "accessLog=false", "trustedProxies=[\"10.0.0.0/8\",\"::1\"]", "maxStreams=500",
            "heavyWaitSeconds=2.5", "sessionCreateKey=(set)", "redisPassword=(set)",
        ])
        // A password in the URL is left out, and the defaults alone show only the three.
        guard case .serve(let url, let none) = try parseCommand([], environment: ["LOADERD_SESSION_STORE": "redis://app:s3cret@r:6379"],
                                                               systemConfig: nil) else { return }
        let urlFields = url.effectiveFields(configFile: none)
        #expect(urlFields.map(\.0) == ["configFile", "dataDir", "sessionStore"])
        guard case .string(let store) = urlFields[2].1 else { Issue.record("sessionStore not a string"); return }
        #expect(store == "redis://***@r:6379")
        guard case .string(let noFile) = urlFields[0].1 else { return }
        #expect(noFile.hasPrefix("none"))
    }

    @Test func unknownKeysAndBadValuesInAFile() throws {
        var c = ServiceConfiguration()
        #expect(throws: ConfigurationError.self) { try c.apply(json: try JSONValue.parse(#"{"prot": 1}"#), source: "f") }
        #expect(throws: ConfigurationError.self) { try c.apply(json: try JSONValue.parse(#"{"port": "80"}"#), source: "f") }
        #expect(throws: ConfigurationError.self) { try c.apply(json: try JSONValue.parse(#"{"port": 1.5}"#), source: "f") }
        #expect(throws: ConfigurationError.self) { try c.apply(json: try JSONValue.parse(#"{"corsAllowedOrigins": [1]}"#), source: "f") }
        // A replica name is a DNS label: it routes session ids.
        for bad in ["Loaderd-0", "-a", "a-", "a.b", "a_b", String(repeating: "a", count: 64)] {
            #expect(throws: ConfigurationError.self) { try c.apply(json: .object([("replicaName", .string(bad))]), source: "f") }
            #expect(throws: ConfigurationError.self) { try c.apply(name: "replicaName", text: bad, source: "env") }
        }
        try c.apply(environment: ["LOADERD_REPLICA_NAME": "loaderd-2"])
        #expect(c.replicaName == "loaderd-2")
        try c.apply(json: .object([("replicaName", .null)]), source: "f")
        #expect(c.replicaName == nil)
        let json = try JSONValue.parse(#"{"idleTimeoutSeconds": -1}"#)
        do {
            try c.apply(json: json, source: "f.json")
            Issue.record("accepted a negative timeout")
        } catch {
            #expect(error.message == "f.json: idleTimeoutSeconds must be a number of seconds from 0.05 to 86400.0, not -1")
        }
    }

    @Test func theBinaryExitsWith2OnABadConfig() throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("loaderd").path
        #expect(access(binary, X_OK) == 0, "loaderd is built beside the tests")
        let path = "/tmp/loaderd-bad-\(getpid()).json"
        try Data(#"{"port": 8080, "colour": "blue"}"#.utf8).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        #expect(run(binary, ["--config", path]) == 2)
        #expect(run(binary, ["--port", "-1"]) == 2)
        #expect(run(binary, ["--version"]) == 0)
    }

    /// Runs a program with its output discarded; its exit status.
    func run(_ path: String, _ arguments: [String]) -> Int32 {
        var pid: pid_t = 0
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        guard posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return (status >> 8) & 0xFF
    }
}

/// The README's table of settings is the one the key table makes.
struct ConfigurationDocsTests {
    @Test func theReadmeTableMatchesTheKeys() throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let readme = String(decoding: try Data(contentsOf: here.appendingPathComponent("../../README.md").standardized), as: UTF8.self)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("| key | environment | flag | default | meaning |") }) else {
            Issue.record("README.md has no table of settings")
            return
        }
        let table = lines[start...].prefix { $0.hasPrefix("|") }.joined(separator: "\n") + "\n"
        #expect(table == ServiceConfiguration.markdownTable(), "README.md's table differs; paste ServiceConfiguration.markdownTable()")
        // Every flag is in --help, with its variable.
        for key in ServiceConfiguration.keys where key.flag != nil {
            #expect(usage.contains(key.flag!) && usage.contains(key.environmentName))
        }
    }
}
