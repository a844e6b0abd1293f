import NanashiAI
import NanashiCore
import NanashiTestSupport
import Testing

@testable import NanashiTuning

@Suite(.blocking) struct SelfPlayTests {
    @Test func writesLegalPositionsWithTheSearchScoreAndTheGamesResult() throws {
        let selfPlay = SelfPlay(nodes: 300)
        for index in 0..<4 {
            let game = selfPlay.play(seed: 3, index: index)
            #expect(!game.lines.isEmpty)
            #expect(game.plies > game.lines.count)
            let results = Set(game.lines.map { $0.split(separator: " ").last.map(String.init) ?? "" })
            #expect(results.count == 1)
            #expect(["1-0", "0-1", "1/2-1/2"].contains(results.first!))
            for (line, sample) in zip(game.lines, game.samples) {
                let fields = line.split(separator: " ")
                #expect(fields.count == 6)
                let position = try Position(fen: fields.prefix(4).joined(separator: " "))
                #expect(position == sample.position)
                #expect(Int(fields[4]) == sample.score)
                #expect(!position.isGameOver && position.hasMove)
                #expect(abs(sample.score) < Engine.winThreshold)
            }
        }
    }

    @Test func theQuietFilterCanBeTurnedOff() {
        var selfPlay = SelfPlay(nodes: 300)
        let quiet = selfPlay.play(seed: 3, index: 1)
        selfPlay.quietMargin = nil
        let every = selfPlay.play(seed: 3, index: 1)
        #expect(every.plies == quiet.plies)
        #expect(every.samples.count > quiet.samples.count)
        #expect(Set(quiet.lines).isSubset(of: Set(every.lines)))
    }

    /// As `nanashi datagen`'s options ask: `--every-position` keeps the positions that are not
    /// quiet too, `--eval` picks both sides' evaluation, and the node counts are checked.
    @Test func theOptionsOfDatagenMakeTheSelfPlay() throws {
        let quiet = try SelfPlay(checkingNodes: 300, hardNodes: nil)
        #expect(quiet.quietMargin == 150 && quiet.evaluation == .classic && quiet.hardNodes == 600)
        let every = try SelfPlay(
            checkingNodes: 300, hardNodes: 400, everyPosition: true, evaluation: .network)
        #expect(every.quietMargin == nil && every.evaluation == .network && every.hardNodes == 400)
        let problem = #expect(throws: Datagen.Problem.self) {
            try SelfPlay(checkingNodes: 300, hardNodes: 200)
        }
        #expect(problem?.description == "bad hard nodes 200: use at least --nodes (300)")
    }

    @Test func theSameSeedPlaysTheSameGame() {
        let selfPlay = SelfPlay(nodes: 300)
        #expect(selfPlay.play(seed: 9, index: 2).lines == selfPlay.play(seed: 9, index: 2).lines)
        #expect(selfPlay.play(seed: 9, index: 2).lines != selfPlay.play(seed: 9, index: 3).lines)
    }

    @Test func theNetworkCanPlayTheGamesAndScoreThePositions() {
        var selfPlay = SelfPlay(nodes: 300)
        selfPlay.quietMargin = nil
        let classic = selfPlay.play(seed: 3, index: 1)
        selfPlay.evaluation = .network
        let network = selfPlay.play(seed: 3, index: 1)
        #expect(!network.samples.isEmpty)
        #expect(network.lines == selfPlay.play(seed: 3, index: 1).lines)
        // The same opening, then each side's own scores and choices.
        #expect(network.samples.first?.position == classic.samples.first?.position)
        #expect(network.lines != classic.lines)
        #expect(network.samples.allSatisfy { !$0.position.isGameOver && abs($0.score) < Engine.winThreshold })
    }

    @Test func openingsArePlayedRandomlyThenKeptNearEven() {
        var selfPlay = SelfPlay(nodes: 300)
        selfPlay.quietMargin = nil
        var withBlockers = 0
        for index in 0..<20 {
            let game = selfPlay.play(seed: 11, index: index)
            guard let first = game.samples.first else { continue }
            // At least 8 random plies were played before the engine's first position: move 5 or
            // later (the fullmove number goes up after each of o's moves).
            #expect(first.position.fullmoveNumber >= 5)
            if !first.position.blockers.isEmpty { withBlockers += 1 }
        }
        // One game in five on average starts from a blocker layout.
        #expect((1...10).contains(withBlockers))
    }

    @Test func decidedGamesAreAdjudicated() {
        var selfPlay = SelfPlay(nodes: 300)
        selfPlay.quietMargin = nil
        selfPlay.adjudication = nil
        let played = (0..<6).map { selfPlay.play(seed: 5, index: $0) }
        selfPlay.adjudication = SelfPlay.Adjudication(score: 600, plies: 2)
        let adjudicated = (0..<6).map { selfPlay.play(seed: 5, index: $0) }
        #expect(zip(played, adjudicated).allSatisfy { $0.plies >= $1.plies })
        #expect(zip(played, adjudicated).contains { $0.plies > $1.plies })
        for game in adjudicated where game.winner != nil {
            // The adjudicated winner is the side the last kept score favours.
            let last = game.samples.last!
            let favoured = last.score > 0 ? last.position.sideToMove : last.position.sideToMove.opponent
            #expect(game.winner == favoured)
        }
    }

    @Test func softNodeLimitsSpendFewerNodesThanHardOnes() {
        let engine = Engine(hashMegabytes: 1, evaluation: .classic)
        let hard = engine.search(.start, limits: .nodes(3000))
        engine.newGame()
        let soft = engine.search(.start, limits: .nodes(soft: 3000, hard: 6000))
        #expect(hard.nodes == 3000)
        #expect(soft.nodes >= 3000 && soft.nodes <= 6000)
        engine.newGame()
        #expect(engine.search(.start, limits: .nodes(soft: 3000, hard: 6000)).nodes == soft.nodes)
    }

    @Test func aRunSkipsTheGamesAlreadyPlayed() {
        let selfPlay = SelfPlay(nodes: 200)
        let played = Numbers()
        selfPlay.run(games: 5, skipping: [1, 3], seed: 4, concurrency: 2) { number, _ in played.add(number) }
        #expect(played.sorted == [0, 2, 4])
    }
}

