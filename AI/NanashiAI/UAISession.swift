import NanashiCore
import Synchronization

/// The Universal Ataxx Interface (UCI with "a" for "c"), as engines and match runners speak it:
/// lines in through `receive(_:)`, lines out through the `output` closure.
///
/// `go` searches on a background task, so `stop`, `isready` and `quit` are answered while it
/// thinks. Any other command waits for a search that ends by itself (a depth, nodes, a movetime
/// or a clock), so that a script of commands runs in order, as engines do; during an infinite
/// one it is refused (`info string error searching until stop; send stop first`), never left
/// waiting for a search that only `stop` can end. Bad input never changes the
/// session's state: it is answered with one line `info string error ...`. Beyond the standard
/// commands, `perft N` prints the move path count and `d` prints the board and a line `fen <FEN>`.
public final class UAISession: @unchecked Sendable {
    /// The name the engine gives in `id name`.
    public static let engineName = "Nanashi"

    private let output: @Sendable (String) -> Void
    private var engine: Engine
    private var hashMegabytes = 16
    private var threads = 1
    private var evaluation: EvaluationKind
    private var network: Network
    private let parameters: SearchParameters
    private var level = Level.strongest
    private var position = Position.start
    private var searchTask: Task<Void, Never>?
    private var searchIsInfinite = false
    /// Set by `go`; cleared by the search itself just before its `bestmove`, so that a search
    /// that ended on its own is over for the next command, whether or not anyone waited for it.
    private let searching = Atomic<Bool>(false)

    static let hashRange = 1...1024

    /// A session writing each reply line (without its line break) to `output`, which may be called
    /// from a background task; `evaluation`, `network` and `threads` are the `Eval`, `EvalFile` and
    /// `Threads` options' starting values (`threads` clamped to `Engine.threadRange`),
    /// `parameters` the search's constants for the whole session.
    public init(
        evaluation: EvaluationKind = .network, network: Network = .trained, threads: Int = 1,
        parameters: SearchParameters = .standard, output: @escaping @Sendable (String) -> Void
    ) {
        self.output = output
        self.evaluation = evaluation
        self.network = network
        self.parameters = parameters
        engine = Self.makeEngine(
            hashMegabytes: hashMegabytes, evaluation: evaluation, network: network, threads: threads,
            parameters: parameters)
        self.threads = engine.threads
    }

    /// A fresh engine with the session's options.
    private static func makeEngine(
        hashMegabytes: Int, evaluation: EvaluationKind, network: Network, threads: Int,
        parameters: SearchParameters
    ) -> Engine {
        let engine = Engine(hashMegabytes: hashMegabytes, evaluation: evaluation, network: network)
        engine.threads = threads
        engine.parameters = parameters
        return engine
    }

    /// A fresh engine with the session's options as they are now (a new table).
    private func remakeEngine() {
        engine = Self.makeEngine(
            hashMegabytes: hashMegabytes, evaluation: evaluation, network: network, threads: threads,
            parameters: parameters)
    }

    /// Handles one line of input; returns `false` once the line was `quit`.
    ///
    /// Call it from one task at a time, one line after another.
    public func receive(_ line: String) async -> Bool {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
        guard let command = words.first else { return true }
        let arguments = Array(words.dropFirst())
        switch command {
        case "uai":
            output("id name \(Self.engineName)")
            output("id author the Nanashi authors")
            output(
                "option name Hash type spin default 16 min \(Self.hashRange.lowerBound) max \(Self.hashRange.upperBound)"
            )
            output(
                "option name Level type spin default \(Level.range.upperBound) min \(Level.range.lowerBound) max \(Level.range.upperBound)"
            )
            output("option name Eval type combo default \(evaluation) var nnue var classic")
            output("option name EvalFile type string default \(Network.trained.name)")
            output(
                "option name Threads type spin default \(threads) min \(Engine.threadRange.lowerBound) max \(Engine.threadRange.upperBound)"
            )
            output("uaiok")
        case "isready":
            output("readyok")
        case "uainewgame":
            guard await becomeIdle() else { return refuseWhileSearching() }
            engine.newGame()
            position = .start
        case "setoption":
            guard await becomeIdle() else { return refuseWhileSearching() }
            setOption(arguments)
        case "position":
            guard await becomeIdle() else { return refuseWhileSearching() }
            setPosition(arguments)
        case "go":
            guard await becomeIdle() else { return refuseWhileSearching() }
            go(arguments)
        case "stop":
            await stopSearch()
        case "quit":
            await stopSearch()
            return false
        case "perft":
            guard await becomeIdle() else { return refuseWhileSearching() }
            guard arguments.count == 1, let depth = Int(arguments[0]), (0...12).contains(depth) else {
                return error("perft needs one depth from 0 to 12")
            }
            output(String(position.perft(depth)))
        case "d":
            guard await becomeIdle() else { return refuseWhileSearching() }
            for row in position.diagram.split(separator: "\n") {
                output(String(row))
            }
            output("fen \(position.fen)")
        default:
            return error("unknown command '\(command)'")
        }
        return true
    }

