import Testing
@testable import LoaderEngine

struct TimingFunctionTests {
    @Test func referenceValues() {
        #expect(abs(TimingFunction.easeInEaseOut(0.25) - 0.129162) < 1e-6)
        #expect(abs(TimingFunction.easeOut(0.5) - 0.684643) < 1e-6)
        #expect(abs(TimingFunction.easeIn(0.5) - 0.315357) < 1e-6)
        #expect(abs(TimingFunction.easeInEaseOut(0.5) - 0.5) < 1e-9)
        #expect(TimingFunction.linear(0.37) == 0.37)
    }

    @Test func endpointsAndMonotonic() {
        for f in [TimingFunction.easeIn, .easeOut, .easeInEaseOut, .default, TimingFunction(controlPoints: 0.9, 0.1, 0.1, 0.9)] {
            #expect(abs(f(0)) < 1e-9)
            #expect(abs(f(1) - 1) < 1e-9)
            var last = f(0)
            for i in 1...1000 {
                let y = f(Double(i) / 1000)
                #expect(y >= last - 1e-9)
                last = y
            }
        }
    }

    @Test func solvesXToTheTolerance() {
        let f = TimingFunction.default
        for i in 0...200 {
            let x = Double(i) / 200
            #expect(abs(f.sampleX(f.solveX(x)) - x) < 1e-9)
        }
    }

    @Test func easeInEaseOutIsSymmetric() {
        for i in 0...100 {
            let p = Double(i) / 100
            #expect(abs(TimingFunction.easeInEaseOut(p) + TimingFunction.easeInEaseOut(1 - p) - 1) < 1e-8)
        }
    }
}

struct MediaTimingTests {
    @Test func inactiveBeforeBeginAndAfterEndUnlessFilled() {
        let removed = MediaTiming(beginTime: 1, duration: 2)
        #expect(removed.progress(atParentTime: 0.5) == nil)
        #expect(removed.progress(atParentTime: 2) == 0.5)
        #expect(removed.progress(atParentTime: 3) == nil)

        let both = MediaTiming(beginTime: 1, duration: 2, fillMode: .both)
        #expect(both.progress(atParentTime: 0.5) == 0)
        #expect(both.progress(atParentTime: 10) == 1)
        #expect(MediaTiming(beginTime: 1, duration: 2, fillMode: .backwards).progress(atParentTime: 10) == nil)
        #expect(MediaTiming(beginTime: 1, duration: 2, fillMode: .forwards).progress(atParentTime: 0) == nil)
    }

    @Test func repeatCountFractionalAndForever() {
        let t = MediaTiming(duration: 1, repeatCount: 2.5, fillMode: .forwards)
        #expect(t.progress(atParentTime: 1.25) == 0.25)
        #expect(t.progress(atParentTime: 2.4)! - 0.4 < 1e-12)
        #expect(t.progress(atParentTime: 7) == 0.5)
        let forever = MediaTiming(duration: 0.6, repeatCount: .infinity)
        #expect(abs(forever.progress(atParentTime: 1e6 + 0.3)! - frac((1e6 + 0.3) / 0.6)) == 0)
    }

    @Test func autoreversesMirrorsOddLegs() {
        let t = MediaTiming(duration: 1, repeatCount: 1, autoreverses: true, fillMode: .forwards)
        #expect(t.progress(atParentTime: 0.25) == 0.25)
        #expect(t.progress(atParentTime: 1.25) == 0.75)
        #expect(t.activeDuration == 2)
        #expect(t.progress(atParentTime: 5) == 0)  // back where it started
        let half = MediaTiming(duration: 1, repeatCount: 1.5, autoreverses: true, fillMode: .forwards)
        #expect(half.progress(atParentTime: 9) == 1)  // ends after the third leg, forwards
    }

    @Test func speedAndTimeOffset() {
        let t = MediaTiming(duration: 1, repeatCount: .infinity, speed: 2, timeOffset: 0.25)
        #expect(t.progress(atParentTime: 0.25) == 0.75)
        let paused = MediaTiming(duration: 1, repeatCount: .infinity, speed: 0, timeOffset: 0.4)
        #expect(paused.progress(atParentTime: 123) == 0.4)
    }
}

