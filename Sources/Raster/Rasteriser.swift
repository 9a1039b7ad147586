#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(LoaderEngine)  // one module with it in the fuzz build
import LoaderEngine
#endif
#if canImport(Codecs)
import Codecs
#endif

/// Frames drawn into pixels, written here. Each element's outline is
/// flattened into straight segments within a thousandth of a pixel of the
/// curve; the area of each pixel the outline covers is computed exactly for
/// those segments (the signed area each segment sweeps in each cell,
/// summed along the row: the accumulation rasteriser of font renderers);
/// elements are composited in order with source-over, blending sRGB values
/// as browsers do, on the loader's background or transparent.
public struct Rasteriser {
    public let width: Int
    public let height: Int
    /// Pixels per point.
    public let scale: Double
    /// Premultiplied RGBA, 0…1, row by row.
    var color: [Float]
    /// Signed areas for the element being drawn; each row has two more cells
    /// than the image, for what lies at or past its right edge.
    var cells: [Float]
    var stride: Int { width + 2 }
    /// The rows and columns the element being drawn touches.
    var minRow = Int.max, maxRow = -1, minColumn = Int.max, maxColumn = -1

    static let flatness = 0.001
    /// The most segments a placed element's arc is cut into.
    static let placedSteps = 256
    /// The flatness of the element being drawn, in its own units: smaller
    /// than `flatness` where a placement stretches it.
    var flatness = Rasteriser.flatness
    /// The placed element's map from its plane to pixels, applied to each vertex.
    var map: PlaneTransform? = nil

    /// An image of `width` × `height` pixels, `scale` pixels a point.
    public init(width: Int, height: Int, scale: Double, background: RGBColor?) {
        self.width = width
        self.height = height
        self.scale = scale
        color = [Float](repeating: 0, count: width * height * 4)
        cells = [Float](repeating: 0, count: (width + 2) * height)
        if let background {
            let c = Self.channels(background)
            for i in 0..<(width * height) {
                color[4 * i] = c.0; color[4 * i + 1] = c.1; color[4 * i + 2] = c.2; color[4 * i + 3] = 1
            }
        }
    }

    /// A frame, drawn at `scale` pixels a point into `ceil(width × scale)` ×
    /// `ceil(height × scale)` pixels.
    public static func image(_ frame: Frame, scale: Double, background: RGBColor?) -> RGBAImage {
        var r = Rasteriser(width: pixels(frame.width, scale), height: pixels(frame.height, scale), scale: scale, background: background)
        for e in frame.elements { r.draw(e) }
        return r.image
    }

    /// The pixels `points` take at `scale`.
    public static func pixels(_ points: Double, _ scale: Double) -> Int { max(1, Int((points * scale - 1e-9).rounded(.up))) }

    static func channels(_ c: RGBColor) -> (Float, Float, Float) {
        (Float(c.red) / 255, Float(c.green) / 255, Float(c.blue) / 255)
    }

