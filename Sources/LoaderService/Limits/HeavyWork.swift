import Dispatch
import HTTPServer
import LoaderFormats
import Synchronization

/// Work that may take more than about a millisecond (a preview, an export
/// being built, a costly batch): run by a few workers, never on an event
/// loop, and at most `perClient` at once for one client address, so that
/// one address cannot hold every worker while others wait. A client's
/// requests beyond that wait in its own queue (at most `waitingPerClient`,
/// in order) for one of its places: a page of pictures loads, while the
/// workers' queue holds at most `perClient` jobs of any one client. A job
/// that waits longer than `maxWait` in all, for its place and then for a
/// worker, is answered 503 then, not run later.
final class HeavyWork: Sendable {
    /// A frame costs about 70 ns a unit at worst (docs/LOADERS.md): work
    /// under this many units (about a millisecond) stays on the loop.
    static let inlineUnits = 15_000

    let perClient: Int
    let waitingPerClient: Int
    let maxWait: Double
    /// How many run at once in all (heavyWorkers, or one per core).
    let workerCount: Int
    /// Refusals by reason, for `/metrics`: an alert watches them, since the
    /// gauges cannot show a request that was never admitted.
    let refusedClientBusy = Atomic<Int>(0)
    let refusedWaitTimeout = Atomic<Int>(0)
    let refusedBufferFull = Atomic<Int>(0)
    private let state = Mutex(Shares())
    private let workers: WorkerPool
    /// The waits' deadlines, on a queue of their own: the global pool's
    /// threads may all be busy with the very jobs whose wait they end.
    private let deadlines = DispatchQueue(label: "loaderd.heavy-wait")

    init(perClient: Int, waitingPerClient: Int, workers: Int, maxWait: Double) {
        self.perClient = perClient
        self.waitingPerClient = waitingPerClient
        self.maxWait = maxWait
        self.workerCount = max(1, workers)
        self.workers = WorkerPool(width: workers)
    }

    /// `job`'s answer, computed off the loop; 429 with `Retry-After` when
    /// `client` already has `perClient` heavy requests running and
    /// `waitingPerClient` waiting. An answer that is a stream (a preview's,
    /// whose frames no other stream shares) keeps its place until the
    /// stream ends. A job whose client has left by the time a worker takes
    /// it is not run.
    func run(for client: String, _ job: @escaping @Sendable (HeavyJob) -> HTTPResponse) -> HTTPResponse {
        guard let id = state.withLock({ $0.admit(client, perClient: perClient, waitingPerClient: waitingPerClient) }) else {
            return refusal
        }
        // Its place (running or waiting) is given back however the request
        // ends, even if its answer is dropped before it starts.
        let place = Place(id: id, work: self)
        return .deferred { [self] promise in
            let start: @Sendable () -> Void = {
                let response = promise.clientLeft ? .clientClosedRequest : job(HeavyJob(promise: promise))
                promise.succeed(response.holding(StreamHold { place.release() }))
            }
            state.withLock { $0.begin(id, start, workers) }
            // Weak: this timer must not keep the place of a job that has ended.
            deadlines.asyncAfter(deadline: .now() + maxWait) { [self, weak place] in
                guard let place, expire(place.id) else { return }
                refusedWaitTimeout.add(1, ordering: .relaxed)
                promise.succeed(ServiceError(.serviceUnavailable, "overloaded",
                                             "this preview, export or batch waited \(SVG.n(maxWait)) s for a worker (heavyWaitSeconds); try again shortly")
                    .retryAfter(seconds: 1).response)
            }
        }
    }

    /// Heavy requests waiting for a place or a worker now, for `/metrics`.
    var waiting: Int { state.withLock { $0.waiting } + workers.waiting }

    /// How many heavy requests hold a running place now, for `/metrics`.
    var count: Int { state.withLock { $0.running } }

    /// Ends a wait that has lasted `maxWait`: whether it was still waiting
    /// (in its client's queue, or for a worker) and so is answered 503.
    private func expire(_ id: UInt64) -> Bool {
        // What the lock drops is let go after it: a job's start may hold
        // the last reference to its place, whose release takes the lock.
        let (expired, dropped) = state.withLock { $0.expire(id, workers) }
        withExtendedLifetime(dropped) {}
        return expired
    }

    fileprivate func release(_ id: UInt64) {
        let dropped = state.withLock { $0.release(id, workers) }
        withExtendedLifetime(dropped) {}
    }

    private var refusal: HTTPResponse {
        refusedClientBusy.add(1, ordering: .relaxed)
        return ServiceError(.tooManyRequests, "too_many_heavy_requests",
                     "this client already has \(perClient) previews, exports or costly batches running and \(waitingPerClient) waiting (maxHeavyRequestsPerClient, maxHeavyWaitingPerClient); retry when one has finished")
            .retryAfter(seconds: 1).response
    }

    /// One request's place, given back once: when its answer ends, or when
    /// the last reference goes (its answer dropped unstarted).
    private final class Place: Sendable {
        let id: UInt64
        let work: HeavyWork
        init(id: UInt64, work: HeavyWork) { self.id = id; self.work = work }
        func release() { work.release(id) }
        deinit { work.release(id) }
    }
}

