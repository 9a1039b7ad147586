#if canImport(Glibc)
import Glibc
#endif
import LoaderEngine

/// Pictures of frames: one frame as SVG, and a self-contained animated SVG
/// (SMIL) that loops in an `<img>` with no JavaScript.
public enum SVG {
    /// One frame; its size and viewBox are the canvas, and what reaches
    /// past it shows (`overflow="visible"`).
    package static func frame(_ frame: Frame, background: RGBColor?) -> [UInt8] {
        var out = header(width: frame.width, height: frame.height, background: background)
        for e in frame.elements {
            if let placement = e.placement {
                out += placed(e, placement)
                continue
            }
            switch e.shape {
            case .circle:
                out += "<circle id=\"\(e.id)\" cx=\"\(n(e.x))\" cy=\"\(n(e.y))\" r=\"\(n(e.diameter * e.scale / 2))\" fill=\"\(e.color)\" opacity=\"\(n(e.opacity))\"/>"
            case .rect, .ring, .segment, .triangle:
                out += "<g id=\"\(e.id)\" transform=\"translate(\(n(e.x)) \(n(e.y))) rotate(\(n(e.rotation * 180 / .pi))) scale(\(n(e.scale)))\" opacity=\"\(n(e.opacity))\">"
                out += shape(e, fixed: n) + "</g>"
            }
        }
        out += "</svg>\n"
        return Array(out.utf8)
    }

    /// An element with a placement of its own: the shape drawn at the
    /// origin, unscaled, under its `matrix()` while the map is affine (SVG
    /// draws a squashed or skewed circle, rect or stroke exactly so); under
    /// perspective, where no SVG transform can follow, the projected outline
    /// the frame's JSON carries, filled.
    static func placed(_ e: Element, _ p: PlaneTransform) -> String {
        guard p.isAffine else {
            return "<path id=\"\(e.id)\" d=\"\(Element.pathData(e.outline()))\" fill=\"\(e.color)\" opacity=\"\(n(e.opacity))\"/>"
        }
        return "<g id=\"\(e.id)\" transform=\"\(matrix(p, n))\" opacity=\"\(n(e.opacity))\">" + shape(e, fixed: n) + "</g>"
    }

    /// An affine map as SVG's `matrix(a b c d tx ty)`.
    static func matrix(_ p: PlaneTransform, _ fixed: (Double) -> String) -> String {
        "matrix(\(fixed(p.a)) \(fixed(p.b)) \(fixed(p.c)) \(fixed(p.d)) \(fixed(p.tx)) \(fixed(p.ty)))"
    }

    /// An element's shape drawn about the origin (its `<g>` places it);
    /// `close` ends the tag (`/>`, or `>` to add animations). A ring is
    /// dashed when it is trimmed, or when `dashed` (its trim is animated).
    static func shape(_ e: Element, fixed: (Double) -> String, close: String = "/>", dashed: Bool = false) -> String {
        switch e.shape {
        case .circle:
            // `frame` draws a circle as a `<circle>` of its own (never
            // turned); about the origin it is this.
            return "<circle r=\"\(fixed(e.diameter / 2))\" fill=\"\(e.color)\"" + close
        case .segment:
            return "<path d=\"\(segmentPath(diameter: e.diameter, arc: e.arc, fixed))\" fill=\"\(e.color)\"" + close
        case .rect:
            return "<rect x=\"\(fixed(-e.width / 2))\" y=\"\(fixed(-e.height / 2))\" width=\"\(fixed(e.width))\" height=\"\(fixed(e.height))\" rx=\"\(fixed(e.cornerRadius))\" fill=\"\(e.color)\"" + close
        case .ring:
            return ring(e, fixed: fixed, close: close, dashed: dashed)
        case .triangle:
            return "<path d=\"\(trianglePath(width: e.width, height: e.height, fixed))\" fill=\"\(e.color)\"" + close
        }
    }

    /// A triangle about its box's centre: apex at the top middle, base along the bottom.
    static func trianglePath(width: Double, height: Double, _ fixed: (Double) -> String) -> String {
        let w = width / 2, h = height / 2
        return "M0 \(fixed(-h))L\(fixed(w)) \(fixed(h))L\(fixed(-w)) \(fixed(h))Z"
    }

