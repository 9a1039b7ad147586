extension ClassicLoaders {
    /// `ball-scale`: NVActivityIndicatorView's `ballScale` at size 40. Its
    /// group's `easeInEaseOut` is on each animation here (the format's
    /// groups have no curve of their own): both last the group's second.
    static let ballScale = #"""
{
  "format": 1,
  "name": "ball-scale",
  "summary": "A circle that grows from nothing and fades out (NVActivityIndicatorView ballScale), once a second, easeInEaseOut.",
  "family": "NVActivityIndicatorView", "original": "ballScale",
  "canvas": {"width": 40, "height": 40},
  "color": "#333333",
  "layers": [{
    "type": "circle", "id": "ball", "position": [20, 20], "diameter": 40, "backgroundColor": "color",
    "animations": [
      {"type": "group", "duration": 1, "repeatCount": "infinity", "animations": [
        {"type": "basic", "keyPath": "transform.scale", "fromValue": 0, "toValue": 1, "duration": 1, "timingFunction": "easeInEaseOut"},
        {"type": "basic", "keyPath": "opacity", "fromValue": 1, "toValue": 0, "duration": 1, "timingFunction": "easeInEaseOut"}
      ]}
    ]
  }]
}
"""#
}
