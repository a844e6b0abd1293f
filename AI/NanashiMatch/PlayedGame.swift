import Foundation
import NanashiCore

/// How a game ended, as PGN says it.
public enum GameResult: Hashable, Sendable {
    case xWins, oWins, draw

    public var text: String {
        switch self {
        case .xWins: return GameRecord.result(winner: .x)
        case .oWins: return GameRecord.result(winner: .o)
        case .draw: return GameRecord.result(winner: nil)
        }
    }

    /// The loss of `side`.
    static func loss(of side: Side) -> GameResult { side == .x ? .oWins : .xWins }
}

/// A finished game.
public struct PlayedGame: Sendable {
    public var start: Position
    public var moves: [Move]
    public var result: GameResult
    public var termination: String

    /// The game in PGN (the core's `GameRecord`, as python-ataxx writes it: x is `White`).
    public func pgn(event: String, round: Int, xName: String, oName: String) -> String {
        var record = GameRecord(
            start: start,
            tags: [
                "Event": event, "Date": Self.today(), "Round": String(round), "White": xName, "Black": oName,
                "Termination": termination,
            ])
        for move in moves {
            // Every move was checked by the referee before it was played.
            try! record.append(move)
        }
        record.result = result.text
        return record.pgn
    }

    private static func today() -> String {
        let components = Calendar(identifier: .gregorian).dateComponents(
            in: TimeZone(identifier: "UTC")!, from: Date())
        return String(
            format: "%04d.%02d.%02d", components.year ?? 0, components.month ?? 0, components.day ?? 0)
    }
}
