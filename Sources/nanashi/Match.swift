import ArgumentParser
import Foundation
import NanashiAI
import NanashiCore

/// `nanashi match`: plays games between two engines (built-in levels or external UAI programs)
/// from balanced openings, each opening once with each colour, and reports the score and the Elo
/// difference. This is how the levels' strength is measured.
struct Match: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play games between two engines and report the score and Elo difference.",
        discussion: """
            An engine is 'level:N' (a built-in level, 1 to 6) or a shell command that starts a UAI \
            engine, like './nanashi uai'. Without --depth, --movetime or --tc, built-in levels use \
            their own limits and external engines get 'go movetime 1000'. Prints one line per game, \
            then the totals from the first engine's point of view.
            """
    )

    @Argument(help: "The first engine: 'level:N' or a command starting a UAI engine.")
    var first: String

    @Argument(help: "The second engine.")
    var second: String

    @Option(help: "Number of games (rounded up to an even number: each opening is played with both colours).")
    var games: Int = 100

    @Option(help: "Search every move to this depth (built-in levels keep their own depth if it is smaller).")
    var depth: Int?

    @Option(help: "Think this many milliseconds per move.")
    var movetime: Int?

    @Option(help: "Time control 'SECONDS+INCREMENT', like '10+0.1'; a player out of time loses.")
    var tc: String?

    @Option(help: "Adjudicate a game as a draw after this many plies.")
    var maxPlies: Int = 400

    @Option(help: "Games played at the same time.")
    var concurrency: Int = 1

    @Option(help: "Append the games to this file as PGN.")
    var pgn: String?

    @Option(help: "Seed of the built-in levels' randomness (default: random).")
    var seed: UInt64?

    /// Checks the options; reported as input errors (one line, exit code 2).
    func check() throws(InputError) {
        guard (1...100_000).contains(games) else { throw InputError("bad games \(games): use 1 to 100000") }
        if let depth, !(1...64).contains(depth) { throw InputError("bad depth \(depth): use 1 to 64") }
        if let movetime, !(1...3_600_000).contains(movetime) {
            throw InputError("bad movetime \(movetime): use 1 to 3600000 ms")
        }
        if let tc, TimeControl(tc) == nil {
            throw InputError("bad time control '\(tc)': use SECONDS+INCREMENT, like 10+0.1")
        }
        guard (1...10_000).contains(maxPlies) else {
            throw InputError("bad max plies \(maxPlies): use 1 to 10000")
        }
        guard (1...64).contains(concurrency) else {
            throw InputError("bad concurrency \(concurrency): use 1 to 64")
        }
        for spec in [first, second] { _ = try PlayerSpec(spec) }
    }

    func run() throws {
        try check()
        let specs = (try PlayerSpec(first), try PlayerSpec(second))
        let timeControl = tc.flatMap(TimeControl.init)
        let limits = SearchLimits(depth: depth, movetime: movetime.map { .milliseconds($0) })
        let pairs = (games + 1) / 2
        let openings = Openings.balanced(count: pairs)
        // Game 2k: the first engine has x; game 2k+1: the same opening with colours swapped.
        let schedule: [ScheduledGame] = (0..<pairs * 2).map { (index: Int) -> ScheduledGame in
            ScheduledGame(opening: openings[index / 2], firstPlaysX: index % 2 == 0, round: index + 1)
        }
        let pgnFile: FileHandle?
        if let pgn {
            if !FileManager.default.fileExists(atPath: pgn) {
                guard FileManager.default.createFile(atPath: pgn, contents: nil) else {
                    throw InputError("cannot create PGN file '\(pgn)'")
                }
            }
            guard let handle = FileHandle(forWritingAtPath: pgn) else {
                throw InputError("cannot write PGN file '\(pgn)'")
            }
            handle.seekToEndOfFile()
            pgnFile = handle
        } else {
            pgnFile = nil
        }

        print("match: \(specs.0) vs \(specs.1), \(schedule.count) games, \(describe(limits, timeControl))")
        flushOutput()
        let state = MatchState()
        let seedSource = RandomSource(seed: seed ?? UInt64.random(in: 0...UInt64.max))
        let maxPlies = maxPlies
        DispatchQueue.concurrentPerform(iterations: min(concurrency, schedule.count)) { _ in
            do {
                let random = state.locked { RandomSource(seed: seedSource.next()) }
                let players = (try specs.0.makePlayer(random: random), try specs.1.makePlayer(random: random))
                defer {
                    players.0.close()
                    players.1.close()
                }
                while let game = state.locked({ state.takeGame(from: schedule) }) {
                    let x = game.firstPlaysX ? players.0 : players.1
                    let o = game.firstPlaysX ? players.1 : players.0
                    let record = try Referee(
                        x: x, o: o, limits: limits, timeControl: timeControl, maxPlies: maxPlies
                    ).play(from: game.opening)
                    state.locked {
                        state.tally.add(record.result, firstPlaysX: game.firstPlaysX)
                        print(
                            "game \(state.tally.games)/\(schedule.count): \(x.name) (x) vs \(o.name) (o)"
                                + " \(record.result.text) \(record.termination), \(record.moves.count) plies;"
                                + " \(state.tally.summary)")
                        flushOutput()
                        let text = record.pgn(
                            event: "nanashi match", round: game.round, xName: x.name, oName: o.name)
                        pgnFile?.write(Data((text + "\n").utf8))
                    }
                }
            } catch {
                state.locked { state.failure = state.failure ?? error }
            }
        }
        try? pgnFile?.close()
        if let failure = state.failure {
            throw failure
        }
        let tally = state.tally
        print("\(specs.0) vs \(specs.1): \(tally.summary)")
        print(tally.eloLine)
    }

    private func describe(_ limits: SearchLimits, _ timeControl: TimeControl?) -> String {
        var parts: [String] = []
        if let depth = limits.depth { parts.append("depth \(depth)") }
        if let movetime = limits.movetime { parts.append("movetime \(movetime.wholeMilliseconds) ms") }
        if let tc { parts.append("tc \(tc)") }
        if parts.isEmpty { parts.append("each engine's own limits") }
        return parts.joined(separator: ", ") + ", max \(maxPlies) plies"
    }
}

