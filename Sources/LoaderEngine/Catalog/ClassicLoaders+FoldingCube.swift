extension ClassicLoaders {
    /// `folding-cube`: SpinKit 1.x's `folding-cube`, its own 40-px box
    /// turned 45°, in a 64-px canvas (the turned box's corners, its cubes
    /// scaled by 1.1, reach 29.7 px from its centre). The four cubes float
    /// left in document order (cube1, cube2, cube4, cube3), each scaled 1.1
    /// and turned a quarter more than the last about its centre; each one's
    /// `:before` face folds about its bottom-right corner
    /// (`transform-origin: 100% 100%`) under `perspective(140px)`, the
    /// layer's model matrix. `rotateX(0deg)` to `rotateY(180deg)` shares
    /// `rotate3d()`'s primitive and, one angle being zero, turns about the
    /// other's axis: the x angle holds at 0 while the y angle runs. The
    /// delays with `fill-mode: both` are begin times with `backwards`.
    static let foldingCube = #"""
{
  "format": 1.1,
  "name": "folding-cube",
  "summary": "Four squares folding in and out round a turned box (SpinKit folding-cube): each folds in over its bottom-right corner and fades in, holds, then folds away sideways and fades out, over 2.4 s, linear, 0.3 s apart.",
  "family": "SpinKit", "original": "folding-cube",
  "canvas": {"width": 64, "height": 64},
  "color": "#333333",
  "layers": [{
    "type": "layer", "id": "box", "position": [32, 32], "bounds": [40, 40], "transform": {"rotation": 0.7853981633974483},
    "sublayers": [
      {"type": "layer", "id": "cube1", "position": [10, 10], "bounds": [20, 20], "transform": {"scale": 1.1},
       "sublayers": [{
         "type": "rect", "id": "face1", "anchorPoint": [1, 1], "position": [20, 20], "bounds": [20, 20], "backgroundColor": "color",
         "transform": {"matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -0.007142857142857143, 0, 0, 0, 1]},
         "animations": [
          {"type": "keyframe", "keyPath": "transform.rotation.x", "values": [-3.141592653589793, -3.141592653589793, 0, 0, 0, 0], "keyTimes": [0, 0.1, 0.25, 0.75, 0.9, 1],
           "timingFunction": "linear", "duration": 2.4, "repeatCount": "infinity", "fillMode": "backwards"},
          {"type": "keyframe", "keyPath": "transform.rotation.y", "values": [0, 0, 0, 0, 3.141592653589793, 3.141592653589793], "keyTimes": [0, 0.1, 0.25, 0.75, 0.9, 1],
           "timingFunction": "linear", "duration": 2.4, "repeatCount": "infinity", "fillMode": "backwards"},
          {"type": "keyframe", "keyPath": "opacity", "values": [0, 0, 1, 1, 0, 0], "keyTimes": [0, 0.1, 0.25, 0.75, 0.9, 1],
           "timingFunction": "linear", "duration": 2.4, "repeatCount": "infinity", "fillMode": "backwards"}
         ]
       }]},
      {"type": "layer", "id": "cube2", "position": [30, 10], "bounds": [20, 20], "transform": {"scale": 1.1, "rotation": 1.5707963267948966},
       "sublayers": [{
         "type": "rect", "id": "face2", "anchorPoint": [1, 1], "position": [20, 20], "bounds": [20, 20], "backgroundColor": "color",
         "transform": {"matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -0.007142857142857143, 0, 0, 0, 1]},
         "animations": [
          {"type": "keyframe", "keyPath": "transform.rotation.x", "values": [-3.141592653589793, -3.141592653589793, 0, 0, 0, 0], "keyTimes": [0, 0.1, 0.25, 0.75, 0.9, 1],
           "timingFunction": "linear", "beginTime": 0.3, "duration": 2.4, "repeatCount": "infinity", "fillMode": "backwards"},
          {"type": "keyframe", "keyPath": "transform.rotation.y", "values": [0, 0, 0, 0, 3.141592653589793, 3.141592653589793], "keyTimes": [0, 0.1, 0.25, 0.75, 0.9, 1],
           "timingFunction": "linear", "beginTime": 0.3, "duration": 2.4, "repeatCount": "infinity", "fillMode": "backwards"},
          {"type": "keyframe", "keyPath": "opacity", "values": [0, 0, 1, 1, 0, 0], "keyTimes": [0, 0.1, 0.25, 0.75, 0.9, 1],
           "timingFunction": "linear", "beginTime": 0.3, "duration": 2.4, "repeatCount": "infinity", "fillMode": "backwards"}
         ]
       }]},
      {"type": "layer", "id": "cube4", "position": [10, 30], "bounds": [20, 20], "transform": {"scale": 1.1, "rotation": 4.71238898038469},
       "sublayers": [{
         "type": "rect", "id": "face4", "anchorPoint": [1, 1], "position": [20, 20], "bounds": [20, 20], "backgroundColor": "color",
         "transform": {"matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -0.007142857142857143, 0, 0, 0, 1]},
         "animations": [
          {"type": "keyframe", "keyPath": "transform.rotation.x", "values": [-3.141592653589793, -3.141592653589793, 0, 0, 0, 0], "keyTimes": [0, 0.1, 0.25, 0.75, 0.9, 1],
           "timingFunction": "linear", "beginTime": 0.9, "duration": 2.4, "repeatCount": "infinity", "fillMode": "backwards"},
          {"type": "keyframe", "keyPath": "transform.rotation.y", "values": [0, 0, 0, 0, 3.141592653589793, 3.141592653589793], "keyTimes": [0, 0.1, 0.25, 0.75, 0.9, 1],
           "timingFunction": "linear", "beginTime": 0.9, "duration": 2.4, "repeatCount": "infinity", "fillMode": "backwards"},
          {"type": "keyframe", "keyPath": "opacity", "values": [0, 0, 1, 1, 0, 0], "keyTimes": [0, 0.1, 0.25, 0.75, 0.9, 1],
           "timingFunction": "linear", "beginTime": 0.9, "duration": 2.4, "repeatCount": "infinity", "fillMode": "backwards"}
         ]
       }]},
      {"type": "layer", "id": "cube3", "position": [30, 30], "bounds": [20, 20], "transform": {"scale": 1.1, "rotation": 3.141592653589793},
       "sublayers": [{
         "type": "rect", "id": "face3", "anchorPoint": [1, 1], "position": [20, 20], "bounds": [20, 20], "backgroundColor": "color",
         "transform": {"matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -0.007142857142857143, 0, 0, 0, 1]},
         "animations": [
          {"type": "keyframe", "keyPath": "transform.rotation.x", "values": [-3.141592653589793, -3.141592653589793, 0, 0, 0, 0], "keyTimes": [0, 0.1, 0.25, 0.75, 0.9, 1],
           "timingFunction": "linear", "beginTime": 0.6, "duration": 2.4, "repeatCount": "infinity", "fillMode": "backwards"},
          {"type": "keyframe", "keyPath": "transform.rotation.y", "values": [0, 0, 0, 0, 3.141592653589793, 3.141592653589793], "keyTimes": [0, 0.1, 0.25, 0.75, 0.9, 1],
           "timingFunction": "linear", "beginTime": 0.6, "duration": 2.4, "repeatCount": "infinity", "fillMode": "backwards"},
          {"type": "keyframe", "keyPath": "opacity", "values": [0, 0, 1, 1, 0, 0], "keyTimes": [0, 0.1, 0.25, 0.75, 0.9, 1],
           "timingFunction": "linear", "beginTime": 0.6, "duration": 2.4, "repeatCount": "infinity", "fillMode": "backwards"}
         ]
       }]}
    ]
  }]
}
"""#
}