    /// The image as 8-bit RGBA, not premultiplied.
    public var image: RGBAImage {
        let count = width * height * 4
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            color.withUnsafeBufferPointer { color in
                // Rounded half up: each value is clamped to 0…255 first, so truncating v + 0.5 rounds it.
                @inline(__always) func byte(_ v: Float) -> UInt8 { UInt8(min(max(v, 0), 255) + 0.5) }
                var i = 0
                while i < count {
                    let a = color[i + 3]
                    if a >= 1 {              // opaque, as most pixels are where anything is: no division
                        out[i] = byte(color[i] * 255); out[i + 1] = byte(color[i + 1] * 255); out[i + 2] = byte(color[i + 2] * 255)
                        out[i + 3] = 255
                    } else if a * 255 >= 0.5 {   // an alpha that rounds to 0 is (0, 0, 0, 0): one transparent colour
                        let k = 255 / a
                        out[i] = byte(color[i] * k); out[i + 1] = byte(color[i + 1] * k); out[i + 2] = byte(color[i + 2] * k)
                        out[i + 3] = byte(a * 255)
                    } else {
                        out[i] = 0; out[i + 1] = 0; out[i + 2] = 0; out[i + 3] = 0
                    }
                    i += 4
                }
            }
            initialized = count
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    // MARK: Elements

    /// One element, over what is drawn.
    public mutating func draw(_ e: Element) {
        if let placement = e.placement { return draw(e, placed: placement) }
        let k = scale, s = e.scale * k
        let cx = e.x * k, cy = e.y * k
        guard e.opacity > 0, s > 0,
              [cx, cy, s, e.diameter, e.width, e.height, e.cornerRadius, e.lineWidth, e.rotation, e.arc].allSatisfy(\.isFinite) else { return }
        outline(e, cx, cy, s, rotation: e.rotation)
        composite(e.color, opacity: e.opacity)
    }

    /// An element whose placement is more than a similarity: its outline
    /// built in its own plane (centre at the origin, unscaled, unturned) and
    /// each vertex mapped to pixels. A projective map takes straight lines
    /// to straight lines, so the mapped polygon is the flattened outline of
    /// the projected shape; its curves are flattened finely enough that the
    /// largest stretch of the map keeps them within `flatness` in pixels.
    mutating func draw(_ e: Element, placed p: PlaneTransform) {
        let k = scale
        let pixels = PlaneTransform(a: k, b: 0, c: 0, d: k, tx: 0, ty: 0).after(p)
        guard e.opacity > 0,
              [pixels.a, pixels.b, pixels.c, pixels.d, pixels.tx, pixels.ty, pixels.px, pixels.py, pixels.pw,
               e.diameter, e.width, e.height, e.cornerRadius, e.lineWidth, e.arc].allSatisfy(\.isFinite),
              let stretch = Self.stretch(pixels, e) else { return }
        map = pixels
        flatness = Self.flatness / stretch
        defer { map = nil; flatness = Self.flatness }
        outline(e, 0, 0, 1, rotation: 0)
        composite(e.color, opacity: e.opacity)
    }

    /// The largest stretch (Frobenius norm of the derivative) of `m` over
    /// the element's box, looked at on a 9 × 9 grid and doubled for what
    /// lies between; nil when part of the box is at or behind the eye
    /// (the engine culls those) or the map is degenerate.
    static func stretch(_ m: PlaneTransform, _ e: Element) -> Double? {
        let (hw, hh): (Double, Double) = switch e.shape {
        case .circle, .segment: (e.diameter / 2, e.diameter / 2)
        case .ring: (e.diameter / 2 + e.lineWidth / 2, e.diameter / 2 + e.lineWidth / 2)
        case .rect, .triangle: (e.width / 2, e.height / 2)
        }
        var largest = 0.0
        for i in 0...8 {
            for j in 0...8 {
                let x = hw * (Double(i) / 4 - 1), y = hh * (Double(j) / 4 - 1)
                let w = m.px * x + m.py * y + m.pw
                guard w > 1e-9 else { return nil }
                let X = (m.a * x + m.c * y + m.tx) / w, Y = (m.b * x + m.d * y + m.ty) / w
                // ∂(X/w)/∂x = (a − X·px) / w, and so on.
                let (xx, xy) = ((m.a - X * m.px) / w, (m.c - X * m.py) / w)
                let (yx, yy) = ((m.b - Y * m.px) / w, (m.d - Y * m.py) / w)
                largest = max(largest, (xx * xx + xy * xy + yx * yx + yy * yy).squareRoot())
            }
        }
        guard largest > 0, largest.isFinite else { return nil }
        return 2 * largest
    }

    /// The element's closed contours, about (cx, cy) at `s` pixels a unit,
    /// turned by `rotation`.
    mutating func outline(_ e: Element, _ cx: Double, _ cy: Double, _ s: Double, rotation: Double) {
        switch e.shape {
        case .circle:
            let r = e.diameter * s / 2
            arc(cx, cy, r, from: 0, to: 2 * .pi, start: true)
        case .rect:
            let w = e.width * s, h = e.height * s
            guard w > 0, h > 0 else { return }
            let cr = min(max(e.cornerRadius * s, 0), w / 2, h / 2)
            let (sn, cs) = (sin(rotation), cos(rotation))
            // Corners' centres, clockwise from the top right, each with the
            // quarter it turns through: turned with the rect, a corner is an
            // arc about its turned centre, flattened as every arc is.
            close()
            for (i, (x, y)) in [(w / 2 - cr, -h / 2 + cr), (w / 2 - cr, h / 2 - cr), (-w / 2 + cr, h / 2 - cr), (-w / 2 + cr, -h / 2 + cr)].enumerated() {
                let (px, py) = (cx + x * cs - y * sn, cy + x * sn + y * cs)
                guard cr > 0 else {
                    lineTo(px, py)
                    continue
                }
                let a = rotation + .pi / 2 * Double(i)
                arc(px, py, cr, from: a, to: a + .pi / 2, start: false)
            }
            close()
        case .ring:
            let r = e.diameter * s / 2, half = e.lineWidth * s / 2
            let length = min(e.strokeEnd, 1) - max(e.strokeStart, 0)
            guard half > 0, length > 0 else { return }
            if length >= 1 {
                arc(cx, cy, r + half, from: 0, to: 2 * .pi, start: true)
                arc(cx, cy, max(r - half, 0), from: 2 * .pi, to: 0, start: true)
            } else {
                let a0 = rotation + 2 * .pi * e.strokeStart, a1 = a0 + 2 * .pi * length
                arc(cx, cy, r + half, from: a0, to: a1, start: true)
                cap(cx, cy, r, half, at: a1, round: e.lineCap == .round, end: true)
                arc(cx, cy, max(r - half, 0), from: a1, to: a0, start: false)
                cap(cx, cy, r, half, at: a0, round: e.lineCap == .round, end: false)
                close()
            }
        case .segment:
            let r = e.diameter * s / 2, half = min(max(e.arc, 0), 2 * .pi) / 2
            guard half > 0 else { return }
            arc(cx, cy, r, from: rotation - half, to: rotation + half, start: true)
            close()
        case .triangle:
            let w = e.width * s, h = e.height * s
            guard w > 0, h > 0 else { return }
            let (sn, cs) = (sin(rotation), cos(rotation))
            // Apex, right and left base corners, turned about the centre.
            close()
            for (x, y) in [(0, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)] {
                lineTo(cx + x * cs - y * sn, cy + x * sn + y * cs)
            }
            close()
        }
    }

    /// Segments for an arc of radius r through `angle`, within `flatness`.
    static func steps(_ r: Double, _ angle: Double, flatness: Double = Rasteriser.flatness) -> Int {
        guard r > flatness else { return 1 }
        // A radius so large that 1 − flatness/r is 1 takes the most steps.
        let ratio = abs(angle) / (2 * acos(1 - flatness / r))
        guard ratio.isFinite else { return 100_000 }
        return max(1, Int(min(ratio.rounded(.up), 100_000)))
    }

    /// The path being drawn: its first point and the last.
    var first: (Double, Double)? = nil
    var last: (Double, Double)? = nil

    /// An arc about (cx, cy) from clock angle a0 to a1 (radians clockwise
    /// from 12 o'clock); `start` begins a new closed contour (closing the
    /// one before).
    mutating func arc(_ cx: Double, _ cy: Double, _ r: Double, from a0: Double, to a1: Double, start: Bool) {
        if start { close() }
        // A placed arc is mapped vertex by vertex (no sparse walk past the
        // edges), so its vertices are capped: however far a placement
        // stretches it, an arc costs at most `placedSteps` segments (about
        // 0.02 px off along a 5,000-px quarter circle).
        let n = map == nil ? Self.steps(r, a1 - a0, flatness: flatness) : min(Self.steps(r, a1 - a0, flatness: flatness), Self.placedSteps)
        // Vertices a little outside the circle, so that each chord's slice
        // has its sector's area (r'² sin θ = r² θ): no area lost overall.
        let step = abs(a1 - a0) / Double(n)
        let r = step > 1e-9 && step < 0.5 ? r * (step / sin(step)).squareRoot() : r
        // Past the picture's edges, what an outline does changes no pixel:
        // an arc that leaves the picture is flattened finely only near it.
        let margin = 2.0
        if n > 64, map == nil, cx - r < -margin || cy - r < -margin || cx + r > Double(width) + margin || cy + r > Double(height) + margin {
            return sparseArc(cx, cy, r, from: a0, to: a1, step: step, margin: margin)
        }
        // Each vertex turned from the one before by the step's rotation (no
        // sine per vertex), taken afresh from sin and cos every 32 vertices.
        let turn = (a1 - a0) / Double(n)
        let (ts, tc) = (sin(turn), cos(turn))
        var (sn, cs) = (0.0, 1.0)
        for i in 0...n {
            if i % 32 == 0 {
                let a = a0 + (a1 - a0) * Double(i) / Double(n)
                (sn, cs) = (sin(a), cos(a))
            }
            lineTo(cx + r * sn, cy - r * cs)
            (sn, cs) = (sn * tc + cs * ts, cs * tc - sn * ts)
        }
    }

    /// An arc part of which lies outside the picture: `step` within `margin`
    /// of it, and away from it steps that grow with the distance. A step
    /// from a vertex d away turns at most d / 2r (so the arc stays d / 2
    /// away) and its chord bows in at most d / 4: the slice between arc and
    /// chord lies outside the picture, and every pixel keeps its coverage.
    /// A circle much larger than the picture takes tens of vertices, not
    /// the hundred thousand that flatness would ask for all round.
    mutating func sparseArc(_ cx: Double, _ cy: Double, _ r: Double, from a0: Double, to a1: Double, step fine: Double, margin: Double) {
        let direction: Double = a1 >= a0 ? 1 : -1
        let right = Double(width) + margin, bottom = Double(height) + margin
        var a = a0
        while true {
            let x = cx + r * sin(a), y = cy - r * cos(a)
            lineTo(x, y)
            let remaining = abs(a1 - a)
            guard remaining > fine * 1e-3 else { break }
            // No more than the distance to the box (the larger axis gap).
            let d = max(-margin - x, x - right, -margin - y, y - bottom, 0)
            let turn = d > 0 ? max(fine, min(d / (2 * r), .pi / 4)) : fine
            if turn >= remaining {
                lineTo(cx + r * sin(a1), cy - r * cos(a1))
                break
            }
            a += direction * turn
        }
    }

    /// A stroke's end at clock angle `a` of the circle of radius r: a
    /// straight edge across it, or a half circle outward.
    mutating func cap(_ cx: Double, _ cy: Double, _ r: Double, _ half: Double, at a: Double, round: Bool, end: Bool) {
        let px = cx + r * sin(a), py = cy - r * cos(a)
        guard round else { return }
        // Clockwise about the end's centre: at the end from the outer edge
        // forward to the inner, at the start from the inner edge back to
        // the outer (directions as clock angles; `a` points outward).
        let from = end ? a : a + .pi
        arc(px, py, half, from: from, to: from + .pi, start: false)
    }

    mutating func lineTo(_ x: Double, _ y: Double) {
        if let m = map {
            let w = m.px * x + m.py * y + m.pw
            return plot((m.a * x + m.c * y + m.tx) / w, (m.b * x + m.d * y + m.ty) / w)
        }
        plot(x, y)
    }

    mutating func plot(_ x: Double, _ y: Double) {
        if let last { line(last.0, last.1, x, y) } else { first = (x, y) }
        last = (x, y)
    }

    mutating func close() {
        if let first, let last { line(last.0, last.1, first.0, first.1) }
        first = nil
        last = nil
    }

    // MARK: Coverage

    /// A segment of the outline, clipped to the image's columns: what lies
    /// left of it runs down its left edge, what lies right of it past its
    /// right edge, so the rows' sums stay right.
    mutating func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        guard y0 != y1 else { return }
        let w = Double(width)
        // Most segments lie within the columns.
        if x0 >= 0, x0 <= w, x1 >= 0, x1 <= w { cell(x0, y0, x1, y1); return }
        var cuts = [0.0, 1.0]
        for edge in [0.0, w] where (x0 - edge) * (x1 - edge) < 0 { cuts.append((edge - x0) / (x1 - x0)) }
        cuts.sort()
        for k in 0..<(cuts.count - 1) {
            let t0 = cuts[k], t1 = cuts[k + 1]
            guard t1 > t0 else { continue }
            let ax = x0 + (x1 - x0) * t0, ay = y0 + (y1 - y0) * t0
            let bx = x0 + (x1 - x0) * t1, by = y0 + (y1 - y0) * t1
            let mid = (ax + bx) / 2
            if mid <= 0 { cell(0, ay, 0, by) } else if mid >= w { cell(w, ay, w, by) } else {
                cell(min(max(ax, 0), w), ay, min(max(bx, 0), w), by)
            }
        }
    }

