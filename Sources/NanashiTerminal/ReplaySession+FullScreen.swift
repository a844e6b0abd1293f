import NanashiCore

extension ReplaySession {
    /// The keys of a replay on the full screen: the arrows step, Home and End go to the ends.
    static let stepKeys: [Key: String] = [
        .right: "n", .down: "n", .left: "b", .up: "b", .home: "s", .end: "e",
    ]
    static let stepKeysHelp = KeyHelp(
        "arrows step (or n, b, Enter), Home/End or s/e the ends, a ply number, eval, q",
        short: "arrows/n/b step, Home/End, q")

    /// The position shown, as the full screen shows it.
    public var view: TableView {
        let moves = Array(replay.record.moves.prefix(replay.ply))
        // The record's moves are legal: its positions were replayed from them.
        let game = try! Game(start: replay.record.start, moves: moves)
        return TableView(game: game, labels: replay.labels, title: replay.heading, progress: replay.progress)
    }

    /// Steps through the game full screen until `q` or the end of input, as `run(on:search:)`
    /// does line by line; the board stays in place and the keys step.
    public mutating func run(
        fullScreen screen: FullScreenConsole,
        search: (Position) -> (best: Move, score: ThinkingLine.Score, depth: Int)
    ) {
        screen.update { state in
            state.boardKeys = false
            state.keyLines = Self.stepKeys
            state.keys = Self.stepKeysHelp
        }
        var actions = start()
        while true {
            screen.show(view)
            var afterBoard = false
            for action in actions {
                switch action {
                case .write:
                    // The board, which the screen shows from `view`; the line after it is the
                    // progress, shown with it.
                    afterBoard = true
                    continue
                case .say(let line):
                    if !afterBoard { screen.say(line) }
                case .quit:
                    return
                case .evaluate(let position):
                    let result = position.isGameOver ? nil : search(position)
                    screen.say(
                        evaluated(
                            best: result?.best, score: result?.score ?? .centipieces(0),
                            depth: result?.depth ?? 0))
                }
                afterBoard = false
            }
            actions = typed(screen.ask(Self.prompt))
        }
    }
}
