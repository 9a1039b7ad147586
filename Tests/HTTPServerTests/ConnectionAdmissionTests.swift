import EventLoop
import Glibc
import HTTPTestSupport
import Testing
@testable import HTTPServer

/// Who gets a connection when they are scarce: a full table makes room by
/// closing the connection idle longest, one address holds at most its
/// share, and that share is given back however a connection ends. Clients
/// on 127.0.0.2 and 127.0.0.3 are other addresses (loopback is a /8).
@Suite(.serialized)
struct ConnectionAdmissionTests {
    static let hello = "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n"
    static let one = IPAddress("127.0.0.1")!
    static let two = IPAddress("127.0.0.2")!

    /// A client from `source` that has had one answer and now waits.
    func idleClient(_ server: HTTPServer, from source: String) throws -> TestClient {
        let client = try TestClient(port: server.port, source: source)
        client.send(Self.hello)
        #expect(client.readResponse()?.status == 200)
        return client
    }

    @Test func aFullTableAdmitsNewcomersInPlaceOfTheLongestIdle() throws {
        let (server, _) = try startServer {
            $0.maxConnections = 6
            $0.maxConnectionsPerAddress = 3
        }
        defer { server.shutdown(gracePeriod: 1_000_000_000) }
        // Six keep-alive connections, one request each, then silence: full.
        var idle: [TestClient] = []
        for i in 0..<6 { idle.append(try idleClient(server, from: i < 3 ? "127.0.0.1" : "127.0.0.2")) }
        #expect(server.openConnections == 6)
        // Each newcomer is answered, and the connection idle longest gives
        // way to it: the first opened, then the second, then the third.
        var newcomers: [TestClient] = []
        for k in 0..<3 {
            newcomers.append(try idleClient(server, from: "127.0.0.3"))
            #expect(idle[k].isClosedByServer(), "idle connection \(k) was not the one closed")
        }
        for (k, client) in idle.enumerated().dropFirst(3) {
            client.send(Self.hello)
            #expect(client.readResponse()?.status == 200, "idle connection \(k) was closed too")
        }
        #expect(server.openConnections == 6)
        #expect(server.connectionStatistics.evictedIdle == 3)
        // The closed ones gave their address's count back.
        #expect(server.openConnections(from: Self.one) == 0)
        #expect(server.openConnections(from: Self.two) == 3)
        _ = newcomers
    }