struct AnimationTests {
    let model = LayerState(position: Point(x: 10, y: 20), opacity: 1, scale: 1)

    @Test func laterAnimationOverridesEarlierOnTheSameProperty() {
        let layer = Layer(id: ElementID("a"), diameter: 1, color: .white, model: model, animations: [
            (BasicAnimation(.opacity, from: 1, to: 0, timing: MediaTiming(duration: 1, repeatCount: .infinity))),
            (BasicAnimation(.opacity, from: 0.5, to: 0.5, timing: MediaTiming(beginTime: 2, duration: 1))),
        ])
        #expect(layer.presentation(atAnimationTime: 0.25).opacity == 0.75)
        #expect(layer.presentation(atAnimationTime: 2.5).opacity == 0.5)
        #expect(layer.presentation(atAnimationTime: 3.25).opacity == 0.75)
    }

    @Test func groupClipsChildrenAndHonoursTheirFill() {
        let move = { (fill: FillMode) in
            BasicAnimation(.positionX, from: 0, to: 100, timing: MediaTiming(duration: 1, fillMode: fill)) as any Animation
        }
        let held = AnimationGroup([move(.forwards)], timing: MediaTiming(duration: 2, repeatCount: .infinity))
        let dropped = AnimationGroup([move(.removed)], timing: MediaTiming(beginTime: 1, duration: 2, repeatCount: .infinity))
        var s = model
        held.apply(to: &s, at: 1.5)
        #expect(s.position.x == 100)
        s = model
        held.apply(to: &s, at: 2.5)
        #expect(s.position.x == 50)
        s = model
        dropped.apply(to: &s, at: 0.5)
        #expect(s.position.x == 10)  // group not begun: model
        dropped.apply(to: &s, at: 1.5)
        #expect(s.position.x == 50)
        s = model
        dropped.apply(to: &s, at: 2.5)
        #expect(s.position.x == 10)  // child over, no fill: model
    }

    @Test func pacedPathMovesAtConstantSpeed() {
        let path = Path([
            .line(from: Point(x: 0, y: 0), to: Point(x: 30, y: 0)),
            .arc(center: Point(x: 30, y: 10), radius: 10, startAngle: 1.5 * .pi, endAngle: 2.5 * .pi),
        ])
        #expect(abs(path.length - (30 + 10 * .pi)) < 1e-12)
        let quarter = path.point(atPacedFraction: 15 / path.length)
        #expect(abs(quarter.x - 15) < 1e-12 && quarter.y == 0)
        let end = path.point(atPacedFraction: 1)
        #expect(abs(end.x - 30) < 1e-9 && abs(end.y - 20) < 1e-9)
        let mid = path.point(atPacedFraction: (30 + 5 * .pi) / path.length)
        #expect(abs(mid.x - 40) < 1e-9 && abs(mid.y - 10) < 1e-9)
    }

    @Test func replicatorShiftsTimeAndPosition() {
        let dot = Layer(id: ElementID("dot"), diameter: 4, color: .white, model: LayerState(position: Point(x: 5, y: 5), opacity: 1, scale: 2),
                        animations: [(BasicAnimation(.scale, from: 1, to: 3, timing: MediaTiming(duration: 1, repeatCount: .infinity)))])
        let r = ReplicatorLayer(instance: dot, instanceCount: 3, instanceTranslation: Point(x: 10, y: 1), instanceDelay: 0.25)
        var elements = [Element]()
        r.render(at: 0.4, into: &elements)
        #expect(elements.map(\.id.description) == ["dot0", "dot1", "dot2"])
        #expect(elements.map(\.x) == [5, 15, 25])
        #expect(elements.map(\.y) == [5, 6, 7])
        #expect(abs(elements[0].scale - 1.8) < 1e-12)
        #expect(abs(elements[1].scale - 1.3) < 1e-12)
        #expect(elements[2].scale == 2)  // delay not elapsed: model value
    }
}
