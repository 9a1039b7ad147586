/// An opaque sRGB colour, answered as `#RRGGBB`.
public struct RGBColor: Sendable, Hashable, CustomStringConvertible {
    public var rgb: UInt32

    @inlinable public init(rgb: UInt32) { self.rgb = rgb & 0xFF_FFFF }

    public static let white = RGBColor(rgb: 0xFFFFFF)
    public static let black = RGBColor(rgb: 0x000000)
    public static let blue = RGBColor(rgb: 0x0000FF)

    @inlinable public var red: UInt8 { UInt8(truncatingIfNeeded: rgb >> 16) }
    @inlinable public var green: UInt8 { UInt8(truncatingIfNeeded: rgb >> 8) }
    @inlinable public var blue: UInt8 { UInt8(truncatingIfNeeded: rgb) }

    /// Parses `#RRGGBB`, `RRGGBB`, `#RGB` or `RGB`, case-insensitive.
    public init?(parsing text: some StringProtocol) {
        var digits = Substring(text)
        if digits.first == "#" { digits = digits.dropFirst() }
        guard digits.utf8.count == 3 || digits.utf8.count == 6 else { return nil }
        var value: UInt32 = 0
        for byte in digits.utf8 {
            guard let nibble = Self.hexValue(byte) else { return nil }
            value = value << 4 | nibble
            if digits.utf8.count == 3 { value = value << 4 | nibble }
        }
        self.init(rgb: value)
    }

    @inlinable static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    /// `#RRGGBB`, upper case.
    public var description: String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 7) { buffer in
            var cursor = ByteCursor(buffer.baseAddress!)
            cursor.write(self)
            return String(decoding: buffer, as: UTF8.self)
        }
    }
}
