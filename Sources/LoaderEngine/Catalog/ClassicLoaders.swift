/// The catalogue of classic loaders, each written as a definition in the
/// loader format (one file each) and embedded in the binary. Each one's
/// summary names the family it reproduces; its figures are that family's.
enum ClassicLoaders {
    /// The definitions' JSON, in catalogue order.
    static let sources: [String] = [
        activityIndicator,
        materialSpinner,
        pulseDots,
        ripple,
        equalizer,
        fadingCircle,
        threeBounce,
        wave,
        doubleBounce,
        pacman,
        cubeGrid,
        spinningArc,
        ballScale,
        ballScaleMultiple,
        ballPulseSync,
        ballBeat,
        ballSpinFadeLoader,
        lineScalePulseOut,
        lineScalePulseOutRapid,
        ballScaleRipple,
        ballDoubleBounce,
        ballClipRotatePulse,
        ballClipRotateMultiple,
        circleStrokeSpin,
        pulse,
        circle,
        chasingDots,
        wanderingCubes,
        ballZigZag,
        ballZigZagDeflect,
        ballPulseRise,
        ballRotate,
        ballTrianglePath,
        cubeTransition,
        ballRotateChase,
        semiCircleSpin,
        ballGridPulse,
        ballGridBeat,
        lineScaleParty,
        orbit,
        audioEqualizer,
        squareSpin,
        triangleSkewSpin,
        rotatingPlane,
        foldingCube,
    ]

    /// Parsed once; a built-in definition that does not parse is a bug
    /// (the catalogue's tests parse every one).
    static let definitions: [LoaderDefinition] = sources.map { source in
        do {
            return try LoaderDefinition(definition: Array(source.utf8))
        } catch {
            preconditionFailure("built-in definition: \(error)")
        }
    }
}
