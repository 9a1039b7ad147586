extension ClassicLoaders {
    /// `rotating-plane`: SpinKit 1.x's `rotating-plane`, its own 40-px
    /// square, in a 60-px canvas (its near edge, magnified by the
    /// perspective, reaches past the square). The keyframes'
    /// `perspective(120px) rotateX(…) rotateY(…)` lists pair function by
    /// function, so CSS interpolates each angle on its own: the perspective
    /// is the layer's model matrix (m34 = −1/120), the two angles two
    /// animations, about the square's centre as `transform-origin` says.
    static let rotatingPlane = #"""
{
  "format": 1.1,
  "name": "rotating-plane",
  "summary": "A square flipping in perspective (SpinKit rotating-plane): over its x axis by 180.1° in 0.6 s, then over its y axis by 179.9° (and x back 0.1°) in 0.6 s, ease-in-out.",
  "family": "SpinKit", "original": "rotating-plane",
  "canvas": {"width": 60, "height": 60},
  "color": "#333333",
  "layers": [
    {"type": "rect", "id": "plane", "position": [30, 30], "bounds": [40, 40], "backgroundColor": "color",
     "transform": {"matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -0.008333333333333333, 0, 0, 0, 1]},
     "animations": [
       {"type": "keyframe", "keyPath": "transform.rotation.x", "values": [0, -3.1433379828417873, -3.141592653589793], "keyTimes": [0, 0.5, 1],
        "timingFunctions": ["easeInEaseOut", "easeInEaseOut"], "duration": 1.2, "repeatCount": "infinity"},
       {"type": "keyframe", "keyPath": "transform.rotation.y", "values": [0, 0, -3.139847324337799], "keyTimes": [0, 0.5, 1],
        "timingFunctions": ["easeInEaseOut", "easeInEaseOut"], "duration": 1.2, "repeatCount": "infinity"}
     ]}
  ]
}
"""#
}
