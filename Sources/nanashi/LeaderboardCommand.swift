import ArgumentParser
import Foundation
import NanashiProtocol
import NanashiServer

/// `nanashi leaderboard`: the rated players, best first, as a table or as JSON.
struct LeaderboardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "leaderboard",
        abstract: "Show the leaderboard.",
        discussion: """
            With --db, reads a server's database file directly (for the operator). Columns: rank, \
            name, rating ± deviation ('?' marks a provisional rating), games, wins, losses, draws.
            """
    )

    @Option(help: "A server's SQLite database file to read.")
    var db: String?

    @Option(help: "How many players to show (1 to 100).")
    var top = 20

    @Option(help: "How many of the best players to skip.")
    var offset = 0

    @Flag(help: "Print the page as JSON (the protocol's leaderboard object).")
    var json = false

    /// Where the standings come from; a server connection can join the database file here.
    enum Source {
        case database(path: String)

        func leaderboard(limit: Int, offset: Int) async throws -> Leaderboard {
            switch self {
            case .database(let path):
                guard FileManager.default.fileExists(atPath: path) else {
                    throw InputError("no database file at \(path)")
                }
                do {
                    return try StoredStandings.leaderboard(databaseAt: path, limit: limit, offset: offset)
                } catch {
                    throw InputError("cannot read the leaderboard from \(path): \(error)")
                }
            }
        }
    }

    func source() throws -> Source {
        guard let db else { throw InputError("say where the standings are: --db FILE") }
        return .database(path: db)
    }

    func run() async throws {
        guard (1...ClientMessage.maximumLeaderboardLimit).contains(top) else {
            throw InputError("bad --top \(top): use 1 to \(ClientMessage.maximumLeaderboardLimit)")
        }
        guard offset >= 0 else { throw InputError("bad --offset \(offset): use 0 or more") }
        let board = try await source().leaderboard(limit: top, offset: offset)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(board), as: UTF8.self))
        } else {
            for line in Self.table(board) { print(line) }
        }
    }

    /// The leaderboard as a person reads it.
    static func table(_ board: Leaderboard) -> [String] {
        guard !board.entries.isEmpty else {
            return [
                board.total == 0 ? "No rated players yet." : "No players on this page (\(board.total) rated)."
            ]
        }
        func pad(_ text: String, _ width: Int, right: Bool = true) -> String {
            let padding = String(repeating: " ", count: max(0, width - text.count))
            return right ? padding + text : text + padding
        }
        var lines = [
            [
                pad("#", 5), pad("name", 20, right: false), pad("rating", 12, right: false), pad("games", 6),
                pad("won", 5), pad("lost", 5), pad("drawn", 6),
            ].joined(separator: "  ")
        ]
        for entry in board.entries {
            let rating = "\(entry.rating) ± \(entry.rd)" + (entry.provisional ? " ?" : "")
            lines.append(
                [
                    pad(String(entry.rank), 5), pad(entry.name, 20, right: false),
                    pad(rating, 12, right: false),
                    pad(String(entry.games), 6), pad(String(entry.wins), 5), pad(String(entry.losses), 5),
                    pad(String(entry.draws), 6),
                ].joined(separator: "  "))
        }
        let shown = "\(board.entries.first!.rank)-\(board.entries.last!.rank) of \(board.total) rated players"
        lines.append(board.entries.contains(where: \.provisional) ? shown + "; ? = provisional" : shown)
        return lines
    }
}
