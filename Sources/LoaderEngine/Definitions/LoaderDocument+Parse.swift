extension LoaderDocument {
    /// Names no definition may take: built-in loaders are refused by the
    /// catalogue; `preview` is the authoring endpoint's.
    public static let reservedNames: Set<String> = ["preview"]

    /// Parses and checks a definition (at most 1 MiB of JSON).
    public static func parse(_ bytes: [UInt8]) throws(DefinitionError) -> LoaderDocument {
        guard bytes.count <= DefinitionLimits.maxBytes else {
            throw DefinitionError(path: "", message: "the definition is \(bytes.count) bytes; maxBytes is \(DefinitionLimits.maxBytes) (1 MiB)")
        }
        let json: JSONValue
        do { json = try JSONValue.parse(bytes, maxDepth: 48) } catch {
            throw DefinitionError(path: "", message: "not valid JSON: \(error)")
        }
        var parser = DocumentParser()
        return try parser.document(DefinitionNode(value: json, path: ""))
    }

    public static func parse(_ text: String) throws(DefinitionError) -> LoaderDocument { try parse(Array(text.utf8)) }
}

/// The parser's running counts, checked against `DefinitionLimits`.
struct DocumentParser {
    var layers = 0
    var keyframes = 0
    var pathCommands = 0
    /// `"format": 1.1`: the full transform, `layer` and `triangle`.
    var v11 = false

    static let commonLayerKeys = ["type", "id", "position", "opacity", "transform", "animations", "beginTime"]
    /// Format 1.1's layer keys, refused in format 1 with a message that names it.
    static let spaceLayerKeys = ["anchorPoint", "sublayerTransform"]
    static let transformKeys = ["scale", "rotation"]
    static let spaceTransformKeys = ["rotation.x", "rotation.y", "rotation.z", "scale.x", "scale.y", "scale.z",
                                     "translation.x", "translation.y", "translation.z", "matrix"]

    func needsFormat11(_ node: DefinitionNode, _ what: String) -> DefinitionError {
        node.fail("\(what) needs \"format\": 1.1 (format 1 does not have it)")
    }