    /// The idle connection is on one loop and the newcomer arrives on the
    /// other: the newcomer is handed over and served where room was made
    /// (driven by hand: which loop the kernel wakes cannot be chosen).
    @Test func aNewcomerOnOneLoopTakesThePlaceOfAnIdleConnectionOnAnother() throws {
        let (server, _) = try startServer {
            $0.maxConnections = 1
            $0.perAddressExempt = [AddressRange("127.0.0.1/32")!]
        }
        defer { server.shutdown(gracePeriod: 1_000_000_000) }
        let idle = try idleClient(server, from: "127.0.0.1")
        // Listed as idle once its answer is written, just after the client can read it.
        #expect(eventually { server.core.loopWithOldestIdle() != nil })
        let holder = try #require(server.core.loopWithOldestIdle())
        let other = server.loops[1 - holder]
        var pair: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0)
        let (accepted, client) = (pair[0], pair[1])
        defer { close(client) }
        _ = fcntl(accepted, F_SETFL, fcntl(accepted, F_GETFL) | O_NONBLOCK)
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        other.execute { server.admit(accepted, peer: nil, on: other) }
        _ = Array(Self.hello.utf8).withUnsafeBytes { send(client, $0.baseAddress, $0.count, 0) }
        var answer = [UInt8](repeating: 0, count: 4096)
        let n = answer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
        #expect(n > 0 && String(decoding: answer[0..<max(n, 0)], as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        #expect(idle.isClosedByServer())
        #expect(server.openConnections == 1)
        #expect(server.connectionStatistics.evictedIdle == 1)
    }

    /// One address with a table's worth of idle connections (a trusted
    /// proxy, which no share bounds) cannot keep another address out.
    @Test func oneAddressHoldingEveryConnectionIdleCannotKeepAnotherOut() throws {
        let (server, _) = try startServer {
            $0.maxConnections = 20
            $0.perAddressExempt = [AddressRange("127.0.0.1/32")!]
        }
        defer { server.shutdown(gracePeriod: 1_000_000_000) }
        let held = try (0..<20).map { _ in try idleClient(server, from: "127.0.0.1") }
        #expect(server.openConnections == 20)
        let newcomers = try (0..<5).map { _ in try idleClient(server, from: "127.0.0.2") }
        #expect(held.prefix(5).allSatisfy { $0.isClosedByServer() })
        #expect(server.openConnections == 20)
        #expect(server.openConnections(from: Self.two) == newcomers.count)
    }

    /// The table full of connections busy with a request: a newcomer gets
    /// 503 at once; once one of them is between requests again, it gives way.
    @Test func aFullTableWithNoneIdleAnswers503AtOnce() throws {
        let (server, probe) = try startServer {
            $0.maxConnections = 2
            $0.perAddressExempt = [AddressRange("127.0.0.1/32")!]
        }
        defer { server.shutdown(gracePeriod: 1_000_000_000) }
        let a = try TestClient(port: server.port), b = try TestClient(port: server.port)
        a.send("GET /patient?ms=300 HTTP/1.1\r\nHost: x\r\n\r\n")
        // A head under way, read with the request before it (one segment).
        b.send(Self.hello + "GET /hello HTTP/1.1\r\nHo")
        #expect(b.readResponse()?.status == 200)
        #expect(eventually { probe.requests.load(ordering: .relaxed) == 2 })
        let c = try TestClient(port: server.port)
        let r = try #require(c.readResponse())
        #expect(r.status == 503)
        #expect(r.headers["retry-after"] == "1")
        #expect(c.isClosedByServer())
        #expect(server.openConnections == 2)
        #expect(server.connectionStatistics.refusedFull == 1)

        #expect(a.readResponse()?.text == "patient 300\n")  // a is idle again…
        #expect(eventually { server.core.loopWithOldestIdle() != nil })  // …once its answer is written
        let d = try idleClient(server, from: "127.0.0.2")
        #expect(a.isClosedByServer())
        b.send("st: x\r\n\r\n")
        #expect(b.readResponse()?.status == 200)
        _ = d
    }

    @Test func oneAddressGetsItsShareAndAnotherIsStillAdmitted() throws {
        let (server, _) = try startServer {
            $0.maxConnections = 100
            $0.maxConnectionsPerAddress = 3
        }
        defer { server.shutdown(gracePeriod: 1_000_000_000) }
        let held = try (0..<3).map { _ in try idleClient(server, from: "127.0.0.1") }
        let over = try TestClient(port: server.port, source: "127.0.0.1")
        let r = try #require(over.readResponse())
        #expect(r.status == 429)
        #expect(r.headers["retry-after"] == "1")
        #expect(over.isClosedByServer())
        // Idle or not, an address's own connections do not give way to it.
        for client in held {
            client.send(Self.hello)
            #expect(client.readResponse()?.status == 200)
        }
        let other = try idleClient(server, from: "127.0.0.2")
        #expect(server.openConnections(from: Self.one) == 3)
        #expect(server.openConnections(from: Self.two) == 1)
        #expect(server.connectionStatistics.refusedPerAddress == 1)
        #expect(server.connectionStatistics.mostFromOneAddress == 3)
        #expect(server.connectionStatistics.addresses == 2)
        _ = other
    }

    /// IPv6 peers are counted too, each address on its own.
    @Test func anIPv6AddressGetsItsShare() throws {
        guard (try? SocketAddress(host: "::1", port: 0)) != nil else { return }
        let (server, _) = try startServer {
            $0.hosts = ["::1"]
            $0.maxConnectionsPerAddress = 2
        }
        defer { server.shutdown(gracePeriod: 1_000_000_000) }
        guard let first = try? TestClient(port: server.port, host: "::1") else { return }  // no IPv6 here
        let second = try TestClient(port: server.port, host: "::1")
        for client in [first, second] {
            client.send("GET /hello HTTP/1.1\r\nHost: [::1]\r\n\r\n")
            #expect(client.readResponse()?.status == 200)
        }
        let over = try TestClient(port: server.port, host: "::1")
        #expect(over.readResponse()?.status == 429)
        #expect(server.openConnections(from: IPAddress("::1")!) == 2)
    }

    /// An address's share is at most half the table, whatever the setting
    /// says, so that one address always leaves room for others.
    @Test func theShareIsAtMostHalfTheTable() throws {
        let table = 8
        let (server, _) = try startServer {
            $0.maxConnections = table
            $0.maxConnectionsPerAddress = 1000
        }
        defer { server.shutdown(gracePeriod: 1_000_000_000) }
        let held = try (0..<(table / 2)).map { _ in try idleClient(server, from: "127.0.0.1") }
        let over = try TestClient(port: server.port, source: "127.0.0.1")
        #expect(over.readResponse()?.status == 429)
        let other = try idleClient(server, from: "127.0.0.2")
        #expect(server.openConnections(from: Self.one) == table / 2)
        _ = (held, other)
    }

    @Test func aTrustedProxyIsExempt() throws {
        let (server, _) = try startServer {
            $0.maxConnections = 100
            $0.maxConnectionsPerAddress = 2
            $0.perAddressExempt = [AddressRange("127.0.0.0/31")!]  // .0 and .1
        }
        defer { server.shutdown(gracePeriod: 1_000_000_000) }
        let proxied = try (0..<6).map { _ in try idleClient(server, from: "127.0.0.1") }
        #expect(server.openConnections == 6)
        #expect(server.openConnections(from: Self.one) == 0)  // not counted
        let two = try (0..<2).map { _ in try idleClient(server, from: "127.0.0.2") }
        let over = try TestClient(port: server.port, source: "127.0.0.2")
        #expect(over.readResponse()?.status == 429)
        _ = (proxied, two)
    }

    /// However a connection ends, its address's count goes back down: a
    /// normal close, a reset, a half-close, the idle and header timeouts, a
    /// request that is refused, a stream, a client gone while its answer
    /// is made, a refusal at the door, and shutdown.
    @Test func theCountIsGivenBackHoweverAConnectionEnds() throws {
        let (server, probe) = try startServer {
            $0.maxConnectionsPerAddress = 4
            $0.idleTimeout = 300_000_000
            $0.headerTimeout = 300_000_000
        }
        defer { server.shutdown(gracePeriod: 1_000_000_000) }
        let source = "127.0.0.2"
        func count() -> Int { server.openConnections(from: Self.two) }

        var client: TestClient? = try idleClient(server, from: source)
        #expect(count() == 1)
        client = nil  // a normal close
        #expect(eventually { count() == 0 }, "close")

        client = try idleClient(server, from: source)
        client!.resetOnClose()
        client = nil
        #expect(eventually { count() == 0 }, "reset")

        client = try TestClient(port: server.port, source: source)
        client!.send(Self.hello)
        client!.shutdownWrite()
        #expect(client!.readResponse()?.status == 200)
        #expect(client!.isClosedByServer())
        #expect(eventually { count() == 0 }, "half-close")

        client = try idleClient(server, from: source)
        #expect(client!.isClosedByServer())
        #expect(eventually { count() == 0 }, "idle timeout")

        client = try TestClient(port: server.port, source: source)
        client!.send("GET /hello HTTP/1.1\r\nHo")
        #expect(client!.readResponse()?.status == 408)
        #expect(eventually { count() == 0 }, "header timeout")

        client = try TestClient(port: server.port, source: source)
        client!.send("GET /hello HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n")
        #expect(client!.readResponse()?.status == 501)
        #expect(client!.isClosedByServer())
        #expect(eventually { count() == 0 }, "a refused request")

        client = try TestClient(port: server.port, source: source)
        client!.send("GET /stream?n=3 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(String(decoding: client!.readToClose(), as: UTF8.self).hasSuffix("event: end\ndata: bye\n\n"))
        #expect(eventually { count() == 0 }, "a stream that ended")

        client = try TestClient(port: server.port, source: source)
        client!.send("GET /forever HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client!.read(until: "event: tick") != nil)
        client!.resetOnClose()
        client = nil
        #expect(eventually { count() == 0 }, "a stream whose client left")

        let requests = probe.requests.load(ordering: .relaxed)
        client = try TestClient(port: server.port, source: source)
        client!.send("GET /patient?ms=5000 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(eventually { probe.requests.load(ordering: .relaxed) == requests + 1 })
        client = nil
        #expect(eventually { count() == 0 }, "a client gone while its answer was made")

        let full = try (0..<4).map { _ in try idleClient(server, from: source) }
        let refused = try TestClient(port: server.port, source: source)
        #expect(refused.readResponse()?.status == 429)
        #expect(count() == 4, "a refusal counted")
        let busy = try TestClient(port: server.port, source: "127.0.0.3")
        busy.send("GET /slow?ms=200 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(eventually { server.openConnections(from: IPAddress("127.0.0.3")!) == 1 })
        server.shutdown(gracePeriod: 2_000_000_000)
        #expect(busy.readResponse()?.text == "slow 200\n")
        #expect(count() == 0, "shutdown")
        #expect(server.openConnections(from: IPAddress("127.0.0.3")!) == 0)
        #expect(server.openConnections == 0)
        _ = full
    }

    /// An IPv4 peer is one address whichever family carries it (RFC 4291
    /// 2.5.5.2: ::ffff:a.b.c.d is a.b.c.d).
    @Test func anIPv4MappedAddressIsItsIPv4Address() {
        #expect(IPAddress("::ffff:192.0.2.7") == IPAddress("192.0.2.7"))
        #expect(IPAddress("::ffff:192.0.2.7")?.hashValue == IPAddress("192.0.2.7")?.hashValue)
        #expect(IPAddress("::192.0.2.7") != IPAddress("192.0.2.7"))  // IPv4-compatible is another address
        #expect(Set([IPAddress("::ffff:c000:207")!, IPAddress("192.0.2.7")!, IPAddress("192.0.2.8")!]).count == 2)
    }
}
