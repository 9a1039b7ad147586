extension ClassicLoaders {
    /// `ball-clip-rotate-multiple`: NVActivityIndicatorView's
    /// `ballClipRotateMultiple` at size 38, padding 1: `ringTwoHalfHorizontal`
    /// (quarter arcs at 3 and 9 o'clock) the size's width, turning clockwise,
    /// and `ringTwoHalfVertical` (at 12 and 6 o'clock, in a layer turned −45°
    /// as in `ball-clip-rotate-pulse`) half as wide, turning back.
    static let ballClipRotateMultiple = #"""
{
  "format": 1,
  "name": "ball-clip-rotate-multiple",
  "summary": "Two pairs of quarter arcs turning opposite ways (NVActivityIndicatorView ballClipRotateMultiple): each turns once and shrinks to 0.6 and back every second, easeInEaseOut.",
  "family": "NVActivityIndicatorView", "original": "ballClipRotateMultiple",
  "canvas": {"width": 40, "height": 40},
  "color": "#333333",
  "layers": [
       {"type": "ring", "id": "left", "position": [20, 20], "diameter": 38, "lineWidth": 2, "strokeColor": "color", "strokeStart": 0.625, "strokeEnd": 0.875,
        "animations": [{"type": "group", "duration": 1, "repeatCount": "infinity", "animations": [
          {"type": "keyframe", "keyPath": "transform.scale", "values": [1, 0.6, 1], "keyTimes": [0, 0.5, 1],
           "timingFunctions": ["easeInEaseOut", "easeInEaseOut"], "duration": 1},
          {"type": "keyframe", "keyPath": "transform.rotation.z", "values": [0, 3.141592653589793, 6.283185307179586], "keyTimes": [0, 0.5, 1],
           "timingFunctions": ["easeInEaseOut", "easeInEaseOut"], "duration": 1}]}]},
       {"type": "ring", "id": "right", "position": [20, 20], "diameter": 38, "lineWidth": 2, "strokeColor": "color", "strokeStart": 0.125, "strokeEnd": 0.375,
        "animations": [{"type": "group", "duration": 1, "repeatCount": "infinity", "animations": [
          {"type": "keyframe", "keyPath": "transform.scale", "values": [1, 0.6, 1], "keyTimes": [0, 0.5, 1],
           "timingFunctions": ["easeInEaseOut", "easeInEaseOut"], "duration": 1},
          {"type": "keyframe", "keyPath": "transform.rotation.z", "values": [0, 3.141592653589793, 6.283185307179586], "keyTimes": [0, 0.5, 1],
           "timingFunctions": ["easeInEaseOut", "easeInEaseOut"], "duration": 1}]}]},
    {"type": "replicator", "id": "inner", "position": [20, 20], "bounds": [40, 40], "transform": {"rotation": -0.7853981633974483},
     "sublayers": [
       {"type": "ring", "id": "top", "position": [20, 20], "diameter": 19, "lineWidth": 2, "strokeColor": "color", "strokeStart": 0, "strokeEnd": 0.25,
        "animations": [{"type": "group", "duration": 1, "repeatCount": "infinity", "animations": [
          {"type": "keyframe", "keyPath": "transform.scale", "values": [1, 0.6, 1], "keyTimes": [0, 0.5, 1],
           "timingFunctions": ["easeInEaseOut", "easeInEaseOut"], "duration": 1},
          {"type": "keyframe", "keyPath": "transform.rotation.z", "values": [0, -3.141592653589793, -6.283185307179586], "keyTimes": [0, 0.5, 1],
           "timingFunctions": ["easeInEaseOut", "easeInEaseOut"], "duration": 1}]}]},
       {"type": "ring", "id": "bottom", "position": [20, 20], "diameter": 19, "lineWidth": 2, "strokeColor": "color", "strokeStart": 0.5, "strokeEnd": 0.75,
        "animations": [{"type": "group", "duration": 1, "repeatCount": "infinity", "animations": [
          {"type": "keyframe", "keyPath": "transform.scale", "values": [1, 0.6, 1], "keyTimes": [0, 0.5, 1],
           "timingFunctions": ["easeInEaseOut", "easeInEaseOut"], "duration": 1},
          {"type": "keyframe", "keyPath": "transform.rotation.z", "values": [0, -3.141592653589793, -6.283185307179586], "keyTimes": [0, 0.5, 1],
           "timingFunctions": ["easeInEaseOut", "easeInEaseOut"], "duration": 1}]}]}
     ]}
  ]
}
"""#
}
