extension ClassicLoaders {
    /// `ball-scale-ripple-multiple` (before: `ripple`), as a definition in the loader format.
    static let ripple = #"""
{
  "format": 1,
  "name": "ball-scale-ripple-multiple", "aliases": ["ripple"],
  "summary": "A ripple (NVActivityIndicatorView ballScaleRippleMultiple): three rings grow from the centre and fade over 1.25 s, 0.2 s apart.",
  "family": "NVActivityIndicatorView", "original": "ballScaleRippleMultiple",
  "canvas": {"width": 40, "height": 40},
  "color": "#333333",
  "layers": [{
    "type": "replicator", "id": "rings", "position": [20, 20], "bounds": [40, 40],
    "instanceCount": 3, "instanceDelay": 0.2,
    "sublayers": [{
      "type": "ring", "id": "ring", "position": [20, 20], "diameter": 38, "lineWidth": 2, "strokeColor": "color",
      "animations": [
        {"type": "group", "duration": 1.25, "repeatCount": "infinity", "animations": [
          {"type": "keyframe", "keyPath": "transform.scale", "values": [0, 1, 1], "keyTimes": [0, 0.7, 1],
           "timingFunction": [0.21, 0.53, 0.56, 0.8], "duration": 1.25},
          {"type": "keyframe", "keyPath": "opacity", "values": [1, 0.7, 0], "keyTimes": [0, 0.7, 1],
           "timingFunctions": [[0.21, 0.53, 0.56, 0.8], [0.21, 0.53, 0.56, 0.8]], "duration": 1.25}
        ]}
      ]
    }]
  }]
}
"""#
}
