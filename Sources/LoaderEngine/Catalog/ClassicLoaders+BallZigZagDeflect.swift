extension ClassicLoaders {
    /// `ball-zig-zag-deflect`: NVActivityIndicatorView's `ballZigZagDeflect`
    /// at size 40: `ball-zig-zag`'s path in 0.75 s, autoreversing.
    static let ballZigZagDeflect = #"""
{
  "format": 1,
  "name": "ball-zig-zag-deflect",
  "summary": "Two dots zig-zagging through the centre and back the way they came (NVActivityIndicatorView ballZigZagDeflect), 0.75 s each way, linear.",
  "family": "NVActivityIndicatorView", "original": "ballZigZagDeflect",
  "canvas": {"width": 40, "height": 40},
  "color": "#333333",
  "layers": [
    {"type": "circle", "id": "ball1", "position": [20, 20], "diameter": 8, "backgroundColor": "color",
     "animations": [{"type": "keyframe", "keyPath": "position", "values": [[20, 20], [4, 4], [36, 4], [20, 20]], "keyTimes": [0, 0.33, 0.66, 1],
       "duration": 0.75, "repeatCount": "infinity", "autoreverses": true}]},
    {"type": "circle", "id": "ball2", "position": [20, 20], "diameter": 8, "backgroundColor": "color",
     "animations": [{"type": "keyframe", "keyPath": "position", "values": [[20, 20], [36, 36], [4, 36], [20, 20]], "keyTimes": [0, 0.33, 0.66, 1],
       "duration": 0.75, "repeatCount": "infinity", "autoreverses": true}]}
  ]
}
"""#
}
