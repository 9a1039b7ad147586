extension LoaderCatalog {
    /// The families of its loaders, in catalogue order.
    public var families: [String] {
        var seen: [String] = []
        for loader in loaders { if let f = loader.family, !seen.contains(f) { seen.append(f) } }
        return seen
    }

    /// `{"loaders":[…]}`: every loader's catalog entry.
    /// `extra` adds fields to each entry (a server's links).
    /// `only` keeps some of them (one family's).
    public func json(only: (LoaderDefinition) -> Bool = { _ in true }, extra: (LoaderDefinition, inout JSONWriter) -> Void = { _, _ in }) -> [UInt8] {
        var w = JSONWriter(capacity: 8192)
        w.beginObject()
        w.key("loaders")
        w.beginArray()
        for loader in loaders where only(loader) { loader.write(to: &w) { extra(loader, &$0) } }
        w.endArray()
        w.endObject()
        return w.bytes
    }
}

extension LoaderDefinition {
    /// One catalog entry as JSON; `extra` adds fields to it.
    public func json(extra: (inout JSONWriter) -> Void = { _ in }) -> [UInt8] {
        var w = JSONWriter(capacity: 4096)
        write(to: &w, extra: extra)
        return w.bytes
    }

    /// Name, description, family and original, default canvas, parameters (type, default, range,
    /// meaning), events, the reduced-motion variant and the default period.
    public func write(to w: inout JSONWriter, extra: (inout JSONWriter) -> Void = { _ in }) {
        let defaults = self.defaults
        w.beginObject()
        w.field("name", name)
        w.field("description", summary)
        w.key("family")
        if let family { w.value(family) } else { w.null() }
        w.key("original")
        if let original { w.value(original) } else { w.null() }
        w.key("aliases")
        w.beginArray()
        for alias in aliases { w.value(alias) }
        w.endArray()
        w.key("canvas")
        w.beginObject()
        let canvas = self.canvas(defaults)
        w.field("width", canvas.width)
        w.field("height", canvas.height)
        w.endObject()
        w.key("period")
        if let period = period(defaults) { w.value(period) } else { w.null() }
        w.key("parameters")
        w.beginArray()
        for spec in parameters { spec.write(to: &w) }
        w.endArray()
        w.key("events")
        w.beginArray()
        for event in events {
            w.beginObject()
            w.field("name", event.name)
            w.field("type", event.kind == .time ? "time" : "timeList")
            w.field("description", event.summary)
            w.field("minimum", 0.0)
            w.field("maximum", TimeValue.maximum)
            if event.kind == .timeList { w.field("maxItems", TimeValue.maximumListCount) }
            w.endObject()
        }
        w.endArray()
        w.field("reducedMotion", reducedMotion)
        w.key("background")
        if let background { w.value(background.description) } else { w.null() }
        extra(&w)
        w.endObject()
    }
}

extension ParameterSpec {
    func write(to w: inout JSONWriter) {
        w.beginObject()
        w.field("name", name)
        switch kind {
        case let .number(min, max, exclusive):
            w.field("type", "number")
            w.field(exclusive ? "exclusiveMinimum" : "minimum", min)
            w.field("maximum", max)
        case let .integer(min, max):
            w.field("type", "integer")
            w.field("minimum", min)
            w.field("maximum", max)
        case .color:
            w.field("type", "color")
            w.field("pattern", "^#?([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$")
        case .colorOrNone:
            w.field("type", "colorOrNone")
            w.field("pattern", "^(none|#?([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6}))$")
        case let .choice(words):
            w.field("type", "string")
            w.field("enum", words)
        }
        w.key("default")
        switch defaultValue {
        case let .number(v): w.value(v)
        case let .integer(v): w.value(v)
        case let .color(c): w.value(c.description)
        case let .colorOrNone(c): w.value(c?.description ?? "none")
        case let .choice(v): w.value(v)
        }
        w.field("description", summary)
        w.field("accepts", acceptedForm)
        w.endObject()
    }
}
