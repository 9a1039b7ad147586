extension ClassicLoaders {
    /// `pacman`, as a definition in the loader format.
    static let pacman = #"""
{
  "format": 1,
  "name": "pacman",
  "summary": "A pac-man (NVActivityIndicatorView pacman): a mouth that opens and closes every 0.5 s and a dot that moves into it every second.",
  "family": "NVActivityIndicatorView", "original": "pacman",
  "canvas": {"width": 60, "height": 60},
  "color": "#FFCC00",
  "layers": [
    {"type": "circle", "id": "food", "position": [54, 30], "diameter": 12, "backgroundColor": "color",
     "animations": [
       {"type": "group", "duration": 1, "repeatCount": "infinity", "animations": [
         {"type": "basic", "keyPath": "position.x", "fromValue": 54, "byValue": -30, "duration": 1},
         {"type": "basic", "keyPath": "opacity", "fromValue": 1, "toValue": 0.7, "duration": 1}
       ]}
     ]},
    {"type": "ring", "id": "pacman", "position": [20, 30], "diameter": 20, "lineWidth": 20,
     "strokeColor": "color", "strokeStart": 0.125, "strokeEnd": 0.875,
     "transform": {"rotation": 1.5707963267948966},
     "animations": [
       {"type": "group", "duration": 0.5, "repeatCount": "infinity", "animations": [
         {"type": "keyframe", "keyPath": "strokeStart", "values": [0.125, 0, 0.125], "keyTimes": [0, 0.5, 1],
          "timingFunctions": ["default", "default"], "duration": 0.5},
         {"type": "keyframe", "keyPath": "strokeEnd", "values": [0.875, 1, 0.875], "keyTimes": [0, 0.5, 1],
          "timingFunctions": ["default", "default"], "duration": 0.5}
       ]}
     ]}
  ]
}
"""#
}
