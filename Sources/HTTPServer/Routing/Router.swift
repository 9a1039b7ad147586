/// Method + path-pattern routing: `/loaders/:name/frames` (or
/// `/loaders/{name}/frames`, as OpenAPI writes it) matches
/// `/loaders/typing/frames` with `name = typing`. `HEAD` is served by `GET`
/// routes. A path that matches no pattern is 404; a path whose patterns
/// take other methods is 405 with those methods in `Allow`.
public struct Router<Handler: Sendable>: Sendable {
    private enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    /// A pattern and where its handler is (handlers are kept apart, so
    /// that matching copies none of them).
    private struct Route: Sendable {
        let method: HTTPMethod
        let segments: [Segment]
        let handler: Int
    }

    public enum Match {
        case found(Handler, parameters: RouteParameters)
        case notFound
        /// The path exists for these methods only.
        case methodNotAllowed(allowed: [HTTPMethod])
    }

    private var routes: [Route] = []
    private var handlers: [Handler] = []

    public init() {}

    public mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: Handler) {
        let segments = pattern.split(separator: "/").map { part -> Segment in
            if part.hasPrefix(":") { return .parameter(String(part.dropFirst())) }
            if part.hasPrefix("{") && part.hasSuffix("}") { return .parameter(String(part.dropFirst().dropLast())) }
            return .literal(String(part))
        }
        routes.append(Route(method: method, segments: segments, handler: handlers.count))
        handlers.append(handler)
    }

    public func match(method: HTTPMethod, path segments: [String]) -> Match {
        var allowed: [HTTPMethod] = []
        for route in routes {
            guard let parameters = Self.match(route.segments, segments) else { continue }
            if route.method == method || (method == .HEAD && route.method == .GET) {
                return .found(handlers[route.handler], parameters: parameters)
            }
            if !allowed.contains(route.method) { allowed.append(route.method) }
        }
        if allowed.isEmpty { return .notFound }
        if allowed.contains(.GET) && !allowed.contains(.HEAD) { allowed.append(.HEAD) }
        return .methodNotAllowed(allowed: allowed)
    }

    /// The methods a path takes (for `OPTIONS` and `Allow`); empty when none.
    public func allowedMethods(path segments: [String]) -> [HTTPMethod] {
        var allowed: [HTTPMethod] = []
        for route in routes where Self.match(route.segments, segments) != nil {
            if !allowed.contains(route.method) { allowed.append(route.method) }
        }
        if allowed.contains(.GET) && !allowed.contains(.HEAD) { allowed.append(.HEAD) }
        return allowed
    }

    private static func match(_ pattern: [Segment], _ path: [String]) -> RouteParameters? {
        guard pattern.count == path.count else { return nil }
        // Literals first: most routes fail on one, before any parameter is kept.
        for i in pattern.indices {
            if case .literal(let text) = pattern[i], text != path[i] { return nil }
        }
        var parameters = RouteParameters()
        for i in pattern.indices {
            if case .parameter(let name) = pattern[i] { parameters.values.append((name, path[i])) }
        }
        return parameters
    }
}

/// The values of a route's `:name` segments (few: a linear search).
public struct RouteParameters: Sendable {
    var values: [(name: String, value: String)] = []

    public init() {}

    public subscript(name: String) -> String? {
        for (n, v) in values where n == name { return v }
        return nil
    }
}
