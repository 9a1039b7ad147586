extension ClassicLoaders {
    /// `fading-circle`, as a definition in the loader format.
    static let fadingCircle = #"""
{
  "format": 1,
  "name": "fading-circle",
  "summary": "A ring of fading dots (SpinKit fading-circle): twelve dots light up in turn and fade over 1.2 s, 0.1 s apart.",
  "family": "SpinKit", "original": "fading-circle",
  "canvas": {"width": 40, "height": 40},
  "color": "#333333",
  "layers": [{
    "type": "replicator", "id": "circle", "position": [20, 20], "bounds": [40, 40],
    "instanceCount": 12, "instanceDelay": 0.1, "instanceTransform": {"rotation": 0.5235987755982988},
    "sublayers": [{
      "type": "circle", "id": "dot", "position": [20, 3], "diameter": 6, "backgroundColor": "color", "opacity": 0,
      "animations": [
        {"type": "keyframe", "keyPath": "opacity", "values": [0, 0, 1, 0], "keyTimes": [0, 0.39, 0.4, 1],
         "timingFunctions": ["easeInEaseOut", "easeInEaseOut", "easeInEaseOut"],
         "beginTime": -1.2, "duration": 1.2, "repeatCount": "infinity", "fillMode": "backwards"}
      ]
    }]
  }]
}
"""#
}
