/// A projective map of the plane (a homography): how an element's own plane
/// (its centre at the origin, sizes unscaled) lands on the canvas when that
/// is more than a move, a uniform scale and a turn. In Core Animation's
/// terms it is the layer's 4×4 transform, placed in its superlayer and
/// projected onto the superlayer's plane, restricted to points with z = 0.
///
///     X = a·x + c·y + tx
///     Y = b·x + d·y + ty
///     W = px·x + py·y + pw        canvas point = (X / W, Y / W)
///
/// The letters are SVG's and CSS's `matrix(a, b, c, d, tx, ty)`; `px`, `py`
/// and `pw` are the projective row (0, 0, 1 for an affine map).
public struct PlaneTransform: Sendable, Equatable {
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double
    public var px: Double, py: Double, pw: Double

    @inlinable
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double,
                px: Double = 0, py: Double = 0, pw: Double = 1) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
        self.px = px; self.py = py; self.pw = pw
    }

    public static let identity = PlaneTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// Whether the projective row is (0, 0, 1): lines stay parallel.
    @inlinable public var isAffine: Bool { px == 0 && py == 0 && pw == 1 }

    /// The canvas point of `p` (`W` is positive wherever a frame draws:
    /// the engine culls what passes behind the eye).
    @inlinable
    public func apply(_ p: Point) -> Point {
        let w = px * p.x + py * p.y + pw
        return Point(x: (a * p.x + c * p.y + tx) / w, y: (b * p.x + d * p.y + ty) / w)
    }

    /// `self` after `inner`: p ↦ self(inner(p)).
    @inlinable
    public func after(_ inner: PlaneTransform) -> PlaneTransform {
        // Column-vector 3×3 product self · inner, rows (a c tx), (b d ty), (px py pw).
        PlaneTransform(
            a: a * inner.a + c * inner.b + tx * inner.px,
            b: b * inner.a + d * inner.b + ty * inner.px,
            c: a * inner.c + c * inner.d + tx * inner.py,
            d: b * inner.c + d * inner.d + ty * inner.py,
            tx: a * inner.tx + c * inner.ty + tx * inner.pw,
            ty: b * inner.tx + d * inner.ty + ty * inner.pw,
            px: px * inner.a + py * inner.b + pw * inner.px,
            py: px * inner.c + py * inner.d + pw * inner.py,
            pw: px * inner.tx + py * inner.ty + pw * inner.pw)
    }

    /// The same map with `pw` = 1 (a homography is defined up to a factor).
    @inlinable
    public var normalized: PlaneTransform {
        guard pw != 1, pw != 0 else { return self }
        let k = 1 / pw
        return PlaneTransform(a: a * k, b: b * k, c: c * k, d: d * k, tx: tx * k, ty: ty * k, px: px * k, py: py * k, pw: 1)
    }

    /// CSS `matrix3d()`'s sixteen arguments (column-major, column vectors),
    /// the 4×4 that maps the element's plane (z = 0) as this map does; z
    /// passes through unchanged. It is also Core Animation's `CATransform3D`
    /// m11…m44 in order.
    public var matrix3d: [Double] {
        [a, b, 0, px,
         c, d, 0, py,
         0, 0, 1, 0,
         tx, ty, 0, pw]
    }
}
