import LoaderService

/// `--iterations N` among a benchmark's arguments, or its default.
func iterationCount(_ arguments: [String], default value: Int) -> Int {
    guard let i = arguments.firstIndex(of: "--iterations"), i + 1 < arguments.count, let n = Int(arguments[i + 1]) else { return value }
    return n
}

extension ServiceConfiguration {
    /// The defaults with nothing logged: a benchmark times the answer, not the logger.
    static func quiet() -> ServiceConfiguration {
        var c = ServiceConfiguration.embeddedDefault()
        c.accessLog = false
        c.logLevel = .off
        return c
    }
}
