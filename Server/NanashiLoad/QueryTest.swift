import NIOCore
import NIOPosix
import NanashiClient
import NanashiCore
import NanashiProtocol

/// How a query-latency run goes: `queries` leaderboard pages at random offsets (deep pages
/// included) and as many profiles of random ranked players, over `connections` connections.
public struct QueryTestSettings: Sendable {
    /// The servers, each with its TLS and the certificates to trust: connection i goes to the
    /// i-th (wrapping).
    public var servers: ServerList
    public var connections = 1
    /// Queries of each kind, in all.
    public var queries = 1000
    /// Leaderboard page size.
    public var limit = 20
    public var seed: UInt64 = 1

    /// The default settings, against `servers`.
    public init(servers: ServerList = .local) {
        self.servers = servers
    }
}

/// Measures `leaderboard` and `profile` round trips against a running server.
public enum QueryTest {
    public static func run(_ settings: QueryTestSettings) async throws -> QueryReport {
        let group = MultiThreadedEventLoopGroup.singleton
        let servers = try settings.servers.addresses.map(LineServer.init)
        var clients: [QueryClient] = []
        for index in 0..<settings.connections {
            let client = QueryClient(eventLoop: group.next())
            try await client.connect(to: servers[index % servers.count])
            clients.append(client)
        }
        defer { for client in clients { client.close() } }
        let first = try await clients[0].ask(.leaderboard(limit: 1, offset: 0))
        guard case .leaderboard(let board) = first.reply.message else {
            throw QueryTestError(description: "the server did not answer 'leaderboard': \(first.reply)")
        }
        let results = try await withThrowingTaskGroup(of: Samples.self) { group in
            for (index, client) in clients.enumerated() {
                let share =
                    settings.queries / settings.connections
                    + (index < settings.queries % settings.connections ? 1 : 0)
                group.addTask {
                    try await queries(
                        share, on: client, ranked: board.total, limit: settings.limit,
                        seed: settings.seed &+ UInt64(index))
                }
            }
            var all = Samples()
            for try await samples in group { all.add(samples) }
            return all
        }
        return QueryReport(
            connections: settings.connections, rankedPlayers: board.total,
            leaderboard: LatencySummary(microseconds: results.leaderboard),
            profile: LatencySummary(microseconds: results.profile), errors: results.errors)
    }

    private struct Samples: Sendable {
        var leaderboard: [UInt32] = []
        var profile: [UInt32] = []
        var errors: [String: Int] = [:]

        mutating func add(_ other: Samples) {
            leaderboard += other.leaderboard
            profile += other.profile
            errors.merge(other.errors, uniquingKeysWith: +)
        }
    }

    /// One connection's share: a page at a random offset, then the profile of a random player
    /// seen on a page, in turn.
    private static func queries(_ count: Int, on client: QueryClient, ranked: Int, limit: Int, seed: UInt64)
        async throws -> Samples
    {
        var random = SplitMix64(seed: seed)
        var samples = Samples()
        var names: [String] = []
        for _ in 0..<count {
            let offset = Int.random(in: 0...max(ranked - limit, 0), using: &random)
            let page = try await client.ask(.leaderboard(limit: limit, offset: offset))
            samples.leaderboard.append(page.microseconds)
            switch page.reply.message {
            case .leaderboard(let board): names += board.entries.map(\.name)
            case .error(let error): samples.errors[error.code.rawValue, default: 0] += 1
            default: samples.errors["unexpected_reply", default: 0] += 1
            }
            guard let name = names.randomElement(using: &random) else { continue }
            let profile = try await client.ask(.profile(name: name))
            samples.profile.append(profile.microseconds)
            switch profile.reply.message {
            case .profile: break
            case .error(let error): samples.errors[error.code.rawValue, default: 0] += 1
            default: samples.errors["unexpected_reply", default: 0] += 1
            }
        }
        return samples
    }
}

/// A query run could not start or the server stopped answering.
public struct QueryTestError: Error, CustomStringConvertible {
    public var description: String
}

/// One connection asking one question at a time; the round trip is timed on the event loop, from
/// writing the request to reading its reply.
final class QueryClient: LineReceiver, @unchecked Sendable {
    struct Answer: Sendable {
        var reply: Reply
        var microseconds: UInt32
    }

    let eventLoop: any EventLoop
    // Touched only on `eventLoop`.
    private var channel: (any Channel)?
    private var waiting: (id: Int64, sent: NIODeadline, promise: EventLoopPromise<Answer>)?
    private var nextID: Int64 = 0

    init(eventLoop: any EventLoop) { self.eventLoop = eventLoop }

    func connect(to server: LineServer) async throws {
        // The channel is kept on the loop as the connection completes: a later hop could come
        // after the server has already closed it (a refused TLS handshake), keeping a dead
        // channel that `closed()` never clears, and the first question would wait forever.
        try await LineConnection.connect(to: server, on: eventLoop, receiver: self)
            .map { self.channel = $0 }
            .get()
    }

    func close() { eventLoop.execute { self.channel?.close(promise: nil) } }

    func ask(_ message: ClientMessage) async throws -> Answer {
        try await eventLoop.flatSubmit {
            let promise = self.eventLoop.makePromise(of: Answer.self)
            guard let channel = self.channel, channel.isActive else {
                promise.fail(QueryTestError(description: "the connection is closed"))
                return promise.futureResult
            }
            self.nextID += 1
            self.waiting = (self.nextID, NIODeadline.now(), promise)
            LineConnection.send(Request(message, id: .integer(self.nextID)), on: channel)
            return promise.futureResult
        }.get()
    }

    func received(_ reply: Reply) {
        guard let waiting, reply.id == .integer(waiting.id) else { return }
        self.waiting = nil
        let nanoseconds = (NIODeadline.now() - waiting.sent).nanoseconds
        waiting.promise.succeed(Answer(reply: reply, microseconds: UInt32(clamping: nanoseconds / 1000)))
    }

    func receivedUnreadable(_ error: ProtocolError) {
        waiting?.promise.fail(QueryTestError(description: "unreadable reply: \(error)"))
        waiting = nil
    }

    func closed() {
        channel = nil
        waiting?.promise.fail(QueryTestError(description: "the server closed the connection"))
        waiting = nil
    }
}
