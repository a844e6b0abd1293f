import NanashiCore
import NanashiProtocol

/// The read-only questions a person asks a server from the command line (`nanashi leaderboard`,
/// `profile`, `games`, `pgn`), each answered as the lines to print: a table, or with `json` the
/// protocol's object on one line.
public enum StandingsQuery: Hashable, Sendable {
    case leaderboard(limit: Int, offset: Int)
    case profile(name: String)
    case games(name: String, before: Int64?, limit: Int)
    /// A finished game's PGN, printed as the server wrote it (there is no JSON form).
    case pgn(game: Int64)

    /// Asks the first of `servers` that answers, on a connection of its own.
    ///
    /// - Throws: `QueryError` when the server cannot be reached or refuses the question.
    public func lines(at servers: ServerList, json: Bool) async throws(QueryError) -> [String] {
        switch self {
        case .leaderboard(let limit, let offset):
            let board = try await ServerConnection.ask(
                .leaderboard(limit: limit, offset: offset), at: servers, for: "a leaderboard"
            ) { if case .leaderboard(let board) = $0 { board } else { nil } }
            return Self.lines(board, json: json)
        case .profile(let name):
            let profile = try await ServerConnection.ask(.profile(name: name), at: servers, for: "a profile")
            {
                if case .profile(let profile) = $0 { profile } else { nil }
            }
            return json ? [Wire.encode(profile)] : StandingsTable.profile(profile)
        case .games(let name, let before, let limit):
            let archive = try await ServerConnection.ask(
                .games(name: name, before: before, limit: limit), at: servers, for: "a list of games"
            ) { if case .games(let archive) = $0 { archive } else { nil } }
            return json ? [Wire.encode(archive)] : ArchiveTable.games(archive, pageSize: limit)
        case .pgn(let game):
            let pgn = try await ServerConnection.ask(.pgn(game: game), at: servers, for: "a PGN") {
                if case .pgn(let pgn) = $0 { pgn.pgn } else { nil }
            }
            return [pgn.hasSuffix("\n") ? String(pgn.dropLast()) : pgn]
        }
    }

    /// The question as a person asked it, checked against the pages the protocol serves: a
    /// leaderboard's `--top` from 1 to 100 and `--offset` from 0, a list of games' `--limit` from
    /// 1 to 100.
    ///
    /// - Throws: `RangeError` naming the option.
    public func checked() throws(RangeError) -> Self {
        switch self {
        case .leaderboard(let limit, let offset):
            try (1...ClientMessage.maximumLeaderboardLimit).check(limit, "--top")
            try (0...Int.max).check(offset, "--offset")
        case .games(_, _, let limit):
            try (1...ClientMessage.maximumArchiveLimit).check(limit, "--limit")
        case .profile, .pgn:
            break
        }
        return self
    }

    /// A leaderboard page as lines, wherever it was read (a server, or the database file).
    public static func lines(_ board: Leaderboard, json: Bool) -> [String] {
        json ? [Wire.encode(board)] : StandingsTable.leaderboard(board)
    }
}
