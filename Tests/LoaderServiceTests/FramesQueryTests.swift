import FoundationEssentials
import HTTPTestSupport
import LoaderEngine
import Testing
@testable import LoaderService

/// The frames query in its one form (`FrameQuery` and its grammars): the
/// multiplexed stream and a session's frames refuse what they refused
/// before it, in the same order. Every expected body below is the answer
/// of the release binary built before the query had one form.
@Suite
struct FramesQueryTests {
    static let streamsTakes = "a multiplexed stream takes loader (repeated), t, fps, duration, clock and stream; a loader's own parameters go in its loader value (loader=switch%3Fcount%3D5)"
    static let sessionTakes = "a session's frames take t, fps and stream"

    static func refusal(_ code: String, _ message: String) -> String {
        #"{"error":{"status":400,"code":""# + code + #"","message":""# + message + #""}}"#
    }

    /// (target, Accept, body) for `/streams`.
    static let streams: [(String, String, String)] = [
        ("/streams?loader=typing&t=1&t=2", "application/json", refusal("invalid_parameter", "t is given more than once")),
        ("/streams?from=1&loader=typing", "application/json", refusal("unknown_parameter", "unknown parameter from; " + streamsTakes)),
        ("/streams?loader=typing&fps=0&fps=1", "application/json", refusal("invalid_parameter", "fps is given more than once")),
        ("/streams?fps=1&fps=1&bogus=1", "application/json", refusal("invalid_parameter", "fps is given more than once")),
        ("/streams?bogus=1&fps=1&fps=1", "application/json", refusal("unknown_parameter", "unknown parameter bogus; " + streamsTakes)),
        ("/streams?loader=typing&stream=x", "application/json", refusal("invalid_parameter", "stream must be sse")),
        ("/streams?loader=typing&stream=x&stream=y", "application/json", refusal("invalid_parameter", "stream is given more than once")),
        ("/streams?loader.count=1&loader=typing", "application/json", refusal("unknown_parameter", "unknown parameter loader.count; " + streamsTakes)),
        ("/streams?loader=typing&clock=other", "text/event-stream", refusal("invalid_parameter", "clock must be stream (the stream's own, from t) or shared (the Unix epoch folded into the loader's loop)")),
        ("/streams?loader=typing&clock=shared&t=1", "text/event-stream", refusal("invalid_parameter", "t does not apply with clock=shared: the shared clock's time is the Unix epoch folded into each loader's loop")),
        ("/streams?loader=typing&t=abc", "text/event-stream", refusal("invalid_parameter", "t must be a finite number >= 0 and <= 1e9")),
        ("/streams?loader=typing&duration=0", "text/event-stream", refusal("invalid_parameter", "duration must be a number of seconds > 0 and <= 1e9")),
        ("/streams?loader=typing&fps=abc&duration=0", "text/event-stream", refusal("invalid_parameter", "fps must be a number from 1 to 120")),
        ("/streams?stream=x", "text/event-stream", refusal("invalid_parameter", "stream must be sse")),
        ("/streams?fps=1", "text/event-stream", refusal("invalid_parameter", "loader must be given 1 to 64 times: a name, or a name, ? and its parameters")),
    ]

    /// (query, body) for `/sessions/{id}/frames`, asked with `Accept: application/json`.
    static let sessionFrames: [(String, String)] = [
        ("t=x&fps=0", refusal("invalid_parameter", "t must be a finite number >= 0 and <= 1e9")),
        ("fps=0&t=x", refusal("invalid_parameter", "fps must be a number from 1 to 120")),
        ("t=1&t=x", refusal("invalid_parameter", "t is given more than once")),
        ("stream=sse&stream=x", refusal("invalid_parameter", "stream must be sse")),
        ("stream=sse&stream=sse&t=1", refusal("invalid_parameter", "a session's stream follows its clock; t is for single frames")),
        ("fps=2&fps=2", refusal("invalid_parameter", "fps is given more than once")),
        ("from=1", refusal("unknown_parameter", "unknown parameter from; " + sessionTakes)),
        ("t=1&bogus=1", refusal("unknown_parameter", "unknown parameter bogus; " + sessionTakes)),
        ("bogus=1&t=x", refusal("unknown_parameter", "unknown parameter bogus; " + sessionTakes)),
        ("fps=2", refusal("invalid_parameter", "fps applies to streams (Accept: text/event-stream or stream=sse)")),
        ("stream=no", refusal("invalid_parameter", "stream must be sse")),
        ("t=-1&stream=sse", refusal("invalid_parameter", "t must be a finite number >= 0 and <= 1e9")),
    ]

    @Test(arguments: Transport.allCases)
    func refusalsAreTheOnesBefore(_ transport: Transport) throws {
        let app = try TestApp(transport)
        for (target, accept, body) in Self.streams {
            let r = try get(app, target, ["Accept": accept])
            #expect(r.status == 400, "\(target)")
            #expect(String(decoding: r.body, as: UTF8.self) == body, "\(target)")
        }
        let created = try app.request("POST", "/sessions", ["Content-Type": "application/json"], body: Array(#"{"loader":"typing"}"#.utf8))
        #expect(created.status == 201)
        let id = try #require(try JSONValue.parse(created.body)["id"].flatMap { if case .string(let s) = $0 { s } else { nil } })
        for (query, body) in Self.sessionFrames {
            let r = try get(app, "/sessions/\(id)/frames?\(query)", ["Accept": "application/json"])
            #expect(r.status == 400, "\(query)")
            #expect(String(decoding: r.body, as: UTF8.self) == body, "\(query)")
        }
    }

    /// The form itself: what each grammar keeps, and where.
    @Test
    func oneFormHoldsEachEndpointsValues() throws {
        let streams = try FrameQuery(items: [("loader", "typing"), ("fps", "10"), ("loader", "switch?count=5"), ("clock", "shared")],
                                     grammar: .multiplexed)
        #expect(streams.references == ["typing", "switch?count=5"])
        #expect(streams.fps == "10" && streams.clock == "shared" && streams.t == nil)
        #expect(streams.loaderItems.isEmpty && streams.definition == nil)

        let session = try FrameQuery(items: [("stream", "sse"), ("fps", "5"), ("stream", "sse")], grammar: .session)
        #expect(session.streaming && session.stream == "sse" && session.fps == "5")
        #expect(session.references.isEmpty)

        let typing = try #require(LoaderCatalog.standard["typing"])
        let frames = try FrameQuery(typing, items: [("t", "1"), ("count", "4"), ("from", "0")])
        #expect(frames.t == "1" && frames.from == "0" && frames.loaderItems.map(\.name) == ["count"])
    }
}
