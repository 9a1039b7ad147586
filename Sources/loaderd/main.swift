import Dispatch
import EventLoop
import Glibc
import HTTPServer
import LoaderEngine
import LoaderService
import LoaderSessions
import Redis

signal(SIGPIPE, SIG_IGN)

let command: Command
do {
    command = try parseCommand(Array(CommandLine.arguments.dropFirst()), environment: processEnvironment())
} catch {
    failStartup(error.message)
}

switch command {
case .help:
    print(usage)
    exit(0)
case .version:
    print("loaderd \(LoaderService.version)")
    exit(0)
case .healthcheck(let host, let port):
    exit(runHealthcheck(host: host, port: port))
case .serve(let configuration, let configFile):
    serve(configuration, configFile: configFile)
}

/// Every start-up failure from here on ends in `failStartup`: one line on
/// standard error and exit 2, as a bad setting does.
func serve(_ configuration: ServiceConfiguration, configFile: String?) -> Never {
    let started = monotonicNanoseconds()
    // SIGINT and SIGTERM are taken by this thread alone, at the end: every
    // thread made from here on has them blocked, and one that comes while
    // starting waits for it. An ignored signal would be discarded even
    // blocked (a shell starts background jobs with SIGINT ignored).
    signal(SIGINT, SIG_DFL)
    signal(SIGTERM, SIG_DFL)
    var stopSignals = sigset_t()
    sigemptyset(&stopSignals)
    sigaddset(&stopSignals, SIGINT)
    sigaddset(&stopSignals, SIGTERM)
    pthread_sigmask(SIG_BLOCK, &stopSignals, nil)
    let logger = Logger(level: configuration.logLevel)
    var catalog = LoaderCatalog.standard
    if let directory = configuration.loadersDir {
        do {
            catalog = try catalog.adding(directory: directory)
        } catch {
            failStartup(loadersDirFailureMessage(error, directory: directory))
        }
    }
    logger.logCatalog(catalog, loadersDir: configuration.loadersDir)
    var serverConfiguration = HTTPServerConfiguration()
    serverConfiguration.hosts = [configuration.host]
    serverConfiguration.port = configuration.port
    if configuration.threads > 0 { serverConfiguration.eventLoops = configuration.threads }
    serverConfiguration.maxConnections = configuration.maxConnections
    serverConfiguration.maxConnectionsPerAddress = configuration.maxConnectionsPerAddress
    // A proxy's connections speak for many clients. Checked when read.
    serverConfiguration.perAddressExempt = configuration.trustedProxies.compactMap(AddressRange.init)
    let backoffMilliseconds = Int(serverConfiguration.acceptBackoff / 1_000_000)
    serverConfiguration.onAcceptEvent = { [logger] event in
        switch event {
        case .failing(let reason, let open):
            logger.log(.warning, "accept failing; pausing accepts, serving open connections", [
                ("reason", .string(reason)), ("openConnections", .int(open)),
                ("backoffMilliseconds", .int(backoffMilliseconds)),
            ])
        case .recovered(let failures, let nanoseconds):
            logger.log(.info, "accepting again", [("failures", .int(failures)), ("milliseconds", .int(Int(nanoseconds / 1_000_000)))])
        }
    }
    serverConfiguration.limits.maxBodyBytes = configuration.maxBodyBytes
    serverConfiguration.headerTimeout = UInt64(configuration.headerTimeoutSeconds * 1e9)
    serverConfiguration.idleTimeout = UInt64(configuration.idleTimeoutSeconds * 1e9)
    serverConfiguration.streamStallTimeout = UInt64(configuration.streamStallTimeoutSeconds * 1e9)
    serverConfiguration.maxBufferedBytes = configuration.maxBufferedBytes

    let sessions: any SessionStore
    do {
        sessions = try configuration.openSessionStore(catalog: catalog, logger: logger)
    } catch {
        logger.flush()
        failStartup(error.message)
    }
    let service = LoaderService(configuration: configuration, catalog: catalog, logger: logger, sessions: sessions)
    let server: HTTPServer
    do {
        server = try HTTPServer(configuration: serverConfiguration, responder: service)
        service.attach(to: server)
        sessions.start(on: server.loops)
        try server.start()
    } catch {
        logger.flush()
        failStartup(startFailureMessage(error, host: configuration.host, port: configuration.port))
    }
    logger.log(.info, "configuration", configuration.effectiveFields(configFile: configFile))
    logger.log(.info, "started", [
        ("address", .string(server.addresses.map(\.description).joined(separator: " "))),
        ("threads", .int(serverConfiguration.eventLoops)), ("version", .string(LoaderService.version)),
        ("startupMicroseconds", .int(Int((monotonicNanoseconds() - started) / 1000))),
    ])
    logger.flush()

    // SIGINT and SIGTERM: readiness off, streams end with `event: end`,
    // in-flight requests finish, then exit 0. The main thread waits here
    // rather than leave by dispatchMain's pthread_exit, whose unwinding
    // sorted every frame description of the static binary first (about
    // 10 ms of CPU beside the first requests).
    var received: Int32 = 0
    while sigwait(&stopSignals, &received) != 0 {}
    logger.log(.info, "stopping", [("signal", .string(received == SIGINT ? "SIGINT" : "SIGTERM"))])
    service.markNotReady()
    server.shutdown(gracePeriod: UInt64(configuration.shutdownGraceSeconds * 1e9))
    logger.log(.info, "stopped", [("requests", .int(server.requestsServed))])
    logger.flush()
    exit(0)
}

enum FileHandleOutput {
    static func standardError(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
