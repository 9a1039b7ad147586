import HTTPServer

/// A repeated request for an answer that never changes is answered from
/// this loop's cache (`LoopCaches.responses`), with no parsing, computing
/// or encoding. Only GET and HEAD without `Origin` (CORS headers vary).
/// Kept by whether the request takes gzip too (`GzipMiddleware`, inside
/// this step, has compressed what is kept). Holds nothing itself: the
/// caches are the loop's.
struct AnswerCacheMiddleware: ServiceMiddleware {
    @inline(__always)
    func handle(_ r: inout ServiceRequest, next: ServiceNext) throws -> HTTPResponse {
        let headers = r.http.headers
        guard r.http.method == .GET || r.http.method == .HEAD, r.origin == nil else { return try next(&r) }
        let key = ResponseCache.Key(target: r.http.target, accept: headers["accept"] ?? "", gzip: AcceptEncoding.coding(headers) == .gzip)
        let cache = r.caches.responses
        if let hit = cache.lookup(key) {
            r.route = hit.route
            return LoaderService.conditional(hit.response, ifNoneMatch: headers["if-none-match"])
        }
        let response = try next(&r)
        cache.store(key, response, route: r.route)
        return response
    }
}

extension LoaderService {
    /// A body with a strong ETag (`etag` when it was hashed before), or
    /// 304 when `If-None-Match` names it.
    static func cacheable(_ body: [UInt8], contentType: String, freshness: Caching.Freshness, ifNoneMatch: String?,
                          etag known: String? = nil) -> HTTPResponse {
        let etag = known ?? ETag.strong(body)
        var response = HTTPResponse(status: .ok, headers: ["Content-Type": contentType], body: body)
        response.caching = Caching(freshness, etag: etag)
        return ETag.matches(ifNoneMatch, etag) ? notModified(response) : response
    }

    /// `response`, or its 304 when `If-None-Match` names it. A gzip answer
    /// is named by its own tag, or by its identity one: the client holds
    /// that representation, and the 304 names it (no `Content-Encoding`).
    static func conditional(_ response: HTTPResponse, ifNoneMatch: String?) -> HTTPResponse {
        guard let ifNoneMatch, let etag = response.caching?.etag else { return response }
        if ETag.matches(ifNoneMatch, etag) { return GzipBodies.notModified(response) }
        guard let identity = ETag.identity(ofGzip: etag), ETag.matches(ifNoneMatch, identity), let caching = response.caching else { return response }
        var named = GzipBodies.notModified(response)
        named.caching = Caching(caching.freshness, etag: identity)
        return named
    }

    /// The 304 for a cacheable answer: its validators, no body.
    static func notModified(_ response: HTTPResponse) -> HTTPResponse {
        var r = response
        // A 304 says the Vary its 200 would (RFC 9110 §15.4.5): gzip's, where that 200 may come gzip'd.
        if GzipBodies.varies(response) { GzipBodies.addVary(&r.headers) }
        r.headers.remove("Content-Type")
        r.body = .bytes([])
        r.status = .notModified
        return r
    }

    /// A JSON body with a strong ETag; `If-None-Match` gives 304.
    func json(_ body: [UInt8], _ request: HTTPRequest, _ freshness: Caching.Freshness) throws -> HTTPResponse {
        try Negotiation.requireJSON(request)
        return Self.acceptedJSON(body, request, freshness)
    }

    /// The same for a request whose `Accept` was checked already.
    static func acceptedJSON(_ body: [UInt8], _ request: HTTPRequest, _ freshness: Caching.Freshness) -> HTTPResponse {
        cacheable(body, contentType: "application/json", freshness: freshness, ifNoneMatch: request.headers["if-none-match"])
    }
}
