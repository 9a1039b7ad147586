#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// SVG path data (`M L H V C Q A Z`, absolute and relative) as path
/// segments, one per drawing command; arcs are exact circles or ellipses,
/// not Bézier approximations. One subpath: `M` comes first and only there.
struct SVGPathData {
    let bytes: [UInt8]
    let node: DefinitionNode
    var i = 0

    init(text: String, node: DefinitionNode) {
        self.bytes = Array(text.utf8)
        self.node = node
    }

    func fail(_ message: String) -> DefinitionError {
        node.fail("\(message) (at byte \(i) of the path data; accepted: M, then L H V C Q A Z, absolute or relative)")
    }

    mutating func segments() throws(DefinitionError) -> [Path.Segment] {
        skipSeparators()
        guard i < bytes.count, bytes[i] == UInt8(ascii: "M") || bytes[i] == UInt8(ascii: "m") else { throw fail("must start with M") }
        i += 1
        var current = try point(Point(x: 0, y: 0), relative: false)
        let start = current
        var segments: [Path.Segment] = []
        var command: UInt8 = UInt8(ascii: "L")  // coordinates after M are lines
        var relative = bytes[i - 1] == UInt8(ascii: "m")
        while true {
            skipSeparators()
            guard i < bytes.count else { break }
            let b = bytes[i]
            if Self.isCommand(b) {
                i += 1
                command = b & ~0x20  // upper case
                relative = b >= UInt8(ascii: "a")
                if command == UInt8(ascii: "M") { throw fail("M only starts the path (one subpath)") }
                if command == UInt8(ascii: "Z") {
                    segments.append(.line(from: current, to: start))
                    current = start
                    continue
                }
            } else if command == UInt8(ascii: "Z") {
                throw fail("a command must follow Z")
            }
            let origin = relative ? current : Point(x: 0, y: 0)
            switch command {
            case UInt8(ascii: "L"):
                let p = try point(origin, relative: relative)
                segments.append(.line(from: current, to: p)); current = p
            case UInt8(ascii: "H"):
                let p = Point(x: try number() + origin.x, y: current.y)
                segments.append(.line(from: current, to: p)); current = p
            case UInt8(ascii: "V"):
                let p = Point(x: current.x, y: try number() + origin.y)
                segments.append(.line(from: current, to: p)); current = p
            case UInt8(ascii: "C"):
                let c1 = try point(origin, relative: relative), c2 = try point(origin, relative: relative), p = try point(origin, relative: relative)
                segments.append(.curve(from: current, control1: c1, control2: c2, to: p)); current = p
            case UInt8(ascii: "Q"):
                let c = try point(origin, relative: relative), p = try point(origin, relative: relative)
                segments.append(.quadCurve(from: current, control: c, to: p)); current = p
            case UInt8(ascii: "A"):
                let rx = abs(try number()), ry = abs(try number()), angle = try number()
                let large = try flag(), sweep = try flag()
                let p = try point(origin, relative: relative)
                segments.append(Self.arc(from: current, to: p, rx: rx, ry: ry, degrees: angle, large: large, sweep: sweep))
                current = p
            default:
                throw fail("unknown command")
            }
            guard segments.count <= DefinitionLimits.maxPathCommands else {
                throw fail("more than maxPathCommands (\(DefinitionLimits.maxPathCommands)) commands")
            }
        }
        guard !segments.isEmpty else { throw fail("must draw at least one segment after M") }
        return segments
    }

    static func isCommand(_ b: UInt8) -> Bool { "MmLlHhVvCcQqAaZz".utf8.contains(b) }

    mutating func skipSeparators() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x2C || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
    }

    mutating func point(_ origin: Point, relative: Bool) throws(DefinitionError) -> Point {
        let x = try number(), y = try number()
        return Point(x: origin.x + x, y: origin.y + y)
    }

    mutating func flag() throws(DefinitionError) -> Bool {
        skipSeparators()
        guard i < bytes.count, bytes[i] == UInt8(ascii: "0") || bytes[i] == UInt8(ascii: "1") else { throw fail("an arc flag must be 0 or 1") }
        i += 1
        return bytes[i - 1] == UInt8(ascii: "1")
    }

    /// An SVG number: sign, digits, a point, digits, an exponent.
    mutating func number() throws(DefinitionError) -> Double {
        skipSeparators()
        let start = i
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
        var digits = 0
        while i < bytes.count, bytes[i] >= 0x30 && bytes[i] <= 0x39 { i += 1; digits += 1 }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < bytes.count, bytes[i] >= 0x30 && bytes[i] <= 0x39 { i += 1; digits += 1 }
        }
        guard digits > 0 else { i = start; throw fail("a number is expected") }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            var j = i + 1
            if j < bytes.count, bytes[j] == UInt8(ascii: "-") || bytes[j] == UInt8(ascii: "+") { j += 1 }
            let k = j
            while j < bytes.count, bytes[j] >= 0x30 && bytes[j] <= 0x39 { j += 1 }
            if j > k { i = j }
        }
        guard let v = Double(String(decoding: bytes[start..<i], as: UTF8.self)), v.isFinite, abs(v) <= 1e6 else {
            i = start
            throw fail("a number from -1e6 to 1e6 is expected")
        }
        return v
    }

    /// SVG's endpoint arc as centre parameters (SVG 1.1, F.6.5 and F.6.6):
    /// a circle when the radii are equal, a line when one is 0.
    static func arc(from p1: Point, to p2: Point, rx: Double, ry: Double, degrees: Double, large: Bool, sweep: Bool) -> Path.Segment {
        if rx == 0 || ry == 0 || (p1.x == p2.x && p1.y == p2.y) { return .line(from: p1, to: p2) }
        let phi = degrees * .pi / 180
        let cosPhi = cos(phi), sinPhi = sin(phi)
        let dx = (p1.x - p2.x) / 2, dy = (p1.y - p2.y) / 2
        let x1 = cosPhi * dx + sinPhi * dy, y1 = -sinPhi * dx + cosPhi * dy
        var rx = rx, ry = ry
        let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
        if lambda > 1 { rx *= lambda.squareRoot(); ry *= lambda.squareRoot() }
        let num = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
        let den = rx * rx * y1 * y1 + ry * ry * x1 * x1
        var coef = (max(num, 0) / den).squareRoot()
        if large == sweep { coef = -coef }
        let cx1 = coef * rx * y1 / ry, cy1 = -coef * ry * x1 / rx
        let center = Point(x: cosPhi * cx1 - sinPhi * cy1 + (p1.x + p2.x) / 2, y: sinPhi * cx1 + cosPhi * cy1 + (p1.y + p2.y) / 2)
        func angle(_ ux: Double, _ uy: Double, _ vx: Double, _ vy: Double) -> Double { atan2(ux * vy - uy * vx, ux * vx + uy * vy) }
        let start = angle(1, 0, (x1 - cx1) / rx, (y1 - cy1) / ry)
        var delta = angle((x1 - cx1) / rx, (y1 - cy1) / ry, (-x1 - cx1) / rx, (-y1 - cy1) / ry)
        if !sweep && delta > 0 { delta -= 2 * .pi } else if sweep && delta < 0 { delta += 2 * .pi }
        if rx == ry { return .arc(center: center, radius: rx, startAngle: start + phi, endAngle: start + phi + delta) }
        return .ellipticalArc(center: center, rx: rx, ry: ry, axisRotation: phi, startAngle: start, sweep: delta)
    }
}
