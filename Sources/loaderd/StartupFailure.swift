import EventLoop
import Glibc
import LoaderEngine

/// Start-up stops: one line on standard error, `loaderd: ` and what is
/// wrong and what to do, then exit 2, as for a bad setting. One line, so
/// that a supervisor's log shows the whole reason in one entry.
func failStartup(_ message: String) -> Never {
    let line = message.split(whereSeparator: \.isNewline).joined(separator: " ")
    FileHandleOutput.standardError("loaderd: \(line)\n")
    exit(2)
}

/// Why the server could not start, and what to change: a bind refused is
/// named by its errno (the usual ones have a known remedy), anything else
/// by the system call that failed.
func startFailureMessage(_ error: any Error, host: String, port: Int) -> String {
    let address = (try? SocketAddress(host: host, port: port))?.description ?? "\(host):\(port)"
    guard let system = error as? SystemError else { return "cannot start: \(error)" }
    let reason = String(cString: strerror(system.errno))
    let listening = system.call.hasPrefix("bind") || system.call.hasPrefix("listen")
    switch system.errno {
    case EADDRINUSE where listening:
        return "cannot listen on \(address): \(reason); stop what holds it or set another port (--port, LOADERD_PORT)"
    case EACCES where listening && port < 1024, EPERM where listening && port < 1024:
        return "cannot listen on \(address): \(reason); a port below 1024 needs privilege (CAP_NET_BIND_SERVICE): set a port from 1024 up (--port, LOADERD_PORT)"
    case EADDRNOTAVAIL where listening:
        return "cannot listen on \(address): \(reason); this machine has no such address: set one it has, such as 127.0.0.1 or 0.0.0.0 (--host, LOADERD_HOST)"
    case EAFNOSUPPORT:
        return "cannot listen on \(address): \(reason); IPv6 may be off here: set an IPv4 host such as 0.0.0.0 (--host, LOADERD_HOST)"
    case EMFILE, ENFILE:
        return "cannot start: \(system); raise the open file limit (ulimit -n, LimitNOFILE)"
    case _ where listening:
        return "cannot listen on \(address): \(reason); check --host and --port (LOADERD_HOST, LOADERD_PORT)"
    default:
        return "cannot start: \(system)"
    }
}

/// A loaders directory that cannot be read, or a definition in it that
/// cannot be used: which, and what to change.
func loadersDirFailureMessage(_ error: DefinitionError, directory: String) -> String {
    guard error.file != directory else {
        var reason = "not a readable directory"
        if let d = opendir(directory) { closedir(d) } else { reason = String(cString: strerror(errno)) }
        return "cannot read loadersDir \(directory): \(reason); name a readable directory of definitions (--loaders-dir, LOADERD_LOADERS_DIR)"
    }
    return "loadersDir \(directory): \(error); fix that file or move it out of the directory (docs/LOADERS.md)"
}
