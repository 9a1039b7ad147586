/// Computes and encodes many frames of one loader, reusing its element
/// buffer: no allocation per frame beyond the encoded bytes themselves.
/// Streams and batches use this; a single frame can use
/// `FrameEncoder.encode(loader.frame(at:))`.
public struct FrameRenderer: Sendable {
    public let loader: ConfiguredLoader
    private var elements: [Element] = []
    /// Where frames are written before being copied out at their exact size.
    private var scratch: [UInt8] = []

    public init(_ loader: ConfiguredLoader) {
        self.loader = loader
        elements.reserveCapacity(8)
    }

    /// The frame at `t` as JSON bytes, and whether the loader is done.
    public mutating func encodedFrame(at t: Double) -> (json: [UInt8], done: Bool) {
        elements.removeAll(keepingCapacity: true)
        let done = loader.render(at: t, into: &elements)
        let bound = FrameEncoder.byteBound(loader: loader.name, elements: elements)
        if scratch.count < bound { scratch = [UInt8](repeating: 0, count: max(bound, 2 * scratch.count)) }
        let (name, width, height, background, elements) = (loader.name, loader.width, loader.height, loader.background, self.elements)
        let progress = loader.progress(at: t)
        let json = scratch.withUnsafeMutableBufferPointer { buffer in
            FrameEncoder.encode(loader: name, t: t, width: width, height: height,
                                done: done, background: background, progress: progress, elements: elements, scratch: buffer)
        }
        return (json, done)
    }

    /// Appends the frame at `t` to `bytes`; returns whether the loader is done.
    public mutating func appendFrame(at t: Double, to bytes: inout [UInt8]) -> Bool {
        elements.removeAll(keepingCapacity: true)
        let done = loader.render(at: t, into: &elements)
        FrameEncoder.append(loader: loader.name, t: t, width: loader.width, height: loader.height,
                            done: done, background: loader.background, progress: loader.progress(at: t), elements: elements, to: &bytes)
        return done
    }

    /// A batch, `{"loader":…,"fps":…,"frames":[…]}`, of the frames at
    /// `times`, as many as fit in `maxBytes` (always the first): the bytes,
    /// and how many frames they hold. A caller that gets fewer than it
    /// asked for continues from the next time.
    public mutating func encodedBatch(times: some Sequence<Double>, fps: Double, count: Int = 0,
                                      maxBytes: Int = .max) -> (json: [UInt8], frames: Int) {
        var bytes = [UInt8]()
        bytes.reserveCapacity(64 + min(count, 1 << 16) * 480)
        FrameEncoder.appendBatchOpening(loader: loader.name, fps: fps, to: &bytes)
        var frames = 0
        for t in times {
            let before = bytes.count
            if frames > 0 { bytes.append(UInt8(ascii: ",")) }
            _ = appendFrame(at: t, to: &bytes)
            if bytes.count + 2 > maxBytes && frames > 0 {
                bytes.removeSubrange(before...)
                break
            }
            frames += 1
        }
        bytes.append(contentsOf: "]}".utf8)
        return (bytes, frames)
    }
}
