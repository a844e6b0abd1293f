import Foundation
import NanashiMatch

/// `nanashi datagen`'s run: self-play games appended to a file of positions, each finished
/// game's number to its journal (the same name with `.games` added), so that a run stopped and
/// started again with the same seed plays only the games it had not finished.
public struct Datagen {
    public var selfPlay: SelfPlay
    /// The file the positions are appended to.
    public var out: String
    public var seed: UInt64
    public var concurrency: Int

    public init(selfPlay: SelfPlay, out: String, seed: UInt64, concurrency: Int) {
        self.selfPlay = selfPlay
        self.out = out
        self.seed = seed
        self.concurrency = concurrency
    }

    /// Plays games `0..<games` of the seed but those finished already, calling `report` with a
    /// line for people: once when resuming, then after each game (a progress line, redrawn).
    ///
    /// - Throws: `Problem` when the file or its journal cannot be read or written.
    public func run(games: Int, report: @escaping @Sendable (String) -> Void) throws(Problem) {
        let journalPath = out + ".games"
        let (lines, journalLines) = (try Self.lines(of: out), try Self.lines(of: journalPath))
        let progress: DatagenProgress
        do {
            progress = try DatagenProgress(seed: seed, lines: lines, journal: journalLines)
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
            let lines = state.progress.record(game, number: number)
            if !lines.isEmpty { file.append(lines.joined(separator: "\n")) }
            journal.append(state.progress.journalLine(number: number))
            state.games += 1
            state.positions += lines.count
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
