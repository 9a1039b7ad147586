import Dispatch
import HTTPServer
import Synchronization

/// Work that may take more than about a millisecond (a preview, an export
/// being built, a costly batch): run by a few workers, never on an event
/// loop, and at most `perClient` at once for one client address, so that
/// one address cannot hold every worker while others wait. A job that waits
/// longer than `maxWait` for a worker is answered 503 then, not run later.
final class HeavyWork: Sendable {
    /// A frame costs about 70 ns a unit at worst (docs/LOADERS.md): work
    /// under this many units (about a millisecond) stays on the loop.
    static let inlineUnits = 15_000

    let perClient: Int
    let maxWait: Double
    private let running = Mutex(CountsByClient())
    private let workers: WorkerPool
    /// The waits' deadlines, on a queue of their own: the global pool's
    /// threads may all be busy with the very jobs whose wait they end.
    private let deadlines = DispatchQueue(label: "loaderd.heavy-wait")

    init(perClient: Int, workers: Int, maxWait: Double) {
        self.perClient = perClient
        self.maxWait = maxWait
        self.workers = WorkerPool(width: workers)
    }

    /// `job`'s answer, computed off the loop; 429 with `Retry-After` when
    /// `client` already has `perClient` heavy requests running. An answer
    /// that is a stream (a preview's, whose frames no other stream shares)
    /// keeps its place until the stream ends. A job whose client has left
    /// by the time a worker takes it is not run.
    func run(for client: String, _ job: @escaping @Sendable (HeavyJob) -> HTTPResponse) -> HTTPResponse {
        guard running.withLock({ $0.take(client, limit: perClient) }) else { return refusal }
        // Given back however the request ends, even if its answer is dropped before it starts.
        let slot = StreamHold { [self] in running.withLock { $0.give(client) } }
        return .deferred { [self] promise in
            let ticket = workers.submit {
                let response = promise.clientLeft ? .clientClosedRequest : job(HeavyJob(promise: promise))
                promise.succeed(response.holding(slot))
            }
            // Weak: this timer must not keep the place of a job that has ended.
            deadlines.asyncAfter(deadline: .now() + maxWait) { [self, weak slot] in
                guard workers.withdraw(ticket) else { return }
                slot?.release()
                promise.succeed(ServiceError(.serviceUnavailable, "overloaded",
                                             "this preview, export or batch waited \(SVG.n(maxWait)) s for a worker (heavyWaitSeconds); try again shortly")
                    .retryAfter(seconds: 1).response)
            }
        }
    }

    /// Heavy requests waiting for a worker now, for `/metrics`.
    var waiting: Int { workers.waiting }

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
            do { return try job(running) } catch { return ServiceError(answering: error).response }
        }
    }
}

/// A few threads' worth of work in the order it came: at most `width` jobs
/// run at once (each on a thread of the system's pool while it runs), the
/// rest wait; a waiting job can be withdrawn. No thread is kept while there
/// is nothing to do.
final class WorkerPool: Sendable {
    /// A job's place in the queue, to withdraw it.
    struct Ticket: Sendable { fileprivate let number: UInt64 }

    private struct State {
        /// Job `base + i` at `i`; nil once withdrawn. Those before `head` have been taken.
        var queue: [(@Sendable () -> Void)?] = []
        var head = 0
        var base: UInt64 = 0
        var running = 0
        var waiting = 0

        /// Drops the jobs taken, once they are many or all.
        mutating func compact() {
            guard head == queue.count || (head >= 1024 && head * 2 >= queue.count) else { return }
            queue.removeFirst(head)
            base += UInt64(head)
            head = 0
        }
    }
    private let width: Int
    private let state = Mutex(State())

    init(width: Int) { self.width = max(1, width) }

    var waiting: Int { state.withLock { $0.waiting } }

    func submit(_ job: @escaping @Sendable () -> Void) -> Ticket {
        let (ticket, start) = state.withLock { s -> (Ticket, Bool) in
            let ticket = Ticket(number: s.base + UInt64(s.queue.count))
            s.queue.append(job)
            s.waiting += 1
            guard s.running < width else { return (ticket, false) }
            s.running += 1
            return (ticket, true)
        }
        if start { DispatchQueue.global().async { [self] in drain() } }
        return ticket
    }

    /// Takes a job out of the queue if it has not started: whether it did.
    func withdraw(_ ticket: Ticket) -> Bool {
        state.withLock { s in
            guard ticket.number >= s.base + UInt64(s.head) else { return false }
            let i = Int(ticket.number - s.base)
            guard i < s.queue.count, s.queue[i] != nil else { return false }
            s.queue[i] = nil
            s.waiting -= 1
            return true
        }
    }

    /// Runs jobs until none waits, then gives its place back.
    private func drain() {
        while let job = state.withLock({ s -> (@Sendable () -> Void)? in
            while s.head < s.queue.count {
                let job = s.queue[s.head]
                s.head += 1
                if let job {
                    s.waiting -= 1
                    s.compact()
                    return job
                }
            }
            s.compact()
            s.running -= 1
            return nil
        }) {
            job()
        }
    }
}
