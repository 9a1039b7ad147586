import EventLoop
/// What a responder knows of the request's connection.
public struct RequestContext {
    /// The loop the connection runs on: for timers and streams.
    public let loop: EventLoop
    /// The client's address, when known.
    public let peer: SocketAddress?
    /// The responder's own state for this loop (`makeLoopStorage`), made
    /// once per loop by the server: touched only on this loop.
    public let storage: AnyObject?
    /// The server is draining (`HTTPServer.shutdown`): this answer closes
    /// its connection, and the responder decides what a request still gets.
    public let isShuttingDown: Bool

    public init(loop: EventLoop, peer: SocketAddress?, storage: AnyObject?, isShuttingDown: Bool = false) {
        self.loop = loop
        self.peer = peer
        self.storage = storage
        self.isShuttingDown = isShuttingDown
    }

    /// `storage` as the type the responder made it.
    public func storage<T: AnyObject>(as type: T.Type) -> T {
        loop.assertInLoop()
        guard let storage else { preconditionFailure("the responder made no loop storage") }
        assert(storage is T, "loop storage is \(Swift.type(of: storage)), not \(T.self)")
        return unsafeDowncast(storage, to: T.self)
    }
}
