import Glibc
import CLinux
import Synchronization

/// Something registered with an event loop's epoll set.
package protocol Selectable: AnyObject {
    /// Called on the loop thread with the ready epoll events.
    func handle(events: UInt32)
}

/// One thread driving an epoll set: sockets, timers, and tasks handed over
/// from other threads. Everything registered with a loop is touched only on
/// its thread; `execute` is the way in from elsewhere.
// unchecked: slots, timers and hooks are touched only on the loop thread (checked by `preconditionInLoop`); `tasks` is locked.
public final class EventLoop: @unchecked Sendable {
    public let index: Int
    let epoll: Int32
    private let wakeFD: Int32
    private let tasks = Mutex<[@Sendable () -> Void]>([])
    private var slots: [Selectable?] = []
    private var generations: [UInt32] = []
    private var freeSlots: [Int] = []
    private var timers = TimerHeap()
    private var stopping = false
    private var thread: pthread_t?
    /// The thread that runs the loop (0 until it runs). Atomic, so that any
    /// thread may ask `inLoop`: only the loop thread can find its own id here.
    private let owner = Atomic<UInt>(0)
    /// A task was handed over from the loop thread itself, with no wake:
    /// the loop must not sleep before running it.
    private var tasksQueuedOnLoop = false
    /// Wakes written to the eventfd (one per `execute` from another thread).
    package let wakes = Atomic<Int>(0)
    private static let wakeSlot: UInt64 = UInt64.max
    /// Called on the loop thread each `tickInterval` (timeouts, the Date header).
    package var onTick: (() -> Void)?
    package var tickInterval: UInt64 = 1_000_000_000
    private var nextTick: UInt64 = 0
    /// Called on the loop thread just before it exits.
    package var onStop: (() -> Void)?
    /// An embedded loop's clock, moved only by `advance` (nil: the real one).
    private var manualNow: UInt64?

