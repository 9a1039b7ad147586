extension ClassicLoaders {
    /// `ball-zig-zag`: NVActivityIndicatorView's `ballZigZag` at size 40:
    /// its `transform` keyframes are translations, animated here as the
    /// circles' positions.
    static let ballZigZag = #"""
{
  "format": 1,
  "name": "ball-zig-zag",
  "summary": "Two dots zig-zagging through the centre (NVActivityIndicatorView ballZigZag): one to the top corners and back, one to the bottom ones, in 0.7 s, linear.",
  "family": "NVActivityIndicatorView", "original": "ballZigZag",
  "canvas": {"width": 40, "height": 40},
  "color": "#333333",
  "layers": [
    {"type": "circle", "id": "ball1", "position": [20, 20], "diameter": 8, "backgroundColor": "color",
     "animations": [{"type": "keyframe", "keyPath": "position", "values": [[20, 20], [4, 4], [36, 4], [20, 20]], "keyTimes": [0, 0.33, 0.66, 1],
       "duration": 0.7, "repeatCount": "infinity"}]},
    {"type": "circle", "id": "ball2", "position": [20, 20], "diameter": 8, "backgroundColor": "color",
     "animations": [{"type": "keyframe", "keyPath": "position", "values": [[20, 20], [36, 36], [4, 36], [20, 20]], "keyTimes": [0, 0.33, 0.66, 1],
       "duration": 0.7, "repeatCount": "infinity"}]}
  ]
}
"""#
}
