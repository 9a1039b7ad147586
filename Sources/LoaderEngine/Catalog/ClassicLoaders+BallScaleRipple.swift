extension ClassicLoaders {
    /// `ball-scale-ripple`: NVActivityIndicatorView's `ballScaleRipple` at
    /// size 38, padding 1 (a 2-pt ring), as `ball-scale-ripple-multiple`.
    static let ballScaleRipple = #"""
{
  "format": 1,
  "name": "ball-scale-ripple",
  "summary": "A ring that ripples out (NVActivityIndicatorView ballScaleRipple): it grows from 0.1 to full size by 70 % of 1 s and fades 1 \u2192 0.7 \u2192 0.",
  "family": "NVActivityIndicatorView", "original": "ballScaleRipple",
  "canvas": {"width": 40, "height": 40},
  "color": "#333333",
  "layers": [{
    "type": "ring", "id": "ring", "position": [20, 20], "diameter": 38, "lineWidth": 2, "strokeColor": "color",
    "animations": [
      {"type": "group", "duration": 1, "repeatCount": "infinity", "animations": [
        {"type": "keyframe", "keyPath": "transform.scale", "values": [0.1, 1, 1], "keyTimes": [0, 0.7, 1],
         "timingFunction": [0.21, 0.53, 0.56, 0.8], "duration": 1},
        {"type": "keyframe", "keyPath": "opacity", "values": [1, 0.7, 0], "keyTimes": [0, 0.7, 1],
         "timingFunctions": [[0.21, 0.53, 0.56, 0.8], [0.21, 0.53, 0.56, 0.8]], "duration": 1}
      ]}
    ]
  }]
}
"""#
}
