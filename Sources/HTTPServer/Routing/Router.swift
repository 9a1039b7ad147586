/// Method + path-pattern routing: `/loaders/:name/frames` (or
/// `/loaders/{name}/frames`, as OpenAPI writes it) matches
/// `/loaders/typing/frames` with `name = typing`. `HEAD` is served by `GET`
/// routes. Where patterns of different shapes match a path, the one with
/// more literal segments wins (`/loaders/preview` over `/loaders/{name}`).
/// A path that matches no pattern is 404; a path whose patterns take other
/// methods is 405 with those methods in `Allow`.
public struct Router<Handler: Sendable>: Sendable {
    public enum Match {
        case found(Handler, parameters: RouteParameters)
        case notFound
        /// The path exists for these methods only.
        case methodNotAllowed(allowed: [HTTPMethod])
    }

    // Inlinable, so that a caller's `Handler` is specialised: a generic
    // `match` looked up `Match`'s metadata at run time on every request.
    @usableFromInline var table = RouteTable()
    @usableFromInline var handlers: [Handler] = []

    public init() {}

    public mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: Handler) {
        table.add(method, pattern)
        handlers.append(handler)
    }

    @inlinable
    public func match(method: HTTPMethod, path segments: [String]) -> Match {
        switch table.match(method: method, path: segments) {
        case .found(let index, let parameters): .found(handlers[index], parameters: parameters)
        case .notFound: .notFound
        case .methodNotAllowed(let allowed): .methodNotAllowed(allowed: allowed)
        }
    }

    /// The methods a path takes (for `OPTIONS` and `Allow`); empty when none.
    public func allowedMethods(path segments: [String]) -> [HTTPMethod] { table.allowedMethods(path: segments) }
}

/// The patterns, apart from the handlers: matching is not generic, so it is
/// compiled once here rather than instantiated at each call from another
/// module. Routes are grouped by their number of segments, so a path is
/// compared only with patterns of its length.
@usableFromInline
struct RouteTable: Sendable {
    private enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    private struct Route: Sendable {
        let method: HTTPMethod
        let segments: [Segment]
        /// How many segments are literals: the more, the more specific.
        let literals: Int
    }

    @usableFromInline
    enum Match {
        case found(Int, parameters: RouteParameters)
        case notFound
        case methodNotAllowed(allowed: [HTTPMethod])
    }

    private var routes: [Route] = []
    /// Route indices by segment count.
    private var byLength: [[Int]] = []

    mutating func add(_ method: HTTPMethod, _ pattern: String) {
        let segments = pattern.split(separator: "/").map { part -> Segment in
            if part.hasPrefix(":") { return .parameter(String(part.dropFirst())) }
            if part.hasPrefix("{") && part.hasSuffix("}") { return .parameter(String(part.dropFirst().dropLast())) }
            return .literal(String(part))
        }
        let literals = segments.count { if case .literal = $0 { true } else { false } }
        while byLength.count <= segments.count { byLength.append([]) }
        byLength[segments.count].append(routes.count)
        routes.append(Route(method: method, segments: segments, literals: literals))
    }

    @usableFromInline
    func match(method: HTTPMethod, path segments: [String]) -> Match {
        guard segments.count < byLength.count else { return .notFound }
        var found = -1
        var best = -1
        var otherMethods = false
        for index in byLength[segments.count] where Self.matches(routes[index].segments, segments) {
            let route = routes[index]
            if route.literals > best { best = route.literals; found = -1; otherMethods = false }
            guard route.literals == best else { continue }
            if route.method == method || (method == .HEAD && route.method == .GET) {
                if found < 0 { found = index }
            } else {
                otherMethods = true
            }
        }
        if found >= 0 { return .found(found, parameters: Self.parameters(routes[found].segments, segments)) }
        return otherMethods ? .methodNotAllowed(allowed: allowedMethods(path: segments)) : .notFound
    }

    func allowedMethods(path segments: [String]) -> [HTTPMethod] {
        guard segments.count < byLength.count else { return [] }
        var allowed: [HTTPMethod] = []
        var best = -1
        for index in byLength[segments.count] where Self.matches(routes[index].segments, segments) {
            let route = routes[index]
            if route.literals > best { best = route.literals; allowed.removeAll() }
            if route.literals == best && !allowed.contains(route.method) { allowed.append(route.method) }
        }
        if allowed.contains(.GET) && !allowed.contains(.HEAD) { allowed.append(.HEAD) }
        return allowed
    }

    private static func matches(_ pattern: [Segment], _ path: [String]) -> Bool {
        for i in pattern.indices {
            if case .literal(let text) = pattern[i], text != path[i] { return false }
        }
        return true
    }

    private static func parameters(_ pattern: [Segment], _ path: [String]) -> RouteParameters {
        var parameters = RouteParameters()
        for i in pattern.indices {
            if case .parameter(let name) = pattern[i] { parameters.append(name, path[i]) }
        }
        return parameters
    }
}

/// The values of a route's `:name` segments (few: a linear search). The
/// first is kept inline: most routes have one, and it then costs no array.
public struct RouteParameters: Sendable {
    private var first: (name: String, value: String)?
    private var rest: [(name: String, value: String)] = []

    public init() {}

    mutating func append(_ name: String, _ value: String) {
        if first == nil { first = (name, value) } else { rest.append((name, value)) }
    }

    public subscript(name: String) -> String? {
        if let first, first.name == name { return first.value }
        for (n, v) in rest where n == name { return v }
        return nil
    }
}
