import HTTPServer
import Synchronization

/// A place an answer holds for its stream (a session's viewer, a heavy
/// slot, a count of streams), given back exactly once: when the stream
/// ends, or else when the last reference to the hold goes, which is when
/// the answer was dropped without its stream ever starting: its client
/// reset the connection while a store or a worker made it, or a later check
/// (`maxStreams`) refused it. No path that ends a request forgets a count.
final class StreamHold: Sendable {
    private let giveBack: Mutex<(@Sendable () -> Void)?>

    init(_ release: @escaping @Sendable () -> Void) { giveBack = Mutex(release) }

    deinit { release() }

    /// Gives the place back now (once; later calls do nothing).
    func release() { take()?() }

    /// The stream that starts keeps the place until it closes.
    func keep(until writer: StreamWriter) {
        guard let release = take() else { return }
        writer.whenClosed(release)
    }

    private func take() -> (@Sendable () -> Void)? {
        giveBack.withLock { r in
            defer { r = nil }
            return r
        }
    }
}

extension HTTPResponse {
    /// This stream answer holding `hold` until the stream ends; an answer
    /// that is no stream ends when it is made: `hold` is given back now.
    func holding(_ hold: StreamHold) -> HTTPResponse {
        guard case .stream(let start) = body else {
            hold.release()
            return self
        }
        var held = self
        held.body = .stream { writer in
            hold.keep(until: writer)
            start(writer)
        }
        return held
    }
}
