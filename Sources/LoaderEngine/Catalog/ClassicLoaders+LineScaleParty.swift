extension ClassicLoaders {
    /// `line-scale-party`: NVActivityIndicatorView's `lineScaleParty` at
    /// size 40: four bars a seventh of the size wide with round ends (its
    /// `line` shape), one bar's width apart, each scaling on its own
    /// duration from its own begin time (before it begins, a bar shows its
    /// model values). The cycles have no common period: each bar loops on
    /// its own, and so do the exports.
    static let lineScaleParty = #"""
{
  "format": 1,
  "name": "line-scale-party",
  "summary": "Four bars shrinking out of step (NVActivityIndicatorView lineScaleParty): each scales to half and back on a cycle of its own, 0.43 to 1.26 s.",
  "family": "NVActivityIndicatorView", "original": "lineScaleParty",
  "canvas": {"width": 40, "height": 40},
  "color": "#333333",
  "layers": [
    {"type": "rect", "id": "bar0", "position": [2.857142857142857, 20], "bounds": [5.714285714285714, 40], "cornerRadius": 2.857142857142857, "backgroundColor": "color",
     "animations": [{"type": "keyframe", "keyPath": "transform.scale", "values": [1, 0.5, 1], "keyTimes": [0, 0.5, 1], "timingFunctions": ["default", "default"],
       "beginTime": 0.77, "duration": 1.26, "repeatCount": "infinity"}]},
    {"type": "rect", "id": "bar1", "position": [14.285714285714286, 20], "bounds": [5.714285714285714, 40], "cornerRadius": 2.857142857142857, "backgroundColor": "color",
     "animations": [{"type": "keyframe", "keyPath": "transform.scale", "values": [1, 0.5, 1], "keyTimes": [0, 0.5, 1], "timingFunctions": ["default", "default"],
       "beginTime": 0.29, "duration": 0.43, "repeatCount": "infinity"}]},
    {"type": "rect", "id": "bar2", "position": [25.714285714285715, 20], "bounds": [5.714285714285714, 40], "cornerRadius": 2.857142857142857, "backgroundColor": "color",
     "animations": [{"type": "keyframe", "keyPath": "transform.scale", "values": [1, 0.5, 1], "keyTimes": [0, 0.5, 1], "timingFunctions": ["default", "default"],
       "beginTime": 0.28, "duration": 1.01, "repeatCount": "infinity"}]},
    {"type": "rect", "id": "bar3", "position": [37.14285714285714, 20], "bounds": [5.714285714285714, 40], "cornerRadius": 2.857142857142857, "backgroundColor": "color",
     "animations": [{"type": "keyframe", "keyPath": "transform.scale", "values": [1, 0.5, 1], "keyTimes": [0, 0.5, 1], "timingFunctions": ["default", "default"],
       "beginTime": 0.74, "duration": 0.73, "repeatCount": "infinity"}]}
  ]
}
"""#
}
