extension ClassicLoaders {
    /// `wave`, as a definition in the loader format.
    static let wave = #"""
{
  "format": 1,
  "name": "wave",
  "summary": "A wave of bars (SpinKit wave): five bars stretch to full height and back over 1.2 s, 0.1 s apart.",
  "family": "SpinKit", "original": "wave",
  "canvas": {"width": 50, "height": 40},
  "color": "#333333",
  "layers": [{
    "type": "replicator", "id": "bars", "position": [25, 20], "bounds": [50, 40],
    "instanceCount": 5, "instanceDelay": 0.1, "instanceTransform": {"translation": [9, 0]},
    "sublayers": [{
      "type": "rect", "id": "bar", "position": [7, 20], "bounds": [6, 16], "backgroundColor": "color",
      "animations": [
        {"type": "keyframe", "keyPath": "bounds.size.height", "values": [16, 40, 16, 16], "keyTimes": [0, 0.2, 0.4, 1],
         "timingFunctions": ["easeInEaseOut", "easeInEaseOut", "easeInEaseOut"],
         "beginTime": -1.2, "duration": 1.2, "repeatCount": "infinity", "fillMode": "backwards"}
      ]
    }]
  }]
}
"""#
}
