import Foundation
import NanashiCore
import NanashiProtocol

/// A finished game as the archive reads it back: players with their ratings before it, the
/// time control, how and when it ended, and (for a PGN) its moves.
package struct FinishedGame: Sendable {
    package var id: Int64
    package var x: GamePlayer
    package var o: GamePlayer
    package var control: TimeControl
    package var outcome: Outcome
    package var plies: Int
    package var started: Date
    package var ended: Date
    /// The moves in order; empty when read for a `games` page, which needs only their count.
    package var moves: [String] = []
    /// The FEN the game started from; `nil` (or empty) for the standard start.
    package var start: String? = nil

    /// The position the game started from.
    ///
    /// - Throws: `StorageError.damaged` for a stored FEN that cannot be read.
    package func startPosition() throws -> Position {
        guard let start, !start.isEmpty else { return .start }
        guard let position = try? Position(fen: start) else {
            throw StorageError.damaged("game \(id) starts from an unreadable FEN")
        }
        return position
    }

    /// The game as a line of `games`.
    package var archived: ArchivedGame {
        ArchivedGame(
            game: id, x: x, o: o, outcome: outcome, plies: plies,
            ended: ended.formatted(.iso8601))
    }

    /// The game as PGN, as python-ataxx reads it: x is `White`, o is `Black`, and `1-0` means x won.
    /// A game from another start has its `FEN` and `SetUp "1"`. The engine's player has no Elo
    /// tag: its rating is the server's unrated 1500, not its strength (its name gives the level).
    ///
    /// - Throws: `ReplayError` if a stored move cannot be played, `StorageError.damaged` for an
    ///   unreadable start (a damaged database).
    package func pgn() throws -> String {
        let start = try startPosition()
        var tags = [
            "Event": "Nanashi online game \(id)",
            "Site": "Nanashi",
            "Date": Self.pgnDate(started),
            "Round": "-",
            "White": x.name,
            "Black": o.name,
            "TimeControl": "\(control.initial)+\(control.increment)",
        ]
        if x.engineLevel == nil { tags["WhiteElo"] = String(x.rating) }
        if o.engineLevel == nil { tags["BlackElo"] = String(o.rating) }
        return try GameRecord(start: start, moves: start.replaying(moves).moves, tags: tags, outcome: outcome)
            .pgn
    }

    /// `YYYY.MM.DD` in UTC, as PGN's `Date` tag writes it.
    private static func pgnDate(_ date: Date) -> String {
        GameRecord.pgnDate(secondsSince1970: Int64(date.timeIntervalSince1970.rounded(.down)))
    }

    package init(
        id: Int64, x: GamePlayer, o: GamePlayer, control: TimeControl, outcome: Outcome, plies: Int,
        started: Date, ended: Date, moves: [String] = [], start: String? = nil
    ) {
        self.start = start
        self.id = id
        self.x = x
        self.o = o
        self.control = control
        self.outcome = outcome
        self.plies = plies
        self.started = started
        self.ended = ended
        self.moves = moves
    }
}