    /// A ring: a stroked `<circle>`, dashed for its trim.
    private static func ring(_ e: Element, fixed: (Double) -> String, close: String, dashed: Bool) -> String {
        let ring = "<circle r=\"\(fixed(e.diameter / 2))\" fill=\"none\" stroke=\"\(e.color)\" stroke-width=\"\(fixed(e.lineWidth))\" stroke-linecap=\"\(e.lineCap.rawValue)\""
        // A whole ring undashed: a dash that closes on itself leaves a seam at 12 o'clock in Chromium.
        guard dashed || e.strokeEnd - e.strokeStart < 1 else { return ring + close }
        // pathLength 1: the dash is the trimmed part; rotate(-90) starts it at 12 o'clock.
        return ring + " pathLength=\"1\" transform=\"rotate(-90)\" stroke-dasharray=\"\(dash(e.strokeStart, e.strokeEnd, fixed))\" stroke-dashoffset=\"\(fixed(-e.strokeStart))\"" + close
    }

    /// A segment about its circle's centre: from the arc's start through 12
    /// o'clock to its end (two arcs, so that a whole circle draws too),
    /// closed by the chord.
    static func segmentPath(diameter: Double, arc: Double, _ fixed: (Double) -> String) -> String {
        let r = diameter / 2, half = min(max(arc, 0), 2 * .pi) / 2
        let sx = r * sin(half), sy = -r * cos(half)
        return "M\(fixed(-sx)) \(fixed(sy))A\(fixed(r)) \(fixed(r)) 0 0 1 0 \(fixed(-r))A\(fixed(r)) \(fixed(r)) 0 0 1 \(fixed(sx)) \(fixed(sy))Z"
    }

    /// A ring's dash for its trim, on a path of length 1: a whole ring's
    /// dash runs a little past its start, so that no seam shows.
    static func dash(_ start: Double, _ end: Double, _ fixed: (Double) -> String) -> String {
        let length = max(end - start, 0)
        return length >= 1 ? "1.01 1" : "\(fixed(length)) 1"
    }

    /// The root: exactly the canvas (`width`, `height` and the viewBox), so
    /// that an `<img>` without a size lays out at the canvas's size, as the
    /// CSS and the pictures of pixels do; elements that reach past it (a
    /// dot on the edge) stay visible where the page has room
    /// (`overflow="visible"`). A background fills the canvas.
    static func header(width: Double, height: Double, background: RGBColor?) -> String {
        let w = n(width), h = n(height)
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(w) \(h)\" width=\"\(w)\" height=\"\(h)\" overflow=\"visible\" style=\"overflow: visible\">"
        if let background {
            out += "<rect x=\"0\" y=\"0\" width=\"\(w)\" height=\"\(h)\" fill=\"\(background)\"/>"
        }
        return out
    }

    /// Fixed-point text with at most `decimals` decimals and no exponent
    /// (SMIL's keyTimes and values take no exponent notation).
    public static func fixed(_ v: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        // Any Double: past what Int64 holds (or not a number) the text is
        // the shortest one, never a trap; frames keep such values finite.
        guard v.isFinite else { return "0" }
        guard abs(v) * scale < 9e18 else { return n(v.rounded()) }
        let scaled = Int64((abs(v) * scale).rounded())
        if scaled == 0 { return "0" }
        var text = String(scaled)
        if text.count <= decimals { text = String(repeating: "0", count: decimals - text.count + 1) + text }
        var whole = String(text.dropLast(decimals))
        var fraction = String(text.suffix(decimals))
        while fraction.hasSuffix("0") { fraction.removeLast() }
        if whole.isEmpty { whole = "0" }
        return (v < 0 ? "-" : "") + whole + (fraction.isEmpty ? "" : "." + fraction)
    }

    /// Shortest round-trip text.
    public static func n(_ v: Double) -> String {
        var w = JSONWriter(capacity: 24)
        w.value(v)
        return String(decoding: w.bytes, as: UTF8.self)
    }
}

