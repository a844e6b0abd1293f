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

    /// Why the game ended, as the match's lines say it: the reason's wire name (`timeout`,
    /// `adjudicated`, `pieces`...), with the refused move after an illegal one (`illegal d4`).
    public var ending: String {
        let reason = outcome.reason.rawValue
        guard outcome.reason == .illegalMove, let illegalMove else { return reason }
        return "\(reason) \(illegalMove)"
    }

    /// The game in PGN (the core's `GameRecord`, as python-ataxx writes it: x is `White`).
    public func pgn(event: String, round: Int, xName: String, oName: String) -> String {
        // Every move was checked by the referee before it was played.
        try! GameRecord(
            start: start, moves: moves,
            tags: [
                "Event": event, "Date": Self.today(), "Round": String(round), "White": xName, "Black": oName,
            ],
            outcome: outcome
        ).pgn
    }

    private static func today() -> String {
        GameRecord.pgnDate(secondsSince1970: Int64(Date().timeIntervalSince1970.rounded(.down)))
    }
}
