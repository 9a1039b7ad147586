import Dispatch
import EventLoop
import Glibc
import HTTPServer
import LoaderEngine
import LoaderService
import Redis

signal(SIGPIPE, SIG_IGN)

let command: Command
do {
    command = try parseCommand(Array(CommandLine.arguments.dropFirst()), environment: processEnvironment())
} catch {
    FileHandleOutput.standardError("loaderd: \(error)\n")
    exit(2)
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
case .serve(let configuration):
    serve(configuration)
}

func serve(_ configuration: ServiceConfiguration) -> Never {
    let started = monotonicNanoseconds()
    let logger = Logger(level: configuration.logLevel)
    var catalog = LoaderCatalog.standard
    if let directory = configuration.loadersDir {
        do {
            catalog = try catalog.adding(directory: directory)
        } catch {
            FileHandleOutput.standardError("loaderd: loadersDir \(directory): \(error)\n")
            exit(2)
        }
    }
    logger.logCatalog(catalog, loadersDir: configuration.loadersDir)
    var serverConfiguration = HTTPServerConfiguration()
    serverConfiguration.hosts = [configuration.host]
    serverConfiguration.port = configuration.port
    if configuration.threads > 0 { serverConfiguration.eventLoops = configuration.threads }
    serverConfiguration.maxConnections = configuration.maxConnections
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
        FileHandleOutput.standardError("loaderd: \(error)\n")
        exit(2)
    }
    let service = LoaderService(configuration: configuration, catalog: catalog, logger: logger, sessions: sessions)
    let server: HTTPServer
    do {
        server = try HTTPServer(configuration: serverConfiguration, responder: service)
        service.attach(to: server)
        sessions.start(on: server.loops)
        try server.start()
    } catch {
        logger.log(.error, "cannot start", [("error", .string("\(error)")), ("host", .string(configuration.host)), ("port", .int(configuration.port))])
        logger.flush()
        exit(1)
    }
    logger.log(.info, "started", [
        ("address", .string(server.addresses.map(\.description).joined(separator: " "))),
        ("threads", .int(serverConfiguration.eventLoops)), ("version", .string(LoaderService.version)),
        ("startupMicroseconds", .int(Int((monotonicNanoseconds() - started) / 1000))),
    ])
    logger.flush()

    // SIGINT and SIGTERM: readiness off, streams end with `event: end`,
    // in-flight requests finish, then exit 0.
    let signals = DispatchQueue(label: "loaderd.signals")
    var sources: [DispatchSourceSignal] = []
    for sig in [SIGINT, SIGTERM] {
        signal(sig, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: sig, queue: signals)
        source.setEventHandler {
            logger.log(.info, "stopping", [("signal", .string(sig == SIGINT ? "SIGINT" : "SIGTERM"))])
            service.markNotReady()
            server.shutdown(gracePeriod: UInt64(configuration.shutdownGraceSeconds * 1e9))
            logger.log(.info, "stopped", [("requests", .int(server.requestsServed))])
            logger.flush()
            exit(0)
        }
        source.resume()
        sources.append(source)
    }
    withExtendedLifetime(sources) { dispatchMain() }
}

enum FileHandleOutput {
    static func standardError(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
