extension ClassicLoaders {
    /// `square-spin`: NVActivityIndicatorView's `squareSpin` at size 30 in a
    /// 40-pt canvas, its `rectangle` shape filling the size: under its
    /// perspective the corners reach 18.2 pt from the centre (26 at size
    /// 40). Its `transform` keyframes are the source's
    /// `CATransform3DConcat(rotateX, rotateY)` values, each factor with
    /// m34 = −1/100, multiplied out in double precision (m11 … m44).
    static let squareSpin = #"""
{
  "format": 1.1,
  "name": "square-spin",
  "summary": "A square flipping in perspective (NVActivityIndicatorView squareSpin): over the x axis, then the y axis, back over x and back over y, a quarter of 3 s each with (0.09, 0.57, 0.49, 0.9).",
  "family": "NVActivityIndicatorView", "original": "squareSpin",
  "canvas": {"width": 40, "height": 40},
  "color": "#333333",
  "layers": [
    {"type": "rect", "id": "square", "position": [20, 20], "bounds": [30, 30], "backgroundColor": "color",
     "animations": [{"type": "keyframe", "keyPath": "transform",
       "values": [[1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -0.02, 0, 0, 0, 1],
                    [1, 0, 0, 0, 0, -1, 1.2246467991473532e-16, -1.2246467991473532e-18, 0, -1.2246467991473532e-16, -1, 0, 0, 0, 0, 1],
                    [-1, 0, -1.2246467991473532e-16, 0, 1.4997597826618576e-32, -1, -1.2246467991473532e-16, -1.2246467991473532e-18, -1.2246467991473532e-16, -1.2246467991473532e-16, 1, 0, 0, 0, 0, 1],
                    [-1, 0, -1.2246467991473532e-16, 0, 0, 1, 0, 0, 1.2246467991473532e-16, 0, -1, -0.02, 0, 0, 0, 1],
                    [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -0.02, 0, 0, 0, 1]],
       "keyTimes": [0, 0.25, 0.5, 0.75, 1],
       "timingFunctions": [[0.09, 0.57, 0.49, 0.9], [0.09, 0.57, 0.49, 0.9], [0.09, 0.57, 0.49, 0.9], [0.09, 0.57, 0.49, 0.9]],
       "duration": 3, "repeatCount": "infinity"}]}
  ]
}
"""#
}