/// What the match's workers share: the next game to play, the score, the first error.
final class MatchState: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    var failure: Error?
    let tally = Tally()

    func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// The next game to play, or `nil` when all are taken or a worker failed. Call under `locked`.
    func takeGame(from schedule: [ScheduledGame]) -> ScheduledGame? {
        guard next < schedule.count, failure == nil else { return nil }
        next += 1
        return schedule[next - 1]
    }
}

/// One game of the match: where it starts and who has x.
struct ScheduledGame: Sendable {
    var opening: Position
    var firstPlaysX: Bool
    var round: Int
}

// MARK: Players

/// Who plays: a built-in level or an external UAI engine started by a shell command.
enum PlayerSpec: Sendable, CustomStringConvertible {
    case level(Level)
    case command(String)

    init(_ text: String) throws(InputError) {
        if text.hasPrefix("level:") {
            guard let number = Int(text.dropFirst("level:".count)), let level = Level(number) else {
                throw InputError(
                    "bad engine '\(text)': levels are level:\(Level.range.lowerBound) to level:\(Level.range.upperBound)"
                )
            }
            self = .level(level)
        } else if text.trimmingCharacters(in: .whitespaces).isEmpty {
            throw InputError("bad engine '': give level:N or a command")
        } else {
            self = .command(text)
        }
    }

    var description: String {
        switch self {
        case .level(let level): return "level:\(level.number)"
        case .command(let command): return command
        }
    }

