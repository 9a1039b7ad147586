import EventLoop
import HTTPServer
import Synchronization

/// Streams open at once, by client address and in all: each stream holds
/// a connection, a place on a ticker and its queued frames for as long as
/// the client stays, so their number is bounded like everything else.
final class StreamAdmission: Sendable {
    let perClient: Int
    let total: Int
    private let open = Mutex(CountsByClient())

    init(perClient: Int, total: Int) {
        self.perClient = perClient
        self.total = total
    }

    /// A place for one more stream of `client`, or the refusal.
    func admit(_ client: String) -> ServiceError? {
        let refusal: ServiceError? = open.withLock { open in
            if open.total >= total {
                return ServiceError(.serviceUnavailable, "too_many_streams", "the server has \(total) streams open (maxStreams); try again later")
            }
            guard open.take(client, limit: perClient) else {
                return ServiceError(.tooManyRequests, "too_many_streams",
                                    "this client already has \(perClient) streams open (maxStreamsPerClient); one /streams connection carries several loaders")
            }
            return nil
        }
        return refusal?.retryAfter(seconds: 1)
    }

    func release(_ client: String) { open.withLock { $0.give(client) } }

    /// Streams holding a place now, for `/metrics`.
    var count: Int { open.withLock { $0.total } }
}
