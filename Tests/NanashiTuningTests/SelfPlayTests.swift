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
            progress.record(game, number: 3) == [
                "x5o/7/7/7/7/5x1/o5x o 0 1 -20 1/2-1/2", "x5o/7/3-3/7/7/7/o5x x 0 1 7 1/2-1/2",
            ])
        #expect(progress.finished == [3])
        #expect(progress.record(game, number: 4) == [])
        #expect(progress.journalLine(number: 4) == "1 4")
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
