import LoaderEngine

/// Journal records: JSON objects, one per accepted change.
enum Record {
    /// The records that rebuild `images`: a create and its events each, oldest first.
    static func rebuilding(_ images: [LocalSessionStore.Image]) -> [[UInt8]] {
        var payloads: [[UInt8]] = []
        for image in images.sorted(by: { $0.createdAt < $1.createdAt }) {
            payloads.append(create(image))
            for event in image.events { payloads.append(Record.event(id: image.id, event)) }
        }
        return payloads
    }

    static func create(_ s: LocalSessionStore.Image) -> [UInt8] {
        var w = JSONWriter(capacity: 256)
        w.beginObject()
        w.field("op", "create")
        w.field("id", s.id)
        w.field("token", String(decoding: s.token, as: UTF8.self))
        w.field("loader", s.loader)
        w.key("params")
        SessionParams.write(s.params, &w)
        w.field("createdAt", s.createdAt)
        w.endObject()
        return w.bytes
    }

    static func event(id: String, _ e: SessionEvent) -> [UInt8] {
        var w = JSONWriter(capacity: 96)
        w.beginObject()
        w.field("op", "event")
        w.field("id", id)
        w.field("type", e.kind.rawValue)
        w.field("t", e.t)
        w.endObject()
        return w.bytes
    }

    static func delete(id: String) -> [UInt8] {
        var w = JSONWriter(capacity: 64)
        w.beginObject()
        w.field("op", "delete")
        w.field("id", id)
        w.endObject()
        return w.bytes
    }

    /// Replays one record; false when it does not make sense (skipped).
    static func apply(_ record: JSONValue, to all: inout [String: LocalSessionStore.Session], catalog: LoaderCatalog) -> Bool {
        guard case .string(let op)? = record["op"], case .string(let id)? = record["id"] else { return false }
        switch op {
        case "create":
            guard case .string(let token)? = record["token"], case .string(let name)? = record["loader"],
                  case .number(let createdAt)? = record["createdAt"], let definition = catalog[name],
                  case .object(let params)? = record["params"],
                  let items = try? SessionParams.items(params), let loader = try? definition.configure(items)
            else { return false }
            all[id] = LocalSessionStore.Session(id: id, token: Array(token.utf8), definition: definition, params: params,
                                           createdAt: createdAt, loader: loader)
        case "event":
            guard let s = all[id], case .string(let type)? = record["type"], let kind = SessionEvent.Kind(rawValue: type),
                  case .number(let t)? = record["t"] else { return false }
            s.events.append(SessionEvent(kind: kind, t: t))
            s.loader = s.loader.with(events: s.loaderEvents)
            s.lastActivity = max(s.lastActivity, s.createdAt + t)
        case "delete":
            all[id] = nil
        default:
            return false
        }
        return true
    }
}
