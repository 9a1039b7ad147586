import LoaderEngine
import FoundationEssentials
import Glibc

/// What the command line asks for.
public enum Command: Sendable {
    /// The settings, and the config file they were read from (nil: the
    /// embedded defaults alone), for the start log.
    case serve(ServiceConfiguration, configFile: String?)
    case healthcheck(host: String, port: Int)
    case help
    case version
}

public let usage = """
    loaderd: exact frames of loading animations over HTTP (JSON, batches, server-sent events).

    USAGE
      loaderd [options]              run the service
      loaderd healthcheck [options]  GET /healthz on the configured address; exit 0 when it answers 200
      loaderd --help | --version

    OPTIONS (flags win over environment, environment over the config file, the file over the defaults)
      --config FILE           JSON settings over the embedded defaults; also LOADERD_CONFIG
                              (without either, /etc/loaderd/loaderd.json is read when it exists)

    """ + ServiceConfiguration.flagHelp() + """

    Every setting of the config file can also be set as LOADERD_<NAME IN UPPER SNAKE CASE>,
    e.g. LOADERD_MAX_CONNECTIONS=20000. See README.md for the table.
    An unknown setting or a bad value stops start-up with exit code 2.
    """

/// Parses arguments and environment into a command; errors name the culprit.
/// Read when no config file is named and it exists (a container's mount point).
public let systemConfigPath = "/etc/loaderd/loaderd.json"

public func parseCommand(_ arguments: [String], environment: [String: String],
                         systemConfig: String? = systemConfigPath) throws(ConfigurationError) -> Command {
    var args = arguments[...]
    var isHealthcheck = false
    if args.first == "healthcheck" {
        isHealthcheck = true
        args = args.dropFirst()
    }
    let flagToKey = Dictionary(uniqueKeysWithValues: ServiceConfiguration.keys.compactMap { key in key.flag.map { ($0, key.name) } })
    var flags: [(String, String)] = []
    var configPath = environment["LOADERD_CONFIG"]
    while let arg = args.first {
        args = args.dropFirst()
        switch arg {
        case "--help", "-h": return .help
        case "--version": return .version
        default:
            var name = arg
            var value: String? = nil
            if let eq = arg.firstIndex(of: "="), arg.hasPrefix("--") {
                name = String(arg[..<eq])
                value = String(arg[arg.index(after: eq)...])
            }
            guard name == "--config" || flagToKey[name] != nil else {
                throw ConfigurationError("unknown option \(arg); see loaderd --help")
            }
            if value == nil {
                guard let next = args.first else { throw ConfigurationError("\(name) needs a value") }
                value = next
                args = args.dropFirst()
            }
            if name == "--config" { configPath = value } else { flags.append((name, value!)) }
        }
    }

    var configuration = ServiceConfiguration.embeddedDefault()
    if configPath == nil, let systemConfig, access(systemConfig, R_OK) == 0 { configPath = systemConfig }
    if let configPath {
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: URL(fileURLWithPath: configPath)))
        } catch {
            // The system's reason (no such file, permission denied) says what to fix.
            let reason = access(configPath, R_OK) != 0 ? String(cString: strerror(errno)) : "not a readable file"
            throw ConfigurationError("cannot read config file \(configPath): \(reason); name a readable JSON file (--config, LOADERD_CONFIG)")
        }
        let json: JSONValue
        do { json = try JSONValue.parse(bytes) } catch { throw ConfigurationError("\(configPath): invalid JSON: \(error); fix the file, or name another (--config, LOADERD_CONFIG)") }
        try configuration.apply(json: json, source: configPath)
    }
    try configuration.apply(environment: environment)
    for (flag, value) in flags {
        try configuration.apply(name: flagToKey[flag]!, text: value, source: "flag \(flag)")
    }
    try configuration.validate()
    if isHealthcheck {
        let host = configuration.host == "0.0.0.0" ? "127.0.0.1" : configuration.host == "::" ? "::1" : configuration.host
        return .healthcheck(host: host, port: configuration.port)
    }
    return .serve(configuration, configFile: configPath)
}

/// The process environment as a dictionary.
public func processEnvironment() -> [String: String] {
    var result: [String: String] = [:]
    var pointer = environ
    while let entry = pointer.pointee {
        let text = String(cString: entry)
        if let eq = text.firstIndex(of: "=") {
            result[String(text[..<eq])] = String(text[text.index(after: eq)...])
        }
        pointer += 1
    }
    return result
}
