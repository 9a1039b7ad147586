extension ClassicLoaders {
    /// `ball-rotate`: NVActivityIndicatorView's `ballRotate` at size 40:
    /// three dots in one layer that turns and shrinks.
    static let ballRotate = #"""
{
  "format": 1,
  "name": "ball-rotate",
  "summary": "Three dots in a row turning about the middle one (NVActivityIndicatorView ballRotate): the row turns once and shrinks to 0.6 and back every second.",
  "family": "NVActivityIndicatorView", "original": "ballRotate",
  "canvas": {"width": 40, "height": 40},
  "color": "#333333",
  "layers": [{
    "type": "replicator", "id": "row", "position": [20, 20], "bounds": [40, 40],
    "animations": [{"type": "group", "duration": 1, "repeatCount": "infinity", "animations": [
      {"type": "keyframe", "keyPath": "transform.scale", "values": [1, 0.6, 1], "keyTimes": [0, 0.5, 1], "timingFunctions": [[0.7, -0.13, 0.22, 0.86], [0.7, -0.13, 0.22, 0.86]], "duration": 1},
      {"type": "keyframe", "keyPath": "transform.rotation.z", "values": [0, 3.141592653589793, 6.283185307179586], "keyTimes": [0, 0.5, 1], "timingFunctions": [[0.7, -0.13, 0.22, 0.86], [0.7, -0.13, 0.22, 0.86]], "duration": 1}]}],
    "sublayers": [
      {"type": "circle", "id": "left", "position": [4, 20], "diameter": 8, "opacity": 0.8, "backgroundColor": "color"},
      {"type": "circle", "id": "right", "position": [36, 20], "diameter": 8, "opacity": 0.8, "backgroundColor": "color"},
      {"type": "circle", "id": "centre", "position": [20, 20], "diameter": 8, "backgroundColor": "color"}
    ]
  }]
}
"""#
}