    func makePlayer(random: RandomSource) throws -> Player {
        switch self {
        case .level(let level): return BuiltInPlayer(level: level, random: random)
        case .command(let command): return try UAIPlayer(command: command)
        }
    }
}

/// One side of a game.
protocol Player: AnyObject {
    var name: String { get }
    /// Forgets the last game.
    func newGame() throws
    /// The move to play in `position`, reached from `start` by `moves`.
    func move(start: Position, moves: [Move], position: Position, limits: SearchLimits) throws -> Move
    func close()
}

final class BuiltInPlayer: Player {
    let level: Level
    let engine = Engine()
    let random: RandomSource

    init(level: Level, random: RandomSource) {
        self.level = level
        self.random = random
    }

    var name: String { "level:\(level.number)" }

    func newGame() { engine.newGame() }

    func move(start: Position, moves: [Move], position: Position, limits: SearchLimits) -> Move {
        engine.bestMove(for: position, level: level, extraLimits: limits, random: random).bestMove
    }

    func close() {}
}

/// An external engine speaking UAI through pipes.
final class UAIPlayer: Player {
    private(set) var name: String
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer = Data()

    struct EngineError: Error, CustomStringConvertible {
        let description: String
    }

    init(command: String) throws {
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw InputError("cannot start engine '\(command)': \(error.localizedDescription)")
        }
        name = command
        send("uai")
        while let line = try readLine(), line != "uaiok" {
            if line.hasPrefix("id name ") { name = String(line.dropFirst("id name ".count)) }
        }
        send("isready")
        try waitFor("readyok")
    }

    func newGame() throws {
        send("uainewgame")
        send("isready")
        try waitFor("readyok")
    }

    func move(start: Position, moves: [Move], position: Position, limits: SearchLimits) throws -> Move {
        let moveText = moves.isEmpty ? "" : " moves " + moves.map(\.description).joined(separator: " ")
        send("position fen \(start.fen)\(moveText)")
        var go = "go"
        if let depth = limits.depth { go += " depth \(depth)" }
        if let movetime = limits.movetime { go += " movetime \(movetime.wholeMilliseconds)" }
        if let clock = limits.clock {
            let (xTime, oTime) =
                position.sideToMove == .x ? (clock.own, clock.opponent) : (clock.opponent, clock.own)
            let (xIncrement, oIncrement) =
                position.sideToMove == .x
                ? (clock.ownIncrement, clock.opponentIncrement)
                : (clock.opponentIncrement, clock.ownIncrement)
            go +=
                " wtime \(oTime.wholeMilliseconds) btime \(xTime.wholeMilliseconds)"
                + " winc \(oIncrement.wholeMilliseconds) binc \(xIncrement.wholeMilliseconds)"
        }
        if go == "go" { go += " movetime 1000" }
        send(go)
        while let line = try readLine() {
            if line.hasPrefix("bestmove ") {
                let text = line.dropFirst("bestmove ".count).split(separator: " ").first ?? ""
                do {
                    return try Move(notation: text)
                } catch {
                    throw EngineError(description: "\(name) answered '\(line)': \(error)")
                }
            }
        }
        throw EngineError(description: "\(name) stopped before answering")
    }

    func close() {
        send("quit")
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    private func send(_ line: String) {
        try? input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    private func waitFor(_ expected: String) throws {
        while let line = try readLine() {
            if line == expected { return }
        }
        throw EngineError(description: "\(name) stopped before '\(expected)'")
    }

    /// The next line from the engine, or `nil` when it has closed its output.
    private func readLine() throws -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                return line.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return nil }
            buffer.append(chunk)
        }
    }
}

// MARK: Games

/// A time control: a starting time and an increment per move, for each side.
struct TimeControl: Sendable {
    var base: Duration
    var increment: Duration