/// Game numbers reported by a run (one report at a time).
private final class Numbers: @unchecked Sendable {
    private var numbers: [Int] = []
    func add(_ number: Int) { numbers.append(number) }
    var sorted: [Int] { numbers.sorted() }
}

@Suite struct DatagenProgressTests {
    static let start = "x5o/7/7/7/7/7/o5x x 0 1 12 1-0"

    @Test func readsThePositionsAndTheFinishedGamesOfItsSeed() throws {
        let progress = try DatagenProgress(
            seed: 7, lines: [Substring(Self.start), "x5o/7/7/7/7/7/o5x o 0 1 -3 0-1"],
            journal: ["7 0", "7 4", "8 1"])
        #expect(progress.seen.count == 2)
        #expect(progress.finished == [0, 4])
    }

    @Test func writesNoPositionTwice() throws {
        var progress = try DatagenProgress(seed: 1, lines: [Substring(Self.start)], journal: [])
        let blocked = try Position(fen: "x5o/7/3-3/7/7/7/o5x x 0 1")
        let later = try Position.start.play(Move(notation: "f2"))
        let game = SelfPlay.Game(
            samples: [
                .init(position: .start, score: 5), .init(position: later, score: -20),
                .init(position: blocked, score: 7), .init(position: later, score: -18),
            ], winner: nil, plies: 30)
        // The start position is in the file already; the same pieces with a blocker are another
        // position; the clocks do not make a position new.
        #expect(
            progress.record(game, number: 3).lines == [
                "x5o/7/7/7/7/5x1/o5x o 0 1 -20 1/2-1/2", "x5o/7/3-3/7/7/7/o5x x 0 1 7 1/2-1/2",
            ])
        #expect(progress.finished == [3])
        #expect(progress.record(game, number: 4).samples == [])
        #expect(progress.journalLine(number: 4) == "1 4")
    }

    @Test func readsBinaryRecordsAndRefusesBrokenOnes() throws {
        let later = try Position.start.play(Move(notation: "f2"))
        let records =
            PackedSample(position: .start, score: 3, winner: .x).bytes
            + PackedSample(position: later, score: -9, winner: .x).bytes
        var progress = try DatagenProgress(seed: 2, records: records, journal: ["2 5"])
        #expect(progress.seen.count == 2)
        #expect(progress.finished == [5])
        let game = SelfPlay.Game(samples: [.init(position: later, score: 1)], winner: nil, plies: 9)
        #expect(progress.record(game, number: 6).samples.isEmpty)
        #expect(throws: TuningError("17 bytes is not a whole number of 16-byte records")) {
            try DatagenProgress(seed: 2, records: records.prefix(17).map { $0 }, journal: [])
        }
        var badResult = records
        badResult[31] = 3
        #expect(throws: TuningError("record 2: bad result 3 in a record")) {
            try DatagenProgress(seed: 2, records: badResult, journal: [])
        }
    }

    @Test(
        arguments: [
            (["x5o/7/7/7/7/o5x x 0 1 3 1-0"], [Substring](), "line 1: bad FEN 'x5o/7/7/7/7/o5x x 0 1'"),
            ([], ["1"], "journal line 1: expected a seed and a game number, got '1'"),
            ([], ["1 two"], "journal line 1: expected a seed and a game number, got '1 two'"),
        ] as [([Substring], [Substring], String)])
    func refusesBadFiles(lines: [Substring], journal: [Substring], message: String) {
        #expect(throws: TuningError(message)) { try DatagenProgress(seed: 1, lines: lines, journal: journal) }
    }
}

