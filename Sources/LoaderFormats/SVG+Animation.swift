import LoaderEngine

extension SVG {
    /// A loop as a self-contained animated SVG (SMIL): each element's
    /// keyframes as `<animate>` values with `calcMode="linear"`, repeating
    /// on the element's track's length.
    public static func animation(_ loop: SampledLoop) -> [UInt8] {
        var body = header(width: loop.loader.width, height: loop.loader.height, background: loop.loader.background)
        for track in loop.tracks {
            switch track.element.shape {
            case .circle: body += element(track.element.id, color: track.element.color, track)
            case .rect, .ring, .segment, .triangle: body += shape(track)
            }
        }
        body += "</svg>\n"
        return Array(body.utf8)
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

    /// A rect, ring, segment or triangle: a `<g>` placed, turned and scaled by
    /// `animateTransform`s (translate, then rotate and scale added to it),
    /// around the shape drawn about the origin.
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
        var out = "<g id=\"\(e.id)\" transform=\"translate(\(f(first.x)) \(f(first.y))) rotate(\(degrees(first.rotation))) scale(\(f(first.scale)))\" opacity=\"\(f(first.opacity))\">"
        if changes(\.x) || changes(\.y) || changes(\.rotation) || changes(\.scale) {
            out += transform("translate", additive: false) { "\(f($0.x)) \(f($0.y))" }
            out += transform("rotate", additive: true) { degrees($0.rotation) }
            out += transform("scale", additive: true) { f($0.scale) }
        }
        if changes(\.opacity) { out += animate("opacity") { f($0.opacity) } }
        var drawn = e
        drawn.strokeStart = first.strokeStart; drawn.strokeEnd = first.strokeEnd
        drawn.lineWidth = first.lineWidth; drawn.cornerRadius = first.cornerRadius
        drawn.width = first.width; drawn.height = first.height
        switch e.shape {
        case .circle, .segment:
            // A circle's own tracks are `element`'s; a segment's arc is fixed.
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
