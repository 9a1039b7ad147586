extension ClassicLoaders {
    /// `circle`: SpinKit's `circle` (`sk-circle`) in its own 40-px box:
    /// twelve dots 15 % of the box wide at the top of children turned 30°
    /// apart, as `fading-circle`'s, that scale instead of fading.
    static let circle = #"""
{
  "format": 1,
  "name": "circle",
  "summary": "A ring of twelve dots that grow and shrink in turn (SpinKit circle): scale 0, 1 at 40 %, 0 from 80 % of 1.2 s, ease-in-out, 0.1 s apart.",
  "family": "SpinKit", "original": "circle",
  "canvas": {"width": 40, "height": 40},
  "color": "#333333",
  "layers": [{
    "type": "replicator", "id": "ring", "position": [20, 20], "bounds": [40, 40],
    "instanceCount": 12, "instanceDelay": 0.1, "instanceTransform": {"rotation": 0.5235987755982988},
    "sublayers": [{
      "type": "circle", "id": "dot", "position": [20, 3], "diameter": 6, "backgroundColor": "color", "transform": {"scale": 0},
      "animations": [
        {"type": "keyframe", "keyPath": "transform.scale", "values": [0, 1, 0, 0], "keyTimes": [0, 0.4, 0.8, 1],
         "timingFunctions": ["easeInEaseOut", "easeInEaseOut", "easeInEaseOut"],
         "beginTime": -1.2, "duration": 1.2, "repeatCount": "infinity", "fillMode": "backwards"}
      ]
    }]
  }]
}
"""#
}
