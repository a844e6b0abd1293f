import ArgumentParser
import Foundation
import NanashiTuning

/// `nanashi datagen`: self-play positions with their games' results, for `nanashi tune`.
struct DatagenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "datagen",
        abstract: "Play self-play games at a fixed node count and write their quiet positions with results.",
        discussion: """
            Appends one line per position to --out: its FEN, then the game's result for x (1-0, 0-1 or \
            1/2-1/2). Each game is written when it ends, so Ctrl-C keeps every finished game. A progress \
            line goes to standard error.
            """
    )

    @Option(help: "Games to play.")
    var games: Int

    @Option(help: "The file to append the positions to.")
    var out: String

    @Option(help: "Nodes searched per move.")
    var nodes: UInt64 = 5000

    @Option(help: "Seed of the random opening plies (the same seed plays the same games).")
    var seed: UInt64 = 1

    @Option(help: "Games played at the same time.")
    var concurrency: Int = 1

    func run() throws {
        guard (1...10_000_000).contains(games) else {
            throw InputError("bad games \(games): use 1 to 10000000")
        }
        guard (1...100_000_000).contains(nodes) else {
            throw InputError("bad nodes \(nodes): use 1 to 100000000")
        }
        guard (1...64).contains(concurrency) else {
            throw InputError("bad concurrency \(concurrency): use 1 to 64")
        }
        let file = try AppendingFile(path: out)
        let start = ContinuousClock.now
        let progress = Progress()
        let total = games
        SelfPlay(nodes: nodes).run(games: games, seed: seed, concurrency: concurrency) { game in
            if !game.lines.isEmpty { file.append(game.lines.joined(separator: "\n")) }
            progress.games += 1
            progress.positions += game.lines.count
            let seconds = (ContinuousClock.now - start).wholeMilliseconds / 1000
            FileHandle.standardError.write(
                Data("\rgames \(progress.games)/\(total), positions \(progress.positions), \(seconds) s".utf8)
            )
        }
        file.close()
        FileHandle.standardError.write(Data("\n".utf8))
    }
}

/// The counts the progress line shows (updated one game at a time).
private final class Progress: @unchecked Sendable {
    var games = 0
    var positions = 0
}
