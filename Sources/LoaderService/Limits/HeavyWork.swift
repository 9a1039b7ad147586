import Dispatch
import HTTPServer
import Synchronization

/// Work that may take more than about a millisecond (a preview, an export
/// being built, a costly batch): run on a worker thread, never on an event
/// loop, and at most `perClient` at once for one client address, so that
/// one address cannot hold every worker while others wait.
final class HeavyWork: Sendable {
    /// A frame costs about 70 ns a unit at worst (docs/LOADERS.md): work
    /// under this many units (about a millisecond) stays on the loop.
    static let inlineUnits = 15_000

    let perClient: Int
    private let running = Mutex(CountsByClient())

    init(perClient: Int) { self.perClient = perClient }

    /// `job`'s answer, computed off the loop; 429 with `Retry-After` when
    /// `client` already has `perClient` heavy requests running. An answer
    /// that is a stream (a preview's, whose frames no other stream shares)
    /// keeps its place until the stream ends.
    /// A job whose client has left by the time a worker takes it is not run.
    func run(for client: String, _ job: @escaping @Sendable (HeavyJob) -> HTTPResponse) -> HTTPResponse {
        guard running.withLock({ $0.take(client, limit: perClient) }) else { return refusal }
        return .deferred { [self] promise in
            DispatchQueue.global().async { [self] in
                let response = promise.clientLeft ? .clientClosedRequest : job(HeavyJob(promise: promise))
                let release: @Sendable () -> Void = { [self] in running.withLock { $0.give(client) } }
                guard case .stream = response.body else {
                    release()
                    return promise.succeed(response)
                }
                promise.succeed(response.holding(release))
            }
        }
    }

    /// How many heavy requests are running now, for `/metrics`.
    var count: Int { running.withLock { $0.total } }

    private var refusal: HTTPResponse {
        ServiceError(.tooManyRequests, "too_many_heavy_requests",
                     "this client already has \(perClient) previews, exports or costly batches running (maxHeavyRequestsPerClient); retry when one has finished")
            .retryAfter(seconds: 1).response
    }
}

/// What heavy work knows of its request while it runs.
struct HeavyJob: Sendable {
    fileprivate let promise: ResponsePromise
    /// The client closed its connection (or its sending side): work that
    /// goes on for long checks this and stops, answering
    /// `.clientClosedRequest`.
    var clientLeft: Bool { promise.clientLeft }
}

extension LoaderService {
    /// `job` as heavy work of `client`, its error as its answer; 503 with
    /// `Retry-After` while the output queued for all clients is over
    /// `maxBufferedBytes`.
    func runHeavy(for client: String, _ job: @escaping @Sendable (HeavyJob) throws -> HTTPResponse) -> HTTPResponse {
        if server?.isOverBufferCap == true {
            return ServiceError(.serviceUnavailable, "overloaded",
                                "the server holds more than maxBufferedBytes of answers that clients have not read; try again shortly")
                .retryAfter(seconds: 1).response
        }
        return heavyWork.run(for: client) { running in
            do { return try job(running) } catch {
                return (error as? ServiceError ?? ServiceError(.internalServerError, "internal_error", "internal error")).response
            }
        }
    }
}

extension HTTPResponse {
    /// This stream answer with `release` run once the stream ends (a place
    /// it held: a heavy slot, a count of streams). Any other answer ends
    /// when it is made: it is returned as it is.
    func holding(_ release: @escaping @Sendable () -> Void) -> HTTPResponse {
        guard case .stream(let start) = body else { return self }
        var held = self
        held.body = .stream { writer in
            writer.whenClosed(release)
            start(writer)
        }
        return held
    }
}
