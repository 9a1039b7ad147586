extension ClassicLoaders {
    /// `material-spinner`, as a definition in the loader format: MDC's
    /// indeterminate circular progress, large (48 px, 4-px stroke, r = 18).
    ///
    /// MDC draws the arc as two clipped half-circles turning against each
    /// other inside a layer that steps 135° per half arc. Summed, while the
    /// arc grows its tail stands still and its head sweeps 270°; while it
    /// shrinks the head stands still and the tail catches up; the arc is
    /// 10° long at its shortest and 280° at its longest. Here that sum is
    /// one ring: in the layer's turn, its start turns −5° → −140° → −5°
    /// (from 12 o'clock) while its end trims 10° → 280° → 10°, on the same
    /// curve, so the picture is the original's at every moment.
    static let materialSpinner = #"""
{
  "format": 1,
  "name": "material-spinner",
  "summary": "Material Design's indeterminate circular progress (MDC circular-progress): every 1333 ms an arc grows from 10\u00b0 to 280\u00b0 with its tail still, then shrinks with its head still, cubic-bezier(0.4, 0, 0.2, 1), its layer stepping 135\u00b0 a half, in a container turning once per 1568.235 ms.",
  "family": "Material", "original": "circular-progress",
  "canvas": {"width": 48, "height": 48},
  "color": "#6200EE",
  "layers": [{
    "type": "replicator", "id": "container", "position": [24, 24], "bounds": [48, 48],
    "animations": [
      {"type": "basic", "keyPath": "transform.rotation.z", "fromValue": 0, "byValue": 106.81415022205297,
       "duration": 26.66, "repeatCount": "infinity"}
    ],
    "sublayers": [{
      "type": "replicator", "id": "layer", "position": [24, 24], "bounds": [48, 48],
      "animations": [
        {"type": "keyframe", "keyPath": "transform.rotation.z",
         "values": [0, 2.356194490192345, 4.71238898038469, 7.0685834705770345, 9.42477796076938,
                    11.780972450961723, 14.137166941154069, 16.493361431346415, 18.84955592153876],
         "timingFunctions": [[0.4, 0, 0.2, 1], [0.4, 0, 0.2, 1], [0.4, 0, 0.2, 1], [0.4, 0, 0.2, 1],
                             [0.4, 0, 0.2, 1], [0.4, 0, 0.2, 1], [0.4, 0, 0.2, 1], [0.4, 0, 0.2, 1]],
         "duration": 5.332, "repeatCount": "infinity"}
      ],
      "sublayers": [{
        "type": "ring", "id": "arc", "position": [24, 24], "diameter": 36, "lineWidth": 4,
        "strokeColor": "color", "strokeStart": 0, "strokeEnd": 0.027777777777777776, "lineCap": "butt",
        "transform": {"rotation": -0.08726646259971647},
        "animations": [
          {"type": "group", "duration": 1.333, "repeatCount": "infinity", "animations": [
            {"type": "keyframe", "keyPath": "transform.rotation.z",
             "values": [-0.08726646259971647, -2.443460952792061, -0.08726646259971647], "keyTimes": [0, 0.5, 1],
             "timingFunctions": [[0.4, 0, 0.2, 1], [0.4, 0, 0.2, 1]], "duration": 1.333},
            {"type": "keyframe", "keyPath": "strokeEnd",
             "values": [0.027777777777777776, 0.7777777777777778, 0.027777777777777776], "keyTimes": [0, 0.5, 1],
             "timingFunctions": [[0.4, 0, 0.2, 1], [0.4, 0, 0.2, 1]], "duration": 1.333}
          ]}
        ]
      }]
    }]
  }]
}
"""#
}
