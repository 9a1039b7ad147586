extension ClassicLoaders {
    /// `ball-beat`: NVActivityIndicatorView's `ballBeat` at size 40. The
    /// original sets no duration on the group's two animations, which Core
    /// Animation then runs for the group's; here they say so.
    static let ballBeat = #"""
{
  "format": 1,
  "name": "ball-beat",
  "summary": "Three dots beating (NVActivityIndicatorView ballBeat): each shrinks to 0.75 and dims to 0.2 and back, every 0.7 s, the middle one half a beat ahead.",
  "family": "NVActivityIndicatorView", "original": "ballBeat",
  "canvas": {"width": 40, "height": 40},
  "color": "#333333",
  "layers": [
    {"type": "circle", "id": "dot0", "position": [6, 20], "diameter": 12, "backgroundColor": "color",
     "animations": [{"type": "group", "beginTime": 0.35, "duration": 0.7, "repeatCount": "infinity", "animations": [
       {"type": "keyframe", "keyPath": "transform.scale", "values": [1, 0.75, 1], "keyTimes": [0, 0.5, 1], "duration": 0.7},
       {"type": "keyframe", "keyPath": "opacity", "values": [1, 0.2, 1], "keyTimes": [0, 0.5, 1], "duration": 0.7}]}]},
    {"type": "circle", "id": "dot1", "position": [20, 20], "diameter": 12, "backgroundColor": "color",
     "animations": [{"type": "group", "beginTime": 0, "duration": 0.7, "repeatCount": "infinity", "animations": [
       {"type": "keyframe", "keyPath": "transform.scale", "values": [1, 0.75, 1], "keyTimes": [0, 0.5, 1], "duration": 0.7},
       {"type": "keyframe", "keyPath": "opacity", "values": [1, 0.2, 1], "keyTimes": [0, 0.5, 1], "duration": 0.7}]}]},
    {"type": "circle", "id": "dot2", "position": [34, 20], "diameter": 12, "backgroundColor": "color",
     "animations": [{"type": "group", "beginTime": 0.35, "duration": 0.7, "repeatCount": "infinity", "animations": [
       {"type": "keyframe", "keyPath": "transform.scale", "values": [1, 0.75, 1], "keyTimes": [0, 0.5, 1], "duration": 0.7},
       {"type": "keyframe", "keyPath": "opacity", "values": [1, 0.2, 1], "keyTimes": [0, 0.5, 1], "duration": 0.7}]}]}
  ]
}
"""#
}
