extension ClassicLoaders {
    /// `ball-grid-pulse`: NVActivityIndicatorView's `ballGridPulse` at size
    /// 40: nine dots in a 3 × 3 grid 2 apart, each with a group of its own
    /// duration and begin time (before it begins, a dot shows its model
    /// values). The group's two animations take its duration, as Core
    /// Animation runs them. The cycles have no common period: each dot
    /// loops on its own, and so do the exports.
    static let ballGridPulse = #"""
{
  "format": 1,
  "name": "ball-grid-pulse",
  "summary": "A grid of nine dots pulsing out of step (NVActivityIndicatorView ballGridPulse): each shrinks to half and dims to 0.7 and back on a cycle of its own, 0.72 to 1.45 s.",
  "family": "NVActivityIndicatorView", "original": "ballGridPulse",
  "canvas": {"width": 40, "height": 40},
  "color": "#333333",
  "layers": [
    {"type": "circle", "id": "dot0", "position": [6, 6], "diameter": 12, "backgroundColor": "color",
     "animations": [{"type": "group", "beginTime": -0.06, "duration": 0.72, "repeatCount": "infinity", "animations": [
       {"type": "keyframe", "keyPath": "transform.scale", "values": [1, 0.5, 1], "keyTimes": [0, 0.5, 1], "timingFunctions": ["default", "default"], "duration": 0.72},
       {"type": "keyframe", "keyPath": "opacity", "values": [1, 0.7, 1], "keyTimes": [0, 0.5, 1], "timingFunctions": ["default", "default"], "duration": 0.72}]}]},
    {"type": "circle", "id": "dot1", "position": [20, 6], "diameter": 12, "backgroundColor": "color",
     "animations": [{"type": "group", "beginTime": 0.25, "duration": 1.02, "repeatCount": "infinity", "animations": [
       {"type": "keyframe", "keyPath": "transform.scale", "values": [1, 0.5, 1], "keyTimes": [0, 0.5, 1], "timingFunctions": ["default", "default"], "duration": 1.02},
       {"type": "keyframe", "keyPath": "opacity", "values": [1, 0.7, 1], "keyTimes": [0, 0.5, 1], "timingFunctions": ["default", "default"], "duration": 1.02}]}]},
    {"type": "circle", "id": "dot2", "position": [34, 6], "diameter": 12, "backgroundColor": "color",
     "animations": [{"type": "group", "beginTime": -0.17, "duration": 1.28, "repeatCount": "infinity", "animations": [
       {"type": "keyframe", "keyPath": "transform.scale", "values": [1, 0.5, 1], "keyTimes": [0, 0.5, 1], "timingFunctions": ["default", "default"], "duration": 1.28},
       {"type": "keyframe", "keyPath": "opacity", "values": [1, 0.7, 1], "keyTimes": [0, 0.5, 1], "timingFunctions": ["default", "default"], "duration": 1.28}]}]},
    {"type": "circle", "id": "dot3", "position": [6, 20], "diameter": 12, "backgroundColor": "color",
     "animations": [{"type": "group", "beginTime": 0.48, "duration": 1.42, "repeatCount": "infinity", "animations": [
       {"type": "keyframe", "keyPath": "transform.scale", "values": [1, 0.5, 1], "keyTimes": [0, 0.5, 1], "timingFunctions": ["default", "default"], "duration": 1.42},
       {"type": "keyframe", "keyPath": "opacity", "values": [1, 0.7, 1], "keyTimes": [0, 0.5, 1], "timingFunctions": ["default", "default"], "duration": 1.42}]}]},
    {"type": "circle", "id": "dot4", "position": [20, 20], "diameter": 12, "backgroundColor": "color",
     "animations": [{"type": "group", "beginTime": 0.31, "duration": 1.45, "repeatCount": "infinity", "animations": [
       {"type": "keyframe", "keyPath": "transform.scale", "values": [1, 0.5, 1], "keyTimes": [0, 0.5, 1], "timingFunctions": ["default", "default"], "duration": 1.45},
       {"type": "keyframe", "keyPath": "opacity", "values": [1, 0.7, 1], "keyTimes": [0, 0.5, 1], "timingFunctions": ["default", "default"], "duration": 1.45}]}]},
    {"type": "circle", "id": "dot5", "position": [34, 20], "diameter": 12, "backgroundColor": "color",
     "animations": [{"type": "group", "beginTime": 0.03, "duration": 1.18, "repeatCount": "infinity", "animations": [
       {"type": "keyframe", "keyPath": "transform.scale", "values": [1, 0.5, 1], "keyTimes": [0, 0.5, 1], "timingFunctions": ["default", "default"], "duration": 1.18},
       {"type": "keyframe", "keyPath": "opacity", "values": [1, 0.7, 1], "keyTimes": [0, 0.5, 1], "timingFunctions": ["default", "default"], "duration": 1.18}]}]},
    {"type": "circle", "id": "dot6", "position": [6, 34], "diameter": 12, "backgroundColor": "color",
     "animations": [{"type": "group", "beginTime": 0.46, "duration": 0.87, "repeatCount": "infinity", "animations": [
       {"type": "keyframe", "keyPath": "transform.scale", "values": [1, 0.5, 1], "keyTimes": [0, 0.5, 1], "timingFunctions": ["default", "default"], "duration": 0.87},
       {"type": "keyframe", "keyPath": "opacity", "values": [1, 0.7, 1], "keyTimes": [0, 0.5, 1], "timingFunctions": ["default", "default"], "duration": 0.87}]}]},
    {"type": "circle", "id": "dot7", "position": [20, 34], "diameter": 12, "backgroundColor": "color",
     "animations": [{"type": "group", "beginTime": 0.78, "duration": 1.45, "repeatCount": "infinity", "animations": [
       {"type": "keyframe", "keyPath": "transform.scale", "values": [1, 0.5, 1], "keyTimes": [0, 0.5, 1], "timingFunctions": ["default", "default"], "duration": 1.45},
       {"type": "keyframe", "keyPath": "opacity", "values": [1, 0.7, 1], "keyTimes": [0, 0.5, 1], "timingFunctions": ["default", "default"], "duration": 1.45}]}]},
    {"type": "circle", "id": "dot8", "position": [34, 34], "diameter": 12, "backgroundColor": "color",
     "animations": [{"type": "group", "beginTime": 0.45, "duration": 1.06, "repeatCount": "infinity", "animations": [
       {"type": "keyframe", "keyPath": "transform.scale", "values": [1, 0.5, 1], "keyTimes": [0, 0.5, 1], "timingFunctions": ["default", "default"], "duration": 1.06},
       {"type": "keyframe", "keyPath": "opacity", "values": [1, 0.7, 1], "keyTimes": [0, 0.5, 1], "timingFunctions": ["default", "default"], "duration": 1.06}]}]}
  ]
}
"""#
}
