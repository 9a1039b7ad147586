/// Method + path-pattern routing: `/loaders/:name/frames` (or
/// `/loaders/{name}/frames`, as OpenAPI writes it) matches
/// `/loaders/typing/frames` with `name = typing`. `HEAD` is served by `GET`
/// routes. Where patterns of different shapes match a path, the one with
/// more literal segments wins (`/loaders/preview` over `/loaders/{name}`).
/// A path that matches no pattern is 404; a path whose patterns take other
/// methods is 405 with those methods in `Allow`.
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
        /// How many segments are literals: the more, the more specific.
        let literals: Int
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
        let literals = segments.count { if case .literal = $0 { true } else { false } }
        routes.append(Route(method: method, segments: segments, handler: handlers.count, literals: literals))
        handlers.append(handler)
    }

    public func match(method: HTTPMethod, path segments: [String]) -> Match {
        var allowed: [HTTPMethod] = []
        var found: (handler: Int, parameters: RouteParameters, literals: Int)?
        var best = -1
        for route in routes {
            guard let parameters = Self.match(route.segments, segments) else { continue }
            let literals = route.literals
            if literals > best { best = literals; allowed.removeAll(); found = nil }
            guard literals == best else { continue }
            if route.method == method || (method == .HEAD && route.method == .GET) {
                if found == nil { found = (route.handler, parameters, literals) }
            } else if !allowed.contains(route.method) {
                allowed.append(route.method)
            }
        }
        if let found { return .found(handlers[found.handler], parameters: found.parameters) }
        if allowed.isEmpty { return .notFound }
        if allowed.contains(.GET) && !allowed.contains(.HEAD) { allowed.append(.HEAD) }
        return .methodNotAllowed(allowed: allowed)
    }

    /// The methods a path takes (for `OPTIONS` and `Allow`); empty when none.
    public func allowedMethods(path segments: [String]) -> [HTTPMethod] {
        var allowed: [HTTPMethod] = []
        var best = -1
        for route in routes where Self.match(route.segments, segments) != nil {
            let literals = route.literals
            if literals > best { best = literals; allowed.removeAll() }
            if literals == best && !allowed.contains(route.method) { allowed.append(route.method) }
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
