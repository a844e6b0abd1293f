import NanashiCore
import Synchronization
import Testing

@testable import NanashiAI

/// Feeds lines to a session and collects its replies.
private final class Transcript: Sendable {
    /// The replies not yet returned by `send`.
    final class Lines: Sendable {
        let value = Mutex<[String]>([])
    }

    let lines = Lines()
    let session: UAISession

    init() {
        let lines = self.lines
        session = UAISession(output: { line in lines.value.withLock { $0.append(line) } })
    }

    /// Sends each line, waits for any search to finish, and returns the replies since the last call.
    func send(_ input: String...) async -> [String] {
        for line in input { _ = await session.receive(line) }
        await session.waitUntilIdle()
        return lines.value.withLock { lines in
            defer { lines.removeAll() }
            return lines
        }
    }
}

@Suite struct UAISessionTests {
    @Test func introducesItself() async {
        let replies = await Transcript().send("uai", "isready")
        #expect(
            replies == [
                "id name Nanashi", "id author the Nanashi authors",
                "option name Hash type spin default 16 min 1 max 1024",
                "option name Level type spin default 24 min 1 max 24",
                "option name Eval type combo default nnue var nnue var classic",
                "option name EvalFile type string default \(Network.trained.name)",
                "option name Threads type spin default 1 min 1 max 64", "uaiok", "readyok",
            ])
    }

    /// EvalFile loads a network the trainer wrote; a file that does not load is reported and
    /// changes nothing; the compiled-in network's name brings it back.
    @Test func theEvalFileOptionChoosesTheNetwork() async throws {
        func score(_ replies: [String]) throws -> String {
            let info = try #require(replies.first(where: { $0.hasPrefix("info depth 1 ") }), "\(replies)")
            let words = info.split(separator: " ")
            return try #require(words.firstIndex(of: "cp").map { String(words[$0 + 1]) })
        }
        let transcript = Transcript()
        _ = await transcript.send("position startpos")
        let builtIn = try score(await transcript.send("go depth 1"))
        let flat = try NetworkFileTests.file(NetworkFileTests.flatBytes)
        let missing = flat + ".missing"
        #expect(
            await transcript.send("setoption name EvalFile value \(missing)") == [
                "info string error cannot read network file '\(missing)'"
            ])
        #expect(try score(await transcript.send("go depth 1")) == builtIn)
        // Every reply leaves the other side K up.
        _ = await transcript.send("setoption name EvalFile value \(flat)")
        #expect(try score(await transcript.send("go depth 1")) == "-\(NetworkWeights.trained.scale)")
        _ = await transcript.send("setoption name EvalFile value \(Network.trained.name)")
        #expect(try score(await transcript.send("go depth 1")) == builtIn)
        #expect(builtIn != "-\(NetworkWeights.trained.scale)")
    }

    /// With the Threads option, helper threads search beside the engine's own (Lazy SMP): a
    /// depth-limited search still reaches its depth and answers a legal move; back to one
    /// thread, a new game searches exactly as before (the same nodes, the same move).
    @Test func theThreadsOptionAddsHelperSearches() async throws {
        func nodesAndMove(_ replies: [String]) throws -> (nodes: Int, move: String) {
            let last = try #require(replies.last(where: { $0.hasPrefix("info depth 9 ") }))
            let words = last.split(separator: " ").map(String.init)
            let nodes = try #require(words.firstIndex(of: "nodes").flatMap { Int(words[$0 + 1]) })
            return (nodes, try #require(replies.last?.split(separator: " ").last.map(String.init)))
        }
        let transcript = Transcript()
        let position = "position fen x1o4/2xo3/1xxoo2/3x3/2oox2/7/o5x x 2 8"
        let one = try nodesAndMove(await transcript.send("uainewgame", position, "go depth 9"))
        let two = await transcript.send(
            "setoption name Threads value 2", "uainewgame", position, "go depth 9")
        let legal = try Position(fen: "x1o4/2xo3/1xxoo2/3x3/2oox2/7/o5x x 2 8").legalMoves().map(
            \.description)
        #expect(two.last.map { legal.contains(String($0.dropFirst("bestmove ".count))) } == true, "\(two)")
        #expect(two.contains { $0.hasPrefix("info depth 9 ") }, "\(two)")
        let again = try nodesAndMove(
            await transcript.send("setoption name Threads value 1", "uainewgame", position, "go depth 9"))
        #expect(again.nodes == one.nodes && again.move == one.move)
    }

    @Test func theEvalOptionChoosesTheEvaluation() async {
        /// The replies without their timings, which differ from run to run.
        func untimed(_ replies: [String]) -> [String] {
            replies.map { line in
                var words = line.split(separator: " ")
                for name in ["time", "nps"] {
                    if let index = words.firstIndex(of: Substring(name)) {
                        words.removeSubrange(index...index + 1)
                    }
                }
                return words.joined(separator: " ")
            }
        }
        let transcript = Transcript()
        _ = await transcript.send("position fen x1o4/2xo3/1xxoo2/3x3/2oox2/7/o5x x 2 8")
        let network = untimed(await transcript.send("go depth 5"))
        let classic = untimed(await transcript.send("setoption name Eval value classic", "go depth 5"))
        let again = untimed(await transcript.send("setoption name eval value NNUE", "go depth 5"))
        #expect(network.count == 6 && network.last?.hasPrefix("bestmove ") == true, "\(network)")
        #expect(network != classic)
        #expect(again == network)
    }

    @Test func showsThePositionAfterMoves() async {
        let replies = await Transcript().send("position startpos moves g2 a1c3", "d")
        #expect(
            replies == [
                "7 x . . . . . o", "6 . . . . . . .", "5 . . . . . . .", "4 . . . . . . .",
                "3 . . o . . . .", "2 . . . . . . x", "1 . . . . . . x", "  a b c d e f g",
                "fen x5o/7/7/7/2o4/6x/6x x 1 2",
            ])
    }

    @Test(arguments: [
        ("position startpos moves g2 g2", "info string error illegal move g2: the destination is occupied"),
        (
            "position startpos moves g2 zz",
            "info string error bad move: 'zz' is not a square: expected a1 to g7"
        ),
        ("position fen x5o/7/7 x 0 1", "info string error bad FEN 'x5o/7/7 x 0 1'"),
        ("position sideways", "info string error expected 'position startpos|fen <FEN> [moves <move>...]'"),
        ("go depth zero", "info string error go depth needs a number from 1 to 64"),
        ("go sideways", "info string error unknown go parameter 'sideways'"),
        (
            "setoption name Hash value 0",
            "info string error Hash must be a whole number of MB from 1 to 1024, not '0'"
        ),
        ("setoption name Level value 25", "info string error Level must be from 1 to 24, not '25'"),
        ("setoption name Colour value red", "info string error unknown option 'Colour'"),
        ("setoption name Eval value neural", "info string error Eval must be nnue or classic, not 'neural'"),
        (
            "setoption name Threads value 0",
            "info string error Threads must be a whole number from 1 to 64, not '0'"
        ),
        ("perft x", "info string error perft needs one depth from 0 to 12"),
        ("frobnicate", "info string error unknown command 'frobnicate'"),
    ])
    func badInputIsReportedAndChangesNothing(command: String, replyStart: String) async {
        let transcript = Transcript()
        _ = await transcript.send("position startpos moves f2")
        let replies = await transcript.send(command)
        #expect(replies.count == 1)
        #expect(replies.first?.hasPrefix(replyStart) == true, "\(replies)")
        #expect(await transcript.send("d").last == "fen x5o/7/7/7/7/5x1/o5x o 0 1")
    }

    @Test func countsMovePathsWithPerft() async {
        #expect(await Transcript().send("perft 3") == ["6460"])
        #expect(await Transcript().send("position startpos moves g2", "perft 1") == ["16"])
    }

    @Test func searchesToADepthAndAnswersWithALegalMove() async throws {
        let replies = await Transcript().send("position startpos", "go depth 4")
        #expect(replies.count == 5)
        for (index, line) in replies.dropLast().enumerated() {
            #expect(line.hasPrefix("info depth \(index + 1) score cp "), "\(line)")
            #expect(
                line.contains(" nodes ") && line.contains(" nps ") && line.contains(" time ")
                    && line.contains(" pv "))
        }
        let bestMove = try #require(replies.last?.split(separator: " ").last)
        #expect(replies.last == "bestmove \(bestMove)")
        #expect(Position.start.isLegal(try Move(notation: bestMove)))
    }

    @Test func answersAForcedPassWithNullMove() async {
        let replies = await Transcript().send("position fen x-o4/---4/---4/7/7/7/7 x 0 1", "go depth 3")
        #expect(replies == ["bestmove 0000"])
    }

    @Test func answersAFinishedGameWithAnError() async {
        let replies = await Transcript().send("position fen 7/7/7/7/7/7/x5x o 0 1", "go depth 3")
        #expect(replies == ["info string error the game is over", "bestmove 0000"])
    }

    @Test func stopEndsAnInfiniteSearch() async throws {
        let transcript = Transcript()
        _ = await transcript.session.receive("go infinite")
        _ = await transcript.session.receive("isready")
        try await Task.sleep(for: .milliseconds(50))
        let replies = await transcript.send("stop")
        #expect(replies.contains("readyok"))
        #expect(replies.last?.hasPrefix("bestmove ") == true)
    }

    /// While an infinite search runs, the only answers are to `isready`, `stop` and `quit`:
    /// anything else is refused at once, not left waiting for a search that only `stop` can end
    /// (which the session, waiting, would never read).
    @Test(.timeLimit(.minutes(1)))
    func commandsDuringAnInfiniteSearchAreRefusedNotLeftHanging() async {
        let transcript = Transcript()
        _ = await transcript.session.receive("go infinite")
        for command in [
            "position startpos moves g2", "uainewgame", "setoption name Hash value 8", "go depth 1", "d",
        ] {
            _ = await transcript.session.receive(command)
        }
        let replies = await transcript.send("stop")
        #expect(
            replies.filter { $0.hasPrefix("info string error") }
                == Array(repeating: "info string error searching until stop; send stop first", count: 5))
        #expect(replies.last?.hasPrefix("bestmove ") == true)
        // Nothing the refused commands asked for happened.
        #expect(await transcript.send("d").last == "fen x5o/7/7/7/7/7/o5x x 0 1")
    }

    /// Commands sent while a search that ends by itself runs wait for its `bestmove` and then
    /// run in order, as a script piped to the engine expects: a new position, its board, a
    /// second search.
    @Test(.timeLimit(.minutes(1)))
    func commandsDuringASearchThatEndsByItselfRunAfterIt() async {
        let transcript = Transcript()
        let replies = await transcript.send(
            "go depth 6", "position startpos moves g2", "d", "go nodes 500",
            "position fen 7/7/7/7/7/7/x5o o 0 1", "d")
        let fens = replies.filter { $0.hasPrefix("fen ") }
        #expect(fens == ["fen x5o/7/7/7/7/6x/o5x o 0 1", "fen 7/7/7/7/7/7/x5o o 0 1"])
        #expect(replies.filter { $0.hasPrefix("bestmove ") }.count == 2)
        #expect(!replies.contains { $0.hasPrefix("info string error") }, "\(replies)")
        // The first search finished (depth 6) before the position changed; the second
        // searched the new one (o to move) before the last board.
        let firstBest = replies.firstIndex { $0.hasPrefix("bestmove ") }!
        #expect(replies[..<firstBest].contains { $0.hasPrefix("info depth 6 ") })
        #expect(firstBest < replies.firstIndex(of: fens[0])!)
        let secondBest = replies.lastIndex { $0.hasPrefix("bestmove ") }!
        #expect(
            replies.firstIndex(of: fens[0])! < secondBest && secondBest < replies.firstIndex(of: fens[1])!)
    }

    /// A search that ended on its own leaves the session idle for the next `go`, with nothing
    /// sent in between.
    @Test(.timeLimit(.minutes(1)))
    func aSecondGoAfterABestmoveSearchesAgain() async throws {
        let transcript = Transcript()
        for _ in 0..<2 {
            _ = await transcript.session.receive("go depth 2")
            while !transcript.lines.value.withLock({ $0.contains { $0.hasPrefix("bestmove ") } }) {
                try await Task.sleep(for: .milliseconds(1))
            }
            let replies = transcript.lines.value.withLock { lines in
                defer { lines.removeAll() }
                return lines
            }
            #expect(!replies.contains { $0.hasPrefix("info string error") }, "\(replies)")
            #expect(replies.last?.hasPrefix("bestmove ") == true)
        }
    }

    /// Clocks past a day (increments add up) are read, not refused: a match would wait forever for
    /// the `bestmove` of a refused `go`.
    @Test func longClocksAndLargeNodeCountsAreRead() throws {
        let request = try GoRequest([
            "wtime", "90000000000", "btime", "100000000", "nodes", "18446744073709551615",
        ])
        #expect(request.oTime == 365 * 86_400_000 && request.xTime == 100_000_000)
        #expect(request.nodes == .max)
        #expect(throws: GoRequest.ParseError.self) { try GoRequest(["nodes", "0"]) }
        #expect(throws: GoRequest.ParseError.self) { try GoRequest(["binc", "-1"]) }
    }

    @Test func quitEndsTheSession() async {
        let session = Transcript().session
        #expect(await session.receive("isready"))
        #expect(await session.receive("quit") == false)
    }

    /// btime and binc are x's clock, wtime and winc o's: after x's g2, o's minute counts, not x's
    /// millisecond. (Read from the request, not from how long a search took: that depends on the
    /// machine's load.)
    @Test func followsTheClockOfTheSideToMove() throws {
        let request = try GoRequest(["wtime", "60000", "btime", "1", "winc", "500", "binc", "0"])
        #expect(
            request.limits(for: .o).clock
                == SearchLimits.Clock(
                    own: .seconds(60), opponent: .milliseconds(1), ownIncrement: .milliseconds(500)))
        #expect(
            request.limits(for: .x).clock
                == SearchLimits.Clock(
                    own: .milliseconds(1), opponent: .seconds(60), opponentIncrement: .milliseconds(500)))
    }

    @Test func aSearchOnTheClockEndsWithItsMove() async {
        let replies = await Transcript().send(
            "position startpos moves g2", "go wtime 60000 btime 1 winc 0 binc 0")
        #expect(replies.last?.hasPrefix("bestmove ") == true)
    }
}
