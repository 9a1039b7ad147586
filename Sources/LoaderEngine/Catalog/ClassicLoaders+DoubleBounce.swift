extension ClassicLoaders {
    /// `double-bounce`, as a definition in the loader format.
    static let doubleBounce = #"""
{
  "format": 1,
  "name": "double-bounce",
  "summary": "A double bounce (SpinKit double-bounce): two translucent circles grow and shrink over 2 s, half a cycle apart.",
  "family": "SpinKit", "original": "double-bounce",
  "canvas": {"width": 40, "height": 40},
  "color": "#333333",
  "layers": [{
    "type": "replicator", "id": "bounces", "position": [20, 20], "bounds": [40, 40],
    "instanceCount": 2, "instanceDelay": -1,
    "sublayers": [{
      "type": "circle", "id": "bounce", "position": [20, 20], "diameter": 40, "backgroundColor": "color",
      "opacity": 0.6, "transform": {"scale": 0},
      "animations": [
        {"type": "keyframe", "keyPath": "transform.scale", "values": [0, 1, 0], "keyTimes": [0, 0.5, 1],
         "timingFunctions": ["easeInEaseOut", "easeInEaseOut"],
         "duration": 2, "repeatCount": "infinity", "fillMode": "backwards"}
      ]
    }]
  }]
}
"""#
}
