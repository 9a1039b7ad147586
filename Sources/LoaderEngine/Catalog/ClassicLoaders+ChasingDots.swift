extension ClassicLoaders {
    /// `chasing-dots`: SpinKit's `chasing-dots` in its own 40-px box: two
    /// dots 60 % of the box wide, one at its top and one at its bottom, in
    /// a container turning once in 2 s. The dots are absolutely placed with
    /// no `left`, so they sit at their static position: browsers put the
    /// left edge at the middle of the box's empty centred line (x = 20),
    /// not the dot's centre there, so the centres are at x = 32 and the
    /// dots stick out of the box as they turn, as in the original: up to
    /// 26.4 from its centre. The canvas is 54 wide, the box in its middle,
    /// so that pictures and Lottie, which cut at the canvas, show them whole.
    static let chasingDots = #"""
{
  "format": 1,
  "name": "chasing-dots",
  "summary": "Two dots chasing each other round (SpinKit chasing-dots): each grows and shrinks in 2 s, ease-in-out, a second apart, as their box turns once in 2 s.",
  "family": "SpinKit", "original": "chasing-dots",
  "canvas": {"width": 54, "height": 54},
  "color": "#333333",
  "layers": [{
    "type": "replicator", "id": "box", "position": [27, 27], "bounds": [40, 40],
    "animations": [
      {"type": "basic", "keyPath": "transform.rotation.z", "fromValue": 0, "toValue": 6.283185307179586, "duration": 2, "repeatCount": "infinity"}
    ],
    "sublayers": [
      {"type": "circle", "id": "dot1", "position": [32, 12], "diameter": 24, "backgroundColor": "color",
       "animations": [{"type": "keyframe", "keyPath": "transform.scale", "values": [0, 1, 0], "keyTimes": [0, 0.5, 1],
         "timingFunctions": ["easeInEaseOut", "easeInEaseOut"], "duration": 2, "repeatCount": "infinity"}]},
      {"type": "circle", "id": "dot2", "position": [32, 28], "diameter": 24, "backgroundColor": "color",
       "animations": [{"type": "keyframe", "keyPath": "transform.scale", "values": [0, 1, 0], "keyTimes": [0, 0.5, 1],
         "timingFunctions": ["easeInEaseOut", "easeInEaseOut"], "beginTime": -1, "duration": 2, "repeatCount": "infinity"}]}
    ]
  }]
}
"""#
}