    mutating func document(_ node: DefinitionNode) throws(DefinitionError) -> LoaderDocument {
        let f = try node.object(["format", "name", "aliases", "summary", "family", "original", "canvas", "background", "color", "layers", "reducedMotion", "reducedPose"])
        let formatNode = try f.required("format", "1 or 1.1")
        guard case let .number(format) = formatNode.value, format == 1 || format == 1.1 else { throw formatNode.fail("must be 1 or 1.1") }
        v11 = format == 1.1
        let nameNode = try f.required("name", "the loader's name, [a-z][a-z0-9-]{0,39}")
        let name = try nameNode.string()
        guard Self.matches(name, rest: "abcdefghijklmnopqrstuvwxyz0123456789-", max: 40) else {
            throw nameNode.fail("must match [a-z][a-z0-9-]{0,39}")
        }
        guard !LoaderDocument.reservedNames.contains(name) else { throw nameNode.fail("\"\(name)\" is reserved; choose another name") }
        var aliases: [String] = []
        if let list = f["aliases"] {
            let items = try list.array()
            guard items.count <= 8 else { throw list.fail("must hold at most 8 names") }
            for item in items {
                let alias = try item.string()
                guard Self.matches(alias, rest: "abcdefghijklmnopqrstuvwxyz0123456789-", max: 40) else { throw item.fail("must match [a-z][a-z0-9-]{0,39}") }
                guard alias != name, !aliases.contains(alias) else { throw item.fail("\"\(alias)\" is given twice") }
                guard !LoaderDocument.reservedNames.contains(alias) else { throw item.fail("\"\(alias)\" is reserved; choose another name") }
                aliases.append(alias)
            }
        }
        let summaryNode = try f.required("summary", "one sentence")
        let summary = try summaryNode.string()
        guard !summary.isEmpty, summary.utf8.count <= 300 else { throw summaryNode.fail("must be one sentence of 1 to 300 bytes") }
        // Where it comes from: short printable names, e.g. "SpinKit" and "double-bounce".
        var origin: [String: String] = [:]
        for key in ["family", "original"] {
            guard let node = f[key] else { continue }
            let text = try node.string()
            guard !text.isEmpty, text.utf8.count <= 40, text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value) }) else {
                throw node.fail("must be a name of 1 to 40 bytes with no control characters")
            }
            origin[key] = text
        }
        let canvasNode = try f.required("canvas", "{\"width\": w, \"height\": h} in points")
        let canvas = try canvasNode.object(["width", "height"])
        let width = try canvas.required("width", "points").number(0...10000, above: 0)
        let height = try canvas.required("height", "points").number(0...10000, above: 0)
        var background: RGBColor? = nil
        if let b = f["background"] {
            guard case let .fixed(c) = try b.color() else { throw b.fail("must be \"#RRGGBB\"") }
            background = c
        }
        var color = RGBColor.white
        if let c = f["color"] {
            guard case let .fixed(value) = try c.color() else { throw c.fail("must be \"#RRGGBB\"") }
            color = value
        }
        let layersNode = try f.required("layers", "an array of layers")
        let layers = try layerList(layersNode)
        var reduced: [LayerSpec]? = nil
        if let r = f["reducedMotion"] { reduced = try layerList(r) }
        // Seconds into the normal loop that motion=reduced holds still.
        let pose = try f["reducedPose"].map { node throws(DefinitionError) in try node.number(0...3600) }

        // Counted before any copy is walked: ids visit every copy.
        var cost = try frameCost(layers, layersNode)
        if let reduced { cost = max(cost, try frameCost(reduced, f["reducedMotion"]!)) }
        let ids = try elementIDs(layers, layersNode)
        let reducedIDs = try reduced.map { list throws(DefinitionError) in try elementIDs(list, f["reducedMotion"]!) }
        return LoaderDocument(name: name, summary: summary, family: origin["family"], original: origin["original"], aliases: aliases, width: width, height: height, background: background,
                              color: color, layers: layers, reducedMotion: reduced, reducedPose: pose, elementIDs: ids, reducedElementIDs: reducedIDs,
                              frameCost: cost)
    }

    static func matches(_ text: String, rest: String, max: Int) -> Bool {
        let bytes = Array(text.utf8), allowed = Set(rest.utf8)
        return !bytes.isEmpty && bytes.count <= max && bytes[0] >= 0x61 && bytes[0] <= 0x7A && bytes.allSatisfy(allowed.contains)
    }

    mutating func layerList(_ node: DefinitionNode) throws(DefinitionError) -> [LayerSpec] {
        let items = try node.array()
        guard !items.isEmpty else { throw node.fail("must hold at least one layer") }
        var layers: [LayerSpec] = []
        for item in items { layers.append(try layer(item)) }
        return layers
    }

    // MARK: Layers

    mutating func layer(_ node: DefinitionNode) throws(DefinitionError) -> LayerSpec {
        layers += 1
        guard layers <= DefinitionLimits.maxLayers else {
            throw node.fail("one layer too many: maxLayers is \(DefinitionLimits.maxLayers) in a definition")
        }
        guard case let .object(raw) = node.value else { throw node.fail("must be an object (a layer)") }
        guard let typeValue = raw.first(where: { $0.0 == "type" }) else {
            throw DefinitionError(path: node.child("type"), message: v11
                ? "is required: \"circle\", \"rect\", \"ring\", \"segment\", \"triangle\", \"layer\" or \"replicator\""
                : "is required: \"circle\", \"rect\", \"ring\", \"segment\" or \"replicator\"")
        }
        let typeNode = DefinitionNode(value: typeValue.1, path: node.child("type"))
        let type = try typeNode.choice(v11 ? ["circle", "rect", "ring", "segment", "triangle", "layer", "replicator"]
                                           : ["circle", "rect", "ring", "segment", "replicator", "triangle", "layer"])
        if !v11 && (type == "layer" || type == "triangle") { throw needsFormat11(typeNode, "a \(type) layer") }
        var own: [String]
        switch type {
        case "circle": own = ["diameter", "backgroundColor"]
        case "rect": own = ["bounds", "cornerRadius", "backgroundColor"]
        case "ring": own = ["diameter", "lineWidth", "strokeColor", "strokeStart", "strokeEnd", "lineCap"]
        case "segment": own = ["diameter", "arc", "fillColor"]
        case "triangle": own = ["bounds", "fillColor"]
        case "layer": own = ["bounds", "sublayers"]
        default: own = ["bounds", "instanceCount", "instanceDelay", "instanceTransform", "instanceAlphaOffset", "sublayers"]
        }
        let container = type == "layer" || type == "replicator"
        own += container ? Self.spaceLayerKeys : ["anchorPoint"]
        let f = try node.object(Self.commonLayerKeys + own)
        if !v11 {
            for key in Self.spaceLayerKeys { if let n = f[key] { throw needsFormat11(n, key) } }
        }
        let idNode = try f.required("id", "[a-z][a-z0-9]{0,19}")
        let id = try idNode.string()
        guard Self.matches(id, rest: "abcdefghijklmnopqrstuvwxyz0123456789", max: 20) else { throw idNode.fail("must match [a-z][a-z0-9]{0,19}") }

        var model = LayerState(position: try f["position"]?.point() ?? Point(x: 0, y: 0),
                               opacity: try f.number("opacity", default: 1, 0...1))
        var modelSpace: Space? = nil
        if let t = f["transform"] {
            let (scale, rotation, space) = try transform(t)
            model.scale = scale
            model.rotation = rotation
            modelSpace = space
        }
        var anchor = Point(x: 0.5, y: 0.5)
        if let a = f["anchorPoint"] { anchor = try a.point(0...1) }
        if let st = f["sublayerTransform"] {
            let (scale, rotation, space) = try transform(st)
            let m = Self.matrix(scale: scale, rotation: rotation, space ?? Space())
            // The identity costs nothing: no 3D placement for it.
            if !m.isIdentity {
                var space = modelSpace ?? Space()
                space.sublayerTransform = m
                modelSpace = space
            }
        }
        let beginTime = try f.number("beginTime", default: 0, -1e6...1e6)
        var diameter = 0.0, bounds = Point(x: 0, y: 0), color = ColorSpec.loader
        let kind: LayerSpec.Kind
        switch type {
        case "circle":
            diameter = try f.required("diameter", "points").number(0...10000, above: 0)
            color = try f["backgroundColor"]?.color() ?? .loader
            kind = .circle
        case "rect":
            bounds = try f.required("bounds", "[width, height] in points").point(0...10000)
            model.width = bounds.x
            model.height = bounds.y
            model.cornerRadius = try f.number("cornerRadius", default: 0, 0...10000)
            color = try f["backgroundColor"]?.color() ?? .loader
            kind = .rect
        case "ring":
            diameter = try f.required("diameter", "points").number(0...10000, above: 0)
            model.lineWidth = try f.number("lineWidth", default: 1, 0...10000)
            color = try f["strokeColor"]?.color() ?? .loader
            model.strokeStart = try f.number("strokeStart", default: 0, 0...1)
            model.strokeEnd = try f.number("strokeEnd", default: 1, 0...1)
            let cap = try f["lineCap"]?.choice(["butt", "round"]) ?? "butt"
            kind = .ring(cap == "round" ? .round : .butt)
        case "segment":
            diameter = try f.required("diameter", "points").number(0...10000, above: 0)
            color = try f["fillColor"]?.color() ?? .loader
            kind = .segment(arc: try f.number("arc", default: Double.pi, 0...(2 * Double.pi)))
        case "triangle":
            bounds = try f.required("bounds", "[width, height] in points").point(0...10000)
            model.width = bounds.x
            model.height = bounds.y
            color = try f["fillColor"]?.color() ?? .loader
            kind = .triangle
        case "layer":
            bounds = try f.required("bounds", "[width, height] in points").point(0...10000)
            let sublayers = try layerList(try f.required("sublayers", "an array of layers in the layer's space"))
            kind = .replicator(ReplicatorSpec(instanceCount: 1, instanceDelay: 0, translation: Point(x: 0, y: 0), rotation: 0,
                                              scale: 1, instanceAlphaOffset: 0, sublayers: sublayers, plain: true))
        default:
            bounds = try f.required("bounds", "[width, height] in points").point(0...10000)
            kind = .replicator(try replicator(f))
        }
        var animations: [AnimationSpec] = []
        if let list = f["animations"] {
            for item in try list.array() { animations.append(try animation(item, layerType: type, inGroup: false)) }
        }
        var spec = LayerSpec(id: id, kind: kind, model: model, diameter: diameter, bounds: bounds, color: color,
                             beginTime: beginTime, animations: animations)
        spec.anchor = anchor
        spec.space = modelSpace
        return spec
    }

    /// A `transform` or `sublayerTransform` object: the uniform scale, the
    /// turn about z, and the format-1.1 parts when any is given.
    func transform(_ node: DefinitionNode) throws(DefinitionError) -> (Double, Double, Space?) {
        let tf = try node.object(Self.transformKeys + Self.spaceTransformKeys)
        if !v11 {
            for key in Self.spaceTransformKeys { if let n = tf[key] { throw needsFormat11(n, "transform key \"\(key)\"") } }
        }
        let scale = try tf.number("scale", default: 1, 0...1000)
        if let r = tf["rotation"], tf["rotation.z"] != nil { throw r.fail("give rotation or rotation.z, not both") }
        let rotation = try tf.number(tf["rotation.z"] != nil ? "rotation.z" : "rotation", default: 0, -1000...1000)
        guard Self.spaceTransformKeys.contains(where: { $0 != "rotation.z" && tf[$0] != nil }) else { return (scale, rotation, nil) }
        var space = Space()
        space.rotationX = try tf.number("rotation.x", default: 0, -1000...1000)
        space.rotationY = try tf.number("rotation.y", default: 0, -1000...1000)
        space.scaleX = try tf.number("scale.x", default: 1, -1000...1000)
        space.scaleY = try tf.number("scale.y", default: 1, -1000...1000)
        space.scaleZ = try tf.number("scale.z", default: 1, -1000...1000)
        space.translationX = try tf.number("translation.x", default: 0, -1e6...1e6)
        space.translationY = try tf.number("translation.y", default: 0, -1e6...1e6)
        space.translationZ = try tf.number("translation.z", default: 0, -1e6...1e6)
        if let m = tf["matrix"] { space.matrix = try Self.matrixValue(m) }
        return (scale, rotation, space)
    }

    /// Sixteen numbers, m11…m44 (CSS `matrix3d()`'s order).
    static func matrixValue(_ node: DefinitionNode) throws(DefinitionError) -> Transform3D {
        let items = try node.array()
        guard items.count == 16 else { throw node.fail("must be 16 numbers, m11…m44 (CSS matrix3d's order)") }
        var m: [Double] = []
        for item in items { m.append(try item.number(-1e6...1e6)) }
        return Transform3D(m)
    }

    /// W · T · Rx · Ry · Rz · S (column vectors) as one matrix.
    static func matrix(scale: Double, rotation: Double, _ space: Space) -> Transform3D {
        SceneNode.transform(scale: scale, rotation: rotation, space)
    }

    mutating func replicator(_ f: DefinitionFields) throws(DefinitionError) -> ReplicatorSpec {
        let count = try f["instanceCount"]?.integer(0...DefinitionLimits.maxElements) ?? 1
        let delay = try f.number("instanceDelay", default: 0, -1e6...1e6)
        var translation = Point(x: 0, y: 0), rotation = 0.0, scale = 1.0
        if let t = f["instanceTransform"] {
            let tf = try t.object(["translation", "rotation", "scale"])
            translation = try tf["translation"]?.point() ?? translation
            rotation = try tf.number("rotation", default: 0, -1000...1000)
            scale = try tf.number("scale", default: 1, 0...1000)
        }
        // The last copy's scale is scaleᵏ: bounded, so that frames stay finite.
        var growth = 1.0
        for _ in 1..<max(count, 1) where growth <= 1e6 { growth *= scale }
        if growth > 1e6 {
            throw DefinitionError(path: f.node.child("instanceTransform.scale"),
                                  message: "the last copy would be \(scale)^\(count - 1) times as large; instanceTransform.scale^(instanceCount - 1) must be at most 1e6")
        }
        let alpha = try f.number("instanceAlphaOffset", default: 0, -1...1)
        let sublayers = try layerList(try f.required("sublayers", "an array of layers in the replicator's space"))
        return ReplicatorSpec(instanceCount: count, instanceDelay: delay, translation: translation, rotation: rotation,
                              scale: scale, instanceAlphaOffset: alpha, sublayers: sublayers)
    }

    /// One frame's elements and work, against `maxElements` and `maxFrameCost`.
    func frameCost(_ layers: [LayerSpec], _ node: DefinitionNode) throws(DefinitionError) -> Int {
        guard FrameCost.elements(layers) <= DefinitionLimits.maxElements else {
            throw node.fail("more than maxElements (\(DefinitionLimits.maxElements)) elements after replication")
        }
        let cost = FrameCost.units(layers)
        guard cost <= DefinitionLimits.maxFrameCost else {
            let amount = cost >= FrameCost.ceiling ? "more than 2^40" : "\(cost)"
            throw node.fail("a frame would cost \(amount) units (a layer visited per replicated copy, plus each animation evaluated there); maxFrameCost is \(DefinitionLimits.maxFrameCost)")
        }
        return cost
    }

    /// Every element's id, checked unique and counted against the limit.
    func elementIDs(_ layers: [LayerSpec], _ node: DefinitionNode) throws(DefinitionError) -> [ElementID] {
        var ids: [String] = []
        func walk(_ layers: [LayerSpec], suffix: String, depth: Int) throws(DefinitionError) {
            for layer in layers where layer.draws {
                switch layer.kind {
                case let .replicator(r) where r.plain:
                    try walk(r.sublayers, suffix: suffix, depth: depth)
                case let .replicator(r):
                    for k in 0..<r.instanceCount {
                        try walk(r.sublayers, suffix: depth == 0 ? "\(suffix)\(k)" : "\(suffix)-\(k)", depth: depth + 1)
                        if ids.count > DefinitionLimits.maxElements { break }
                    }
                default:
                    ids.append(layer.id + suffix)
                }
                guard ids.count <= DefinitionLimits.maxElements else {
                    throw node.fail("more than maxElements (\(DefinitionLimits.maxElements)) elements after replication")
                }
            }
        }
        try walk(layers, suffix: "", depth: 0)
        var seen = Set<String>()
        for id in ids where !seen.insert(id).inserted {
            throw node.fail("two elements have the id \"\(id)\"; element ids (layer id and copy indices) must be unique")
        }
        return ids.map { ElementID(text: $0)! }
    }
}
