import ArgumentParser
import Foundation
import NanashiAI
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
            (centi-pieces), then the game's result for x (1-0, 0-1 or 1/2-1/2); with --format binary, \
            one 16-byte record per position instead (README, "Training data"). A position already in \
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

    @Option(help: "Nodes after which a move's search starts no further iteration.")
    var nodes: UInt64 = 5000

    @Option(help: "Nodes at which a move's search stops (default: twice --nodes).")
    var hardNodes: UInt64?

    @Option(help: "text (a FEN, a score and a result per line) or binary (16-byte records).")
    var format: DataFormat = .text

    @Option(help: "Seed of the random opening plies (the same seed plays the same games).")
    var seed: UInt64 = 1

    @Option(help: "Games played at the same time.")
    var concurrency: Int = 1

    @Flag(help: "Keep every position, not only the quiet ones the tuner wants (for the network).")
    var everyPosition = false

    @Option(help: "The evaluation both sides play with: classic (needs no network) or nnue.")
    var eval: EvaluationKind = .classic

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
        if let hardNodes, hardNodes < nodes {
            throw InputError("bad hard nodes \(hardNodes): use at least --nodes (\(nodes))")
        }
        let journalPath = out + ".games"
        let progress: DatagenProgress
        do {
            let journal = try Self.lines(of: journalPath)
            switch format {
            case .text:
                progress = try DatagenProgress(seed: seed, lines: try Self.lines(of: out), journal: journal)
            case .binary:
                progress = try DatagenProgress(seed: seed, records: try Self.bytes(of: out), journal: journal)
            }
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
        var selfPlay = SelfPlay(nodes: nodes, hardNodes: hardNodes)
        if everyPosition { selfPlay.quietMargin = nil }
        selfPlay.evaluation = eval
        selfPlay.run(games: games, skipping: progress.finished, seed: seed, concurrency: concurrency) {
            number, game in
            let fresh = state.progress.record(game, number: number)
            if !fresh.samples.isEmpty {
                switch format {
                case .text: file.append(fresh.lines.joined(separator: "\n"))
                case .binary: file.append(bytes: fresh.packed)
                }
            }
            journal.append(state.progress.journalLine(number: number))
            state.games += 1
            state.positions += fresh.samples.count
            let seconds = (ContinuousClock.now - start).wholeMilliseconds / 1000
            FileHandle.standardError.write(
                Data("\rgames \(state.games)/\(toPlay), new positions \(state.positions), \(seconds) s".utf8))
        }
        file.close()
        journal.close()
        FileHandle.standardError.write(Data("\n".utf8))
    }

    /// The bytes of the file at `path`, none when it does not exist.
    static func bytes(of path: String) throws(InputError) -> [UInt8] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputError("cannot read '\(path)'")
        }
        return [UInt8](data)
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

/// How datagen writes its positions.
enum DataFormat: String, ExpressibleByArgument {
    case text, binary
}

/// What the reports share (updated one game at a time).
private final class RunState: @unchecked Sendable {
    var progress: DatagenProgress
    var games = 0
    var positions = 0

    init(progress: DatagenProgress) { self.progress = progress }
}