    /// Takes lines from `nextLine` (standard input's `readLine()` for `nanashi uai`) until
    /// `quit` or the end of input, then finishes as `finishInput` says.
    public func serve(_ nextLine: () -> String?) async {
        while let line = nextLine() {
            if await !receive(line) { return }
        }
        await finishInput()
    }

    /// Stops the search under way, if any, and waits for its `bestmove`.
    public func stopSearch() async {
        engine.stop()
        await waitUntilIdle()
    }

    /// Call at the end of input: stops an infinite search (nobody is left to send `stop`) and
    /// lets a limited one finish and print its `bestmove`.
    public func finishInput() async {
        if searchIsInfinite { engine.stop() }
        await waitUntilIdle()
    }

    /// Waits until the search under way, if any, has printed its `bestmove`.
    public func waitUntilIdle() async {
        if let searchTask {
            await searchTask.value
            self.searchTask = nil
        }
    }

    /// `true` once no search is under way, after waiting for one that ends by itself to print
    /// its `bestmove`; `false`, at once, while an infinite one searches (only `stop` ends it, and
    /// the session, waiting, would never read it).
    private func becomeIdle() async -> Bool {
        guard !(searchIsInfinite && searching.load(ordering: .acquiring)) else { return false }
        await waitUntilIdle()
        return true
    }

    private func refuseWhileSearching() -> Bool {
        error("searching until stop; send stop first")
    }

    private func error(_ message: String) -> Bool {
        output("info string error \(message)")
        return true
    }

    // MARK: Commands

    private func setOption(_ arguments: [String]) {
        guard arguments.first == "name", let valueIndex = arguments.firstIndex(of: "value"),
            valueIndex > 1, valueIndex + 1 < arguments.count
        else {
            _ = error("expected 'setoption name <name> value <value>'")
            return
        }
        let name = arguments[1..<valueIndex].joined(separator: " ")
        let value = arguments[(valueIndex + 1)...].joined(separator: " ")
        switch name.lowercased() {
        case "hash":
            guard let megabytes = Int(value), Self.hashRange.contains(megabytes) else {
                _ = error("Hash must be a whole number of MB from 1 to 1024, not '\(value)'")
                return
            }
            hashMegabytes = megabytes
            remakeEngine()
        case "eval":
            guard let kind = EvaluationKind(rawValue: value.lowercased()) else {
                _ = error("Eval must be nnue or classic, not '\(value)'")
                return
            }
            if kind != evaluation {
                evaluation = kind
                remakeEngine()
            }
        case "evalfile":
            // The compiled-in network by its name, or a file the trainer wrote.
            let chosen: Network
            if value == Network.trained.name {
                chosen = .trained
            } else {
                do throws(NetworkFormatError) {
                    chosen = try Network(file: value)
                } catch {
                    _ = self.error(error.description)
                    return
                }
            }
            if chosen !== network {
                network = chosen
                remakeEngine()
            }
        case "threads":
            guard let count = Int(value), Engine.threadRange.contains(count) else {
                _ = error(
                    "Threads must be a whole number from \(Engine.threadRange.lowerBound) to \(Engine.threadRange.upperBound), not '\(value)'"
                )
                return
            }
            threads = count
            engine.threads = count
        case "level":
            guard let number = Int(value), let newLevel = Level(number) else {
                _ = error(
                    "Level must be from \(Level.range.lowerBound) to \(Level.range.upperBound), not '\(value)'"
                )
                return
            }
            level = newLevel
        default:
            _ = error("unknown option '\(name)'")
        }
    }

    private func setPosition(_ arguments: [String]) {
        let movesIndex = arguments.firstIndex(of: "moves") ?? arguments.endIndex
        var next: Position
        switch arguments.first {
        case "startpos" where movesIndex == 1:
            next = .start
        case "fen" where movesIndex > 1:
            do {
                next = try Position(given: arguments[1..<movesIndex].joined(separator: " "))
            } catch {
                _ = self.error("\(error)")
                return
            }
        default:
            _ = error("expected 'position startpos|fen <FEN> [moves <move>...]'")
            return
        }
        for text in arguments.dropFirst(movesIndex + 1) {
            do {
                let move = try Move(notation: text)
                next = try next.play(move)
            } catch let error as MoveParseError {
                _ = self.error("bad move: \(error)")
                return
            } catch {
                _ = self.error("\(error)")
                return
            }
        }
        position = next
    }

