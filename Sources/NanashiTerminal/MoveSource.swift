import NanashiCore

/// Chooses the moves of a side nobody plays at this keyboard, such as the AI.
public protocol MoveSource: AnyObject {
    /// Words shown after the side's piece count, such as `level 3`; in a saved game, its name.
    var label: String { get }
    /// Its strength on the levels' Elo scale, if it has one: shown after the label, and a saved
    /// game's `WhiteElo` or `BlackElo`.
    var rating: Int? { get }
    /// The move when it is this side's turn in `game` (it has a move other than a pass); may
    /// block until the move is known, showing progress through `console.status`.
    func move(in game: Game, console: any TerminalConsole) -> Move
}

extension MoveSource {
    public var rating: Int? { nil }
}
