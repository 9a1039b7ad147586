import EventLoop
import Glibc
import HTTPTestSupport
import Synchronization
import Testing
@testable import HTTPServer

@Suite(.serialized)
struct LiveServerTests {
    @Test(arguments: Transport.allCases)
    func keepAliveServesManyRequestsOnOneConnection(_ transport: Transport) throws {
        let server = try TestServer(transport)
        let client = try server.client()
        for i in 0..<50 {
            client.send("GET /items/\(i)?q=a%20b HTTP/1.1\r\nHost: x\r\n\r\n")
            let r = try #require(client.readResponse())
            #expect(r.status == 200)
            #expect(r.text == "item \(i) q=a b\n")
            #expect(r.headers["date"]?.hasSuffix("GMT") == true)
            #expect(r.headers["connection"] == nil)
        }
    }

    @Test(arguments: Transport.allCases)
    func hundredPipelinedRequestsAnsweredInOrder(_ transport: Transport) throws {
        let server = try TestServer(transport)
        let client = try server.client()
        var batch = ""
        for i in 0..<100 {
            batch += i % 10 == 5
                ? "GET /slow?ms=\(i % 7) HTTP/1.1\r\nHost: x\r\n\r\n"
                : "GET /items/\(i) HTTP/1.1\r\nHost: x\r\n\r\n"
        }
        client.send(batch)
        for i in 0..<100 {
            let r = try #require(client.readResponse(), "response \(i)")
            #expect(r.text == (i % 10 == 5 ? "slow \(i % 7)\n" : "item \(i) q=\n"), "response \(i)")
        }
    }

