extension ClassicLoaders {
    /// `ball-triangle-path`: NVActivityIndicatorView's `ballTrianglePath` at
    /// size 38, padding 1 (2-pt rings): three rings size/5 wide moving round
    /// the corners of a triangle (`transform` translations as positions).
    static let ballTrianglePath = #"""
{
  "format": 1,
  "name": "ball-triangle-path",
  "summary": "Three rings chasing each other round a triangle (NVActivityIndicatorView ballTrianglePath): a corner each, key times 0, 0.33, 0.66, 1 of 2 s, easeInEaseOut.",
  "family": "NVActivityIndicatorView", "original": "ballTrianglePath",
  "canvas": {"width": 40, "height": 40},
  "color": "#333333",
  "layers": [
    {"type": "ring", "id": "top", "position": [20, 4.8], "diameter": 7.6, "lineWidth": 2, "strokeColor": "color",
     "animations": [{"type": "keyframe", "keyPath": "position", "values": [[20, 4.8], [35.2, 35.2], [4.8, 35.2], [20, 4.8]], "keyTimes": [0, 0.33, 0.66, 1],
       "timingFunctions": ["easeInEaseOut", "easeInEaseOut", "easeInEaseOut"], "duration": 2, "repeatCount": "infinity"}]},
    {"type": "ring", "id": "left", "position": [4.8, 35.2], "diameter": 7.6, "lineWidth": 2, "strokeColor": "color",
     "animations": [{"type": "keyframe", "keyPath": "position", "values": [[4.8, 35.2], [20, 4.8], [35.2, 35.2], [4.8, 35.2]], "keyTimes": [0, 0.33, 0.66, 1],
       "timingFunctions": ["easeInEaseOut", "easeInEaseOut", "easeInEaseOut"], "duration": 2, "repeatCount": "infinity"}]},
    {"type": "ring", "id": "right", "position": [35.2, 35.2], "diameter": 7.6, "lineWidth": 2, "strokeColor": "color",
     "animations": [{"type": "keyframe", "keyPath": "position", "values": [[35.2, 35.2], [4.8, 35.2], [20, 4.8], [35.2, 35.2]], "keyTimes": [0, 0.33, 0.66, 1],
       "timingFunctions": ["easeInEaseOut", "easeInEaseOut", "easeInEaseOut"], "duration": 2, "repeatCount": "infinity"}]}
  ]
}
"""#
}
