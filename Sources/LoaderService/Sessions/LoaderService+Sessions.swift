import EventLoop
import Glibc
import HTTPServer
import LoaderEngine
import LoaderFormats
import LoaderSessions

extension LoaderService {
    /// `POST /sessions` with `{"loader":"web","params":{…}}`. The rate
    /// limit comes before the body is read.
    func createSession(_ request: HTTPRequest, peer: SocketAddress?) throws -> HTTPResponse {
        try requireNoQuery(request)
        try Negotiation.requireJSON(request)
        try admitSessionCreation(request, peer: peer)
        return parsingBody(request, peer: peer) { [self] in try createSession(request) }
    }

    private func createSession(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try jsonBody(request, allowed: ["loader", "params"])
        guard case .string(let name)? = body["loader"] else {
            throw ServiceError.invalid("loader is required: one of \(catalog.names.joined(separator: ", "))")
        }
        guard let definition = catalog[name] else { throw ServiceError.invalid(unknownLoader(name).message) }
        var params: [(String, JSONValue)] = []
        switch body["params"] {
        case nil: break
        case .object(let fields)?: params = fields
        default: throw ServiceError.invalid("params must be an object of the loader's parameters")
        }
        for (key, _) in params where !definition.hasParameter(named: key) {
            if definition.events.contains(where: { $0.name == key }) {
                throw ServiceError(.badRequest, "unknown_parameter", "params.\(key): events are posted to /sessions/{id}/events")
            }
            throw ServiceError(.badRequest, "unknown_parameter",
                               "unknown parameter \(quoted(key)) for loader \(name); accepted: \(definition.parameters.map(\.name).joined(separator: ", "))")
        }
        let loader: ConfiguredLoader
        do { loader = try definition.configure(try SessionParams.items(params)) } catch let e as ParameterError { throw ServiceError(e) } catch let e as SessionError { throw ServiceError(e) }
        return answer({ sessions.create(definition: definition, params: params, loader: loader, reply: $0) }) { created in
            var w = JSONWriter(capacity: 160)
            w.beginObject()
            w.field("id", created.id)
            w.field("token", created.token)
            w.field("loader", created.loader)
            w.field("createdAt", isoTimestamp(created.createdAt))
            w.endObject()
            return HTTPResponse(status: .created, headers: [
                "Content-Type": "application/json", "Cache-Control": "no-store", "Location": "/sessions/\(created.id)",
            ], body: w.bytes)
        }
    }

    /// `GET /sessions/{id}`: loader, params, createdAt, the clock now, done,
    /// and a page of its events: `sessionEventsPage` from `?after=` (the
    /// events the client has), with a `next` link while there are more.
    func sessionState(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        var after: Int?
        for item in request.query {
            guard item.name == "after" else {
                throw ServiceError(.badRequest, "unknown_parameter", "unknown parameter \(quoted(item.name)); a session's state takes after")
            }
            guard after == nil else { throw ServiceError.invalid("after is given more than once") }
            // Events are only appended: an index is a stable cursor.
            guard item.value.utf8.count <= 9, !item.value.isEmpty, item.value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let n = Int(item.value) else {
                throw ServiceError.invalid("after must be a whole number of events, from 0: \(quoted(item.value))")
            }
            after = n
        }
        try Negotiation.requireJSON(request)
        return answer({ sessions.snapshot(id, reply: $0) }) { [after] s in Self.sessionStateJSON(s, after: after ?? 0) }
    }

    /// Events in one answer of `GET /sessions/{id}` (about 40 KB).
    static let sessionEventsPage = 1000

