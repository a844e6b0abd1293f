import NanashiCore

/// A game as the full screen shows it: the game with its moves, the selected piece, the side the
/// board is seen from, the words after each side's count, and the clocks when there are some.
public struct TableView: Hashable, Sendable {
    public var game: Game
    /// The piece selected at the keyboard, whose targets are shown.
    public var selected: Square?
    /// The board is drawn from `o`'s side.
    public var flipped: Bool
    /// Words after each side's piece count (`you`, `AI level 3`).
    public var labels: [Side: String]
    /// Both clocks on one line (online and when watching).
    public var clocks: String?
    /// The line at the top of the screen (whose game this is).
    public var title: String?
    /// Where a replay stands (`ply 3 of 40`), instead of the moves' count.
    public var progress: String?
    /// The sides played at this keyboard (where the cursor starts).
    public var keyboard: Set<Side>

    public init(
        game: Game, selected: Square? = nil, flipped: Bool = false, labels: [Side: String] = [:],
        clocks: String? = nil, title: String? = nil, progress: String? = nil, keyboard: Set<Side> = [.x, .o]
    ) {
        self.game = game
        self.selected = selected
        self.flipped = flipped
        self.labels = labels
        self.clocks = clocks
        self.title = title
        self.progress = progress
        self.keyboard = keyboard
    }

    /// The moves in pairs, one line each: `1. f2 a7b6`, numbered from the start position's move.
    public var moveLines: [String] {
        var lines: [String] = []
        var line = ""
        for (index, move) in game.moves.enumerated() {
            let before = game.positions[index]
            if before.sideToMove == .x || index == 0 {
                if !line.isEmpty { lines.append(line) }
                line = "\(before.fullmoveNumber)." + (before.sideToMove == .o ? " ..." : "")
            }
            line += " \(move)"
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}

extension GameLoop {
    /// The game as the full screen shows it.
    public var view: TableView {
        TableView(game: game, selected: selected, flipped: flipped, labels: labels, keyboard: keyboard)
    }
}
