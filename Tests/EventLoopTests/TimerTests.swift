import Testing
@testable import EventLoop

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

    /// A timer that is its own task, re-armed from `fire` for the next
    /// time (a stream's frames); cancelled, it stops.
    @Test func aTimerReArmsItselfFromFire() {
        final class Ticker: LoopTimer {
            let loop: EventLoop
            var firedAt: [UInt64] = []
            init(loop: EventLoop) { self.loop = loop }
            override func fire() {
                firedAt.append(loop.now)
                if firedAt.count < 5 { loop.arm(self, at: loop.now &+ 10) }
            }
        }
        let loop = EventLoop.embedded()
        let start = loop.now
        let ticker = Ticker(loop: loop)
        loop.arm(ticker, at: start &+ 10)
        loop.advance(byNanoseconds: 1_000)
        #expect(ticker.firedAt.map { $0 - start } == [10, 20, 30, 40, 50])

        loop.arm(ticker, at: loop.now &+ 10)
        ticker.cancel()
        loop.advance(byNanoseconds: 100)
        #expect(ticker.firedAt.count == 5)
        // A cancelled timer, once its old deadline has passed, may be armed again.
        loop.arm(ticker, at: loop.now &+ 10)
        loop.advance(byNanoseconds: 100)
        #expect(ticker.firedAt.count == 6)
    }
}
