import Foundation
import NIOCore
import NIOPosix
import NanashiProtocol
import Synchronization

/// One TCP (or TLS) connection to a Nanashi server, speaking protocol v1: requests go out as lines, and
/// the server's messages come back in order through `events`, which ends with `.closed`.
///
/// Messages of a type this client does not know are skipped, so a newer server never breaks
/// it. When nothing has been sent for `keepAlive`, a `ping` goes out so that the server does not
/// take a player thinking about a move for a dead connection; when a request has had no line at
/// all back for `answerWithin`, the server is taken for dead and the connection is closed (see
/// `ConnectionLiveness`).
public final class ServerConnection: Sendable {
    /// The server's messages in order; finishes after `.closed`.
    public let events: AsyncStream<ServerEvent>
    /// The server this connection goes to.
    public let address: ServerAddress
    private let channel: any Channel
    private let liveness: LivenessRecord
    private let pinger = Mutex<Task<Void, Never>?>(nil)

    private init(
        address: ServerAddress, channel: any Channel, events: AsyncStream<ServerEvent>,
        liveness: LivenessRecord
    ) {
        self.address = address
        self.channel = channel
        self.events = events
        self.liveness = liveness
    }

    /// Opens a connection to `address`, with TLS if the address says so.
    ///
    /// - Parameters:
    ///   - keepAlive: how long the client may stay silent before it sends a `ping`.
    ///   - answerWithin: how long a request may wait with no line at all from the server before
    ///     the connection is closed.
    /// - Throws: `ConnectionError` when the server cannot be reached, or the certificates to
    ///   trust cannot be read.
    public static func connect(
        to address: ServerAddress, keepAlive: Duration = .seconds(30), answerWithin: Duration = .seconds(20)
    ) async throws(ConnectionError) -> ServerConnection {
        let server: LineServer
        do {
            server = try LineServer(address)
        } catch {
            throw ConnectionError(
                address: address, reason: "cannot read the certificates to trust: \(error)")
        }
        let (events, continuation) = AsyncStream.makeStream(of: ServerEvent.self)
        let liveness = LivenessRecord(
            ConnectionLiveness(keepAlive: keepAlive, answerWithin: answerWithin, opened: .now))
        let channel: any Channel
        do {
            channel = try await LineConnection.connect(
                to: server, on: MultiThreadedEventLoopGroup.singleton,
                receiver: EventFeed(continuation, liveness: liveness)
            ).get()
        } catch {
            continuation.finish()
            throw ConnectionError(address: address, reason: Self.describe(error))
        }
        let connection = ServerConnection(
            address: address, channel: channel, events: events, liveness: liveness)
        connection.startPinging()
        return connection
    }

    /// Opens a connection to the first of `servers` that answers, trying them in turn from
    /// `preferred` (the last one that worked, if given): see `ServerList.attempts(from:)`.
    ///
    /// - Throws: `ConnectionError` when none can be reached: the first one's, with what each
    ///   of the others said added to its reason.
    public static func connect(
        to servers: ServerList, from preferred: ServerAddress? = nil, keepAlive: Duration = .seconds(30),
        answerWithin: Duration = .seconds(20)
    ) async throws(ConnectionError) -> ServerConnection {
        var failure: ConnectionError?
        for address in servers.attempts(from: preferred) {
            do {
                return try await connect(to: address, keepAlive: keepAlive, answerWithin: answerWithin)
            } catch {
                failure =
                    failure.map {
                        ConnectionError(
                            address: $0.address, reason: "\($0.reason); \(address): \(error.reason)")
                    } ?? error
            }
        }
        // A list is never empty, so some attempt failed.
        throw failure ?? ConnectionError(address: servers.first, reason: "no server to try")
    }

    /// Sends one message. Never waits; a message sent on a closed connection is lost (the
    /// `.closed` event says so).
    public func send(_ request: Request) {
        liveness.state.withLock { $0.sent(at: .now) }
        LineConnection.send(request, on: channel)
    }

    /// Closes the connection; `events` then ends with `.closed`.
    public func close() {
        pinger.withLock { $0?.cancel() }
        channel.close(promise: nil)
    }

    /// Once a second (or every `keepAlive`, if shorter), does what `ConnectionLiveness` says:
    /// pings, or closes the connection to a server taken for dead.
    private func startPinging() {
        let interval = min(liveness.state.withLock { $0.keepAlive }, .seconds(1))
        let task = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let self, self.channel.isActive else { return }
                switch self.liveness.state.withLock({ $0.verdict(at: .now) }) {
                case .wait:
                    break
                case .ping:
                    self.send(Request(.ping))
                case .giveUp:
                    self.channel.close(promise: nil)
                    return
                }
            }
        }
        pinger.withLock { $0 = task }
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)) }
        if let error = error as? NIOConnectionError, let first = error.connectionErrors.first {
            return describe(first.error)
        }
        if error is ChannelError { return "timed out" }
        return "\(error)"
    }

    deinit {
        pinger.withLock { $0?.cancel() }
    }
}

/// The server could not be reached.
public struct ConnectionError: Error, Hashable, Sendable, CustomStringConvertible {
    public let address: ServerAddress
    public let reason: String

    public init(address: ServerAddress, reason: String) {
        self.address = address
        self.reason = reason
    }

    public var description: String { "cannot connect to \(address): \(reason)" }
}

/// One connection's `ConnectionLiveness`, shared by the sender, the reader and the pinger.
private final class LivenessRecord: Sendable {
    let state: Mutex<ConnectionLiveness>

    init(_ liveness: ConnectionLiveness) { state = Mutex(liveness) }
}

/// Hands the server's messages on as events, in order; a message of a type this version does not
/// know is skipped. Every line, read or not, shows the server is there.
private final class EventFeed: LineReceiver {
    private let continuation: AsyncStream<ServerEvent>.Continuation
    private let liveness: LivenessRecord

    init(_ continuation: AsyncStream<ServerEvent>.Continuation, liveness: LivenessRecord) {
        self.continuation = continuation
        self.liveness = liveness
    }

    func received(_ reply: Reply) {
        liveness.state.withLock { $0.received(at: .now) }
        continuation.yield(reply.message == .shutdown ? .shutdown : .reply(reply))
    }

    func receivedUnreadable(_ error: ProtocolError) {
        liveness.state.withLock { $0.received(at: .now) }
    }

    func closed() {
        continuation.yield(.closed)
        continuation.finish()
    }
}
