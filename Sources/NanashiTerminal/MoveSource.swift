import NanashiCore

/// Chooses the moves of a side nobody plays at this keyboard, such as the AI.
public protocol MoveSource: AnyObject {
    /// Words shown after the side's piece count, such as `level 3`.
    var label: String { get }
    /// The move when it is this side's turn in `game` (it has a move other than a pass); may
    /// block until the move is known, showing progress through `console.status`.
    func move(in game: Game, console: any TerminalConsole) -> Move
}
