extension ClassicLoaders {
    /// `ball-pulse-sync`: NVActivityIndicatorView's `ballPulseSync` at size
    /// 40. Its `transform.translation.y` is animated as `position.y` (the
    /// same offset from the dot's place).
    static let ballPulseSync = #"""
{
  "format": 1,
  "name": "ball-pulse-sync",
  "summary": "Three dots that dip and rise in turn (NVActivityIndicatorView ballPulseSync): 7 pt down, 7 pt up and back in 0.6 s, easeInEaseOut, 0.07 s apart.",
  "family": "NVActivityIndicatorView", "original": "ballPulseSync",
  "canvas": {"width": 40, "height": 40},
  "color": "#333333",
  "layers": [{
    "type": "replicator", "id": "dots", "position": [20, 20], "bounds": [40, 40],
    "instanceCount": 3, "instanceDelay": 0.07, "instanceTransform": {"translation": [14, 0]},
    "sublayers": [{
      "type": "circle", "id": "dot", "position": [6, 20], "diameter": 12, "backgroundColor": "color",
      "animations": [
        {"type": "keyframe", "keyPath": "position.y", "values": [20, 27, 13, 20], "keyTimes": [0, 0.33, 0.66, 1],
         "timingFunctions": ["easeInEaseOut", "easeInEaseOut", "easeInEaseOut"],
         "beginTime": 0.07, "duration": 0.6, "repeatCount": "infinity"}
      ]
    }]
  }]
}
"""#
}
