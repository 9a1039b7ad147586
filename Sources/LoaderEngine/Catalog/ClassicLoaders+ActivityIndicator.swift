extension ClassicLoaders {
    /// `line-spin-fade-loader` (before: `activity-indicator`), as a definition in the loader format:
    /// NVActivityIndicatorView's `lineSpinFadeLoader` at size 40.
    static let activityIndicator = #"""
{
  "format": 1,
  "name": "line-spin-fade-loader", "aliases": ["activity-indicator"],
  "summary": "NVActivityIndicatorView lineSpinFadeLoader (the look of the iOS activity indicator): eight bars round a centre, the first at 3 o'clock, each fading 1 \u2192 0.3 \u2192 1 over 1.2 s, 0.12 s after the one before.",
  "family": "NVActivityIndicatorView", "original": "lineSpinFadeLoader",
  "canvas": {"width": 40, "height": 40},
  "color": "#8E8E93",
  "layers": [{
    "type": "replicator", "id": "spokes", "position": [20, 20], "bounds": [40, 40],
    "instanceCount": 8, "instanceDelay": 0.12,
    "instanceTransform": {"rotation": 0.7853981633974483},
    "sublayers": [{
      "type": "rect", "id": "bar", "position": [34, 20], "bounds": [6.4, 12], "cornerRadius": 3.2,
      "transform": {"rotation": 1.5707963267948966},
      "backgroundColor": "color",
      "animations": [
        {"type": "keyframe", "keyPath": "opacity", "values": [1, 0.3, 1], "keyTimes": [0, 0.5, 1],
         "timingFunctions": ["easeInEaseOut", "easeInEaseOut"],
         "beginTime": 0.12, "duration": 1.2, "repeatCount": "infinity"}
      ]
    }]
  }]
}
"""#
}
