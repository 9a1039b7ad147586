extension ClassicLoaders {
    /// `three-bounce`, as a definition in the loader format.
    static let threeBounce = #"""
{
  "format": 1,
  "name": "three-bounce",
  "summary": "A bouncing three-dot (SpinKit three-bounce): three dots grow and shrink in turn over 1.4 s, 0.16 s apart.",
  "family": "SpinKit", "original": "three-bounce",
  "canvas": {"width": 70, "height": 20},
  "color": "#333333",
  "layers": [{
    "type": "replicator", "id": "dots", "position": [35, 10], "bounds": [70, 20],
    "instanceCount": 3, "instanceDelay": 0.16, "instanceTransform": {"translation": [22, 0]},
    "sublayers": [{
      "type": "circle", "id": "dot", "position": [13, 10], "diameter": 18, "backgroundColor": "color",
      "transform": {"scale": 0},
      "animations": [
        {"type": "keyframe", "keyPath": "transform.scale", "values": [0, 1, 0, 0], "keyTimes": [0, 0.4, 0.8, 1],
         "timingFunctions": ["easeInEaseOut", "easeInEaseOut", "easeInEaseOut"],
         "beginTime": -0.32, "duration": 1.4, "repeatCount": "infinity", "fillMode": "backwards"}
      ]
    }]
  }]
}
"""#
}
