extension ClassicLoaders {
    /// `ball-scale-multiple`: NVActivityIndicatorView's `ballScaleMultiple`
    /// at size 40: three circles, hidden (opacity 0) until each begins.
    static let ballScaleMultiple = #"""
{
  "format": 1,
  "name": "ball-scale-multiple",
  "summary": "Three circles grow from nothing, flash in and fade out (NVActivityIndicatorView ballScaleMultiple), each a second long, 0.2 s apart.",
  "family": "NVActivityIndicatorView", "original": "ballScaleMultiple",
  "canvas": {"width": 40, "height": 40},
  "color": "#333333",
  "layers": [{
    "type": "replicator", "id": "balls", "position": [20, 20], "bounds": [40, 40],
    "instanceCount": 3, "instanceDelay": 0.2,
    "sublayers": [{
      "type": "circle", "id": "ball", "position": [20, 20], "diameter": 40, "opacity": 0, "backgroundColor": "color",
      "animations": [
        {"type": "group", "duration": 1, "repeatCount": "infinity", "animations": [
          {"type": "basic", "keyPath": "transform.scale", "fromValue": 0, "toValue": 1, "duration": 1},
          {"type": "keyframe", "keyPath": "opacity", "values": [0, 1, 0], "keyTimes": [0, 0.05, 1], "duration": 1}
        ]}
      ]
    }]
  }]
}
"""#
}
