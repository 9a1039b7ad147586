extension ClassicLoaders {
    /// `semi-circle-spin`: NVActivityIndicatorView's `semiCircleSpin` at
    /// size 40: its `circleSemi` shape, the arc from −π/6 to −5π/6 drawn
    /// anticlockwise (a third of the circle, centred on 12 o'clock) closed
    /// by its chord and filled, turning once in 0.6 s.
    static let semiCircleSpin = #"""
{
  "format": 1,
  "name": "semi-circle-spin",
  "summary": "A circle's cap spinning (NVActivityIndicatorView semiCircleSpin): the third of a circle cut off by a chord turns once every 0.6 s.",
  "family": "NVActivityIndicatorView", "original": "semiCircleSpin",
  "canvas": {"width": 40, "height": 40},
  "color": "#333333",
  "layers": [{
    "type": "segment", "id": "cap", "position": [20, 20], "diameter": 40, "arc": 2.0943951023931953, "fillColor": "color",
    "animations": [
      {"type": "keyframe", "keyPath": "transform.rotation.z", "values": [0, 3.141592653589793, 6.283185307179586], "keyTimes": [0, 0.5, 1],
       "duration": 0.6, "repeatCount": "infinity"}
    ]
  }]
}
"""#
}