@Suite struct PackedSampleTests {
    @Test func aRecordIsSixteenBytesLaidOutAsDocumented() throws {
        let position = try Position(fen: "x5o/7/3-3/7/7/7/o5x o 4 9")
        let record = PackedSample(position: position, score: -300, winner: .o)
        // a1 holds o (2), g1 x (1) at bits 12-13, d5 (square 31) a blocker, a7 x (bit 84), g7 o
        // (bit 96), and the side to move (bit 98).
        #expect(
            record.bytes == [
                0x02, 0x10, 0, 0, 0, 0, 0, 0xC0, 0, 0, 0x10, 0, 0x06, 0xD4, 0xFE, 0x00,
            ])
        #expect(record.position == (try Position(fen: "x5o/7/3-3/7/7/7/o5x o 0 1")))
        #expect(record.score == -300)
        #expect(record.winner == .o)
    }

    @Test func randomPositionsRoundTrip() throws {
        var random = SeededGenerator(seed: 21)
        for _ in 0..<300 {
            var position = Position.start
            for _ in 0..<Int.random(in: 0...40, using: &random) {
                let moves = position.legalMoves()
                guard !moves.isEmpty else { break }
                position = try position.play(moves.randomElement(using: &random)!)
            }
            let score = Int.random(in: -32_768...32_767, using: &random)
            let winner = [Side.x, .o, nil].randomElement(using: &random)!
            let record = PackedSample(position: position, score: score, winner: winner)
            let read = try PackedSample(bytes: record.bytes)
            #expect(
                read.position.fen.split(separator: " ").prefix(2)
                    == position.fen.split(separator: " ").prefix(2))
            #expect(read.score == score)
            #expect(read.winner == winner)
        }
        #expect(PackedSample(position: .start, score: 99_999, winner: nil).score == 32_767)
    }

    @Test func refusesRecordsThatAreNotPositions() {
        #expect(throws: TuningError("a record is 16 bytes, not 3")) { try PackedSample(bytes: [0, 0, 0]) }
        var bits = PackedSample(position: .start, score: 0, winner: nil).bytes
        bits[12] |= 0x10
        #expect(throws: TuningError("unused bits set in a record")) { try PackedSample(bytes: bits) }
    }
}

@Test func datagenOptionsOutOfRangeAreRefusedBeforeAnyGame() throws {
    func problem(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return (error as? Datagen.Problem)?.description ?? "\(error)"
        }
    }
    #expect(
        problem { _ = try SelfPlay(checkingNodes: 0, hardNodes: nil) } == "bad nodes 0: use 1 to 100000000")
    #expect(
        problem { _ = try SelfPlay(checkingNodes: 500, hardNodes: 400) }
            == "bad hard nodes 400: use at least --nodes (500)")
    let selfPlay = try SelfPlay(checkingNodes: 500, hardNodes: 500)
    #expect(selfPlay.nodes == 500 && selfPlay.hardNodes == 500)
    let out = "/nonexistent/never-written"
    #expect(
        problem { try Datagen.run(selfPlay, games: 0, seed: 1, concurrency: 1, out: out) { _ in } }
            == "bad games 0: use 1 to 10000000")
    #expect(
        problem { try Datagen.run(selfPlay, games: 1, seed: 1, concurrency: 65, out: out) { _ in } }
            == "bad concurrency 65: use 1 to 64")
}
