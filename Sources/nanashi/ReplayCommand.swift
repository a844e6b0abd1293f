import ArgumentParser
import Foundation
import NanashiAI
import NanashiCore
import NanashiTerminal

/// `nanashi replay FILE.pgn`: steps through a recorded game at the terminal.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Step through a PGN game at the terminal.",
        discussion: """
            Reads the first game of the file (as 'nanashi pgn' writes it: White is x, Black is o). \
            Type n (or just Enter) for the next move, b back, s the start, e the end, a number \
            for the position after that many moves, eval for the engine's evaluation and best \
            move of the position shown, q to leave.
            """
    )

    @Argument(help: "The PGN file.")
    var file: String

    @Option(help: "How deep the engine searches for eval, in plies.")
    var depth = 6

    @Flag(
        name: .customLong("no-color"), help: "Plain text, no colors (NO_COLOR in the environment works too)."
    )
    var noColor = false

    func validate() throws {
        guard (1...20).contains(depth) else { throw ValidationError("--depth is 1 to 20") }
    }

    func run() throws {
        let text: String
        do {
            text = try String(contentsOfFile: file, encoding: .utf8)
        } catch {
            throw InputError("cannot read \(file): \(error.localizedDescription)")
        }
        var replay: Replay
        do {
            replay = Replay(try GameRecord(pgn: text))
        } catch {
            throw InputError("\(file) is not a readable PGN game: \(error)")
        }
        let console = Console(noColor: noColor)
        let renderer = BoardRenderer(color: console.color)
        let engine = Engine(hashMegabytes: 16)
        console.say(replay.heading)
        var shown = -1
        while true {
            if replay.ply != shown {
                console.write(
                    renderer.render(replay.position, lastMove: replay.lastMove, labels: replay.labels))
                console.say(" " + replay.progress)
                shown = replay.ply
            }
            guard let line = console.ask("replay> ") else { return }
            guard let step = ReplayStep(parsing: line) else {
                console.say("'\(line.prefix(20))'? \(ReplayStep.helpText)")
                continue
            }
            switch step {
            case .quit: return
            case .help: console.say(ReplayStep.helpText)
            case .eval:
                let position = replay.position
                let result =
                    position.isGameOver
                    ? nil
                    : engine.search(position, limits: SearchLimits(depth: depth, movetime: .seconds(10)))
                console.say(
                    replay.evaluation(
                        best: result?.bestMove, score: AIOpponent.score(result?.score ?? 0),
                        depth: result?.depth ?? 0))
            default:
                if !replay.take(step) {
                    console.say("no such position: the game has plies 0 to \(replay.plies)")
                }
            }
        }
    }
}