    static func sessionStateJSON(_ s: SessionSnapshot, after: Int) -> HTTPResponse {
        let t = s.now
        let page = min(after, s.events.count)..<min(after + sessionEventsPage, s.events.count)
        var w = JSONWriter(capacity: 320 + 40 * page.count)
        w.beginObject()
        w.field("id", s.id)
        w.field("loader", s.loader.name)
        w.key("params")
        SessionParams.write(s.params, &w)
        w.field("createdAt", isoTimestamp(s.createdAt))
        w.field("t", t)
        w.field("done", s.loader.frame(at: t).done)
        w.field("viewers", s.viewers)
        w.field("eventCount", s.events.count)
        w.key("events")
        w.beginArray()
        for e in s.events[page] {
            w.beginObject()
            w.field("type", e.kind.rawValue)
            w.field("t", e.t)
            w.endObject()
        }
        w.endArray()
        if page.upperBound < s.events.count { w.field("next", "/sessions/\(s.id)?after=\(page.upperBound)") }
        w.endObject()
        return HTTPResponse(status: .ok, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"], body: w.bytes)
    }

    /// `GET /sessions/{id}/frames`: the frame now (or at an earlier `t`), or
    /// the live stream, which ends once the loader is done.
    func sessionFrames(_ id: String, _ request: HTTPRequest, _ caches: LoopCaches) throws -> HTTPResponse {
        let query: FrameQuery, t: Double?, fps: Double?
        do {
            query = try FrameQuery(items: request.query, grammar: .session)
            // Checked as they came: these cannot fail.
            (t, fps) = (try query.time("t"), try query.fps.map(FrameQuery.fps))
        } catch { throw ServiceError(error) }
        if query.stream != nil || Negotiation.wantsEventStream(request) {
            if t != nil { throw ServiceError.invalid("a session's stream follows its clock; t is for single frames") }
            return sessionStream(id, fps: fps ?? Double(configuration.streamDefaultFps), startK: Self.resumeAfter(request),
                                 caches: caches.bound)
        }
        if fps != nil { throw ServiceError.invalid("fps applies to streams (Accept: text/event-stream or stream=sse)") }
        try Negotiation.requireJSON(request)
        return answer({ sessions.snapshot(id, reply: $0) }) { [t] s in
            let now = s.now
            // A later t is not wrong, only not yet known: events may still come.
            if let t, t > now {
                throw ServiceError(.conflict, "not_yet", "t is later than the session's clock (\(now) s); that frame is not known yet")
            }
            let frame = s.loader.frame(at: t ?? now)
            return HTTPResponse(status: .ok, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
                                body: FrameEncoder.encode(frame))
        }
    }

    /// A viewer's stream; one that resumes (`Last-Event-ID`, on this replica
    /// or another) goes on after the last frame it had, never repeating it.
    /// When the store cannot be reached and this replica has never read the
    /// session, the answer is still an event stream, `retry:` and an end
    /// saying why: EventSource gives up for good on a 503, not on this.
    /// The viewer the store counted is held from its count on (`StreamHold`):
    /// let go when its stream closes, or when its client left before the
    /// stream could start (a reset during the store's round trip).
    private func sessionStream(_ id: String, fps: Double, startK: Int, caches: LoopBound<LoopCaches>) -> HTTPResponse {
        enum Start: Sendable { case watch(SessionSnapshot, StreamHold), storeUnavailable }
        return answer({ (reply: @escaping SessionReply<Start>) in
            sessions.addViewer(id) { [sessions] result in
                switch result {
                case .success(let snapshot): reply(.success(.watch(snapshot, StreamHold { sessions.removeViewer(id) })))
                case .failure(.unavailable): reply(.success(.storeUnavailable))
                case .failure(let error): reply(.failure(error))
                }
            }
        }) { [self] (start: Start) in
            guard case .watch(let snapshot, let viewer) = start else {
                let retry = configuration.streamRetryMilliseconds
                return HTTPResponse(status: .ok, headers: Self.eventStreamHeaders) { writer in
                    _ = writer.write(ServerSentEvent.retry(milliseconds: retry))
                    _ = writer.write(ServerSentEvent.end(reason: "unavailable"))
                    writer.finish()
                }
            }
            return HTTPResponse(status: .ok, headers: Self.eventStreamHeaders) { [self] writer in
                let frames = caches.value.sessionViewers.frames(store: sessions, cache: sessionFrameCache, id: id, createdAt: snapshot.createdAt,
                                                                fps: fps, now: writer.loop.now)
                startStream(writer, frames: frames, on: frames.clock, resumeAfter: startK, frameCount: nil, tickers: caches.value.streamTickers)
            }.holding(viewer)
        }
    }

    /// `POST /sessions/{id}/events` with `Authorization: Bearer <token>`.
    /// A small body is read first and the token checked in the same store
    /// step as the write (one round trip); a large one only after the
    /// session and its token are known, and then off the loop.
    func postSessionEvent(_ id: String, _ request: HTTPRequest, peer: SocketAddress?) throws -> HTTPResponse {
        try requireNoQuery(request)
        let token = bearerToken(request)
        guard request.body.count <= Self.inlineBodyBytes else {
            return answer({ sessions.authorize(id, token: token, reply: $0) }) { [self] _ in
                parsingBody(request, peer: peer) { [self] in post(try eventKind(request), to: id, token: token) }
            }
        }
        let kind: SessionEvent.Kind
        do { kind = try eventKind(request) } catch {
            // The token first: without it, nothing about the body is told.
            return answer({ sessions.authorize(id, token: token, reply: $0) }) { _ in throw error }
        }
        return post(kind, to: id, token: token)
    }

    private func eventKind(_ request: HTTPRequest) throws -> SessionEvent.Kind {
        let body = try jsonBody(request, allowed: ["type"])
        guard case .string(let type)? = body["type"], let kind = SessionEvent.Kind(rawValue: type) else {
            throw ServiceError.invalid("type must be progress, finish or stop")
        }
        return kind
    }

    /// The store checks the token before anything else, in the same step as the write.
    private func post(_ kind: SessionEvent.Kind, to id: String, token: String?) -> HTTPResponse {
        answer({ sessions.post(kind, to: id, token: token, reply: $0) }) { event in
            var w = JSONWriter(capacity: 64)
            w.beginObject()
            w.field("type", event.kind.rawValue)
            w.field("t", event.t)
            w.endObject()
            return HTTPResponse(status: .accepted, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"], body: w.bytes)
        }
    }

    /// `DELETE /sessions/{id}` with the token.
    func deleteSession(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        try requireNoQuery(request)
        let token = bearerToken(request)
        return answer({ sessions.delete(id, token: token, reply: $0) }) { _ in
            HTTPResponse(status: .noContent, headers: ["Cache-Control": "no-store"])
        }
    }

    func bearerToken(_ request: HTTPRequest) -> String? {
        guard let value = request.headers["authorization"] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1].trimmingSpaces)
    }

