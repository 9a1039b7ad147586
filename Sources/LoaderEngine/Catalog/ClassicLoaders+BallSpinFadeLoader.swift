extension ClassicLoaders {
    /// `ball-spin-fade-loader`: NVActivityIndicatorView's
    /// `ballSpinFadeLoader` at size 40: eight circles of (size + 8)/5 round
    /// the centre (its spacing is −2), the first at 3 o'clock.
    static let ballSpinFadeLoader = #"""
{
  "format": 1,
  "name": "ball-spin-fade-loader",
  "summary": "Eight dots round a centre (NVActivityIndicatorView ballSpinFadeLoader), each shrinking to 0.4 and fading to 0.3 and back in 1 s, 0.12 s after the one before.",
  "family": "NVActivityIndicatorView", "original": "ballSpinFadeLoader",
  "canvas": {"width": 40, "height": 40},
  "color": "#333333",
  "layers": [{
    "type": "replicator", "id": "dots", "position": [20, 20], "bounds": [40, 40],
    "instanceCount": 8, "instanceDelay": 0.12, "instanceTransform": {"rotation": 0.7853981633974483},
    "sublayers": [{
      "type": "circle", "id": "dot", "position": [35.2, 20], "diameter": 9.6, "backgroundColor": "color",
      "animations": [
        {"type": "group", "duration": 1, "repeatCount": "infinity", "animations": [
          {"type": "keyframe", "keyPath": "transform.scale", "values": [1, 0.4, 1], "keyTimes": [0, 0.5, 1], "duration": 1},
          {"type": "keyframe", "keyPath": "opacity", "values": [1, 0.3, 1], "keyTimes": [0, 0.5, 1], "duration": 1}
        ]}
      ]
    }]
  }]
}
"""#
}