    /// A request that arrives again byte for byte is taken without parsing
    /// (`RepeatedRequest`): it must be answered as a parsed one, whatever
    /// follows it and however it is split, and a near copy must not pass for it.
    @Test(arguments: Transport.allCases)
    func repeatedRequestsAnswerAsParsedOnes(_ transport: Transport) throws {
        let server = try TestServer(transport)
        let client = try server.client()
        let get = "GET /items/7?q=x HTTP/1.1\r\nHost: x\r\n\r\n"
        client.send(get + get + get)
        for i in 0..<3 { #expect(client.readResponse()?.text == "item 7 q=x\n", "copy \(i)") }
        let post = "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"
        client.send(post + post + get)
        #expect(client.readResponse()?.text == "abc")
        #expect(client.readResponse()?.text == "abc")
        #expect(client.readResponse()?.text == "item 7 q=x\n")
        client.send("GET /items/7?q=xy HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readResponse()?.text == "item 7 q=xy\n")
        client.send(get)
        #expect(client.readResponse()?.text == "item 7 q=x\n")
        client.send(String(get.prefix(10)))
        client.send(String(get.dropFirst(10)))
        #expect(client.readResponse()?.text == "item 7 q=x\n")
        client.send("GET /items/7?q=x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let last = try #require(client.readResponse())
        #expect(last.text == "item 7 q=x\n" && last.headers["connection"] == "close")
    }

    @Test(arguments: Transport.allCases)
    func headHasHeadersButNoBody(_ transport: Transport) throws {
        let server = try TestServer(transport)
        let client = try server.client()
        client.send("HEAD /hello HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = try #require(client.readResponse(head: true))
        #expect(head.status == 200 && head.headers["content-length"] == "6" && head.body.isEmpty)
        let get = try #require(client.readResponse())
        #expect(get.text == "hello\n")
    }

    @Test(arguments: Transport.allCases)
    func chunkedUploadAndExpectContinue(_ transport: Transport) throws {
        let server = try TestServer(transport)
        let client = try server.client()
        client.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nWiki\r\n5\r\npedia\r\n0\r\n\r\n")
        #expect(client.readResponse()?.text == "Wikipedia")
        client.send("POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
        #expect(client.read(until: "100 Continue\r\n\r\n")?.hasPrefix("HTTP/1.1 100 Continue") == true)
        _ = client.readResponse()  // consume the interim response
        client.send("body")
        #expect(client.readResponse()?.text == "body")
    }

    @Test(arguments: Transport.allCases)
    func connectionCloseAndHTTP10(_ transport: Transport) throws {
        let server = try TestServer(transport)
        let a = try server.client()
        a.send("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let r = try #require(a.readResponse())
        #expect(r.headers["connection"] == "close")
        #expect(a.isClosedByServer())

        let b = try server.client()
        b.send("GET /hello HTTP/1.0\r\n\r\n")
        #expect(b.readResponse()?.status == 200)
        #expect(b.isClosedByServer())

        let c = try server.client()
        c.send("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(c.readResponse()?.headers["connection"] == "keep-alive")
        c.send("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(c.readResponse()?.status == 200)
    }

    @Test(arguments: Transport.allCases)
    func routingAnswers404And405WithAllow(_ transport: Transport) throws {
        let server = try TestServer(transport)
        let client = try server.client()
        client.send("GET /nope HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readResponse()?.status == 404)
        client.send("DELETE /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        let r = try #require(client.readResponse())
        #expect(r.status == 405 && r.headers["allow"] == "GET, HEAD")
        // The connection stays open after application errors.
        client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readResponse()?.status == 200)
    }

    @Test(arguments: Transport.allCases, [
        ("GARBAGE\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\n\r\n", 400),
        ("GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\nHost: x\r\n\r\n", 414),
        ("GET / HTTP/1.1\r\nHost: x\r\nX: " + String(repeating: "b", count: 17000) + "\r\n\r\n", 431),
        ("GET / HTTP/1.1\r\nHost: x\r\n" + String(repeating: "X-A: 1\r\n", count: 101) + "\r\n", 431),
        ("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1048577\r\n\r\n", 413),
        ("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
        ("GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505),
        ("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 505),
    ])
    func limitsAnswerThenClose(_ transport: Transport, _ case: (request: String, status: Int)) throws {
        let (request, status) = `case`
        let server = try TestServer(transport)
        let client = try server.client()
        client.send(request)
        let head = try #require(client.read(until: "\r\n\r\n"))
        #expect(head.hasPrefix("HTTP/1.1 \(status) "))
        // One Connection field (RFC 9110 §7.6.1 lists its options once).
        let fields = head.split(separator: "\r\n\r\n", maxSplits: 1)[0].split(separator: "\r\n")
        #expect(fields.count { $0.lowercased() == "connection: close" } == 1, "\(head)")
        #expect(client.isClosedByServer())
    }

    /// A client that sends its whole body past the limit reads the 413
    /// whole: the server reads and drops the rest before it closes, where
    /// closing with the bytes unread reset the connection under the answer
    /// (RFC 9112 §9.6). Then the connection ends and its count goes back.
    @Test func aRefusedBodyIsDroppedUnreadSoThatItsAnswerArrives() throws {
        // More than the kernel's buffers hold, so that the client is still
        // sending when the server has answered.
        let server = try TestServer(.live) { $0.maxLingerBytes = 64 << 20 }
        let body = [UInt8](repeating: UInt8(ascii: "a"), count: 16 << 20)
        for _ in 0..<3 {
            let client = try server.client()
            // Every byte is taken (a client that gets EPIPE or a reset here, as
            // most do, never reads the answer), and then the answer is read.
            let sent = client.send(Array("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body)
            #expect(sent, "the server closed while the body was being sent")
            let r = try #require(client.readResponse())
            #expect(r.status == 413 && r.headers["connection"] == "close")
            #expect(client.isClosedByServer())
        }
        #expect(eventually { server.openConnections == 0 })
    }

    /// One that goes on sending is closed after `maxLingerBytes`, and one
    /// that sends nothing more after `lingerTimeout`: lingering is bounded.
    @Test func lingeringEndsAtItsBytesAndAtItsTime() throws {
        let server = try TestServer(.live) {
            $0.maxLingerBytes = 64 * 1024
            $0.lingerTimeout = 200_000_000
        }
        let endless = try server.client()
        endless.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n")
        #expect(endless.readResponse()?.status == 413)
        // Blocks while the server reads, until it closes at its bound.
        let sentAll = endless.send([UInt8](repeating: 0x61, count: 8 << 20))
        #expect(!sentAll, "the server read 8 MiB where it lingers for 64 KiB")
        let silent = try server.client()
        silent.send("GET / HTTP/1.1\r\n\r\n")
        #expect(silent.readResponse()?.status == 400)
        // Neither client closes: the server does, at the bound.
        #expect(eventually { server.openConnections == 0 })
    }

    @Test(arguments: Transport.allCases)
    func largeBodyInManyWritesAndBigResponses(_ transport: Transport) throws {
        let server = try TestServer(transport)
        let client = try server.client()
        let body = [UInt8]((0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 % 251) })
        client.send(Array("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body)
        #expect(client.readResponse()?.body == body)
        client.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readResponse()?.body.count == 4 * 1024 * 1024)
    }

    @Test(arguments: Transport.allCases)
    func slowlorisGets408AndIdleConnectionsClose(_ transport: Transport) throws {
        let server = try TestServer(transport) {
            $0.headerTimeout = 200_000_000
            $0.idleTimeout = 300_000_000
        }
        let slow = try server.client()
        slow.send("GET /hello HTTP/1.1\r\nHo")
        let r = try #require(slow.readResponse())
        #expect(r.status == 408)
        #expect(slow.isClosedByServer())

        let idle = try server.client()
        idle.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(idle.readResponse()?.status == 200)
        #expect(idle.isClosedByServer())  // closed by the idle timeout, no answer owed
    }

    @Test func streamEndsAndClientDisconnectIsHeard() throws {
        let (server, probe) = try startServer()
        defer { server.shutdown(gracePeriod: 1_000_000_000) }
        let client = try TestClient(port: server.port)
        client.send("GET /stream?n=4 HTTP/1.1\r\nHost: x\r\n\r\n")
        let text = String(decoding: client.readToClose(), as: UTF8.self)
        #expect(text.contains("Connection: close"))
        #expect(text.contains("id: 3\nevent: tick\ndata: n=3\n\n"))
        #expect(text.hasSuffix("event: end\ndata: bye\n\n"))

        var forever: TestClient? = try TestClient(port: server.port)
        forever!.send("GET /forever HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(forever!.read(until: "event: tick") != nil)
        #expect(eventually { server.openStreams == 1 })
        forever = nil  // the client goes away
        #expect(eventually { probe.streamsClosed.load(ordering: .relaxed) == 1 })
        #expect(eventually { server.openStreams == 0 })
    }

    @Test func aStreamClientThatNeverReadsIsDropped() throws {
        let (server, probe) = try startServer { $0.streamStallTimeout = 300_000_000 }
        defer { server.shutdown(gracePeriod: 1_000_000_000) }
        let client = try TestClient(port: server.port)
        var size: Int32 = 4096
        setsockopt(client.fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(4))
        client.send("GET /forever?size=60000 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(eventually(10) { probe.streamsClosed.load(ordering: .relaxed) == 1 })
        #expect(server.openConnections == 0)
    }

    @Test func gracefulShutdownFinishesInFlightRequestsAndEndsStreams() throws {
        let (server, _) = try startServer()
        let slow = try TestClient(port: server.port)
        slow.send("GET /slow?ms=300 HTTP/1.1\r\nHost: x\r\n\r\n")
        let stream = try TestClient(port: server.port)
        stream.send("GET /forever HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(stream.read(until: "event: tick") != nil)
        #expect(eventually { server.openStreams == 1 })
        let idle = try TestClient(port: server.port)
        idle.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(idle.readResponse()?.status == 200)

        let done = Flag()
        let thread = Thread { server.shutdown(gracePeriod: 3_000_000_000); done.value.store(true, ordering: .relaxed) }
        let r = try #require(slow.readResponse())
        #expect(r.status == 200 && r.text == "slow 300\n")
        #expect(r.headers["connection"] == "close")
        #expect(String(decoding: stream.readToClose(), as: UTF8.self).hasSuffix("event: end\ndata: shutdown\n\n"))
        #expect(idle.isClosedByServer())
        thread.join()
        #expect(done.isSet)
        #expect((try? TestClient(port: server.port)) == nil)  // no longer accepting
    }

    /// A client that closes its connection, or its sending side, while its
    /// answer is deferred: work that looks stops, and its 499 is never
    /// written; an answer that comes anyway is still written to a client
    /// that only half-closed.
    @Test func workForAClientThatLeftStops() throws {
        let (server, probe) = try startServer()
        defer { server.shutdown(gracePeriod: 1_000_000_000) }
        do {
            let gone = try TestClient(port: server.port)
            gone.send("GET /patient?ms=5000 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(eventually { probe.requests.load(ordering: .relaxed) == 1 })
        }  // closed here
        #expect(eventually(2) { probe.abandoned.load(ordering: .relaxed) == 1 })

        let halfway = try TestClient(port: server.port)
        halfway.send("GET /patient?ms=5000 HTTP/1.1\r\nHost: x\r\n\r\n")
        halfway.shutdownWrite()
        #expect(eventually(2) { probe.abandoned.load(ordering: .relaxed) == 2 })
        #expect(halfway.readResponse() == nil && halfway.isClosedByServer())

        let patient = try TestClient(port: server.port)
        patient.send("GET /slow?ms=100 HTTP/1.1\r\nHost: x\r\n\r\n")
        patient.shutdownWrite()
        #expect(patient.readResponse()?.text == "slow 100\n")
        #expect(patient.isClosedByServer())

        // A client that stays gets the answer.
        let staying = try TestClient(port: server.port)
        staying.send("GET /patient?ms=20 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(staying.readResponse()?.text == "patient 20\n")
        #expect(probe.abandoned.load(ordering: .relaxed) == 2)
    }

    @Test func ipv6Listener() throws {
        guard (try? SocketAddress(host: "::1", port: 0)) != nil else { return }
        let (server, _) = try startServer { $0.hosts = ["127.0.0.1", "::1"] }
        defer { server.shutdown(gracePeriod: 1_000_000_000) }
        #expect(server.addresses.count == 2)
        if let v6 = try? TestClient(port: server.port, host: "::1") {
            v6.send("GET /hello HTTP/1.1\r\nHost: [::1]\r\n\r\n")
            #expect(v6.readResponse()?.status == 200)
        }
        let v4 = try TestClient(port: server.port)
        v4.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(v4.readResponse()?.status == 200)
    }
}
