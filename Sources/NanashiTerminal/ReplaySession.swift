import NanashiCore
import NanashiProtocol

/// `nanashi replay` as a state machine: lines typed in, what to show out. It owns no terminal and
/// no engine: for `eval` it asks for a search of the position shown (`.evaluate`), and the
/// runner answers with `evaluated(best:score:depth:)`.
public struct ReplaySession {
    /// One thing for the runner to do, in order.
    public enum Action: Hashable, Sendable {
        /// Text as it is.
        case write(String)
        /// One line.
        case say(String)
        /// Search this position and hand the result to `evaluated(best:score:depth:)`.
        case evaluate(Position)
        /// The replay is over.
        case quit
    }

    /// What the runner prompts with.
    public static let prompt = "replay> "

    /// The game and the position shown.
    public private(set) var replay: Replay
    private let renderer: BoardRenderer
    /// The engine's analysis of the game, shown under each position, if there is one.
    private let analysis: GameAnalysis?

    /// A session on `replay`, with `analysis` of the same game (its first mover is taken from
    /// the game's start: the wire does not carry it).
    public init(_ replay: Replay, color: Bool, analysis: GameAnalysis? = nil) {
        self.replay = replay
        renderer = BoardRenderer(color: color)
        self.analysis = analysis.map { analysis in
            var analysis = analysis
            analysis.firstMover = replay.positions[0].sideToMove
            return analysis
        }
    }

    /// The heading and the first board.
    public func start() -> [Action] {
        [.say(replay.heading)] + (analysis.map { [.say($0.summary), .say($0.accuracySummary)] } ?? []) + board
    }

    /// What a typed line does; `nil` is the end of input, which leaves.
    public mutating func typed(_ line: String?) -> [Action] {
        guard let line else { return [.quit] }
        guard let step = ReplayStep(parsing: line) else {
            return [.say("'\(line.prefix(20))'? \(ReplayStep.helpText)")]
        }
        switch step {
        case .quit: return [.quit]
        case .help: return [.say(ReplayStep.helpText)]
        case .eval: return [.evaluate(replay.position)]
        default:
            let shown = replay.ply
            guard replay.take(step) else {
                return [.say("no such position: the game has plies 0 to \(replay.plies)")]
            }
            return replay.ply == shown ? [] : board
        }
    }

    /// The line that answers `.evaluate`, given the search's best move (`nil` when the game is
    /// over there), score and depth.
    public func evaluated(best: Move?, score: ThinkingLine.Score, depth: Int) -> String {
        replay.evaluation(best: best, score: score, depth: depth)
    }

    private var board: [Action] {
        [
            .write(renderer.render(replay.position, lastMove: replay.lastMove, labels: replay.labels)),
            .say(" " + replay.progress),
        ] + (analysis?.lines(at: replay.ply).map(Action.say) ?? [])
    }
}

extension ReplaySession {
    /// Steps through the game at `console` until `q` or the end of input, as `nanashi replay`
    /// does; `search` answers `eval` for a position that is not over: the best move, its score
    /// and the depth reached.
    public mutating func run(
        on console: any TerminalConsole,
        search: (Position) -> (best: Move, score: ThinkingLine.Score, depth: Int)
    ) {
        var actions = start()
        while true {
            for action in actions {
                switch action {
                case .write(let text): console.write(text)
                case .say(let line): console.say(line)
                case .quit: return
                case .evaluate(let position):
                    let result = position.isGameOver ? nil : search(position)
                    console.say(
                        evaluated(
                            best: result?.best, score: result?.score ?? .centipieces(0),
                            depth: result?.depth ?? 0))
                }
            }
            actions = typed(console.ask(Self.prompt))
        }
    }
}

extension Replay {
    /// The first game of the PGN file at `path`.
    ///
    /// - Throws: `LocalFiles.Problem` when the file cannot be read or holds no readable game.
    public init(file path: String) throws(LocalFiles.Problem) {
        let text: String
        do {
            text = try LocalFiles().read(path)
        } catch {
            throw LocalFiles.Problem(description: "cannot read \(path): \(error)")
        }
        do {
            self.init(try GameRecord(pgn: text))
        } catch {
            throw LocalFiles.Problem(description: "\(path) is not a readable PGN game: \(error)")
        }
    }
}
