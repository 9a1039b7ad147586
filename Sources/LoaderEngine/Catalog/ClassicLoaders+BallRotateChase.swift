extension ClassicLoaders {
    /// `ball-rotate-chase`: NVActivityIndicatorView's `ballRotateChase` at
    /// size 40: five dots a fifth of the size round a circle through their
    /// centres, each in a 1.5-s group whose curve is a little later than
    /// the one before. The circle is the original's `UIBezierPath` arc from
    /// 12 o'clock, clockwise, as Core Graphics builds it: four cubic
    /// quarters (control points 4/3 × tan(π/8) of the radius along the
    /// tangents); a keyframe animation on a path gives each segment an
    /// equal share of the time and follows its own parameter. The rates,
    /// curves and scales are the source's `Float` sums, written exactly.
    static let ballRotateChase = #"""
{
  "format": 1,
  "name": "ball-rotate-chase",
  "summary": "Five dots chasing round a circle (NVActivityIndicatorView ballRotateChase): each goes round once in 1.5 s, shrinking or growing, on a curve a little later than the one before.",
  "family": "NVActivityIndicatorView", "original": "ballRotateChase",
  "canvas": {"width": 40, "height": 40},
  "color": "#333333",
  "layers": [
    {"type": "circle", "id": "ball0", "position": [20, 4], "diameter": 8, "backgroundColor": "color",
     "animations": [{"type": "group", "duration": 1.5, "repeatCount": "infinity", "timingFunction": [0.5, 0.15000000596046448, 0.25, 1], "animations": [
       {"type": "basic", "keyPath": "transform.scale", "fromValue": 1, "toValue": 0.20000000298023224, "duration": 1.5, "repeatCount": "infinity"},
       {"type": "keyframe", "keyPath": "position", "path": "M20 4 C28.836555997293 4 36 11.163444002707 36 20 C36 28.836555997293 28.836555997293 36 20 36 C11.163444002707 36 4 28.836555997293 4 20 C4 11.163444002707 11.163444002707 4 20 4", "duration": 1.5, "repeatCount": "infinity"}]}]},
    {"type": "circle", "id": "ball1", "position": [20, 4], "diameter": 8, "backgroundColor": "color",
     "animations": [{"type": "group", "duration": 1.5, "repeatCount": "infinity", "timingFunction": [0.5, 0.3500000238418579, 0.25, 1], "animations": [
       {"type": "basic", "keyPath": "transform.scale", "fromValue": 0.800000011920929, "toValue": 0.4000000059604645, "duration": 1.5, "repeatCount": "infinity"},
       {"type": "keyframe", "keyPath": "position", "path": "M20 4 C28.836555997293 4 36 11.163444002707 36 20 C36 28.836555997293 28.836555997293 36 20 36 C11.163444002707 36 4 28.836555997293 4 20 C4 11.163444002707 11.163444002707 4 20 4", "duration": 1.5, "repeatCount": "infinity"}]}]},
    {"type": "circle", "id": "ball2", "position": [20, 4], "diameter": 8, "backgroundColor": "color",
     "animations": [{"type": "group", "duration": 1.5, "repeatCount": "infinity", "timingFunction": [0.5, 0.550000011920929, 0.25, 1], "animations": [
       {"type": "basic", "keyPath": "transform.scale", "fromValue": 0.6000000238418579, "toValue": 0.6000000238418579, "duration": 1.5, "repeatCount": "infinity"},
       {"type": "keyframe", "keyPath": "position", "path": "M20 4 C28.836555997293 4 36 11.163444002707 36 20 C36 28.836555997293 28.836555997293 36 20 36 C11.163444002707 36 4 28.836555997293 4 20 C4 11.163444002707 11.163444002707 4 20 4", "duration": 1.5, "repeatCount": "infinity"}]}]},
    {"type": "circle", "id": "ball3", "position": [20, 4], "diameter": 8, "backgroundColor": "color",
     "animations": [{"type": "group", "duration": 1.5, "repeatCount": "infinity", "timingFunction": [0.5, 0.75, 0.25, 1], "animations": [
       {"type": "basic", "keyPath": "transform.scale", "fromValue": 0.3999999761581421, "toValue": 0.800000011920929, "duration": 1.5, "repeatCount": "infinity"},
       {"type": "keyframe", "keyPath": "position", "path": "M20 4 C28.836555997293 4 36 11.163444002707 36 20 C36 28.836555997293 28.836555997293 36 20 36 C11.163444002707 36 4 28.836555997293 4 20 C4 11.163444002707 11.163444002707 4 20 4", "duration": 1.5, "repeatCount": "infinity"}]}]},
    {"type": "circle", "id": "ball4", "position": [20, 4], "diameter": 8, "backgroundColor": "color",
     "animations": [{"type": "group", "duration": 1.5, "repeatCount": "infinity", "timingFunction": [0.5, 0.9500000476837158, 0.25, 1], "animations": [
       {"type": "basic", "keyPath": "transform.scale", "fromValue": 0.19999998807907104, "toValue": 1, "duration": 1.5, "repeatCount": "infinity"},
       {"type": "keyframe", "keyPath": "position", "path": "M20 4 C28.836555997293 4 36 11.163444002707 36 20 C36 28.836555997293 28.836555997293 36 20 36 C11.163444002707 36 4 28.836555997293 4 20 C4 11.163444002707 11.163444002707 4 20 4", "duration": 1.5, "repeatCount": "infinity"}]}]}
  ]
}
"""#
}
