extension ClassicLoaders {
    /// `material-spinner`, as a definition in the loader format.
    static let materialSpinner = #"""
{
  "format": 1,
  "name": "material-spinner",
  "summary": "Material Design's circular indeterminate progress (MDC): an arc grows to 270\u00b0 and shrinks every 1333 ms while its layer steps 135\u00b0 per half with cubic-bezier(0.4, 0, 0.2, 1), in a container turning once per 1568.235 ms.",
  "canvas": {
    "width": 48,
    "height": 48
  },
  "background": "#FFFFFF",
  "color": "#6200EE",
  "layers": [
    {
      "type": "replicator",
      "id": "container",
      "position": [
        24,
        24
      ],
      "bounds": [
        48,
        48
      ],
      "animations": [
        {
          "type": "basic",
          "keyPath": "transform.rotation.z",
          "fromValue": 0,
          "byValue": 106.81415022205297,
          "duration": 26.66,
          "repeatCount": "infinity"
        }
      ],
      "sublayers": [
        {
          "type": "replicator",
          "id": "layer",
          "position": [
            24,
            24
          ],
          "bounds": [
            48,
            48
          ],
          "animations": [
            {
              "type": "keyframe",
              "keyPath": "transform.rotation.z",
              "values": [
                0,
                2.356194490192345,
                4.71238898038469,
                7.0685834705770345,
                9.42477796076938,
                11.780972450961723,
                14.137166941154069,
                16.493361431346415,
                18.84955592153876
              ],
              "timingFunctions": [
                [
                  0.4,
                  0,
                  0.2,
                  1
                ],
                [
                  0.4,
                  0,
                  0.2,
                  1
                ],
                [
                  0.4,
                  0,
                  0.2,
                  1
                ],
                [
                  0.4,
                  0,
                  0.2,
                  1
                ],
                [
                  0.4,
                  0,
                  0.2,
                  1
                ],
                [
                  0.4,
                  0,
                  0.2,
                  1
                ],
                [
                  0.4,
                  0,
                  0.2,
                  1
                ],
                [
                  0.4,
                  0,
                  0.2,
                  1
                ]
              ],
              "duration": 5.332,
              "repeatCount": "infinity"
            }
          ],
          "sublayers": [
            {
              "type": "ring",
              "id": "arc",
              "position": [
                24,
                24
              ],
              "diameter": 36,
              "lineWidth": 4,
              "strokeColor": "color",
              "strokeStart": 0,
              "strokeEnd": 0,
              "lineCap": "round",
              "animations": [
                {
                  "type": "group",
                  "duration": 1.333,
                  "repeatCount": "infinity",
                  "animations": [
                    {
                      "type": "keyframe",
                      "keyPath": "strokeEnd",
                      "values": [
                        0,
                        0.75,
                        0.75
                      ],
                      "keyTimes": [
                        0,
                        0.5,
                        1
                      ],
                      "timingFunctions": [
                        [
                          0.4,
                          0,
                          0.2,
                          1
                        ],
                        "linear"
                      ],
                      "duration": 1.333
                    },
                    {
                      "type": "keyframe",
                      "keyPath": "strokeStart",
                      "values": [
                        0,
                        0,
                        0.75
                      ],
                      "keyTimes": [
                        0,
                        0.5,
                        1
                      ],
                      "timingFunctions": [
                        "linear",
                        [
                          0.4,
                          0,
                          0.2,
                          1
                        ]
                      ],
                      "duration": 1.333
                    }
                  ]
                },
                {
                  "type": "keyframe",
                  "keyPath": "transform.rotation.z",
                  "calculationMode": "discrete",
                  "values": [
                    0,
                    4.71238898038469,
                    9.42477796076938,
                    14.137166941154069
                  ],
                  "duration": 5.332,
                  "repeatCount": "infinity"
                }
              ]
            }
          ]
        }
      ]
    }
  ]
}
"""#
}