    /// The signed area a segment inside the columns sweeps in each cell of
    /// each row it crosses, the rest of its height carried to the right.
    mutating func cell(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        let (dir, ax, ay, bx, by): (Double, Double, Double, Double, Double) = y0 < y1 ? (1, x0, y0, x1, y1) : (-1, x1, y1, x0, y0)
        guard by > 0, ay < Double(height), by - ay > 1e-12 else { return }
        // x where the segment is at height y, interpolated (stable however flat it is).
        let (lowX, highX) = (min(ax, bx), max(ax, bx))
        func xAt(_ y: Double) -> Double { min(max(ax + (bx - ax) * ((y - ay) / (by - ay)), lowX), highX) }
        var x = ay < 0 ? xAt(0) : ax
        let firstRow = Int(max(ay, 0).rounded(.down)), lastRow = Int(min(by, Double(height)).rounded(.up))
        guard firstRow < lastRow else { return }
        minRow = min(minRow, firstRow); maxRow = max(maxRow, lastRow - 1)
        for row in firstRow..<lastRow {
            let line = row * stride
            let rowEnd = min(Double(row + 1), by)
            let dy = rowEnd - max(Double(row), ay)
            let xnext = rowEnd == by ? bx : xAt(rowEnd)
            let d = dy * dir
            let (l, r) = x < xnext ? (x, xnext) : (xnext, x)
            let lFloor = l.rounded(.down)
            let li = Int(lFloor)
            let rCeil = r.rounded(.up)
            let ri = Int(rCeil)
            minColumn = min(minColumn, li); maxColumn = max(maxColumn, ri + 1)
            if ri <= li + 1 {
                let xmf = 0.5 * (x + xnext) - lFloor
                cells[line + li] += Float(d - d * xmf)
                cells[line + li + 1] += Float(d * xmf)
            } else {
                let s = 1 / (r - l)
                let lf = l - lFloor
                let a0 = 0.5 * s * (1 - lf) * (1 - lf)
                let rf = r - rCeil + 1
                let am = 0.5 * s * rf * rf
                cells[line + li] += Float(d * a0)
                if ri == li + 2 {
                    cells[line + li + 1] += Float(d * (1 - a0 - am))
                } else {
                    let a1 = s * (1.5 - lf)
                    cells[line + li + 1] += Float(d * (a1 - a0))
                    for xi in (li + 2)..<(ri - 1) { cells[line + xi] += Float(d * s) }
                    let a2 = a1 + Double(ri - li - 3) * s
                    cells[line + ri - 1] += Float(d * (1 - a2 - am))
                }
                cells[line + ri] += Float(d * am)
            }
            x = xnext
        }
    }

    /// The coverage of the element drawn since the last, composited over
    /// the image in its colour and opacity; the cells are cleared.
    mutating func composite(_ c: RGBColor, opacity: Double) {
        close()
        defer { minRow = .max; maxRow = -1; minColumn = .max; maxColumn = -1 }
        guard minRow <= maxRow else { return }
        let (r, g, b) = Self.channels(c)
        let o = Float(min(max(opacity, 0), 1))
        let from = max(0, minColumn), to = min(stride - 1, maxColumn)
        for row in minRow...maxRow {
            var sum: Float = 0
            let line = row * stride
            for x in from...to {
                sum += cells[line + x]
                cells[line + x] = 0
                guard x < width else { continue }
                let alpha = min(abs(sum), 1) * o
                guard alpha > 0 else { continue }
                let p = 4 * (row * width + x)
                let keep = 1 - alpha
                color[p] = r * alpha + color[p] * keep
                color[p + 1] = g * alpha + color[p + 1] * keep
                color[p + 2] = b * alpha + color[p + 2] * keep
                color[p + 3] = alpha + color[p + 3] * keep
            }
        }
    }
}
