/// What a loader parameter accepts.
public enum ParameterKind: Sendable, Equatable {
    /// A finite real number in `min...max`; `min` itself excluded when
    /// `minExclusive` (">0 and <= 1000").
    case number(min: Double, max: Double, minExclusive: Bool = false)
    /// A whole number in `min...max`.
    case integer(min: Int, max: Int)
    /// `#RRGGBB`, `RRGGBB`, `#RGB` or `RGB`.
    case color
    /// A colour as above, or the word `none` (nothing drawn).
    case colorOrNone
    /// One of a fixed set of words.
    case choice([String])
}

/// A parsed parameter value.
public enum ParameterValue: Sendable, Equatable, CustomStringConvertible {
    case number(Double)
    case integer(Int)
    case color(RGBColor)
    /// `colorOrNone`'s value: `nil` for `none`.
    case colorOrNone(RGBColor?)
    case choice(String)

    public var description: String {
        switch self {
        case let .number(v): return v.description
        case let .integer(v): return v.description
        case let .color(v): return v.description
        case let .colorOrNone(v): return v?.description ?? "none"
        case let .choice(v): return v
        }
    }
}

/// One parameter of a loader: name, kind, default and meaning.
public struct ParameterSpec: Sendable, Equatable {
    public let name: String
    public let kind: ParameterKind
    public let defaultValue: ParameterValue
    public let summary: String

    public init(_ name: String, _ kind: ParameterKind, default defaultValue: ParameterValue, _ summary: String) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.summary = summary
    }

    /// The accepted form in words, as error messages and the catalog say it.
    public var acceptedForm: String {
        switch kind {
        case let .number(min, max, exclusive):
            return exclusive
                ? "a number > \(format(min)) and <= \(format(max))"
                : "a number from \(format(min)) to \(format(max))"
        case let .integer(min, max):
            return "an integer from \(min) to \(max)"
        case .color:
            return "a colour as #RRGGBB, RRGGBB, #RGB or RGB (send # as %23)"
        case .colorOrNone:
            return "a colour as #RRGGBB, RRGGBB, #RGB or RGB (send # as %23), or none"
        case let .choice(words):
            return "one of " + words.joined(separator: ", ")
        }
    }

    /// Parses one query value.
    public func parse(_ text: String) throws(ParameterError) -> ParameterValue {
        switch kind {
        case let .number(min, max, exclusive):
            guard let v = parseDecimal(text), v.isFinite,
                  exclusive ? v > min : v >= min, v <= max
            else { throw invalid() }
            return .number(v)
        case let .integer(min, max):
            guard isInteger(text), let v = Int(text), v >= min, v <= max else { throw invalid() }
            return .integer(v)
        case .color:
            guard let c = RGBColor(parsing: text) else { throw invalid() }
            return .color(c)
        case .colorOrNone:
            if text == "none" { return .colorOrNone(nil) }
            guard let c = RGBColor(parsing: text) else { throw invalid() }
            return .colorOrNone(c)
        case let .choice(words):
            guard words.contains(text) else { throw invalid() }
            return .choice(text)
        }
    }

    private func invalid() -> ParameterError {
        ParameterError(parameter: name, message: "\(name) must be \(acceptedForm)")
    }
}

/// An event a loader takes in its query (`stop=`, `progress=`, `finish=`).
public struct EventSpec: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// One time in seconds.
        case time
        /// A comma-separated list of times.
        case timeList
    }

    public let name: String
    public let kind: Kind
    public let summary: String

    public init(_ name: String, _ kind: Kind, _ summary: String) {
        self.name = name
        self.kind = kind
        self.summary = summary
    }
}

/// Times (`t`, event times) are finite and within [0, 1e9] seconds.
public enum TimeValue {
    public static let maximum = 1e9
    public static let maximumListCount = 10_000

    public static func acceptedForm(_ name: String) -> String {
        "\(name) must be a finite number >= 0 and <= 1e9"
    }

    public static func parse(_ name: String, _ text: String) throws(ParameterError) -> Double {
        guard let v = parseDecimal(text), v.isFinite, v >= 0, v <= maximum else {
            throw ParameterError(parameter: name, message: acceptedForm(name))
        }
        return v
    }

