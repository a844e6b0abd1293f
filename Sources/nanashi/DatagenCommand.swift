import ArgumentParser
import Foundation
import NanashiAI
import NanashiMatch
import NanashiTuning

/// `nanashi datagen`: self-play positions with the search's scores and their games' results, for
/// `nanashi tune` and the network's trainer.
struct DatagenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "datagen",
        abstract:
            "Play self-play games at a fixed node count and write their positions with scores and results.",
        discussion: """
            Appends one line per position to --out: its FEN, the search's score for the side to move \
            (centi-pieces), then the game's result for x (1-0, 0-1 or 1/2-1/2). A position already in \
            the file is not written again. Each game is written when it ends and its number noted in \
            --out's journal (the same name with '.games' added), so a run stopped by Ctrl-C and started \
            again with the same options plays only the games it had not finished. A progress line goes \
            to standard error.
            """
    )

    @Option(help: "Games to play (game numbers 0 to N-1 of the seed).")
    var games: Int

    @Option(help: "The file to append the positions to.")
    var out: String

    @Option(help: "Nodes searched per move.")
    var nodes: UInt64 = 5000

    @Option(help: "Seed of the random opening plies (the same seed plays the same games).")
    var seed: UInt64 = 1

    @Option(help: "Games played at the same time.")
    var concurrency: Int = 1

    @Flag(help: "Keep every position, not only the quiet ones the tuner wants (for the network).")
    var everyPosition = false

    @Option(help: "The evaluation both sides play with: classic (needs no network) or nnue.")
    var eval: EvaluationKind = .classic

    func run() throws {
        try (1...10_000_000).check(games, "games")
        try (1...100_000_000).check(Int(clamping: nodes), "nodes")
        try (1...64).check(concurrency, "concurrency")
        let journalPath = out + ".games"
        let progress: DatagenProgress
        do {
            progress = try DatagenProgress(
                seed: seed, lines: try Self.lines(of: out), journal: try Self.lines(of: journalPath))
        } catch let error as TuningError {
            throw InputError("\(out): \(error.description)")
        }
        let file = try AppendingFile(path: out)
        let journal = try AppendingFile(path: journalPath)
        let state = RunState(progress: progress)
        let start = ContinuousClock.now
        let toPlay = (0..<games).count { !progress.finished.contains($0) }
        if toPlay < games {
            FileHandle.standardError.write(
                Data(
                    "resuming: \(games - toPlay) games done, \(progress.seen.count) positions in \(out)\n"
                        .utf8))
        }
        var selfPlay = SelfPlay(nodes: nodes)
        if everyPosition { selfPlay.quietMargin = nil }
        selfPlay.evaluation = eval
        selfPlay.run(games: games, skipping: progress.finished, seed: seed, concurrency: concurrency) {
            number, game in
            let lines = state.progress.record(game, number: number)
            if !lines.isEmpty { file.append(lines.joined(separator: "\n")) }
            journal.append(state.progress.journalLine(number: number))
            state.games += 1
            state.positions += lines.count
            let seconds = (ContinuousClock.now - start).wholeMilliseconds / 1000
            FileHandle.standardError.write(
                Data("\rgames \(state.games)/\(toPlay), new positions \(state.positions), \(seconds) s".utf8))
        }
        file.close()
        journal.close()
        FileHandle.standardError.write(Data("\n".utf8))
    }

    /// The lines of the file at `path`, none when it does not exist.
    static func lines(of path: String) throws(InputError) -> [Substring] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw InputError("cannot read '\(path)'")
        }
        return text.split(separator: "\n")
    }
}

/// What the reports share (updated one game at a time).
private final class RunState: @unchecked Sendable {
    var progress: DatagenProgress
    var games = 0
    var positions = 0

    init(progress: DatagenProgress) { self.progress = progress }
}
