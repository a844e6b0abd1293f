import NanashiCore

extension Engine {
    /// The move to suggest when a player asks for a hint, or `nil` when the game is over: searched
    /// to a fixed depth (4), so that the same position always gets the same hint, within a time
    /// cap (2 s) for slow machines.
    public func hint(for position: Position) -> Move? {
        guard !position.isGameOver else { return nil }
        return search(position, limits: SearchLimits(depth: 4, movetime: .seconds(2))).bestMove
    }
}
