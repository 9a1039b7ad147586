extension ClassicLoaders {
    /// `circle-stroke-spin`: NVActivityIndicatorView's `circleStrokeSpin` at
    /// size 38, padding 1: a ring from 12 o'clock whose end runs round in
    /// 0.7 s and whose start follows from 0.5 s in 1.2 s, both with
    /// (0.4, 0, 0.2, 1), while it turns once in the group's 1.7 s (its
    /// rotation has no duration of its own, so it takes the group's).
    static let circleStrokeSpin = #"""
{
  "format": 1,
  "name": "circle-stroke-spin",
  "summary": "A stroke chasing itself round a circle (NVActivityIndicatorView circleStrokeSpin): its end sweeps a full turn in 0.7 s, its start follows from 0.5 s, as the circle turns once in 1.7 s.",
  "family": "NVActivityIndicatorView", "original": "circleStrokeSpin",
  "canvas": {"width": 40, "height": 40},
  "color": "#333333",
  "layers": [{
    "type": "ring", "id": "stroke", "position": [20, 20], "diameter": 38, "lineWidth": 2, "strokeColor": "color",
    "animations": [
      {"type": "group", "duration": 1.7, "repeatCount": "infinity", "animations": [
        {"type": "basic", "keyPath": "transform.rotation.z", "byValue": 6.283185307179586, "duration": 1.7},
        {"type": "basic", "keyPath": "strokeEnd", "fromValue": 0, "toValue": 1, "duration": 0.7,
         "timingFunction": [0.4, 0, 0.2, 1]},
        {"type": "basic", "keyPath": "strokeStart", "fromValue": 0, "toValue": 1, "beginTime": 0.5, "duration": 1.2,
         "timingFunction": [0.4, 0, 0.2, 1]}
      ]}
    ]
  }]
}
"""#
}
