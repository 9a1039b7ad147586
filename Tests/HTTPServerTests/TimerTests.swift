import Testing
@testable import HTTPServer

/// The loop's timers, on an embedded loop whose clock the test moves.
struct TimerTests {
    @Test func timersFireInDeadlineOrderAndCancelledOnesDoNot() {
        let loop = EventLoop.embedded()
        var fired: [Int] = []
        let deadlines = [50, 10, 40, 20, 30, 10, 60]
        for (i, d) in deadlines.enumerated() {
            loop.schedule(afterNanoseconds: UInt64(d)) { fired.append(i) }
        }
        let cancelled = loop.schedule(afterNanoseconds: 25) { fired.append(99) }
        cancelled.cancel()
        loop.advance(byNanoseconds: 100)
        #expect(fired.map { deadlines[$0] } == deadlines.sorted())
        #expect(!fired.contains(99))
    }

    /// A fired timer re-armed from its own task is the same timer; one still
    /// waiting is replaced, and the old one never fires.
    @Test func aFiredTimerIsReArmedInPlace() {
        let loop = EventLoop.embedded()
        var handles: [ObjectIdentifier] = []
        var timer: TimerHandle?
        var tick: (() -> Void)!
        tick = {
            handles.append(ObjectIdentifier(timer!))
            if handles.count < 5 { timer = loop.reschedule(timer, at: loop.now &+ 10, tick) }
        }
        timer = loop.schedule(afterNanoseconds: 10, tick)
        loop.advance(byNanoseconds: 1_000)
        #expect(handles.count == 5)
        #expect(Set(handles).count == 1)

        var fired: [String] = []
        let waiting = loop.schedule(afterNanoseconds: 10) { fired.append("old") }
        let replaced = loop.reschedule(waiting, at: loop.now &+ 20) { fired.append("new") }
        #expect(replaced !== waiting)
        loop.advance(byNanoseconds: 100)
        #expect(fired == ["new"])
        tick = nil
    }
}
