extension LoaderDefinition {
    /// A catalogue entry for a definition: it takes `color`, `speed`,
    /// `scale`, `motion` and the event `stop`, like every loader.
    public convenience init(document: LoaderDocument) {
        let pulse = "; every element's opacity pulses from 1 to 0.5 and back, 1 s each way, easeInEaseOut."
        let reduced = document.reducedMotion != nil
            ? "The definition's own reducedMotion layers."
            : document.reducedPose.map { "A still pose: the normal loop's frame at \(format($0)) s" + pulse }
                ?? ("A still pose: every layer held at the moment of its own loop where it draws the most (every copy alike)" + pulse)
        self.init(
            name: document.name, summary: document.summary,
            parameters: Self.definedParameters(color: document.color, background: document.background),
            events: Self.definedEvents,
            reducedMotion: reduced,
            background: document.background,
            document: document,
            period: { p in
                p.reducedMotion
                    ? (document.reducedMotion.map { DocumentTiming.period($0) } ?? 2)
                    : DocumentTiming.period(document.layers)
            },
            elementPeriods: { p in
                p.reducedMotion
                    ? document.reducedMotion.map { DocumentTiming.elementPeriods($0) }
                    : DocumentTiming.elementPeriods(document.layers)
            },
            canvas: { _ in (document.width, document.height) },
            settle: { p in DocumentTiming.settle(p.reducedMotion ? document.reducedMotion ?? [] : document.layers, offset: 0) },
            frameCost: { _, _ in document.frameCost },
            scene: { p, _ in DefinedScene(document, p) })
    }

    /// The parameters every defined loader takes; `background` defaults
    /// to the definition's own.
    public static func definedParameters(color: RGBColor, background: RGBColor? = nil) -> [ParameterSpec] {
        [
            ParameterSpec("color", .color, default: .color(color), "The loader's colour: every layer coloured \"color\" in the definition."),
            CommonParameters.motion,
            CommonParameters.speed,
            CommonParameters.scale,
            CommonParameters.background(background),
        ]
    }

    /// The events every defined loader takes.
    public static let definedEvents = [CommonParameters.stop]

    /// Parses a definition into a catalogue entry.
    public convenience init(definition bytes: [UInt8]) throws(DefinitionError) {
        self.init(document: try LoaderDocument.parse(bytes))
    }
}

/// The timing facts of a definition that the catalogue reports.
enum DocumentTiming {
    /// The cycle of every animation that repeats forever, in loader time
    /// (a group's children repeat inside their group's cycle).
    static func cycles(_ layers: [LayerSpec]) -> [Double] {
        var cycles: [Double] = []
        for layer in layers {
            for animation in layer.animations {
                let t = animation.timing
                if t.repeatDuration == nil && t.repeatCount == .infinity {
                    cycles.append(t.duration * (t.autoreverses ? 2 : 1) / t.speed)
                }
            }
            if case let .replicator(r) = layer.kind { cycles += self.cycles(r.sublayers) }
        }
        return cycles
    }

    /// The least common multiple of the cycles; `nil` when nothing repeats.
    static func period(_ layers: [LayerSpec]) -> Double? {
        let cycles = cycles(layers)
        return cycles.isEmpty ? nil : commonPeriod(cycles)
    }

    /// Each element's own period, in the order of a frame's elements: the
    /// least common multiple of the cycles of its own animations and of the
    /// replicators it is in (a copy's delay does not change it); 0 for an
    /// element with no animation that repeats, nil where the cycles have no
    /// common period.
    static func elementPeriods(_ layers: [LayerSpec]) -> [Double?] {
        var periods: [Double?] = []
        func walk(_ layers: [LayerSpec], _ outer: [Double]) {
            for layer in layers where layer.draws {
                var cycles = outer
                for animation in layer.animations {
                    let t = animation.timing
                    if t.repeatDuration == nil && t.repeatCount == .infinity {
                        cycles.append(t.duration * (t.autoreverses ? 2 : 1) / t.speed)
                    }
                }
                if case let .replicator(r) = layer.kind {
                    for _ in 0..<r.instanceCount { walk(r.sublayers, cycles) }
                } else {
                    periods.append(cycles.isEmpty ? 0 : commonPeriod(cycles))
                }
            }
        }
        walk(layers, [])
        return periods
    }

    /// When every copy of every layer has started, and every animation
    /// that ends has ended.
    static func settle(_ layers: [LayerSpec], offset: Double) -> Double {
        var latest = 0.0
        for layer in layers {
            let base = offset + layer.beginTime
            for animation in layer.animations {
                let t = animation.timing
                let start = base + t.beginTime - t.timeOffset / t.speed
                let ends = t.repeatCount != .infinity || t.repeatDuration != nil
                latest = max(latest, ends ? start + t.activeDuration / t.speed : start)
            }
            if case let .replicator(r) = layer.kind {
                latest = max(latest, settle(r.sublayers, offset: base + max(0, Double(r.instanceCount - 1) * r.instanceDelay)))
            }
        }
        return latest
    }
}
