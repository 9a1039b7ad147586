extension ClassicLoaders {
    /// `line-scale-pulse-out-rapid`: NVActivityIndicatorView's
    /// `lineScalePulseOutRapid` at size 45. Its key times stop at 0.9, after
    /// which Core Animation holds the last value; the format's end at 1, so a
    /// last leg holds it; `transform.scale.y` on the full round-ended bar,
    /// as in the source.
    /// With reduced motion it holds its first frame, every bar at full
    /// height (the engine's own choice weighs scale, not scale.y).
    static let lineScalePulseOutRapid = #"""
{
  "format": 1.1,
  "name": "line-scale-pulse-out-rapid",
  "summary": "Five bars pulsing out from the middle, quickly (NVActivityIndicatorView lineScalePulseOutRapid): each shrinks to 0.3 of its height by 80 % of 0.9 s and is back by 90 %, the outer ones 0.5 s later.",
  "family": "NVActivityIndicatorView", "original": "lineScalePulseOutRapid",
  "canvas": {"width": 45, "height": 45},
  "color": "#333333",
  "layers": [
    {"type": "rect", "id": "bar0", "position": [2.5, 22.5], "bounds": [5, 45], "cornerRadius": 2.5, "backgroundColor": "color",
     "animations": [{"type": "keyframe", "keyPath": "transform.scale.y", "values": [1, 0.3, 1, 1], "keyTimes": [0, 0.8, 0.9, 1],
       "timingFunctions": [[0.11, 0.49, 0.38, 0.78], [0.11, 0.49, 0.38, 0.78], "linear"], "beginTime": 0.5, "duration": 0.9, "repeatCount": "infinity"}]},
    {"type": "rect", "id": "bar1", "position": [12.5, 22.5], "bounds": [5, 45], "cornerRadius": 2.5, "backgroundColor": "color",
     "animations": [{"type": "keyframe", "keyPath": "transform.scale.y", "values": [1, 0.3, 1, 1], "keyTimes": [0, 0.8, 0.9, 1],
       "timingFunctions": [[0.11, 0.49, 0.38, 0.78], [0.11, 0.49, 0.38, 0.78], "linear"], "beginTime": 0.25, "duration": 0.9, "repeatCount": "infinity"}]},
    {"type": "rect", "id": "bar2", "position": [22.5, 22.5], "bounds": [5, 45], "cornerRadius": 2.5, "backgroundColor": "color",
     "animations": [{"type": "keyframe", "keyPath": "transform.scale.y", "values": [1, 0.3, 1, 1], "keyTimes": [0, 0.8, 0.9, 1],
       "timingFunctions": [[0.11, 0.49, 0.38, 0.78], [0.11, 0.49, 0.38, 0.78], "linear"], "beginTime": 0, "duration": 0.9, "repeatCount": "infinity"}]},
    {"type": "rect", "id": "bar3", "position": [32.5, 22.5], "bounds": [5, 45], "cornerRadius": 2.5, "backgroundColor": "color",
     "animations": [{"type": "keyframe", "keyPath": "transform.scale.y", "values": [1, 0.3, 1, 1], "keyTimes": [0, 0.8, 0.9, 1],
       "timingFunctions": [[0.11, 0.49, 0.38, 0.78], [0.11, 0.49, 0.38, 0.78], "linear"], "beginTime": 0.25, "duration": 0.9, "repeatCount": "infinity"}]},
    {"type": "rect", "id": "bar4", "position": [42.5, 22.5], "bounds": [5, 45], "cornerRadius": 2.5, "backgroundColor": "color",
     "animations": [{"type": "keyframe", "keyPath": "transform.scale.y", "values": [1, 0.3, 1, 1], "keyTimes": [0, 0.8, 0.9, 1],
       "timingFunctions": [[0.11, 0.49, 0.38, 0.78], [0.11, 0.49, 0.38, 0.78], "linear"], "beginTime": 0.5, "duration": 0.9, "repeatCount": "infinity"}]}
  ]
}
"""#
}
