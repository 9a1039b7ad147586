extension ClassicLoaders {
    /// `orbit`: NVActivityIndicatorView's `orbit` at size 40: a core of
    /// size / 2.75 pulsing 1 → 1.3 → 1.3 → 1 in 1.9 s, two rings of the
    /// core's size growing out of it and fading, and a satellite a quarter
    /// of the core on an arc round the centre. Two readings of the source
    /// where Core Animation does not document what it does (docs/LOADERS.md):
    /// the satellite's path is the `UIBezierPath` arc of 4π as written, two
    /// turns of cubic quarters in its 3.8 s, so one turn per 1.9 s; and a
    /// keyframe leg with no timing function of its own (the rings' scale has
    /// two curves for three legs) runs linear, so both rings grow linearly.
    static let orbit = #"""
{
  "format": 1,
  "name": "orbit",
  "summary": "A satellite orbiting a pulsing core (NVActivityIndicatorView orbit): it goes round once every 1.9 s as the core swells and two rings grow out of it and fade.",
  "family": "NVActivityIndicatorView", "original": "orbit",
  "canvas": {"width": 40, "height": 40},
  "color": "#333333",
  "layers": [
    {"type": "circle", "id": "ring1", "position": [20, 20], "diameter": 14.545454545454545, "backgroundColor": "color",
     "animations": [{"type": "group", "duration": 1.9, "repeatCount": "infinity", "removedOnCompletion": false, "animations": [
       {"type": "keyframe", "keyPath": "transform.scale", "values": [0, 0, 1.3, 2], "keyTimes": [0, 0.45, 0.45, 1], "duration": 1.9},
       {"type": "keyframe", "keyPath": "opacity", "values": [0.8, 0.8, 0], "keyTimes": [0, 0.45, 1], "duration": 1.9}]}]},
    {"type": "circle", "id": "ring2", "position": [20, 20], "diameter": 14.545454545454545, "backgroundColor": "color",
     "animations": [{"type": "group", "duration": 1.9, "repeatCount": "infinity", "removedOnCompletion": false, "animations": [
       {"type": "keyframe", "keyPath": "transform.scale", "values": [0, 0, 1.3, 2.1], "keyTimes": [0, 0.55, 0.55, 1], "duration": 1.9},
       {"type": "keyframe", "keyPath": "opacity", "values": [0.7, 0.7, 0, 0], "keyTimes": [0, 0.55, 0.65, 1], "duration": 1.9}]}]},
    {"type": "circle", "id": "core", "position": [20, 20], "diameter": 14.545454545454545, "backgroundColor": "color",
     "animations": [{"type": "keyframe", "keyPath": "transform.scale", "values": [1, 1.3, 1.3, 1], "keyTimes": [0, 0.45, 0.55, 1],
       "timingFunctions": [[0.7, 0, 1, 0.5], "linear", [0, 0.7, 0.5, 1]], "duration": 1.9, "repeatCount": "infinity", "removedOnCompletion": false}]},
    {"type": "circle", "id": "satellite", "position": [1.8181818181818181, 1.8181818181818181], "diameter": 3.6363636363636362, "backgroundColor": "color",
     "animations": [{"type": "keyframe", "keyPath": "position",
       "path": "M20 1.818181818182 C30.041540906014 1.818181818182 38.181818181818 9.958459093986 38.181818181818 20 C38.181818181818 30.041540906014 30.041540906014 38.181818181818 20 38.181818181818 C9.958459093986 38.181818181818 1.818181818182 30.041540906014 1.818181818182 20 C1.818181818182 9.958459093986 9.958459093986 1.818181818182 20 1.818181818182 C30.041540906014 1.818181818182 38.181818181818 9.958459093986 38.181818181818 20 C38.181818181818 30.041540906014 30.041540906014 38.181818181818 20 38.181818181818 C9.958459093986 38.181818181818 1.818181818182 30.041540906014 1.818181818182 20 C1.818181818182 9.958459093986 9.958459093986 1.818181818182 20 1.818181818182",
       "duration": 3.8, "repeatCount": "infinity", "removedOnCompletion": false}]}
  ]
}
"""#
}
