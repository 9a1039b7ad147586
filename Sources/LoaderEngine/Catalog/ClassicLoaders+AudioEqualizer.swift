extension ClassicLoaders {
    /// `audio-equalizer`: NVActivityIndicatorView's `audioEqualizer` at size
    /// 40: four bars size/9 wide, a bar apart, centred, each standing on the
    /// bottom edge with its height through twelve values of the size, evenly
    /// spaced and linear, on a cycle of its own (4.3, 2.5, 1.7, 3.1 s). The
    /// source animates the bars' `path` additively, adding these rectangles
    /// to the bar's rounded rectangle, a path of another number of points,
    /// which Core Animation does not define; the catalogue draws the
    /// rectangles (docs/LOADERS.md). Height and centre move together, so the
    /// foot stays on the edge.
    static let audioEqualizer = #"""
{
  "format": 1,
  "name": "audio-equalizer",
  "summary": "Four bars rising and falling like an audio meter (NVActivityIndicatorView audioEqualizer): each through twelve heights on a cycle of its own, 1.7 to 4.3 s.",
  "family": "NVActivityIndicatorView", "original": "audioEqualizer",
  "canvas": {"width": 40, "height": 40},
  "color": "#333333",
  "layers": [
    {"type": "rect", "id": "bar0", "position": [6.666666666666665, 40], "bounds": [4.444444444444445, 0], "backgroundColor": "color",
     "animations": [
       {"type": "keyframe", "keyPath": "bounds.size.height", "values": [0, 28, 16, 2, 38, 12, 36, 16, 6, 7.2, 30, 0.4], "duration": 4.3, "repeatCount": "infinity"},
       {"type": "keyframe", "keyPath": "position.y", "values": [40, 26, 32, 39, 21, 34, 22, 32, 37, 36.4, 25, 39.8], "duration": 4.3, "repeatCount": "infinity"}]},
    {"type": "rect", "id": "bar1", "position": [15.555555555555554, 40], "bounds": [4.444444444444445, 0], "backgroundColor": "color",
     "animations": [
       {"type": "keyframe", "keyPath": "bounds.size.height", "values": [0, 28, 16, 2, 38, 12, 36, 16, 6, 7.2, 30, 0.4], "duration": 2.5, "repeatCount": "infinity"},
       {"type": "keyframe", "keyPath": "position.y", "values": [40, 26, 32, 39, 21, 34, 22, 32, 37, 36.4, 25, 39.8], "duration": 2.5, "repeatCount": "infinity"}]},
    {"type": "rect", "id": "bar2", "position": [24.444444444444443, 40], "bounds": [4.444444444444445, 0], "backgroundColor": "color",
     "animations": [
       {"type": "keyframe", "keyPath": "bounds.size.height", "values": [0, 28, 16, 2, 38, 12, 36, 16, 6, 7.2, 30, 0.4], "duration": 1.7, "repeatCount": "infinity"},
       {"type": "keyframe", "keyPath": "position.y", "values": [40, 26, 32, 39, 21, 34, 22, 32, 37, 36.4, 25, 39.8], "duration": 1.7, "repeatCount": "infinity"}]},
    {"type": "rect", "id": "bar3", "position": [33.333333333333336, 40], "bounds": [4.444444444444445, 0], "backgroundColor": "color",
     "animations": [
       {"type": "keyframe", "keyPath": "bounds.size.height", "values": [0, 28, 16, 2, 38, 12, 36, 16, 6, 7.2, 30, 0.4], "duration": 3.1, "repeatCount": "infinity"},
       {"type": "keyframe", "keyPath": "position.y", "values": [40, 26, 32, 39, 21, 34, 22, 32, 37, 36.4, 25, 39.8], "duration": 3.1, "repeatCount": "infinity"}]}
  ]
}
"""#
}