    init?(_ text: String) {
        let parts = text.split(separator: "+", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let seconds = Double(parts[0]), seconds > 0, seconds <= 86_400
        else { return nil }
        let increment = parts.count == 2 ? Double(parts[1]) : 0
        guard let increment, increment >= 0, increment <= 3600 else { return nil }
        base = .milliseconds(Int64(seconds * 1000))
        self.increment = .milliseconds(Int64(increment * 1000))
    }
}

/// How a game ended, as PGN says it.
enum GameResult {
    case xWins, oWins, draw

    var text: String {
        switch self {
        case .xWins: return GameRecord.result(winner: .x)
        case .oWins: return GameRecord.result(winner: .o)
        case .draw: return GameRecord.result(winner: nil)
        }
    }
}

/// A finished game.
struct PlayedGame {
    var start: Position
    var moves: [Move]
    var result: GameResult
    var termination: String

    /// The game in PGN (the core's `GameRecord`, as python-ataxx writes it: x is `White`).
    func pgn(event: String, round: Int, xName: String, oName: String) -> String {
        var record = GameRecord(
            start: start,
            tags: [
                "Event": event, "Date": Self.today(), "Round": String(round), "White": xName, "Black": oName,
                "Termination": termination,
            ])
        for move in moves {
            // Every move was checked by the referee before it was played.
            try! record.append(move)
        }
        record.result = result.text
        return record.pgn
    }

    private static func today() -> String {
        let components = Calendar(identifier: .gregorian).dateComponents(
            in: TimeZone(identifier: "UTC")!, from: Date())
        return String(
            format: "%04d.%02d.%02d", components.year ?? 0, components.month ?? 0, components.day ?? 0)
    }
}

/// Plays one game between two players, by the rules, with a clock when there is a time control.
struct Referee {
    let x: Player
    let o: Player
    let limits: SearchLimits
    let timeControl: TimeControl?
    let maxPlies: Int

    func play(from start: Position) throws -> PlayedGame {
        try x.newGame()
        try o.newGame()
        var position = start
        var moves: [Move] = []
        var clocks = [Side.x: timeControl?.base ?? .zero, Side.o: timeControl?.base ?? .zero]
        while moves.count < maxPlies {
            if let outcome = position.outcome {
                let result: GameResult = outcome.winner.map { $0 == .x ? .xWins : .oWins } ?? .draw
                return PlayedGame(
                    start: start, moves: moves, result: result, termination: outcome.reason.rawValue)
            }
            let side = position.sideToMove
            var moveLimits = limits
            if let timeControl {
                moveLimits.clock = SearchLimits.Clock(
                    own: clocks[side]!, opponent: clocks[side.opponent]!, ownIncrement: timeControl.increment,
                    opponentIncrement: timeControl.increment)
            }
            let player = side == .x ? x : o
            let started = ContinuousClock.now
            let move = try player.move(start: start, moves: moves, position: position, limits: moveLimits)
            let elapsed = ContinuousClock.now - started
            let loss: GameResult = side == .x ? .oWins : .xWins
            if let timeControl {
                clocks[side]! -= elapsed
                if clocks[side]! < .zero {
                    return PlayedGame(start: start, moves: moves, result: loss, termination: "time forfeit")
                }
                clocks[side]! += timeControl.increment
            }
            guard let next = try? position.play(move) else {
                return PlayedGame(
                    start: start, moves: moves, result: loss, termination: "illegal move \(move)")
            }
            position = next
            moves.append(move)
        }
        return PlayedGame(
            start: start, moves: moves, result: .draw, termination: "adjudicated at \(maxPlies) plies")
    }
}

// MARK: Openings

/// Balanced openings: a blocker pattern symmetric between the files a-c and g-e, then a first
/// move of x answered by o's mirror image of it, so that both sides stand the same.
enum Openings {
    static let blockerPatterns: [[String]] = [
        [], ["c3", "e3", "c5", "e5"], ["d3", "d5"], ["b2", "f2", "b6", "f6"], ["c4", "e4"],
        ["d2", "d6", "b4", "f4"], ["d4"], ["c2", "e2", "c6", "e6"], ["b3", "f3", "b5", "f5"],
    ]