    /// Bodies up to this size are parsed on the event loop (tens of
    /// microseconds); a larger one, up to `maxBodyBytes`, on a heavy worker.
    static let inlineBodyBytes = 16 * 1024

    /// `handle`'s answer: made at once for a small body; for a larger one,
    /// as heavy work of the client (its share, `heavyWaitSeconds`), so that
    /// no loop parses a megabyte while its other connections wait.
    func parsingBody(_ request: HTTPRequest, peer: SocketAddress?, _ handle: @escaping @Sendable () throws -> HTTPResponse) -> HTTPResponse {
        guard request.body.count > Self.inlineBodyBytes else {
            do { return try handle() } catch { return ServiceError(answering: error).response }
        }
        return runHeavy(for: ClientAddress.key(request, peer: peer, trusted: trustedProxies)) { _ in try handle() }
    }

    /// The request body as a JSON object with only `allowed` keys.
    func jsonBody(_ request: HTTPRequest, allowed: Set<String>) throws -> JSONValue {
        try Negotiation.requireJSONBody(request)
        let value: JSONValue
        do { value = try JSONValue.parse(request.body) } catch {
            throw ServiceError(.badRequest, "invalid_body", "the body is not valid JSON: \(error)")
        }
        guard case .object(let fields) = value else { throw ServiceError(.badRequest, "invalid_body", "the body must be a JSON object") }
        for (key, _) in fields where !allowed.contains(key) {
            throw ServiceError(.badRequest, "invalid_body", "unknown field \(key); the body takes \(allowed.sorted().joined(separator: ", "))")
        }
        return value
    }
}

extension LoaderService {
    /// A backend that presents `sessionCreateKey` creates sessions freely
    /// (within `maxSessions`); every other client address takes a token from
    /// its bucket (`sessionCreateRate`, `sessionCreateBurst`), or gets 429.
    func admitSessionCreation(_ request: HTTPRequest, peer: SocketAddress?) throws {
        if let key = configuration.sessionCreateKey, let given = bearerToken(request), constantTimeEqual(Array(given.utf8), Array(key.utf8)) {
            return
        }
        let client = ClientAddress.key(request, peer: peer, trusted: trustedProxies)
        guard let wait = sessionCreation.take(client, now: Double(monotonicNanoseconds()) / 1e9) else { return }
        throw ServiceError(.tooManyRequests, "too_many_session_creations",
                           "this client creates sessions faster than sessionCreateRate (\(SVG.n(configuration.sessionCreateRate)) a second after a burst of \(configuration.sessionCreateBurst)); a backend with sessionCreateKey is not limited")
            .retryAfter(seconds: max(1, Int(wait.rounded(.up))))
    }
}
