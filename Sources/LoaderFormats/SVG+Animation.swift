import LoaderEngine

extension SVG {
    /// A loop as a self-contained animated SVG (SMIL): each element's
    /// keyframes as `<animate>` values with `calcMode="linear"`, repeating
    /// on the element's track's length.
    public static func animation(_ loop: SampledLoop) -> [UInt8] {
        var body = header(width: loop.loader.width, height: loop.loader.height, background: loop.loader.background)
        for track in loop.tracks { body += self.track(track) }
        body += "</svg>\n"
        return Array(body.utf8)
    }

    /// One element's animated node.
    static func track(_ track: SampledLoop.Track) -> String {
        if track.outlined { return outline(track) }
        switch track.element.shape {
        case .circle where !squashed(track): return element(track.element.id, color: track.element.color, track)
        case .circle, .rect, .ring, .segment, .triangle: return shape(track)
        }
    }

    /// A circle with an `<animate>` per attribute that changes.
    private static func element(_ id: ElementID, color: RGBColor, _ track: SampledLoop.Track) -> String {
        let keys = track.keys
        let times = keys.map { SVG.fixed($0.s / track.duration, decimals: 7) }.joined(separator: ";")
        let first = keys[0].v
        var out = "<circle id=\"\(id)\" cx=\"\(SVG.fixed(first.x, decimals: 4))\" cy=\"\(SVG.fixed(first.y, decimals: 4))\" r=\"\(SVG.fixed(first.r, decimals: 4))\" fill=\"\(color)\" opacity=\"\(SVG.fixed(first.opacity, decimals: 4))\">"
        let dur = SVG.n(track.duration)
        for (attribute, path) in [("cx", \SampledLoop.Sample.x), ("cy", \SampledLoop.Sample.y), ("r", \SampledLoop.Sample.r), ("opacity", \SampledLoop.Sample.opacity)] as [(String, KeyPath<SampledLoop.Sample, Double>)] {
            let values = keys.map { $0.v[keyPath: path] }
            guard values.contains(where: { $0 != values[0] }) else { continue }
            out += "<animate attributeName=\"\(attribute)\" dur=\"\(dur)s\" repeatCount=\"indefinite\" calcMode=\"linear\" keyTimes=\"\(times)\" values=\""
            out += values.map { SVG.fixed($0, decimals: 4) }.joined(separator: ";")
            out += "\"/>"
        }
        return out + "</circle>"
    }

    /// Whether an element's placement squashes or skews it at some key.
    static func squashed(_ track: SampledLoop.Track) -> Bool {
        track.keys.contains { $0.v.skew != 0 || $0.v.scaleX != 1 || $0.v.scaleY != 1 }
    }

    /// An element under perspective: a `<path>` whose `d` runs through its
    /// outlines at the keys. Each key's path has the same commands and
    /// flags wherever the shape moves smoothly, so SMIL interpolates it
    /// number by number, as the samples were checked; an arc's axis angle
    /// is written within half a turn of the key before (the same ellipse),
    /// so that it turns the short way.
    private static func outline(_ track: SampledLoop.Track) -> String {
        let e = track.element, keys = track.keys
        let times = keys.map { SVG.fixed($0.s / track.duration, decimals: 7) }.joined(separator: ";")
        let dur = SVG.n(track.duration)
        let f = { (v: Double) in SVG.fixed(v, decimals: 4) }
        var angles: [Double] = []
        var paths: [String] = []
        for key in keys {
            let segments = key.v.outline ?? []
            var next: [Double] = []
            for segment in segments {
                guard case let .arc(_, _, angle, _, _, _) = segment else { continue }
                let k = next.count
                next.append(k < angles.count ? angles[k] + SampledLoop.Sample.halfTurnWrapped(angle - angles[k]) : angle)
            }
            angles = next
            paths.append(pathData(segments, angles: angles, f))
        }
        var out = "<path id=\"\(e.id)\" d=\"\(paths[0])\" fill=\"\(e.color)\" opacity=\"\(f(keys[0].v.opacity))\">"
        func animate(_ attribute: String, _ values: [String]) -> String {
            "<animate attributeName=\"\(attribute)\" dur=\"\(dur)s\" repeatCount=\"indefinite\" calcMode=\"linear\" keyTimes=\"\(times)\" values=\"" + values.joined(separator: ";") + "\"/>"
        }
        if paths.contains(where: { $0 != paths[0] }) { out += animate("d", paths) }
        if keys.contains(where: { $0.v.opacity != keys[0].v.opacity }) { out += animate("opacity", keys.map { f($0.v.opacity) }) }
        return out + "</path>"
    }

    /// Path data of an outline, its arcs' axis angles (degrees in the text)
    /// given in order.
    static func pathData(_ segments: [OutlineSegment], angles: [Double], _ fixed: (Double) -> String) -> String {
        var out = "", arcs = 0
        for segment in segments {
            switch segment {
            case let .move(p): out += "M\(fixed(p.x)) \(fixed(p.y))"
            case let .line(p): out += "L\(fixed(p.x)) \(fixed(p.y))"
            case let .arc(rx, ry, _, large, sweep, p):
                out += "A\(fixed(rx)) \(fixed(ry)) \(fixed(angles[arcs] * 180 / .pi)) \(large ? 1 : 0) \(sweep ? 1 : 0) \(fixed(p.x)) \(fixed(p.y))"
                arcs += 1
            case .close: out += "Z"
            }
        }
        return out
    }

