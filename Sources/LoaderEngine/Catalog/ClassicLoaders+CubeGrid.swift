extension ClassicLoaders {
    /// `cube-grid`, as a definition in the loader format.
    static let cubeGrid = #"""
{
  "format": 1,
  "name": "cube-grid",
  "summary": "A grid pulse (SpinKit cube-grid): nine squares shrink away and come back over 1.3 s in a diagonal wave, 0.1 s a step.",
  "family": "SpinKit", "original": "cube-grid",
  "canvas": {"width": 42, "height": 42},
  "color": "#333333",
  "layers": [{
    "type": "replicator", "id": "rows", "position": [21, 21], "bounds": [42, 42],
    "instanceCount": 3, "instanceDelay": -0.1, "instanceTransform": {"translation": [0, 14]},
    "sublayers": [{
      "type": "replicator", "id": "columns", "position": [21, 21], "bounds": [42, 42],
      "instanceCount": 3, "instanceDelay": 0.1, "instanceTransform": {"translation": [14, 0]},
      "sublayers": [{
        "type": "rect", "id": "cube", "position": [7, 7], "bounds": [14, 14], "backgroundColor": "color",
        "animations": [
          {"type": "keyframe", "keyPath": "transform.scale", "values": [1, 0, 1, 1], "keyTimes": [0, 0.35, 0.7, 1],
           "timingFunctions": ["easeInEaseOut", "easeInEaseOut", "easeInEaseOut"],
           "beginTime": 0.2, "duration": 1.3, "repeatCount": "infinity"}
        ]
      }]
    }]
  }]
}
"""#
}
