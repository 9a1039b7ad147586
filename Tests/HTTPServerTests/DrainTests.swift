import EventLoop
import Glibc
import HTTPTestSupport
import Testing
@testable import HTTPServer

/// The drain (`HTTPServer.shutdown`), as issue #46 asks: from its start a
/// new connection is answered at once (never left in the backlog), every
/// answer closes its connection, the drain waits only for the connections
/// open when it began, and once it is over the port refuses.
@Suite(.serialized)
struct DrainTests {
    static let hello = "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n"

    /// Runs `shutdown` on a thread of its own; `done` once it has returned.
    final class Shutdown: @unchecked Sendable {
        let done = Flag()
        private var thread: HTTPTestSupport.Thread?
        init(_ server: HTTPServer, graceSeconds: Double) {
            thread = HTTPTestSupport.Thread { [done] in
                server.shutdown(gracePeriod: UInt64(graceSeconds * 1e9))
                done.value.store(true, ordering: .relaxed)
            }
        }
        var isDone: Bool { done.isSet }
        func join() { thread?.join() }
    }

    /// Newcomers during the drain: answered (the responder sees that the
    /// server shuts down), each with `Connection: close`, and closed.
    /// One that stays idle does not hold the drain: it ends when the one
    /// request under way at its start is answered, and the idle newcomer is
    /// closed then. Afterwards a connection is refused and no count is left.
    @Test func newcomersAreAnsweredAndDoNotProlongTheDrain() throws {
        let (server, _) = try startServer { $0.idleTimeout = 120_000_000_000 }
        let busy = try TestClient(port: server.port)
        busy.send("GET /slow?ms=1500 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(eventually { server.openConnections == 1 })
        let shutdown = Shutdown(server, graceSeconds: 60)
        #expect(eventually { server.isShuttingDown })

        for _ in 0..<20 {
            let newcomer = try TestClient(port: server.port)
            newcomer.send("GET /context HTTP/1.1\r\nHost: x\r\n\r\n")
            let r = try #require(newcomer.readResponse())
            #expect(r.status == 200 && r.text == "shutting down: true\n", "\(r.status) \(r.text)")
            #expect(r.headers["connection"] == "close")
            #expect(newcomer.isClosedByServer())
        }
        let idle = try TestClient(port: server.port)
        #expect(eventually { server.openConnections == 2 })

        let slow = try #require(busy.readResponse())
        #expect(slow.status == 200 && slow.text == "slow 1500\n")
        #expect(slow.headers["connection"] == "close")
        // Ended by the answer, not by the 60 s deadline nor the idle newcomer.
        #expect(eventually(10) { shutdown.isDone })
        shutdown.join()
        #expect(idle.isClosedByServer())
        #expect((try? TestClient(port: server.port)) == nil, "the port still accepts")
        #expect(server.openConnections == 0)
        #expect(server.openConnections(from: IPAddress("127.0.0.1")!) == 0)
    }

    /// A request that is arriving when the drain begins is read and
    /// answered (with `Connection: close`), not cut off.
    @Test func aRequestArrivingWhenTheDrainBeginsIsAnswered() throws {
        let (server, _) = try startServer()
        let arriving = try TestClient(port: server.port)
        arriving.send("GET /hello HTTP/1.1\r\nHo")
        #expect(eventually { server.openConnections == 1 })
        let idle = try TestClient(port: server.port)
        idle.send(Self.hello)
        #expect(idle.readResponse()?.status == 200)
        let shutdown = Shutdown(server, graceSeconds: 60)
        // The idle keep-alive connection closes at once; the other waits.
        #expect(idle.isClosedByServer())
        #expect(!shutdown.isDone)
        arriving.send("st: x\r\n\r\n")
        let r = try #require(arriving.readResponse())
        #expect(r.status == 200 && r.text == "hello\n")
        #expect(r.headers["connection"] == "close")
        #expect(arriving.isClosedByServer())
        #expect(eventually(10) { shutdown.isDone })
        shutdown.join()
        #expect(server.openConnections == 0)
    }

    /// Work that outlasts the grace period: the drain ends at the deadline
    /// all the same, newcomers meanwhile are answered, and every
    /// connection, old or new, is closed and uncounted.
    @Test func theDrainEndsAtItsDeadline() throws {
        let (server, _) = try startServer {
            $0.headerTimeout = 120_000_000_000
            $0.maxConnectionsPerAddress = 8
        }
        // A head that never ends: only the deadline ends its connection.
        let stuck = try TestClient(port: server.port)
        stuck.send("GET /hello HTTP/1.1\r\nHo")
        #expect(eventually { server.openConnections == 1 })
        let shutdown = Shutdown(server, graceSeconds: 1)
        #expect(eventually { server.isShuttingDown })
        let newcomer = try TestClient(port: server.port)
        newcomer.send(Self.hello)
        #expect(newcomer.readResponse()?.headers["connection"] == "close")
        let idle = try TestClient(port: server.port)
        #expect(eventually(10) { shutdown.isDone })
        shutdown.join()
        #expect(stuck.isClosedByServer())
        #expect(idle.isClosedByServer())
        #expect((try? TestClient(port: server.port)) == nil, "the port still accepts")
        #expect(server.openConnections == 0)
        #expect(server.openConnections(from: IPAddress("127.0.0.1")!) == 0)
    }
}
