extension ClassicLoaders {
    /// `pulse`: SpinKit's `pulse` (`sk-spinner-pulse`) in its own 40-px box.
    static let pulse = #"""
{
  "format": 1,
  "name": "pulse",
  "summary": "A circle that grows out of nothing and fades away (SpinKit pulse), once a second, ease-in-out.",
  "family": "SpinKit", "original": "pulse",
  "canvas": {"width": 40, "height": 40},
  "color": "#333333",
  "layers": [{
    "type": "circle", "id": "pulse", "position": [20, 20], "diameter": 40, "backgroundColor": "color",
    "animations": [
      {"type": "keyframe", "keyPath": "transform.scale", "values": [0, 1], "keyTimes": [0, 1],
       "timingFunctions": ["easeInEaseOut"], "duration": 1, "repeatCount": "infinity"},
      {"type": "keyframe", "keyPath": "opacity", "values": [1, 0], "keyTimes": [0, 1],
       "timingFunctions": ["easeInEaseOut"], "duration": 1, "repeatCount": "infinity"}
    ]
  }]
}
"""#
}
