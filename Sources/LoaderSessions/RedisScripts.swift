import Redis

/// The Lua scripts of `RedisSessionStore`: one per operation, so that every
/// check and its write are one atomic step in Redis.
///
/// A session `id` has a hash `loaderd:{id}:s` (loader, params, createdAt,
/// the token's SHA-1, event count, finished, doneAt), a stream
/// `loaderd:{id}:ev` of its events (type, t), a tombstone `loaderd:{id}:t`
/// that outlives the hash by one time-to-live, so an expired session
/// answers 410, not 404, and its viewers `loaderd:{id}:v`: a hash of each
/// replica's viewers of it, `"<count> <lease end, Redis's ms>"` by replica
/// id. A replica claims its whole count each time (a join, a leave, and its
/// refresh every half second), never a difference, so a claim that was lost
/// (Redis away, a reply that never came) is made good by the next; an entry
/// whose lease has run out (a replica that died without a word) counts for
/// nothing and is dropped. Each claim carries the replica's sequence number,
/// kept in `loaderd:{id}:vs`: claims sent on different connections (one per
/// loop) or resent whole after NOSCRIPT can arrive out of order, and an
/// older one must not undo a newer (its own key, so that replicas of an
/// earlier version, which drop entries of another shape, leave it alone). `loaderd:live` scores each live id by when it
/// expires (the session limit). Changes are published on `loaderd:events`
/// with the id, for the replicas whose viewers watch it. Errors are replies
/// whose text is the error's code.
enum RedisScripts {
    static let channel = "loaderd:events"
    static let live = "loaderd:live"

    static func keys(_ id: String) -> [String] {
        ["loaderd:{\(id)}:s", "loaderd:{\(id)}:ev", "loaderd:{\(id)}:t", live, "loaderd:{\(id)}:v", "loaderd:{\(id)}:vs"]
    }

    /// How long a replica's claim of its viewers lasts unless claimed again:
    /// it claims every half second while it has viewers, so a replica that
    /// dies stops counting within this (6 refreshes: a slow Redis or a busy
    /// loop does not drop a live replica's viewers).
    static let viewerLeaseMilliseconds = 3000

    /// Shared by the scripts: whether the session is live, and marking activity.
    private static let prelude = """
        local function gone(hash, tomb)
          if redis.call('EXISTS', hash) == 1 then return nil end
          if redis.call('EXISTS', tomb) == 1 then return 'session_expired' end
          return 'not_found'
        end
        local function active(ttl, now, id)
          redis.call('EXPIRE', KEYS[1], ttl)
          redis.call('EXPIRE', KEYS[2], ttl)
          redis.call('SET', KEYS[3], '1', 'EX', 2 * tonumber(ttl))
          redis.call('ZADD', KEYS[4], tonumber(now) + tonumber(ttl), id)
        end
        local function owner(token)
          return redis.sha1hex(token) == redis.call('HGET', KEYS[1], 'token')
        end
        -- Leases are timed by Redis's clock, the one clock all replicas share.
        local function clock()
          local t = redis.call('TIME')
          return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
        end
        -- The viewers of the other replicas whose lease runs, and this one's
        -- (`replica`); entries whose lease has run out are dropped.
        local function viewers(replica, now)
          local all = redis.call('HGETALL', KEYS[5])
          local others, own = 0, 0
          for i = 1, #all, 2 do
            local n, to = string.match(all[i + 1], '^(%d+) (%d+)$')
            if n == nil or tonumber(to) <= now then
              redis.call('HDEL', KEYS[5], all[i])
            elseif all[i] == replica then
              own = tonumber(n)
            else
              others = others + tonumber(n)
            end
          end
          return others, own
        end
        -- This replica has `n` viewers of the session now, as of its claim
        -- `seq`: false, and nothing changed, when a later claim is in already.
        local function claim(replica, n, seq, now, lease)
          local last = redis.call('HGET', KEYS[6], replica)
          if last and tonumber(last) > tonumber(seq) then return false end
          redis.call('HSET', KEYS[6], replica, seq)
          redis.call('PEXPIRE', KEYS[6], 2 * lease)
          if tonumber(n) > 0 then
            redis.call('HSET', KEYS[5], replica, n .. ' ' .. (now + lease))
            -- Gone with the last replica that watched it.
            redis.call('PEXPIRE', KEYS[5], 2 * lease)
          else
            redis.call('HDEL', KEYS[5], replica)
          end
          return true
        end

        """

    /// ARGV: id, loader, params, createdAt, token, ttl, maxSessions, now, doneAt ('' if never).
    /// `viewers` in the hash is the count of replicas before per-replica
    /// claims: unused here, kept so that those replicas, during a rolling
    /// upgrade, still find it (their scripts fail on a session without it).
    static let create = RedisScript(prelude + """
        redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', ARGV[8])
        if redis.call('ZCARD', KEYS[4]) >= tonumber(ARGV[7]) then return redis.error_reply('too_many_sessions') end
        redis.call('HSET', KEYS[1], 'loader', ARGV[2], 'params', ARGV[3], 'createdAt', ARGV[4], 'token', redis.sha1hex(ARGV[5]),
                   'events', 0, 'finished', 0, 'doneAt', ARGV[9], 'viewers', 0)
        active(ARGV[6], ARGV[8], ARGV[1])
        return 'OK'
        """)

