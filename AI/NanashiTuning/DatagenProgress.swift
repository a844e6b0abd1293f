import NanashiCore

/// What earlier runs of `nanashi datagen` wrote to a file: the positions it holds, so that no
/// position is written twice, and the games finished, so that a run stopped part way resumes
/// where it stopped.
public struct DatagenProgress: Sendable {
    /// A key per position written: its pieces, blockers and side to move (not its clocks).
    public private(set) var seen: Set<UInt64> = []
    /// The numbers of the games finished with this progress's seed.
    public private(set) var finished: Set<Int> = []
    public let seed: UInt64

    /// Reads the positions file's `lines` (FEN first) and the journal's `journal` lines (a seed
    /// and a game number each); a line that does not parse is refused with its number.
    public init(seed: UInt64, lines: [Substring], journal: [Substring]) throws(TuningError) {
        try self.init(seed: seed, journal: journal)
        for (number, line) in lines.enumerated() where !line.isEmpty {
            let fen = line.split(separator: " ").prefix(4).joined(separator: " ")
            guard let position = try? Position(fen: fen) else {
                throw TuningError("line \(number + 1): bad FEN '\(fen)'")
            }
            seen.insert(Self.key(position))
        }
    }

    /// Reads a binary positions file's `records` (`PackedSample`s one after another) and the
    /// journal's lines; a record that does not read is refused with its number.
    public init(seed: UInt64, records: [UInt8], journal: [Substring]) throws(TuningError) {
        try self.init(seed: seed, journal: journal)
        guard records.count % PackedSample.size == 0 else {
            throw TuningError(
                "\(records.count) bytes is not a whole number of \(PackedSample.size)-byte records")
        }
        seen.reserveCapacity(records.count / PackedSample.size)
        for start in stride(from: 0, to: records.count, by: PackedSample.size) {
            do {
                let record = try PackedSample(bytes: records[start..<start + PackedSample.size])
                seen.insert(Self.key(record.position))
            } catch {
                throw TuningError("record \(start / PackedSample.size + 1): \(error.description)")
            }
        }
    }

    private init(seed: UInt64, journal: [Substring]) throws(TuningError) {
        self.seed = seed
        for (number, line) in journal.enumerated() where !line.isEmpty {
            let fields = line.split(separator: " ")
            guard fields.count == 2, let lineSeed = UInt64(fields[0]), let game = Int(fields[1]) else {
                throw TuningError(
                    "journal line \(number + 1): expected a seed and a game number, got '\(line)'")
            }
            if lineSeed == seed { finished.insert(game) }
        }
    }

    /// Keeps the game's samples not written before, remembers them and the game as finished, and
    /// returns the game with those samples only: what to append.
    public mutating func record(_ game: SelfPlay.Game, number: Int) -> SelfPlay.Game {
        finished.insert(number)
        let fresh = game.samples.filter { seen.insert(Self.key($0.position)).inserted }
        return SelfPlay.Game(samples: fresh, winner: game.winner, plies: game.plies)
    }

    /// The journal's line for a finished game.
    public func journalLine(number: Int) -> String { "\(seed) \(number)" }

    static func key(_ position: Position) -> UInt64 {
        position.hash ^ (position.blockers.rawValue &* 0x9E37_79B9_7F4A_7C15)
    }
}