    /// A comma-separated list of times; an empty value is an empty list.
    public static func parseList(_ name: String, _ text: String) throws(ParameterError) -> [Double] {
        if text.isEmpty { return [] }
        var times = [Double]()
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard times.count < maximumListCount else {
                throw ParameterError(parameter: name, message: "\(name) takes at most \(maximumListCount) times")
            }
            guard let v = parseDecimal(part), v.isFinite, v >= 0, v <= maximum else {
                throw ParameterError(
                    parameter: name,
                    message: "\(name) must be a comma-separated list of times, each a finite number >= 0 and <= 1e9")
            }
            times.append(v)
        }
        return times
    }
}

/// A plain decimal number: optional sign, digits with an optional fraction,
/// optional exponent. No hex, no `inf`, no `nan`, no spaces.
func parseDecimal(_ text: some StringProtocol) -> Double? {
    // Bytes from contiguous memory: a string's UTF-8 view, byte by byte,
    // costs several times as much.
    let scan = text.utf8.withContiguousStorageIfAvailable { scanDecimal($0) } ?? scanDecimal(Array(text.utf8))
    switch scan {
    case .invalid: return nil
    case .exact(let value): return value
    case .valid: return Double(text)
    }
}

private enum DecimalScan {
    /// Not a decimal.
    case invalid
    /// A decimal whose value the exact fast path gave.
    case exact(Double)
    /// A decimal for strtod to read.
    case valid
}

private func scanDecimal(_ text: some Collection<UInt8>) -> DecimalScan {
    var sawDigit = false
    var index = 0
    var state = 0  // 0 sign/int, 1 int, 2 fraction, 3 exponent sign, 4 exponent
    var exponentDigit = false
    // For the exact fast path: the significant digits as an integer, how
    // many of them, the digits after the point, and the written exponent.
    var mantissa: UInt64 = 0
    var significant = 0
    var fractionDigits = 0
    var exponent = 0
    var negative = false
    var negativeExponent = false
    for byte in text {
        defer { index += 1 }
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            let d = UInt64(byte &- UInt8(ascii: "0"))
            if state >= 3 {
                exponentDigit = true
                state = 4
                if exponent < 10_000 { exponent = exponent * 10 + Int(d) }
            } else {
                sawDigit = true
                if state == 0 { state = 1 }
                if significant > 0 || d != 0 {
                    significant += 1
                    if significant <= 19 { mantissa = mantissa &* 10 &+ d }
                }
                if state == 2 { fractionDigits += 1 }
            }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard (state == 0 && index == 0) || (state == 3 && !exponentDigit) else { return .invalid }
            if state == 3 { state = 4; negativeExponent = byte == UInt8(ascii: "-") } else { negative = byte == UInt8(ascii: "-") }
        case UInt8(ascii: "."):
            guard state <= 1 else { return .invalid }
            state = 2
        case UInt8(ascii: "e"), UInt8(ascii: "E"):
            guard sawDigit, state <= 2 else { return .invalid }
            state = 3
        default:
            return .invalid
        }
    }
    guard sawDigit, state < 3 || exponentDigit else { return .invalid }
    // Clinger's fast path: a mantissa below 2^53 and a power of ten up to
    // 10^22 are both exact doubles, so one multiplication or division,
    // correctly rounded, is the correctly rounded value, as strtod gives.
    let scale = (negativeExponent ? -exponent : exponent) - fractionDigits
    if significant <= 15, scale >= -22, scale <= 22 {
        let m = Double(mantissa)
        let v = scale >= 0 ? m * exactPowersOfTen[scale] : m / exactPowersOfTen[-scale]
        return .exact(negative ? -v : v)
    }
    return .valid
}

/// 10^0 … 10^22: every one is exactly a double.
private let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]

private func isInteger(_ text: String) -> Bool {
    var first = true
    for byte in text.utf8 {
        if first && (byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")) { first = false; continue }
        first = false
        guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return false }
    }
    return !text.isEmpty
}

func format(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : v.description
}
