extension ClassicLoaders {
    /// `wandering-cubes`: SpinKit's `wandering-cubes` in its own 40-px box:
    /// two 10-px squares from its top-left corner round its corners in
    /// 1.8 s, `ease-in-out` between keyframes, half a cycle apart. CSS
    /// interpolates each keyframe pair's transform lists (by function where
    /// their functions match, by decomposed matrix where they do not); for
    /// these lists both give a translation, a rotation and a scale moving
    /// together, which are the three animations here.
    static let wanderingCubes = #"""
{
  "format": 1,
  "name": "wandering-cubes",
  "summary": "Two squares wandering round the corners of their box (SpinKit wandering-cubes): each side in 0.45 s, ease-in-out, turning a quarter and shrinking to half and back, half a cycle apart.",
  "family": "SpinKit", "original": "wandering-cubes",
  "canvas": {"width": 40, "height": 40},
  "color": "#333333",
  "layers": [{
    "type": "replicator", "id": "box", "position": [20, 20], "bounds": [40, 40], "instanceCount": 2, "instanceDelay": -0.9,
    "sublayers": [{
      "type": "rect", "id": "cube", "position": [5, 5], "bounds": [10, 10], "backgroundColor": "color",
      "animations": [
        {"type": "keyframe", "keyPath": "position", "values": [[5, 5], [35, 5], [35, 35], [35, 35], [5, 35], [5, 5]],
         "keyTimes": [0, 0.25, 0.5, 0.501, 0.75, 1],
         "timingFunctions": ["easeInEaseOut", "easeInEaseOut", "easeInEaseOut", "easeInEaseOut", "easeInEaseOut"], "duration": 1.8, "repeatCount": "infinity"},
        {"type": "keyframe", "keyPath": "transform.rotation.z",
         "values": [0, -1.5707963267948966, -3.12413936106985, -3.141592653589793, -4.71238898038469, -6.283185307179586],
         "keyTimes": [0, 0.25, 0.5, 0.501, 0.75, 1],
         "timingFunctions": ["easeInEaseOut", "easeInEaseOut", "easeInEaseOut", "easeInEaseOut", "easeInEaseOut"], "duration": 1.8, "repeatCount": "infinity"},
        {"type": "keyframe", "keyPath": "transform.scale", "values": [1, 0.5, 1, 1, 0.5, 1],
         "keyTimes": [0, 0.25, 0.5, 0.501, 0.75, 1],
         "timingFunctions": ["easeInEaseOut", "easeInEaseOut", "easeInEaseOut", "easeInEaseOut", "easeInEaseOut"], "duration": 1.8, "repeatCount": "infinity"}
      ]
    }]
  }]
}
"""#
}
