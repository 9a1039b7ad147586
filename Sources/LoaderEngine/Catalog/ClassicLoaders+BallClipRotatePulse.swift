extension ClassicLoaders {
    /// `ball-clip-rotate-pulse`: NVActivityIndicatorView's
    /// `ballClipRotatePulse` at size 38, padding 1. Its `ringTwoHalfVertical`
    /// (two quarter arcs, at 12 and at 6 o'clock, in one shape layer) is two
    /// rings in a layer turned −45°, so that both arcs are trims from its
    /// 12 o'clock and turn as one.
    static let ballClipRotatePulse = #"""
{
  "format": 1,
  "name": "ball-clip-rotate-pulse",
  "summary": "A dot pulsing inside two turning quarter arcs (NVActivityIndicatorView ballClipRotatePulse): the dot scales 1 \u2192 0.3 \u2192 1, the arcs turn once and shrink to 0.6 and back, every second.",
  "family": "NVActivityIndicatorView", "original": "ballClipRotatePulse",
  "canvas": {"width": 40, "height": 40},
  "color": "#333333",
  "layers": [
    {"type": "circle", "id": "dot", "position": [20, 20], "diameter": 19, "backgroundColor": "color",
     "animations": [{"type": "keyframe", "keyPath": "transform.scale", "values": [1, 0.3, 1], "keyTimes": [0, 0.3, 1],
       "timingFunctions": [[0.09, 0.57, 0.49, 0.9], [0.09, 0.57, 0.49, 0.9]], "duration": 1, "repeatCount": "infinity"}]},
    {"type": "replicator", "id": "arcs", "position": [20, 20], "bounds": [40, 40], "transform": {"rotation": -0.7853981633974483},
     "sublayers": [
       {"type": "ring", "id": "top", "position": [20, 20], "diameter": 38, "lineWidth": 2, "strokeColor": "color", "strokeStart": 0, "strokeEnd": 0.25,
        "animations": [{"type": "group", "duration": 1, "repeatCount": "infinity", "animations": [
          {"type": "keyframe", "keyPath": "transform.scale", "values": [1, 0.6, 1], "keyTimes": [0, 0.5, 1],
           "timingFunctions": [[0.09, 0.57, 0.49, 0.9], [0.09, 0.57, 0.49, 0.9]], "duration": 1},
          {"type": "keyframe", "keyPath": "transform.rotation.z", "values": [0, 3.141592653589793, 6.283185307179586], "keyTimes": [0, 0.5, 1],
           "timingFunctions": [[0.09, 0.57, 0.49, 0.9], [0.09, 0.57, 0.49, 0.9]], "duration": 1}]}]},
       {"type": "ring", "id": "bottom", "position": [20, 20], "diameter": 38, "lineWidth": 2, "strokeColor": "color", "strokeStart": 0.5, "strokeEnd": 0.75,
        "animations": [{"type": "group", "duration": 1, "repeatCount": "infinity", "animations": [
          {"type": "keyframe", "keyPath": "transform.scale", "values": [1, 0.6, 1], "keyTimes": [0, 0.5, 1],
           "timingFunctions": [[0.09, 0.57, 0.49, 0.9], [0.09, 0.57, 0.49, 0.9]], "duration": 1},
          {"type": "keyframe", "keyPath": "transform.rotation.z", "values": [0, 3.141592653589793, 6.283185307179586], "keyTimes": [0, 0.5, 1],
           "timingFunctions": [[0.09, 0.57, 0.49, 0.9], [0.09, 0.57, 0.49, 0.9]], "duration": 1}]}]}
     ]}
  ]
}
"""#
}
