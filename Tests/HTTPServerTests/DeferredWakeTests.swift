import HTTPTestSupport
import Testing
@testable import HTTPServer

/// A deferred answer given on its connection's own loop is taken at once;
/// only one from another thread wakes the loop (one eventfd write).
@Suite(.serialized)
struct DeferredWakeTests {
    /// A connection that has had one answer, and the wakes counted so far.
    private func settled(_ transport: Transport) throws -> (server: TestServer, client: TestClient, wakes: Int) {
        let server = try TestServer(transport)
        let client = try server.client()
        client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readResponse()?.text == "hello\n")
        return (server, client, server.wakes)
    }

    @Test(arguments: Transport.allCases)
    func anAnswerGivenOnItsOwnLoopWakesNothing(_ transport: Transport) throws {
        let (server, client, before) = try settled(transport)
        // Pipelined: an answer given during its own start must leave the
        // requests behind it to be taken once, in order.
        client.send("GET /deferred/now HTTP/1.1\r\nHost: x\r\n\r\n"
            + "GET /deferred/timer HTTP/1.1\r\nHost: x\r\n\r\n"
            + "GET /deferred/now HTTP/1.1\r\nHost: x\r\n\r\n"
            + "GET /items/3 HTTP/1.1\r\nHost: x\r\n\r\n")
        for expected in ["now\n", "timer\n", "now\n", "item 3 q=\n"] {
            let r = try #require(client.readResponse(), "answer \(expected)")
            #expect(r.status == 200)
            #expect(r.text == expected)
            #expect(r.headers["content-length"] == String(expected.utf8.count))
        }
        #expect(server.wakes == before)
    }

    @Test(arguments: Transport.allCases)
    func anAnswerFromAnotherThreadWakesItsLoopOnce(_ transport: Transport) throws {
        let (server, client, before) = try settled(transport)
        client.send("GET /slow?ms=0 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readResponse()?.text == "slow 0\n")
        #expect(server.wakes == before + 1)
    }
}
