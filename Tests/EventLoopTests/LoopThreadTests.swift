import Glibc
import Synchronization
import Testing
@testable import EventLoop

/// What is the loop thread's alone is checked in every build, and work
/// handed over from the loop itself costs no wake.
struct LoopThreadTests {
    final class Ran: Sendable {
        let first = Atomic<Bool>(false)
        let second = Atomic<Bool>(false)
        var didFirst: Bool { first.load(ordering: .relaxed) }
        var didSecond: Bool { second.load(ordering: .relaxed) }
    }

    /// Polls `condition` until it holds or 5 s of real time pass.
    private func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = monotonicNanoseconds() &+ 5_000_000_000
        while !condition() {
            if monotonicNanoseconds() > deadline { return false }
            sched_yield()
        }
        return true
    }

    @Test func executeFromAnotherThreadWakesOnceAndFromTheLoopNot() throws {
        let loop = try EventLoop(index: 0)
        // Nothing else wakes it (the tick is a minute off): a task queued
        // on the loop that waited for a wake would not run in time.
        loop.tickInterval = 60_000_000_000
        try loop.start()
        defer { loop.stopAndJoin() }
        let ran = Ran()
        loop.execute {
            #expect(loop.inLoop)
            ran.first.store(true, ordering: .relaxed)
            loop.execute { ran.second.store(true, ordering: .relaxed) }
        }
        #expect(!loop.inLoop)
        #expect(eventually { ran.didSecond })
        #expect(ran.didFirst)
        let wakes = loop.wakes.load(ordering: .relaxed)
        #expect(wakes == 1)
    }

    @Test func anEmbeddedLoopRunsTasksQueuedOnItsOwnThread() {
        let loop = EventLoop.embedded()
        let ran = Ran()
        loop.execute { ran.first.store(true, ordering: .relaxed) }
        #expect(loop.waitForTasks(upToNanoseconds: 0))
        #expect(ran.didFirst)
        let wakes = loop.wakes.load(ordering: .relaxed)
        #expect(wakes == 0)
    }

    // Exit tests: each body runs in a child process, which must trap.
    // The checks are preconditions, so a release build traps as well.

    @Test func schedulingOffTheLoopTraps() async {
        await #expect(processExitsWith: .failure) {
            let loop = try EventLoop.started()
            loop.schedule(afterNanoseconds: 1_000) {}
        }
    }

    @Test func armingOffTheLoopTraps() async {
        await #expect(processExitsWith: .failure) {
            let loop = try EventLoop.started()
            loop.arm(LoopTimer(), at: 0)
        }
    }

    @Test func readingALoopBoundValueOffItsLoopTraps() async {
        await #expect(processExitsWith: .failure) {
            let loop = try EventLoop.started()
            let bound = LoopBound(1, loop: loop)
            _ = bound.value
        }
    }

    @Test func changingALoopBoundValueOffItsLoopTraps() async {
        await #expect(processExitsWith: .failure) {
            let loop = try EventLoop.started()
            var bound = LoopBound(1, loop: loop)
            bound.value = 2
        }
    }

    /// The same calls on the loop's own thread go through (the control).
    @Test func onTheLoopTheyRun() throws {
        let loop = try EventLoop.started()
        defer { loop.stopAndJoin() }
        let ran = Ran()
        loop.execute {
            var bound = LoopBound(1, loop: loop)
            bound.value += 1
            loop.schedule(afterNanoseconds: 0) {
                ran.first.store(bound.value == 2, ordering: .relaxed)
                ran.second.store(true, ordering: .relaxed)
            }
        }
        #expect(eventually { ran.didSecond })
        #expect(ran.didFirst)
    }
}
