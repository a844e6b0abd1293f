import Foundation
import NanashiCore

/// A finished game.
public struct PlayedGame: Sendable {
    public var start: Position
    public var moves: [Move]
    /// How it ended: by the rules, on time (`timeout`), by an illegal move (`illegalMove`) or by
    /// the referee's draw after the most plies (`adjudication`).
    public var outcome: Outcome
    /// The move the referee refused, when the outcome is an illegal move.
    public var illegalMove: Move? = nil

    /// Why the game ended, in words, as the PGN's `Termination` tag and the match's lines say it:
    /// `time forfeit`, `illegal move d4`, `adjudicated at 400 plies`, or the rules' reason.
    public var termination: String {
        switch outcome.reason {
        case .timeout: "time forfeit"
        case .illegalMove: "illegal move \(illegalMove.map { "\($0)" } ?? "")"
        case .adjudication: "adjudicated at \(moves.count) plies"
        default: outcome.reason.rawValue
        }
    }

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
        record.result = outcome.result
        return record.pgn
    }

    private static func today() -> String {
        let components = Calendar(identifier: .gregorian).dateComponents(
            in: TimeZone(identifier: "UTC")!, from: Date())
        return String(
            format: "%04d.%02d.%02d", components.year ?? 0, components.month ?? 0, components.day ?? 0)
    }
}
