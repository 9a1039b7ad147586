extension ClassicLoaders {
    /// `line-scale` (before: `equalizer`): NVActivityIndicatorView's
    /// `lineScale` at size 45, each full round-ended bar squashed by
    /// `transform.scale.y` as in the source, so its ends flatten.
    /// With reduced motion it holds its first frame, every bar at full
    /// height (the engine's own choice weighs scale, not scale.y).
    static let equalizer = #"""
{
  "format": 1.1,
  "name": "line-scale", "aliases": ["equalizer"],
  "summary": "An equalizer of scaling bars (NVActivityIndicatorView lineScale): five bars shrink to 0.4 of their height and back in 1 s, 0.1 s apart.",
  "family": "NVActivityIndicatorView", "original": "lineScale",
  "canvas": {"width": 45, "height": 45},
  "color": "#333333",
  "layers": [{
    "type": "replicator", "id": "bars", "position": [22.5, 22.5], "bounds": [45, 45],
    "instanceCount": 5, "instanceDelay": 0.1, "instanceTransform": {"translation": [10, 0]},
    "sublayers": [{
      "type": "rect", "id": "bar", "position": [2.5, 22.5], "bounds": [5, 45], "cornerRadius": 2.5,
      "backgroundColor": "color",
      "animations": [
        {"type": "keyframe", "keyPath": "transform.scale.y", "values": [1, 0.4, 1], "keyTimes": [0, 0.5, 1],
         "timingFunctions": [[0.2, 0.68, 0.18, 1.08], [0.2, 0.68, 0.18, 1.08]],
         "beginTime": 0.1, "duration": 1, "repeatCount": "infinity"}
      ]
    }]
  }]
}
"""#
}