    /// ARGV: id, token ('' for none), checkToken (0/1), addViewer (0/1), maxViewers, ttl, now,
    /// from (the first stream ID of the events wanted: '-' for all, '' for none),
    /// replica, claim (this replica's viewers of it, the new one included
    /// when adding one; '' to claim nothing), lease (ms), the claim's sequence.
    /// Answers the hash's fields and those events, so that a replica that
    /// has a session's first events reads only the new ones, in the same
    /// step as the count it checks them against:
    /// {{loader, params, createdAt, viewers, doneAt, finished, events}, {{id, {type, …, t, …}}…}}
    /// (viewers: of every replica whose lease runs).
    static let read = RedisScript(prelude + """
        local e = gone(KEYS[1], KEYS[3])
        if e then return redis.error_reply(e) end
        if ARGV[3] == '1' and not owner(ARGV[2]) then return redis.error_reply('unauthorized') end
        local now = clock()
        local others, own = viewers(ARGV[9], now)
        if ARGV[10] ~= '' then
          if ARGV[4] == '1' and others + tonumber(ARGV[10]) > tonumber(ARGV[5]) then return redis.error_reply('too_many_viewers') end
          if claim(ARGV[9], ARGV[10], ARGV[12], now, tonumber(ARGV[11])) then own = tonumber(ARGV[10]) end
        end
        if ARGV[4] == '1' then active(ARGV[6], ARGV[7], ARGV[1]) end
        local h = redis.call('HMGET', KEYS[1], 'loader', 'params', 'createdAt', 'createdAt', 'doneAt', 'finished', 'events')
        h[4] = tostring(others + own)
        if ARGV[8] == '' then return {h, {}} end
        return {h, redis.call('XRANGE', KEYS[2], ARGV[8], '+')}
        """)

    /// ARGV: id, token, kind, t ('' for now: the script takes the session
    /// clock from createdAt, so a progress event is one round trip),
    /// eventsSeen ('' when the event does not depend on the others), doneAt
    /// ('' if unchanged), maxEvents, ttl, now, accepting (the loaders that
    /// take this kind, space-separated; '' to skip the check).
    /// Answers the event's t. `retry` when another event came since the
    /// caller read the session.
    static let post = RedisScript(prelude + """
        local e = gone(KEYS[1], KEYS[3])
        if e then return redis.error_reply(e) end
        if not owner(ARGV[2]) then return redis.error_reply('unauthorized') end
        local h = redis.call('HMGET', KEYS[1], 'events', 'finished', 'doneAt', 'createdAt', 'loader')
        if ARGV[10] ~= '' and not string.find(' ' .. ARGV[10] .. ' ', ' ' .. h[5] .. ' ', 1, true) then
          return redis.error_reply('event_not_accepted ' .. h[5])
        end
        local t = ARGV[4]
        if t == '' then t = string.format('%.17g', tonumber(ARGV[9]) - tonumber(h[4])) end
        if h[3] ~= '' and tonumber(t) >= tonumber(h[3]) then return redis.error_reply('session_done') end
        if ARGV[3] ~= 'stop' and h[2] == '1' then return redis.error_reply('session_finished') end
        if tonumber(h[1]) >= tonumber(ARGV[7]) then return redis.error_reply('too_many_events') end
        if ARGV[5] ~= '' and tonumber(h[1]) ~= tonumber(ARGV[5]) then return redis.error_reply('retry') end
        redis.call('XADD', KEYS[2], '*', 'type', ARGV[3], 't', t)
        redis.call('HINCRBY', KEYS[1], 'events', 1)
        if ARGV[3] == 'finish' then redis.call('HSET', KEYS[1], 'finished', 1) end
        if ARGV[6] ~= '' and (h[3] == '' or tonumber(ARGV[6]) < tonumber(h[3])) then redis.call('HSET', KEYS[1], 'doneAt', ARGV[6]) end
        active(ARGV[8], ARGV[9], ARGV[1])
        redis.call('PUBLISH', '\(channel)', ARGV[1])
        return t
        """)

    /// ARGV: id, token.
    static let delete = RedisScript(prelude + """
        local e = gone(KEYS[1], KEYS[3])
        if e then return redis.error_reply(e) end
        if not owner(ARGV[2]) then return redis.error_reply('unauthorized') end
        redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[5], KEYS[6])
        redis.call('ZREM', KEYS[4], ARGV[1])
        redis.call('PUBLISH', '\(channel)', ARGV[1])
        return 'OK'
        """)

