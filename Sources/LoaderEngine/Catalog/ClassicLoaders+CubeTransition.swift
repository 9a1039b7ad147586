extension ClassicLoaders {
    /// `cube-transition`: NVActivityIndicatorView's `cubeTransition` at
    /// size 40: two squares a fifth of the size going round the corners,
    /// half a cycle apart. Its `transform.translation` is animated as the
    /// squares' positions: Core Animation applies a transform's translation
    /// outside its rotation and scale, so it moves the square as a position
    /// does.
    static let cubeTransition = #"""
{
  "format": 1,
  "name": "cube-transition",
  "summary": "Two squares swapping corners (NVActivityIndicatorView cubeTransition): each goes round the four corners in 1.6 s, turning a quarter and shrinking to half between corners, easeInEaseOut, half a cycle apart.",
  "family": "NVActivityIndicatorView", "original": "cubeTransition",
  "canvas": {"width": 40, "height": 40},
  "color": "#333333",
  "layers": [{
    "type": "replicator", "id": "squares", "position": [20, 20], "bounds": [40, 40],
    "instanceCount": 2, "instanceDelay": -0.8,
    "sublayers": [{
      "type": "rect", "id": "square", "position": [4, 4], "bounds": [8, 8], "backgroundColor": "color",
      "animations": [
        {"type": "group", "duration": 1.6, "repeatCount": "infinity", "animations": [
          {"type": "keyframe", "keyPath": "transform.scale", "values": [1, 0.5, 1, 0.5, 1], "keyTimes": [0, 0.25, 0.5, 0.75, 1],
           "timingFunctions": ["easeInEaseOut", "easeInEaseOut", "easeInEaseOut", "easeInEaseOut"], "duration": 1.6},
          {"type": "keyframe", "keyPath": "position", "values": [[4, 4], [36, 4], [36, 36], [4, 36], [4, 4]], "keyTimes": [0, 0.25, 0.5, 0.75, 1],
           "timingFunctions": ["easeInEaseOut", "easeInEaseOut", "easeInEaseOut", "easeInEaseOut"], "duration": 1.6},
          {"type": "keyframe", "keyPath": "transform.rotation.z", "values": [0, -1.5707963267948966, -3.141592653589793, -4.71238898038469, -6.283185307179586],
           "keyTimes": [0, 0.25, 0.5, 0.75, 1],
           "timingFunctions": ["easeInEaseOut", "easeInEaseOut", "easeInEaseOut", "easeInEaseOut"], "duration": 1.6}
        ]}
      ]
    }]
  }]
}
"""#
}
