extension ClassicLoaders {
    /// `ball-pulse-rise`: NVActivityIndicatorView's `ballPulseRise` at size
    /// 40: five dots of (size − 8)/5, the even ones rising as the odd ones
    /// fall (`transform.translation.y` as `position.y`).
    static let ballPulseRise = #"""
{
  "format": 1,
  "name": "ball-pulse-rise",
  "summary": "Five dots rising and falling in opposition while they grow and shrink (NVActivityIndicatorView ballPulseRise), once a second.",
  "family": "NVActivityIndicatorView", "original": "ballPulseRise",
  "canvas": {"width": 40, "height": 40},
  "color": "#333333",
  "layers": [
    {"type": "circle", "id": "dot0", "position": [3.2, 20], "diameter": 6.4, "backgroundColor": "color",
     "animations": [{"type": "group", "duration": 1, "repeatCount": "infinity", "animations": [
       {"type": "keyframe", "keyPath": "transform.scale", "values": [1.1, 0.4, 1], "keyTimes": [0, 0.5, 1], "timingFunctions": [[0.15, 0.46, 0.9, 0.6], [0.15, 0.46, 0.9, 0.6]], "duration": 1},
       {"type": "keyframe", "keyPath": "position.y", "values": [20, 0, 40, 20], "keyTimes": [0, 0.25, 0.75, 1], "timingFunctions": [[0.15, 0.46, 0.9, 0.6], [0.15, 0.46, 0.9, 0.6], [0.15, 0.46, 0.9, 0.6]], "duration": 1}]}]},
    {"type": "circle", "id": "dot1", "position": [11.6, 20], "diameter": 6.4, "backgroundColor": "color",
     "animations": [{"type": "group", "duration": 1, "repeatCount": "infinity", "animations": [
       {"type": "keyframe", "keyPath": "transform.scale", "values": [0.4, 1.1, 0.75], "keyTimes": [0, 0.5, 1], "timingFunctions": [[0.15, 0.46, 0.9, 0.6], [0.15, 0.46, 0.9, 0.6]], "duration": 1},
       {"type": "keyframe", "keyPath": "position.y", "values": [20, 40, 0, 20], "keyTimes": [0, 0.25, 0.75, 1], "timingFunctions": [[0.15, 0.46, 0.9, 0.6], [0.15, 0.46, 0.9, 0.6], [0.15, 0.46, 0.9, 0.6]], "duration": 1}]}]},
    {"type": "circle", "id": "dot2", "position": [20.0, 20], "diameter": 6.4, "backgroundColor": "color",
     "animations": [{"type": "group", "duration": 1, "repeatCount": "infinity", "animations": [
       {"type": "keyframe", "keyPath": "transform.scale", "values": [1.1, 0.4, 1], "keyTimes": [0, 0.5, 1], "timingFunctions": [[0.15, 0.46, 0.9, 0.6], [0.15, 0.46, 0.9, 0.6]], "duration": 1},
       {"type": "keyframe", "keyPath": "position.y", "values": [20, 0, 40, 20], "keyTimes": [0, 0.25, 0.75, 1], "timingFunctions": [[0.15, 0.46, 0.9, 0.6], [0.15, 0.46, 0.9, 0.6], [0.15, 0.46, 0.9, 0.6]], "duration": 1}]}]},
    {"type": "circle", "id": "dot3", "position": [28.4, 20], "diameter": 6.4, "backgroundColor": "color",
     "animations": [{"type": "group", "duration": 1, "repeatCount": "infinity", "animations": [
       {"type": "keyframe", "keyPath": "transform.scale", "values": [0.4, 1.1, 0.75], "keyTimes": [0, 0.5, 1], "timingFunctions": [[0.15, 0.46, 0.9, 0.6], [0.15, 0.46, 0.9, 0.6]], "duration": 1},
       {"type": "keyframe", "keyPath": "position.y", "values": [20, 40, 0, 20], "keyTimes": [0, 0.25, 0.75, 1], "timingFunctions": [[0.15, 0.46, 0.9, 0.6], [0.15, 0.46, 0.9, 0.6], [0.15, 0.46, 0.9, 0.6]], "duration": 1}]}]},
    {"type": "circle", "id": "dot4", "position": [36.8, 20], "diameter": 6.4, "backgroundColor": "color",
     "animations": [{"type": "group", "duration": 1, "repeatCount": "infinity", "animations": [
       {"type": "keyframe", "keyPath": "transform.scale", "values": [1.1, 0.4, 1], "keyTimes": [0, 0.5, 1], "timingFunctions": [[0.15, 0.46, 0.9, 0.6], [0.15, 0.46, 0.9, 0.6]], "duration": 1},
       {"type": "keyframe", "keyPath": "position.y", "values": [20, 0, 40, 20], "keyTimes": [0, 0.25, 0.75, 1], "timingFunctions": [[0.15, 0.46, 0.9, 0.6], [0.15, 0.46, 0.9, 0.6], [0.15, 0.46, 0.9, 0.6]], "duration": 1}]}]}
  ]
}
"""#
}
