import ArgumentParser
import Foundation
import NanashiClient
import NanashiProtocol
import NanashiServer

/// `nanashi leaderboard`: the rated players, best first, as a table or as JSON.
struct LeaderboardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "leaderboard",
        abstract: "Show the leaderboard.",
        discussion: """
            Asks a server (--server, 127.0.0.1:7878 by default), or with --db reads a server's \
            database file directly (for the operator). Columns: rank, name, rating ± deviation \
            ('?' marks a provisional rating), games, wins, losses, draws.
            """
    )

    @OptionGroup var serverOptions: ServerOptions

    @Option(help: "A server's SQLite database file to read instead of asking the server.")
    var db: String?

    @Option(help: "How many players to show (1 to 100).")
    var top = 20

    @Option(help: "How many of the best players to skip.")
    var offset = 0

    @Flag(help: "Print the page as JSON (the protocol's leaderboard object).")
    var json = false

    /// Where the standings come from.
    enum Source {
        case database(path: String)
        case server(ServerAddress)

        func leaderboard(limit: Int, offset: Int) async throws -> Leaderboard {
            switch self {
            case .database(let path):
                guard !path.contains("://") else {
                    throw InputError(
                        "--db reads a server's SQLite file; for PostgreSQL ask a server with --server")
                }
                guard FileManager.default.fileExists(atPath: path) else {
                    throw InputError("no database file at \(path)")
                }
                do {
                    return try StoredStandings.leaderboard(databaseAt: path, limit: limit, offset: offset)
                } catch {
                    throw InputError("cannot read the leaderboard from \(path): \(error)")
                }
            case .server(let address):
                return try await ServerConnection.ask(
                    .leaderboard(limit: limit, offset: offset), at: address, for: "a leaderboard"
                ) { if case .leaderboard(let board) = $0 { board } else { nil } }
            }
        }
    }

    func source() throws -> Source {
        if let db {
            guard serverOptions.server == nil else { throw InputError("use --db or --server, not both") }
            return .database(path: db)
        }
        return .server(try serverOptions.address())
    }

    func run() async throws {
        try (1...ClientMessage.maximumLeaderboardLimit).check(top, "--top")
        try (0...Int.max).check(offset, "--offset")
        let board = try await source().leaderboard(limit: top, offset: offset)
        if json {
            print(Wire.encode(board))
        } else {
            for line in StandingsTable.leaderboard(board) { print(line) }
        }
    }
}
