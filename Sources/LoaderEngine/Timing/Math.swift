#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `v - floor(v)`, exactly as the spec defines it (not `truncatingRemainder`,
/// which differs near wrap points).
@inlinable
public func frac(_ v: Double) -> Double { v - v.rounded(.down) }

@usableFromInline
func cosine(_ v: Double) -> Double { cos(v) }

@usableFromInline
func sine(_ v: Double) -> Double { sin(v) }

func acosine(_ v: Double) -> Double { acos(v) }

func arctangent2(_ y: Double, _ x: Double) -> Double { atan2(y, x) }

/// A point in a loader's view: UIKit coordinates, y pointing down.
public struct Point: Sendable, Equatable {
    public var x: Double
    public var y: Double
    @inlinable public init(x: Double, y: Double) { self.x = x; self.y = y }
}
