extension ClassicLoaders {
    /// `ball-pulse` (before: `pulse-dots`), as a definition in the loader format.
    static let pulseDots = #"""
{
  "format": 1,
  "name": "ball-pulse", "aliases": ["pulse-dots"],
  "summary": "A pulse of scaling dots (NVActivityIndicatorView ballPulse): three dots shrink to 0.3 and grow back in 0.75 s, 0.12 s apart.",
  "family": "NVActivityIndicatorView", "original": "ballPulse",
  "canvas": {"width": 40, "height": 40},
  "color": "#333333",
  "layers": [{
    "type": "replicator", "id": "dots", "position": [20, 20], "bounds": [40, 40],
    "instanceCount": 3, "instanceDelay": 0.12, "instanceTransform": {"translation": [14, 0]},
    "sublayers": [{
      "type": "circle", "id": "dot", "position": [6, 20], "diameter": 12, "backgroundColor": "color",
      "animations": [
        {"type": "keyframe", "keyPath": "transform.scale", "values": [1, 0.3, 1], "keyTimes": [0, 0.3, 1],
         "timingFunctions": [[0.2, 0.68, 0.18, 1.08], [0.2, 0.68, 0.18, 1.08]],
         "beginTime": 0.12, "duration": 0.75, "repeatCount": "infinity"}
      ]
    }]
  }]
}
"""#
}
