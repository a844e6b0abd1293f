import Foundation
import NanashiCore
import NanashiMatch

/// `nanashi datagen`'s run: self-play games appended to a file of positions, each finished
/// game's number to its journal (the same name with `.games` added), so that a run stopped and
/// started again with the same seed plays only the games it had not finished.
public enum Datagen {
    /// How the positions are written: a FEN, a score and a result a line, or 16-byte records
    /// (`PackedSample`).
    public enum Format: String, Sendable, CaseIterable {
        case text, binary
    }

    /// Plays games `0..<games` of `seed` with `selfPlay` but those finished already, appending to
    /// `out`, and calls `report` with a line for people: once when resuming, then after each game
    /// (a progress line, redrawn).
    ///
    /// - Throws: `Problem` when `games` is not 1 to 10,000,000 or `concurrency` 1 to 64, or the
    ///   file or its journal cannot be read or written.
    public static func run(
        _ selfPlay: SelfPlay, games: Int, seed: UInt64, concurrency: Int, out: String, format: Format = .text,
        report: @escaping @Sendable (String) -> Void
    ) throws(Problem) {
        do {
            try (1...10_000_000).check(games, "games")
            try (1...64).check(concurrency, "concurrency")
        } catch {
            throw Problem(description: error.description)
        }
        let journalPath = out + ".games"
        let journalLines = try Self.lines(of: journalPath)
        let lines = format == .text ? try Self.lines(of: out) : []
        let records = format == .binary ? try Self.bytes(of: out) : []
        let progress: DatagenProgress
        do throws(TuningError) {
            switch format {
            case .text: progress = try DatagenProgress(seed: seed, lines: lines, journal: journalLines)
            case .binary: progress = try DatagenProgress(seed: seed, records: records, journal: journalLines)
            }
        } catch {
            throw Problem(description: "\(out): \(error.description)")
        }
        let file: AppendingFile
        let journal: AppendingFile
        do {
            file = try AppendingFile(path: out)
            journal = try AppendingFile(path: journalPath)
        } catch {
            throw Problem(description: error.description)
        }
        let state = RunState(progress: progress)
        let start = ContinuousClock.now
        let toPlay = (0..<games).count { !progress.finished.contains($0) }
        if toPlay < games {
            report("resuming: \(games - toPlay) games done, \(progress.seen.count) positions in \(out)\n")
        }
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
            report("\rgames \(state.games)/\(toPlay), new positions \(state.positions), \(seconds) s")
        }
        file.close()
        journal.close()
    }

    /// A file of the run cannot be read or written.
    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    /// The bytes of the file at `path`, none when it does not exist.
    static func bytes(of path: String) throws(Problem) -> [UInt8] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Problem(description: "cannot read '\(path)'")
        }
        return [UInt8](data)
    }

    /// The lines of the file at `path`, none when it does not exist.
    static func lines(of path: String) throws(Problem) -> [Substring] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw Problem(description: "cannot read '\(path)'")
        }
        return text.split(separator: "\n")
    }
}

/// What the reports share (updated one game at a time, by one game's thread at a time).
private final class RunState: @unchecked Sendable {
    var progress: DatagenProgress
    var games = 0
    var positions = 0

    init(progress: DatagenProgress) { self.progress = progress }
}

extension TrainingPosition {
    /// The positions of a file that `Datagen` wrote, one a line.
    ///
    /// - Throws: `Datagen.Problem` when the file cannot be read or a line is not a position.
    public static func read(fromFile path: String) throws(Datagen.Problem) -> [TrainingPosition] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw Datagen.Problem(description: "cannot read '\(path)'")
        }
        do {
            return try text.split(separator: "\n").map { line throws(TuningError) in
                try TrainingPosition(line: line)
            }
        } catch {
            throw Datagen.Problem(description: "\(path): \(error.description)")
        }
    }
}
