extension ClassicLoaders {
    /// `ball-grid-beat`: NVActivityIndicatorView's `ballGridBeat` at size
    /// 40: nine dots in a 3 × 3 grid 2 apart, each dimming on its own
    /// duration from its own begin time (before it begins, a dot shows its
    /// model values). The cycles have no common period: each dot loops on
    /// its own, and so do the exports.
    static let ballGridBeat = #"""
{
  "format": 1,
  "name": "ball-grid-beat",
  "summary": "A grid of nine dots beating out of step (NVActivityIndicatorView ballGridBeat): each dims to 0.7 and back on a cycle of its own, 0.82 to 1.34 s.",
  "family": "NVActivityIndicatorView", "original": "ballGridBeat",
  "canvas": {"width": 40, "height": 40},
  "color": "#333333",
  "layers": [
    {"type": "circle", "id": "dot0", "position": [6, 6], "diameter": 12, "backgroundColor": "color",
     "animations": [{"type": "keyframe", "keyPath": "opacity", "values": [1, 0.7, 1], "keyTimes": [0, 0.5, 1], "timingFunctions": ["default", "default"],
       "beginTime": 0.36, "duration": 0.96, "repeatCount": "infinity"}]},
    {"type": "circle", "id": "dot1", "position": [20, 6], "diameter": 12, "backgroundColor": "color",
     "animations": [{"type": "keyframe", "keyPath": "opacity", "values": [1, 0.7, 1], "keyTimes": [0, 0.5, 1], "timingFunctions": ["default", "default"],
       "beginTime": 0.4, "duration": 0.93, "repeatCount": "infinity"}]},
    {"type": "circle", "id": "dot2", "position": [34, 6], "diameter": 12, "backgroundColor": "color",
     "animations": [{"type": "keyframe", "keyPath": "opacity", "values": [1, 0.7, 1], "keyTimes": [0, 0.5, 1], "timingFunctions": ["default", "default"],
       "beginTime": 0.68, "duration": 1.19, "repeatCount": "infinity"}]},
    {"type": "circle", "id": "dot3", "position": [6, 20], "diameter": 12, "backgroundColor": "color",
     "animations": [{"type": "keyframe", "keyPath": "opacity", "values": [1, 0.7, 1], "keyTimes": [0, 0.5, 1], "timingFunctions": ["default", "default"],
       "beginTime": 0.41, "duration": 1.13, "repeatCount": "infinity"}]},
    {"type": "circle", "id": "dot4", "position": [20, 20], "diameter": 12, "backgroundColor": "color",
     "animations": [{"type": "keyframe", "keyPath": "opacity", "values": [1, 0.7, 1], "keyTimes": [0, 0.5, 1], "timingFunctions": ["default", "default"],
       "beginTime": 0.71, "duration": 1.34, "repeatCount": "infinity"}]},
    {"type": "circle", "id": "dot5", "position": [34, 20], "diameter": 12, "backgroundColor": "color",
     "animations": [{"type": "keyframe", "keyPath": "opacity", "values": [1, 0.7, 1], "keyTimes": [0, 0.5, 1], "timingFunctions": ["default", "default"],
       "beginTime": -0.15, "duration": 0.94, "repeatCount": "infinity"}]},
    {"type": "circle", "id": "dot6", "position": [6, 34], "diameter": 12, "backgroundColor": "color",
     "animations": [{"type": "keyframe", "keyPath": "opacity", "values": [1, 0.7, 1], "keyTimes": [0, 0.5, 1], "timingFunctions": ["default", "default"],
       "beginTime": -0.12, "duration": 1.2, "repeatCount": "infinity"}]},
    {"type": "circle", "id": "dot7", "position": [20, 34], "diameter": 12, "backgroundColor": "color",
     "animations": [{"type": "keyframe", "keyPath": "opacity", "values": [1, 0.7, 1], "keyTimes": [0, 0.5, 1], "timingFunctions": ["default", "default"],
       "beginTime": 0.01, "duration": 0.82, "repeatCount": "infinity"}]},
    {"type": "circle", "id": "dot8", "position": [34, 34], "diameter": 12, "backgroundColor": "color",
     "animations": [{"type": "keyframe", "keyPath": "opacity", "values": [1, 0.7, 1], "keyTimes": [0, 0.5, 1], "timingFunctions": ["default", "default"],
       "beginTime": 0.32, "duration": 1.19, "repeatCount": "infinity"}]}
  ]
}
"""#
}