    /// ARGV: id, replica, count, lease (ms), the claim's sequence: this
    /// replica has `count` viewers of the session now (one left, or a claim
    /// made good). Nothing is claimed for a session that is gone.
    static let claimViewers = RedisScript(prelude + """
        if redis.call('EXISTS', KEYS[1]) == 0 and tonumber(ARGV[3]) > 0 then return 'OK' end
        local now = clock()
        viewers(ARGV[2], now)
        claim(ARGV[2], ARGV[3], ARGV[5], now, tonumber(ARGV[4]))
        return 'OK'
        """)

    /// ARGV: now. The live sessions.
    static let count = RedisScript("""
        redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
        return redis.call('ZCARD', KEYS[1])
        """)

    /// `script` run for session `id` with `arguments` (after the id).
    static func eval(_ script: RedisScript, _ id: String, _ arguments: [String]) -> RedisScript.Call {
        let k = keys(id)
        return RedisScript.Call(script: script, rest: [String(k.count)] + k + [id] + arguments)
    }
}

/// A Lua script, sent by its SHA-1 (`EVALSHA`), and whole (`EVAL`, which
/// also has Redis keep it) only when Redis answers that it does not have it:
/// a call carries its arguments, not 1–2 KB of script.
struct RedisScript: Sendable {
    let text: String
    let sha: String

    init(_ text: String) {
        self.text = text
        sha = SHA1.hex(text.utf8)
    }

    /// One run: `numkeys keys… args…` after the script.
    struct Call: Sendable {
        let script: RedisScript
        let rest: [String]
        var bySHA: [String] { ["EVALSHA", script.sha] + rest }
        var whole: [String] { ["EVAL", script.text] + rest }
    }
}

// The scripts' replies, read into values where they arrive: the store
// reads fields, never positions or the text of an error.
extension RedisScripts {
    /// A reply that is not the shape its script answers.
    struct UnexpectedReply: Error {}

    /// A script's own error reply (`redis.error_reply`), by its code.
    enum ScriptError: Equatable {
        case notFound, expired, unauthorized, tooManySessions, tooManyViewers, tooManyEvents, done, finished
        /// The session changed since it was read: read it again.
        case retry
        /// The post script: the session's loader does not take the event.
        case eventNotAccepted(loader: String)
        /// No code of the scripts': Redis's own error.
        case other

        init(_ reply: RedisErrorReply) {
            let code = reply.code
            switch code {
            case "not_found": self = .notFound
            case "session_expired": self = .expired
            case "unauthorized": self = .unauthorized
            case "too_many_sessions": self = .tooManySessions
            case "too_many_viewers": self = .tooManyViewers
            case "too_many_events": self = .tooManyEvents
            case "session_done": self = .done
            case "session_finished": self = .finished
            case "retry": self = .retry
            default:
                let prefix = "event_not_accepted "
                self = code.hasPrefix(prefix) ? .eventNotAccepted(loader: String(code.dropFirst(prefix.count))) : .other
            }
        }
    }

    /// `read`'s reply: the session's hash (loader, params, createdAt,
    /// viewers over all replicas, event count) and its events from `from`.
    struct ReadReply {
        let loader: String
        let params: String
        let createdAt: Double
        let viewers: Int
        let eventCount: Int
        /// The events, in stream order; an entry of another shape is skipped.
        let events: [(StreamID, SessionEvent)]

        static func decode(_ value: RESPValue) throws(UnexpectedReply) -> ReadReply {
            guard case .array(let parts?) = value, parts.count == 2, case .array(let h?) = parts[0], h.count == 7,
                  let loader = h[0].string, let params = h[1].string, let createdAt = h[2].string.flatMap(Double.init),
                  let viewers = h[3].string.flatMap(Int.init), let count = h[6].string.flatMap(Int.init),
                  case .array(let entries?) = parts[1]
            else { throw UnexpectedReply() }
            var events: [(StreamID, SessionEvent)] = []
            events.reserveCapacity(entries.count)
            for entry in entries {
                guard case .array(let pair?) = entry, pair.count == 2, let id = pair[0].string.flatMap(StreamID.init),
                      case .array(let fields?) = pair[1] else { continue }
                var kind: SessionEvent.Kind?, t: Double?
                var i = 0
                while i + 1 < fields.count {
                    if fields[i].string == "type" { kind = fields[i + 1].string.flatMap(SessionEvent.Kind.init(rawValue:)) }
                    if fields[i].string == "t" { t = fields[i + 1].string.flatMap(Double.init) }
                    i += 2
                }
                if let kind, let t { events.append((id, SessionEvent(kind: kind, t: t))) }
            }
            return ReadReply(loader: loader, params: params, createdAt: createdAt, viewers: viewers, eventCount: count, events: events)
        }
    }

    /// `post`'s reply to progress: the event's time on the session's clock.
    static func postedTime(_ value: RESPValue) throws(UnexpectedReply) -> Double {
        guard let t = value.string.flatMap(Double.init) else { throw UnexpectedReply() }
        return t
    }

    /// `count`'s reply: the live sessions.
    static func liveCount(_ value: RESPValue) throws(UnexpectedReply) -> Int {
        guard case .integer(let n) = value else { throw UnexpectedReply() }
        return Int(n)
    }
}
