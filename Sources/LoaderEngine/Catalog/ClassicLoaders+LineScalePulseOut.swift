extension ClassicLoaders {
    /// `line-scale-pulse-out`: NVActivityIndicatorView's
    /// `lineScalePulseOut` at size 45, `transform.scale.y` on the full
    /// round-ended bar as in the source (its ends flatten).
    /// With reduced motion it holds its first frame, every bar at full
    /// height (the engine's own choice weighs scale, not scale.y).
    static let lineScalePulseOut = #"""
{
  "format": 1.1,
  "name": "line-scale-pulse-out",
  "summary": "Five bars pulsing out from the middle (NVActivityIndicatorView lineScalePulseOut): each shrinks to 0.4 of its height and back in 1 s, the middle first, the outer ones 0.4 s later.",
  "family": "NVActivityIndicatorView", "original": "lineScalePulseOut",
  "canvas": {"width": 45, "height": 45},
  "color": "#333333",
  "layers": [
    {"type": "rect", "id": "bar0", "position": [2.5, 22.5], "bounds": [5, 45], "cornerRadius": 2.5, "backgroundColor": "color",
     "animations": [{"type": "keyframe", "keyPath": "transform.scale.y", "values": [1, 0.4, 1], "keyTimes": [0, 0.5, 1],
       "timingFunctions": [[0.85, 0.25, 0.37, 0.85], [0.85, 0.25, 0.37, 0.85]], "beginTime": 0.4, "duration": 1, "repeatCount": "infinity"}]},
    {"type": "rect", "id": "bar1", "position": [12.5, 22.5], "bounds": [5, 45], "cornerRadius": 2.5, "backgroundColor": "color",
     "animations": [{"type": "keyframe", "keyPath": "transform.scale.y", "values": [1, 0.4, 1], "keyTimes": [0, 0.5, 1],
       "timingFunctions": [[0.85, 0.25, 0.37, 0.85], [0.85, 0.25, 0.37, 0.85]], "beginTime": 0.2, "duration": 1, "repeatCount": "infinity"}]},
    {"type": "rect", "id": "bar2", "position": [22.5, 22.5], "bounds": [5, 45], "cornerRadius": 2.5, "backgroundColor": "color",
     "animations": [{"type": "keyframe", "keyPath": "transform.scale.y", "values": [1, 0.4, 1], "keyTimes": [0, 0.5, 1],
       "timingFunctions": [[0.85, 0.25, 0.37, 0.85], [0.85, 0.25, 0.37, 0.85]], "beginTime": 0, "duration": 1, "repeatCount": "infinity"}]},
    {"type": "rect", "id": "bar3", "position": [32.5, 22.5], "bounds": [5, 45], "cornerRadius": 2.5, "backgroundColor": "color",
     "animations": [{"type": "keyframe", "keyPath": "transform.scale.y", "values": [1, 0.4, 1], "keyTimes": [0, 0.5, 1],
       "timingFunctions": [[0.85, 0.25, 0.37, 0.85], [0.85, 0.25, 0.37, 0.85]], "beginTime": 0.2, "duration": 1, "repeatCount": "infinity"}]},
    {"type": "rect", "id": "bar4", "position": [42.5, 22.5], "bounds": [5, 45], "cornerRadius": 2.5, "backgroundColor": "color",
     "animations": [{"type": "keyframe", "keyPath": "transform.scale.y", "values": [1, 0.4, 1], "keyTimes": [0, 0.5, 1],
       "timingFunctions": [[0.85, 0.25, 0.37, 0.85], [0.85, 0.25, 0.37, 0.85]], "beginTime": 0.4, "duration": 1, "repeatCount": "infinity"}]}
  ]
}
"""#
}