    package init(index: Int) throws {
        self.index = index
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw SystemError("epoll_create1") }
        wakeFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard wakeFD >= 0 else { throw SystemError("eventfd") }
        var event = epoll_event()
        event.events = CLINUX_EPOLLIN
        event.data.u64 = Self.wakeSlot
        guard epoll_ctl(epoll, EPOLL_CTL_ADD, wakeFD, &event) == 0 else { throw SystemError("epoll_ctl(eventfd)") }
    }

    deinit {
        close(wakeFD)
        close(epoll)
    }

    /// Whether the caller runs on this loop's thread (a thread-id compare).
    public var inLoop: Bool { owner.load(ordering: .relaxed) == UInt(pthread_self()) }

    /// Traps in debug builds when called off the loop thread (NIO's
    /// `assertInEventLoop`): for the hot paths of state that only the loop
    /// may touch, whose entry points check in release too.
    @inlinable
    public func assertInLoop(file: StaticString = #fileID, line: UInt = #line) {
        assert(inLoop, "called off its event loop", file: file, line: line)
    }

    /// Traps in every build when called off the loop thread (NIO's
    /// `preconditionInEventLoop`): timers, registration, loop-bound values.
    /// A race there corrupts the loop's heap or epoll set, far from its cause.
    @inlinable
    public func preconditionInLoop(file: StaticString = #fileID, line: UInt = #line) {
        precondition(inLoop, "called off its event loop", file: file, line: line)
    }

    /// The loop's clock (monotonic ns): the real one, or an embedded loop's.
    /// Timers and streams read time here, so a test can drive it.
    public var now: UInt64 { manualNow ?? monotonicNanoseconds() }

    /// When the loop last woke from `epoll_wait`: a clock read once per
    /// burst of events, for bookkeeping that needs no finer time than that
    /// (a connection's idle and stall timeouts).
    package var wakeTime: UInt64 { manualNow ?? lastWake }
    private var lastWake: UInt64 = monotonicNanoseconds()

    // MARK: Tasks and timers

    /// Runs `task` on the loop thread (soon, in order), from any thread.
    /// From the loop itself it is only queued: the loop runs its tasks
    /// before it sleeps again, so an eventfd wake would be a wasted syscall.
    public func execute(_ task: @escaping @Sendable () -> Void) {
        tasks.withLock { $0.append(task) }
        if inLoop {
            tasksQueuedOnLoop = true
            return
        }
        wakes.add(1, ordering: .relaxed)
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    /// Runs `task` on the loop thread at `deadline` (monotonic ns). Loop thread only.
    @discardableResult
    public func schedule(at deadline: UInt64, _ task: @escaping () -> Void) -> TimerHandle {
        preconditionInLoop()
        let handle = TimerHandle(task: task)
        arm(handle, at: deadline)
        return handle
    }

    /// Runs `timer.fire()` at `deadline` (monotonic ns). A timer runs once
    /// per arming; re-arm it, from its own `fire` or later, for the next
    /// time. It must not be armed already. Loop thread only.
    public func arm(_ timer: LoopTimer, at deadline: UInt64) {
        preconditionInLoop()
        precondition(!timer.isInHeap, "a timer armed while it still waits")
        timer.deadline = deadline
        timer.isCancelled = false
        timers.push(timer)
    }

    /// Runs `task` after `nanoseconds`. Loop thread only.
    @discardableResult
    public func schedule(afterNanoseconds nanoseconds: UInt64, _ task: @escaping () -> Void) -> TimerHandle {
        schedule(at: now &+ nanoseconds, task)
    }

    // MARK: Registration (loop thread)

    package func register(_ fd: Int32, _ handler: Selectable, events: UInt32) throws -> Registration {
        preconditionInLoop()
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            slots[slot] = handler
        } else {
            slot = slots.count
            slots.append(handler)
            generations.append(0)
        }
        generations[slot] &+= 1
        let registration = Registration(fd: fd, slot: slot, generation: generations[slot])
        var event = epoll_event()
        event.events = events
        event.data.u64 = registration.token
        guard epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) == 0 else {
            let error = SystemError("epoll_ctl(add)")
            slots[slot] = nil
            freeSlots.append(slot)
            throw error
        }
        return registration
    }

    package func modify(_ registration: Registration, events: UInt32) {
        preconditionInLoop()  // beside an epoll_ctl, the compare costs nothing
        var event = epoll_event()
        event.events = events
        event.data.u64 = registration.token
        _ = epoll_ctl(epoll, EPOLL_CTL_MOD, registration.fd, &event)
    }

    package func deregister(_ registration: Registration) {
        preconditionInLoop()
        _ = epoll_ctl(epoll, EPOLL_CTL_DEL, registration.fd, nil)
        guard registration.slot < slots.count, generations[registration.slot] == registration.generation else { return }
        generations[registration.slot] &+= 1  // events already fetched for this slot are now stale
        slots[registration.slot] = nil
        freeSlots.append(registration.slot)
    }

    // MARK: Running

    package func start() throws {
        let box = Unmanaged.passRetained(self)
        var t = pthread_t()
        let rc = pthread_create(&t, nil, { arg in
            let loop = Unmanaged<EventLoop>.fromOpaque(arg!).takeRetainedValue()
            loop.run()
            return nil
        }, box.toOpaque())
        guard rc == 0 else {
            box.release()
            throw SystemError("pthread_create", errno: rc)
        }
        thread = t
    }

    /// A loop on a thread of its own, outside any server (a client's).
    public static func started(index: Int = 0) throws -> EventLoop {
        let loop = try EventLoop(index: index)
        try loop.start()
        return loop
    }

    /// Stops the loop and waits for its thread (not from the loop itself).
    public func stopAndJoin() {
        stop()
        join()
    }

    /// Asks the loop to exit after this iteration (from any thread).
    public func stop() {
        execute { [self] in stopping = true }
    }

    /// Waits for the loop thread to exit.
    package func join() {
        if let thread { pthread_join(thread, nil) }
        thread = nil
    }

    private func run() {
        owner.store(UInt(pthread_self()), ordering: .relaxed)
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        nextTick = monotonicNanoseconds() &+ tickInterval
        while !stopping {
            let now = monotonicNanoseconds()
            var wake = nextTick
            if let next = timers.nextDeadline, next < wake { wake = next }
            // epoll_wait counts milliseconds: round up so that timers never fire early.
            // A task queued on the loop itself sent no wake: do not sleep on it.
            let timeout = wake <= now || tasksQueuedOnLoop ? 0 : Int32(min((wake - now + 999_999) / 1_000_000, 60_000))
            let n = events.withUnsafeMutableBufferPointer { epoll_wait(epoll, $0.baseAddress, Int32($0.count), timeout) }
            lastWake = monotonicNanoseconds()
            if n > 0 {
                for i in 0..<Int(n) {
                    let token = events[i].data.u64
                    if token == Self.wakeSlot {
                        var value: UInt64 = 0
                        _ = read(wakeFD, &value, 8)
                        continue
                    }
                    let slot = Int(token & 0xFFFF_FFFF), generation = UInt32(token >> 32)
                    guard slot < slots.count, generations[slot] == generation, let handler = slots[slot] else { continue }
                    handler.handle(events: events[i].events)
                }
            }
            runTasks()
            runTimers()
        }
        onStop?()
        onStop = nil
        onTick = nil
        runTasks()
    }

    /// Runs each timer whose deadline has come, earliest first.
    private func fireTimers(dueBy now: UInt64, afterEach: () -> Void = {}) {
        // The deadline is read from the heap's own array: no timer object is
        // touched, and the heap is not changed, until one is due.
        while let next = timers.nextDeadline, next <= now, let first = timers.pop() {
            if !first.isCancelled {
                // Marked before it runs: `fire` may re-arm this very timer.
                first.isCancelled = true
                first.fire()
            }
            afterEach()
        }
    }

    package func runTasks() {
        tasksQueuedOnLoop = false  // what is queued now is taken below
        let pending = tasks.withLock { queue -> [@Sendable () -> Void] in
            let taken = queue
            queue.removeAll(keepingCapacity: true)
            return taken
        }
        for task in pending { task() }
    }

    private func runTimers() {
        fireTimers(dueBy: now)
        tickIfDue()
    }

    private func tickIfDue() {
        let now = self.now
        if now >= nextTick {
            nextTick = now &+ tickInterval
            onTick?()
        }
    }
}

