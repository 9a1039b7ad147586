extension ClassicLoaders {
    /// `activity-indicator`, as a definition in the loader format.
    static let activityIndicator = #"""
{
  "format": 1,
  "name": "activity-indicator",
  "summary": "The iOS activity indicator (UIActivityIndicatorView; NVActivityIndicatorView lineSpinFadeLoader): eight bars round a centre whose opacity trails the turning highlight.",
  "canvas": {"width": 40, "height": 40},
  "background": "#FFFFFF",
  "color": "#8E8E93",
  "layers": [{
    "type": "replicator", "id": "spokes", "position": [20, 20], "bounds": [40, 40],
    "instanceCount": 8, "instanceDelay": 0.12,
    "instanceTransform": {"rotation": 0.7853981633974483},
    "sublayers": [{
      "type": "rect", "id": "bar", "position": [20, 6], "bounds": [4, 12], "cornerRadius": 2,
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
