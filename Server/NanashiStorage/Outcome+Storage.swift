import NanashiCore

extension Outcome {
    /// The game's `result` column: the winner, `x` or `o`, or `draw`.
    package var storedResult: String { winner?.rawValue ?? "draw" }

    /// The outcome stored in a game's `result` and `reason` columns, or `nil` when either is not
    /// one the server writes (a damaged database).
    package init?(storedResult: String?, reason: String?) {
        guard let storedResult, let reason = reason.flatMap(Reason.init(rawValue:)) else { return nil }
        switch storedResult {
        case "draw": self.init(winner: nil, reason: reason)
        default:
            guard let winner = Side(rawValue: storedResult) else { return nil }
            self.init(winner: winner, reason: reason)
        }
    }
}