// MARK: Embedded

extension EventLoop {
    /// A loop with no thread, run by its caller (NIO's `EmbeddedEventLoop`):
    /// the calling thread counts as its thread, and its clock stands still
    /// until `advance` moves it. For tests of what runs on a loop.
    public static func embedded(index: Int = 0) -> EventLoop {
        // epoll and an eventfd are always available; failing here is a broken host.
        let loop = try! EventLoop(index: index)
        loop.owner.store(UInt(pthread_self()), ordering: .relaxed)
        loop.manualNow = 1_000_000_000_000
        loop.nextTick = loop.now &+ loop.tickInterval
        return loop
    }

    /// Runs the tasks handed over with `execute`, then the timers due now
    /// (and the tick, when one is due).
    public func runPending() {
        preconditionInLoop()
        runTasks()
        fireTimers(dueBy: now, afterEach: runTasks)
        tickIfDue()
    }

    /// Moves an embedded loop's clock forward, running each timer (and
    /// tick) at its own deadline in order, as the real loop would; `step`
    /// runs what is due at each (by default `runPending`; an embedded
    /// server also delivers its connections' I/O there).
    public func advance(byNanoseconds nanoseconds: UInt64, step: (() -> Void)? = nil) {
        precondition(manualNow != nil, "advance is for embedded loops")
        let step = step ?? runPending
        let target = now &+ nanoseconds
        step()
        while case let next = min(timers.nextDeadline ?? .max, onTick == nil ? .max : nextTick), next <= target {
            manualNow = max(now, next)
            step()
        }
        manualNow = target
        step()
    }

