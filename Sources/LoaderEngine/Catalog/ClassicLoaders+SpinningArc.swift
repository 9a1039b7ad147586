extension ClassicLoaders {
    /// `ball-clip-rotate` (before: `spinning-arc`), as a definition in the loader format:
    /// NVActivityIndicatorView's `ballClipRotate` at size 38, padding 1.
    static let spinningArc = #"""
{
  "format": 1,
  "name": "ball-clip-rotate", "aliases": ["spinning-arc"],
  "summary": "A spinning arc (NVActivityIndicatorView ballClipRotate): a three-quarter ring, its gap centred on 12 o'clock, turns once every 0.75 s, shrinking to 0.6 halfway.",
  "family": "NVActivityIndicatorView", "original": "ballClipRotate",
  "canvas": {"width": 40, "height": 40},
  "color": "#333333",
  "layers": [{
    "type": "ring", "id": "arc", "position": [20, 20], "diameter": 38, "lineWidth": 2,
    "strokeColor": "color", "strokeStart": 0.125, "strokeEnd": 0.875,
    "animations": [
      {"type": "group", "duration": 0.75, "repeatCount": "infinity", "animations": [
        {"type": "keyframe", "keyPath": "transform.scale", "values": [1, 0.6, 1], "keyTimes": [0, 0.5, 1], "duration": 0.75},
        {"type": "keyframe", "keyPath": "transform.rotation.z", "values": [0, 3.141592653589793, 6.283185307179586],
         "keyTimes": [0, 0.5, 1], "duration": 0.75}
      ]}
    ]
  }]
}
"""#
}