    /// `count` openings, cycling through the blocker patterns so that the first few differ most.
    static func balanced(count: Int) -> [Position] {
        var perPattern: [[Position]] = []
        for pattern in blockerPatterns {
            let blockers = Set(pattern.compactMap { Square($0) })
            var rows: [String] = []
            for rank in (0..<7).reversed() {
                var row = ""
                for file in 0..<7 {
                    let square = Square(file: file, rank: rank)!
                    switch square.name {
                    case "a7", "g1": row += "x"
                    case "g7", "a1": row += "o"
                    default: row += blockers.contains(square) ? "-" : "."
                    }
                }
                rows.append(row)
            }
            let fen = rows.joined(separator: "/").replacingOccurrences(of: ".", with: "1") + " x 0 1"
            guard let base = try? Position(fen: fen) else { continue }
            var openings: [Position] = []
            for move in base.legalMoves() {
                guard let afterX = try? base.play(move), let reply = mirror(move),
                    let afterO = try? afterX.play(reply)
                else { continue }
                openings.append(afterO)
            }
            perPattern.append(openings)
        }
        var all: [Position] = []
        var index = 0
        while all.count < count && perPattern.contains(where: { index < $0.count }) {
            for openings in perPattern where index < openings.count { all.append(openings[index]) }
            index += 1
        }
        // More games than openings: play them again (the levels' randomness varies the games).
        while all.count < count { all += all.prefix(count - all.count) }
        return Array(all.prefix(count))
    }

    /// The move reflected between file a and file g.
    static func mirror(_ move: Move) -> Move? {
        func reflect(_ square: Square) -> Square? { Square(file: 6 - square.file, rank: square.rank) }
        switch move {
        case .clone(let to): return reflect(to).map { .clone(to: $0) }
        case .jump(let from, let to):
            guard let from = reflect(from), let to = reflect(to) else { return nil }
            return .jump(from: from, to: to)
        case .pass: return .pass
        }
    }
}

// MARK: Score

/// Wins, draws and losses from the first engine's point of view.
final class Tally {
    var wins = 0
    var draws = 0
    var losses = 0

    var games: Int { wins + draws + losses }

    func add(_ result: GameResult, firstPlaysX: Bool) {
        switch result {
        case .draw: draws += 1
        case .xWins: if firstPlaysX { wins += 1 } else { losses += 1 }
        case .oWins: if firstPlaysX { losses += 1 } else { wins += 1 }
        }
    }

    var score: Double { games == 0 ? 0.5 : (Double(wins) + Double(draws) / 2) / Double(games) }

    var summary: String {
        let points = Double(wins) + Double(draws) / 2
        return "+\(wins) =\(draws) -\(losses), score \(Self.format(points, 1))/\(games)"
            + " (\(Self.format(score * 100, 1))%)"
    }

    /// `elo +E (95% interval L to H)`, from the normal approximation of the mean game score.
    var eloLine: String {
        let n = Double(games)
        let mean = score
        let variance =
            (Double(wins) * (1 - mean) * (1 - mean) + Double(draws) * (0.5 - mean) * (0.5 - mean)
                + Double(losses) * mean * mean) / n
        let margin = 1.96 * (variance / n).squareRoot()
        return "elo \(Self.elo(mean)) (95% interval \(Self.elo(mean - margin)) to \(Self.elo(mean + margin)))"
    }

    static func elo(_ score: Double) -> String {
        if score >= 1 { return "+inf" }
        if score <= 0 { return "-inf" }
        let value = -400 * log10(1 / score - 1)
        return (value >= 0 ? "+" : "") + format(value, 0)
    }

    static func format(_ value: Double, _ decimals: Int) -> String {
        String(format: "%.\(decimals)f", value)
    }
}