/// Every client's running and waiting heavy requests. A job is `counted`
/// from admission until its answer begins (`begin` gives its start);
/// then `queued` behind its client's earlier ones, `submitted` to the
/// workers, and gone once released or expired.
private struct Shares {
    enum Stage {
        /// Holds a running place; its start not yet given.
        case placed
        /// Waits for a place; its start not yet given.
        case counted
        /// Waits for a place with its start.
        case queued(@Sendable () -> Void)
        /// Holds a running place, in the workers' queue or running.
        case submitted(WorkerPool.Ticket)
    }
    struct Job {
        let client: String
        var stage: Stage
    }
    struct Share {
        var running = 0
        /// Waiting jobs in order of arrival (ids; at most waitingPerClient).
        var queue: [UInt64] = []
    }

    var jobs: [UInt64: Job] = [:]
    var shares: [String: Share] = [:]
    var next: UInt64 = 0
    private(set) var running = 0
    private(set) var waiting = 0

    /// A new job's id, holding a running place or a place in its client's
    /// queue; nil when both are full. Nobody overtakes a client's queue.
    mutating func admit(_ client: String, perClient: Int, waitingPerClient: Int) -> UInt64? {
        var share = shares[client, default: Share()]
        let stage: Stage
        if share.running < perClient && share.queue.isEmpty {
            share.running += 1
            running += 1
            stage = .placed
        } else if share.queue.count < waitingPerClient {
            stage = .counted
        } else {
            return nil
        }
        next += 1
        if case .counted = stage {
            share.queue.append(next)
            waiting += 1
        }
        shares[client] = share
        jobs[next] = Job(client: client, stage: stage)
        return next
    }

    /// The job's answer has begun: it runs when it has a place, or waits.
    mutating func begin(_ id: UInt64, _ start: @escaping @Sendable () -> Void, _ workers: WorkerPool) {
        guard let job = jobs[id] else { return }
        switch job.stage {
        case .placed: jobs[id]?.stage = .submitted(workers.submit(start))
        case .counted: jobs[id]?.stage = .queued(start)
        case .queued, .submitted: break
        }
    }

    /// Whether the job still waited (for a place or a worker); it is gone
    /// then. Also the start it dropped, to be let go outside the lock.
    mutating func expire(_ id: UInt64, _ workers: WorkerPool) -> (Bool, Job?) {
        guard let job = jobs[id] else { return (false, nil) }
        switch job.stage {
        case .counted, .queued:
            dequeue(id, of: job.client)
            return (true, job)
        case .submitted(let ticket):
            guard let start = workers.withdraw(ticket) else { return (false, nil) }
            free(id, of: job.client, workers)
            return (true, Job(client: job.client, stage: .queued(start)))
        case .placed:
            return (false, nil)
        }
    }

    /// Gives back whatever the job holds (once: later calls find nothing);
    /// the start it dropped, to be let go outside the lock.
    mutating func release(_ id: UInt64, _ workers: WorkerPool) -> Job? {
        guard let job = jobs[id] else { return nil }
        switch job.stage {
        case .counted, .queued:
            dequeue(id, of: job.client)
            return job
        case .submitted(let ticket):
            // Withdrawn if its answer was dropped while it waited for a worker.
            let start = workers.withdraw(ticket)
            free(id, of: job.client, workers)
            return start.map { Job(client: job.client, stage: .queued($0)) }
        case .placed:
            free(id, of: job.client, workers)
            return nil
        }
    }

    private mutating func dequeue(_ id: UInt64, of client: String) {
        jobs[id] = nil
        waiting -= 1
        shares[client]?.queue.removeAll { $0 == id }
        if let share = shares[client], share.running == 0, share.queue.isEmpty { shares[client] = nil }
    }

    /// Gives a running place back to its client's first waiting job, if any.
    private mutating func free(_ id: UInt64, of client: String, _ workers: WorkerPool) {
        jobs[id] = nil
        guard var share = shares[client] else { return }
        if share.queue.isEmpty {
            share.running -= 1
            running -= 1
            shares[client] = share.running == 0 ? nil : share
            return
        }
        let first = share.queue.removeFirst()
        shares[client] = share
        waiting -= 1
        switch jobs[first]?.stage {
        case .queued(let start)?: jobs[first]?.stage = .submitted(workers.submit(start))
        case .counted?: jobs[first]?.stage = .placed
        default: break
        }
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
            heavyWork.refusedBufferFull.add(1, ordering: .relaxed)
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

    /// Takes a job out of the queue if it has not started: the job, for
    /// its caller to let go (it may hold what needs a lock to give back).
    func withdraw(_ ticket: Ticket) -> (@Sendable () -> Void)? {
        state.withLock { s in
            guard ticket.number >= s.base + UInt64(s.head) else { return nil }
            let i = Int(ticket.number - s.base)
            guard i < s.queue.count, let job = s.queue[i] else { return nil }
            s.queue[i] = nil
            s.waiting -= 1
            return job
        }
    }

    /// Runs jobs until none waits, then gives its place back.
    private func drain() {
        while let job = state.withLock({ s -> (@Sendable () -> Void)? in
            while s.head < s.queue.count {
                // Taken out, so that it is let go when it has run, outside the lock.
                let job = s.queue[s.head]
                s.queue[s.head] = nil
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
