import ArgumentParser
import NanashiClient
import NanashiCommandLine
import NanashiStorage

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

    func validate() throws {
        guard db == nil || serverOptions.server == nil else {
            throw ValidationError("use --db or --server, not both")
        }
    }

    func run() async throws {
        let query = try StandingsQuery.leaderboard(limit: top, offset: offset).checked()
        guard let db else {
            return try await print(lines: query.lines(at: serverOptions.servers(), json: json))
        }
        let board = try StoredStandings.leaderboard(databaseAt: db, limit: top, offset: offset)
        print(lines: StandingsQuery.lines(board, json: json))
    }
}