    /// Whether tasks handed over with `execute` wait.
    package var hasTasks: Bool { tasks.withLock { !$0.isEmpty } }

    /// Waits up to `nanoseconds` of real time for a task from another
    /// thread (a deferred answer), then runs what came. True if one came.
    @discardableResult
    public func waitForTasks(upToNanoseconds nanoseconds: UInt64) -> Bool {
        // Tasks queued from the loop's own thread sent no wake.
        if hasTasks {
            runPending()
            return true
        }
        var poll = pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)
        let ms = Int32(min(nanoseconds / 1_000_000, 60_000))
        guard Glibc.poll(&poll, 1, ms) > 0 else { return false }
        var value: UInt64 = 0
        _ = read(wakeFD, &value, 8)
        runPending()
        return true
    }
}

/// An fd's place in a loop's epoll set. The token carries a generation so
/// that an event for a closed descriptor never reaches its slot's next owner.
package struct Registration {
    package let fd: Int32
    let slot: Int
    let generation: UInt32
    var token: UInt64 { UInt64(generation) << 32 | UInt64(slot) }
}

/// A timer of an event loop (`EventLoop.arm`); cancel to keep it from
/// running. Loop thread only.
///
/// A subclass that overrides `fire()` is its own task: a stream re-arms
/// itself for each frame, so a frame's timer touches the stream's one
/// object, with no handle or closure beside it (each a cache miss when
/// thousands of streams take turns).
open class LoopTimer {
    fileprivate(set) var deadline: UInt64 = 0
    fileprivate(set) var isCancelled = true
    /// Whether the loop's heap holds it: then it may not be armed again.
    fileprivate(set) var isInHeap = false

    public init() {}

    /// What the timer does at its deadline, on the loop thread.
    open func fire() {}

    open func cancel() { isCancelled = true }
}

/// A timer that runs a closure (`EventLoop.schedule`).
public final class TimerHandle: LoopTimer {
    private var task: (() -> Void)?

    init(task: @escaping () -> Void) {
        self.task = task
    }

    override public func fire() {
        // Moved out before it runs: a task that schedules again gets a new handle.
        task.take()?()
    }

    /// Also lets go of the closure (and what it holds) at once.
    override public func cancel() {
        super.cancel()
        task = nil
    }
}

/// A binary min-heap of timers by deadline (cancelled ones are dropped lazily).
/// Each entry keeps its deadline beside its handle, so sifting through
/// thousands of stream timers reads one contiguous array, not an object per
/// comparison.
struct TimerHeap {
    private struct Entry {
        let deadline: UInt64
        let timer: LoopTimer
    }

    private var items: [Entry] = []

    /// The earliest deadline, from the heap's own array.
    var nextDeadline: UInt64? { items.first?.deadline }

    mutating func push(_ timer: LoopTimer) {
        timer.isInHeap = true
        items.append(Entry(deadline: timer.deadline, timer: timer))
        items.withUnsafeMutableBufferPointer { heap in
            var i = heap.count - 1
            let moving = heap[i]
            while i > 0 {
                let parent = (i - 1) / 2
                if heap[parent].deadline <= moving.deadline { break }
                heap.swapAt(parent, i)
                i = parent
            }
        }
    }

    @discardableResult
    mutating func pop() -> LoopTimer? {
        guard !items.isEmpty else { return nil }
        let top = items[0].timer
        top.isInHeap = false
        let last = items.removeLast()
        guard !items.isEmpty else { return top }
        items.withUnsafeMutableBufferPointer { heap in
            heap[0] = last
            let count = heap.count
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var smallest = i
                if l < count && heap[l].deadline < heap[smallest].deadline { smallest = l }
                if r < count && heap[r].deadline < heap[smallest].deadline { smallest = r }
                if smallest == i { break }
                heap.swapAt(i, smallest)
                i = smallest
            }
        }
        return top
    }
}
