/// Where a store's log lines go: the service's `Logger`. A protocol, so
/// that the stores need not depend on the service that logs for them.
public protocol SessionLogger: AnyObject, Sendable {
    func log(_ l: LogLevel, _ message: String, _ fields: [(String, LogField)])
}

public enum LogLevel: String, Sendable, Comparable, CaseIterable {
    case debug, info, warning, error, off

    var rank: Int { Self.allCases.firstIndex(of: self)! }
    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rank < b.rank }
}

public enum LogField: Sendable {
    case string(String), int(Int), double(Double), bool(Bool)
}
