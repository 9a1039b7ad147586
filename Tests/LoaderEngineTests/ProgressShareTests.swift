import FoundationEssentials
import Testing
@testable import LoaderEngine

/// web's `steps`: how many progress events make the whole load. Frames then
/// carry `progress`, the share done: each progress event before `t` counts
/// 1/steps (at most the whole), a finish at or before `t` is the whole.
struct ProgressShareTests {
    func frame(_ query: String) throws -> Frame {
        try FrameQuery(LoaderCatalog.standard["web"]!, items: queryItems(query)).frame()
    }

    struct Decoded: Decodable { let progress: Double? }
    func decoded(_ query: String) throws -> Decoded {
        try JSONDecoder().decode(Decoded.self, from: Data(FrameEncoder.encode(frame(query))))
    }

    @Test func theShareCountsProgressEventsUpToTheWhole() throws {
        // Six events, two at one moment, against a whole of four.
        let events = "steps=4&progress=0.9,0.2,0.5,0.5,1.3,2"
        for (t, share) in [(0.1, 0.0), (0.2, 0.25), (0.49, 0.25), (0.5, 0.75), (1, 1.0), (5, 1.0)] {
            #expect(try frame("t=\(t)&\(events)").progress == share, "t=\(t)")
            #expect(try decoded("t=\(t)&\(events)").progress == share, "t=\(t)")
        }
    }

    @Test func finishIsTheWholeAndStopEndsCounting() throws {
        #expect(try frame("t=0.59&steps=10&progress=0.2,0.5&finish=0.6").progress == 0.2)
        #expect(try frame("t=0.6&steps=10&progress=0.2,0.5&finish=0.6").progress == 1)
        // Events at or after finish or stop do not count; a finish after stop is not one.
        #expect(try frame("t=3&steps=10&progress=0.2,0.5,2&stop=1&finish=1.5").progress == 0.2)
    }

    @Test func withoutStepsThereIsNoShare() throws {
        #expect(try frame("t=1&progress=0.2,0.5").progress == nil)
        #expect(try decoded("t=1&progress=0.2,0.5").progress == nil)
        let text = String(decoding: FrameEncoder.encode(try frame("t=1&progress=0.2")), as: UTF8.self)
        #expect(!text.contains("progress"))
        // Only web knows a whole.
        #expect(throws: ParameterError.self) { try FrameQuery(LoaderCatalog.standard["typing"]!, items: queryItems("steps=4")).frame() }
    }
}