    /// A rect, ring, segment or triangle, or a squashed circle: a `<g>` placed,
    /// turned and scaled by `animateTransform`s (translate, then rotate and
    /// scale added to it, and for a squash, skewX and scale along each axis:
    /// the decomposition the samples were checked in), around the shape
    /// drawn about the origin.
    private static func shape(_ track: SampledLoop.Track) -> String {
        let e = track.element, keys = track.keys
        let times = keys.map { SVG.fixed($0.s / track.duration, decimals: 7) }.joined(separator: ";")
        let dur = SVG.n(track.duration)
        let f = { (v: Double) in SVG.fixed(v, decimals: 4) }
        let degrees = { (v: Double) in SVG.fixed(v * 180 / .pi, decimals: 4) }
        let first = keys[0].v
        func changes(_ path: KeyPath<SampledLoop.Sample, Double>) -> Bool { keys.contains { $0.v[keyPath: path] != first[keyPath: path] } }
        func animate(_ attribute: String, _ value: (SampledLoop.Sample) -> String) -> String {
            "<animate attributeName=\"\(attribute)\" dur=\"\(dur)s\" repeatCount=\"indefinite\" calcMode=\"linear\" keyTimes=\"\(times)\" values=\"" + keys.map { value($0.v) }.joined(separator: ";") + "\"/>"
        }
        func transform(_ type: String, additive: Bool, _ value: (SampledLoop.Sample) -> String) -> String {
            "<animateTransform attributeName=\"transform\" type=\"\(type)\"\(additive ? " additive=\"sum\"" : "") dur=\"\(dur)s\" repeatCount=\"indefinite\" calcMode=\"linear\" keyTimes=\"\(times)\" values=\"" + keys.map { value($0.v) }.joined(separator: ";") + "\"/>"
        }
        let squash = squashed(track)
        var out = "<g id=\"\(e.id)\" transform=\"translate(\(f(first.x)) \(f(first.y))) rotate(\(degrees(first.rotation))) scale(\(f(first.scale)))"
        if squash { out += " skewX(\(degrees(first.skew))) scale(\(f(first.scaleX)) \(f(first.scaleY)))" }
        out += "\" opacity=\"\(f(first.opacity))\">"
        if changes(\.x) || changes(\.y) || changes(\.rotation) || changes(\.scale) || (squash && (changes(\.skew) || changes(\.scaleX) || changes(\.scaleY))) {
            out += transform("translate", additive: false) { "\(f($0.x)) \(f($0.y))" }
            out += transform("rotate", additive: true) { degrees($0.rotation) }
            out += transform("scale", additive: true) { f($0.scale) }
            if squash {
                out += transform("skewX", additive: true) { degrees($0.skew) }
                out += transform("scale", additive: true) { "\(f($0.scaleX)) \(f($0.scaleY))" }
            }
        }
        if changes(\.opacity) { out += animate("opacity") { f($0.opacity) } }
        var drawn = e
        drawn.strokeStart = first.strokeStart; drawn.strokeEnd = first.strokeEnd
        drawn.lineWidth = first.lineWidth; drawn.cornerRadius = first.cornerRadius
        drawn.width = first.width; drawn.height = first.height
        switch e.shape {
        case .circle:
            // Squashed: its uniform scale is in its radius, as in `element`.
            out += "<circle r=\"\(f(first.r))\" fill=\"\(e.color)\">"
            if changes(\.r) { out += animate("r") { f($0.r) } }
            return out + "</circle></g>"
        case .segment:
            // A segment's arc is fixed.
            return out + SVG.shape(drawn, fixed: f) + "</g>"
        case .rect:
            out += SVG.shape(drawn, fixed: f, close: ">")
            if changes(\.cornerRadius) { out += animate("rx") { f($0.cornerRadius) } }
            if changes(\.width) {
                out += animate("width") { f($0.width) }
                out += animate("x") { f(-$0.width / 2) }
            }
            if changes(\.height) {
                out += animate("height") { f($0.height) }
                out += animate("y") { f(-$0.height / 2) }
            }
            return out + "</rect></g>"
        case .ring:
            let trimChanges = changes(\.strokeStart) || changes(\.strokeEnd)
            out += SVG.shape(drawn, fixed: f, close: ">", dashed: trimChanges)
            if changes(\.lineWidth) { out += animate("stroke-width") { f($0.lineWidth) } }
            if trimChanges {
                out += animate("stroke-dasharray") { SVG.dash($0.strokeStart, $0.strokeEnd, f) }
                out += animate("stroke-dashoffset") { f(-$0.strokeStart) }
            }
            return out + "</circle></g>"
        case .triangle:
            out += SVG.shape(drawn, fixed: f, close: ">")
            // The same three points throughout, so SMIL interpolates `d` point by point.
            if changes(\.width) || changes(\.height) { out += animate("d") { SVG.trianglePath(width: $0.width, height: $0.height, f) } }
            return out + "</path></g>"
        }
    }
}
