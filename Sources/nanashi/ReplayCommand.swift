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

    @OptionGroup var colorOption: ColorOption

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
        let replay: Replay
        do {
            replay = Replay(try GameRecord(pgn: text))
        } catch {
            throw InputError("\(file) is not a readable PGN game: \(error)")
        }
        let console = StandardConsole(noColor: colorOption.noColor)
        let engine = Engine(hashMegabytes: 16)
        var session = ReplaySession(replay, color: console.color)
        var actions = session.start()
        while true {
            for action in actions {
                switch action {
                case .write(let text): console.write(text)
                case .say(let line): console.say(line)
                case .quit: return
                case .evaluate(let position):
                    let result =
                        position.isGameOver
                        ? nil
                        : engine.search(position, limits: SearchLimits(depth: depth, movetime: .seconds(10)))
                    console.say(
                        session.evaluated(
                            best: result?.bestMove, score: AIOpponent.score(result?.score ?? 0),
                            depth: result?.depth ?? 0))
                }
            }
            actions = session.typed(console.ask(ReplaySession.prompt))
        }
    }
}
