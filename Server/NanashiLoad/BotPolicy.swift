import NanashiCore

/// What a bot does on its turn.
public enum BotAction: Hashable, Sendable {
    /// Play this legal move.
    case move(Move)
    /// Give the game up.
    case resign
    /// Close the connection, reconnect with the session token and play on.
    case drop
}

/// How a load-test bot plays: legal moves at once, mostly clones (so games fill the board and
/// end quickly), and now and then a resignation or a dropped connection.
public struct BotPolicy: Hashable, Sendable {
    /// The chance, on each turn, of resigning instead of moving.
    public var resignChance: Double
    /// The chance, on each turn, of dropping the connection before moving.
    public var dropChance: Double
    /// The chance of picking among clones only, when there is one.
    public var cloneBias: Double

    public init(resignChance: Double = 0.002, dropChance: Double = 0.002, cloneBias: Double = 0.75) {
        self.resignChance = resignChance
        self.dropChance = dropChance
        self.cloneBias = cloneBias
    }

    /// The action for the side to move in `position`, which must not be over.
    ///
    /// A resignation or a drop is only considered once both sides have moved, so every game
    /// really starts.
    public func decide(_ position: Position, ply: Int, using random: inout some RandomNumberGenerator)
        -> BotAction
    {
        if ply >= 2 {
            let roll = Double.random(in: 0..<1, using: &random)
            if roll < resignChance { return .resign }
            if roll < resignChance + dropChance { return .drop }
        }
        let moves = position.legalMoves()
        let clones = moves.filter { if case .clone = $0 { true } else { false } }
        if !clones.isEmpty, Double.random(in: 0..<1, using: &random) < cloneBias {
            return .move(clones.randomElement(using: &random)!)
        }
        // `legalMoves()` is `[.pass]` when the side must pass; the position is not over here.
        return .move(moves.randomElement(using: &random) ?? .pass)
    }
}
