extension ClassicLoaders {
    /// `ball-double-bounce`: NVActivityIndicatorView's `ballDoubleBounce`
    /// at size 40. The original scales −1 → 0 → −1: a circle turned inside
    /// out is the same circle, so the catalogue scales 1 → 0 → 1.
    static let ballDoubleBounce = #"""
{
  "format": 1,
  "name": "ball-double-bounce",
  "summary": "Two translucent circles shrinking to nothing and back (NVActivityIndicatorView ballDoubleBounce), 2 s each, the second from 1 s.",
  "family": "NVActivityIndicatorView", "original": "ballDoubleBounce",
  "canvas": {"width": 40, "height": 40},
  "color": "#333333",
  "layers": [{
    "type": "replicator", "id": "balls", "position": [20, 20], "bounds": [40, 40],
    "instanceCount": 2, "instanceDelay": 1,
    "sublayers": [{
      "type": "circle", "id": "ball", "position": [20, 20], "diameter": 40, "opacity": 0.6, "backgroundColor": "color",
      "animations": [
        {"type": "keyframe", "keyPath": "transform.scale", "values": [1, 0, 1], "keyTimes": [0, 0.5, 1],
         "timingFunction": "easeInEaseOut", "duration": 2, "repeatCount": "infinity"}
      ]
    }]
  }]
}
"""#
}