    private func go(_ arguments: [String]) {
        let request: GoRequest
        do {
            request = try GoRequest(arguments)
        } catch {
            _ = self.error(error.message)
            return
        }
        let limits = request.limits(for: position.sideToMove)
        let level = level
        let usesLevel = level != .strongest || (limits == .infinite && !request.infinite)
        let engine = engine
        let position = position
        let output = output
        if position.isGameOver {
            output("info string error the game is over")
            output("bestmove 0000")
            return
        }
        engine.armForSearch()
        searchIsInfinite = limits.isInfinite && !usesLevel
        searching.store(true, ordering: .releasing)
        searchTask = Task {
            let result = await OffPool.run {
                let report: (SearchInfo) -> Void = { info in output(Self.line(for: info)) }
                return usesLevel
                    ? engine.chooseMove(for: position, level: level, extraLimits: limits, onInfo: report)
                    : engine.run(position, limits: limits, onInfo: report)
            }
            self.searching.store(false, ordering: .releasing)
            output("bestmove \(result.bestMove)")
        }
    }

    /// `info depth D score cp S nodes N nps R time T pv ...`.
    static func line(for info: SearchInfo) -> String {
        var line =
            "info depth \(info.depth) score cp \(info.score) nodes \(info.nodes) nps \(info.nodesPerSecond)"
            + " time \(info.time.wholeMilliseconds)"
        if !info.pv.isEmpty {
            line += " pv " + info.pv.map(\.description).joined(separator: " ")
        }
        return line
    }
}

/// The arguments of a `go` command.
struct GoRequest {
    struct ParseError: Error {
        let message: String
    }

    var depth: Int?
    var nodes: UInt64?
    var movetime: Int64?
    var xTime: Int64?
    var oTime: Int64?
    var xIncrement: Int64 = 0
    var oIncrement: Int64 = 0
    var movesToGo: Int?
    var infinite = false

    init(_ arguments: [String]) throws(ParseError) {
        var index = 0
        func number(_ name: String, in range: ClosedRange<Int64>) throws(ParseError) -> Int64 {
            guard index + 1 < arguments.count, let value = Int64(arguments[index + 1]), range.contains(value)
            else {
                throw ParseError(
                    message: "go \(name) needs a number from \(range.lowerBound) to \(range.upperBound)")
            }
            index += 2
            return value
        }
        func count(_ name: String) throws(ParseError) -> UInt64 {
            guard index + 1 < arguments.count, let value = UInt64(arguments[index + 1]), value > 0 else {
                throw ParseError(message: "go \(name) needs a number from 1 to \(UInt64.max)")
            }
            index += 2
            return value
        }
        /// Milliseconds: any whole number is read (a clock may hold more than a day once
        /// increments add up), and held within a year either way, which no search tells apart.
        func milliseconds(_ name: String, atLeast lowest: Int64) throws(ParseError) -> Int64 {
            let year: Int64 = 365 * 86_400_000
            let value = try number(name, in: lowest...Int64.max)
            return min(max(value, -year), year)
        }
        while index < arguments.count {
            switch arguments[index] {
            case "depth": depth = Int(try number("depth", in: 1...Int64(Search.maxDepth)))
            case "nodes": nodes = try count("nodes")
            case "movetime": movetime = try milliseconds("movetime", atLeast: 0)
            case "btime": xTime = try milliseconds("btime", atLeast: .min)
            case "wtime": oTime = try milliseconds("wtime", atLeast: .min)
            case "binc": xIncrement = try milliseconds("binc", atLeast: 0)
            case "winc": oIncrement = try milliseconds("winc", atLeast: 0)
            case "movestogo": movesToGo = Int(try number("movestogo", in: 1...10_000))
            case "infinite":
                infinite = true
                index += 1
            default:
                throw ParseError(message: "unknown go parameter '\(arguments[index])'")
            }
        }
    }

    /// The limits for a search by `side`: btime and binc are x's clock, wtime and winc o's.
    func limits(for side: Side) -> SearchLimits {
        var limits = SearchLimits(depth: depth, nodes: nodes, movetime: movetime.map { .milliseconds($0) })
        let own = side == .x ? xTime : oTime
        let opponent = side == .x ? oTime : xTime
        if let own {
            limits.clock = SearchLimits.Clock(
                own: .milliseconds(max(own, 0)), opponent: .milliseconds(max(opponent ?? own, 0)),
                ownIncrement: .milliseconds(side == .x ? xIncrement : oIncrement),
                opponentIncrement: .milliseconds(side == .x ? oIncrement : xIncrement), movesToGo: movesToGo)
        }
        return limits
    }
}
