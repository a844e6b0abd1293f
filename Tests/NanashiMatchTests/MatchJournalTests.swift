import Foundation
import NanashiAI
import NanashiCore
import Synchronization
import Testing

@testable import NanashiMatch

struct MatchJournalTests {
    static let twoOpenings = try! Openings.parse("x5o/7/7/7/7/7/o5x x 0 1\nx5o/7/3-3/7/3-3/7/o5x x 0 1\n")

    /// Four games between the two weakest levels, a ply deep: a second or less in a debug build.
    static func quickMatch(games: Int = 4, second: String = "level:2", sprt: SPRT? = nil) throws -> Match {
        Match(
            first: try PlayerSpec("level:1"), second: try PlayerSpec(second), games: games,
            openings: twoOpenings, limits: SearchLimits(depth: 1), maxPlies: 300, sprt: sprt, seed: 5)
    }

    @Test func theFirstLineNamesTheEnginesTheLimitsAndTheOpenings() throws {
        // 64-bit FNV-1a of the two FENs joined by a line break, worked out apart from the code.
        #expect(
            MatchJournal.identity(of: try Self.quickMatch())
                == "# nanashi match journal: level:1 vs level:2, depth 1, max 300 plies, 2 openings f7895b467bc74a45"
        )
        // The number of games is not part of it: a match may be carried on to more games.
        #expect(
            MatchJournal.identity(of: try Self.quickMatch(games: 40))
                == MatchJournal.identity(of: try Self.quickMatch()))
    }

    @Test func aJournalIsReadIntoItsRoundsAndTheirScore() throws {
        let match = try Self.quickMatch(games: 6)
        let text = MatchJournal.identity(of: match) + "\n3 W\n1 D\n\n6 L\n4 W\n"
        let journal = try MatchJournal(parsing: text, for: match)
        #expect(journal.results == [3: .win, 1: .draw, 6: .loss, 4: .win])
        // Rounds 3 and 4 are one opening's pair; 1 and 6 wait for theirs.
        #expect(journal.tally == Tally(wins: 2, draws: 1, losses: 1, pairs: [0, 0, 0, 0, 1]))
        #expect(try MatchJournal(parsing: "", for: match).results.isEmpty)
    }

    @Test(arguments: [
        (
            "# nanashi match journal: level:1 vs level:3, depth 1, max 300 plies, 2 openings f7895b467bc74a45\n",
            "the journal is of another match: its first line is '# nanashi match journal: level:1 vs level:3, depth 1, max 300 plies, 2 openings f7895b467bc74a45', not '# nanashi match journal: level:1 vs level:2, depth 1, max 300 plies, 2 openings f7895b467bc74a45'"
        ),
        ("\n1 W\n2 D\n7 L\n", "journal line 4: round 7 is past this match's 6 games"),
        ("\n1 W\n2 D\n1 L\n", "journal line 4: round 1 is there twice"),
        ("\n1 W\n2 X\n", "journal line 3: expected a round and W, D or L, like '17 W', not '2 X'"),
        ("\n1 W\n0 D\n", "journal line 3: expected a round and W, D or L, like '17 W', not '0 D'"),
        ("\n1  W\n", "journal line 2: expected a round and W, D or L, like '17 W', not '1  W'"),
        ("\n1 W 2\n", "journal line 2: expected a round and W, D or L, like '17 W', not '1 W 2'"),
    ])
    func aJournalOfAnotherMatchOrWithABadLineIsRefused(text: String, message: String) throws {
        let match = try Self.quickMatch(games: 6)
        // A text starting with a line break is given this match's first line.
        let whole = text.hasPrefix("\n") ? MatchJournal.identity(of: match) + text : text
        #expect(throws: MatchError(message)) { try MatchJournal(parsing: whole, for: match) }
    }

    @Test func aMatchAfterAJournalPlaysOnlyTheOtherRoundsAndCountsAll() throws {
        let match = try Self.quickMatch(games: 6)
        let journal = try MatchJournal(
            parsing: MatchJournal.identity(of: match) + "\n1 W\n2 W\n5 D\n", for: match)
        let reports = Mutex<[Match.Report]>([])
        let tally = try match.run(after: journal) { report in reports.withLock { $0.append(report) } }
        let played = reports.withLock { $0 }
        #expect(played.map(\.game.round) == [3, 4, 6])
        #expect(played.map(\.tally.games) == [4, 5, 6])
        var expected = Tally(wins: 2, draws: 1)
        for report in played { expected.add(report.result) }
        // Rounds 1 and 2 were a pair already; 3 and 4 make one, and 6 with the journal's 5.
        let result = Dictionary(uniqueKeysWithValues: played.map { ($0.game.round, $0.result) })
        expected.addPair(.win, .win)
        expected.addPair(result[3]!, result[4]!)
        expected.addPair(.draw, result[6]!)
        #expect(tally == expected)
        #expect(played.last?.tally == expected)
    }

    @Test func aMatchItsJournalHasDecidedStartsNoEngine() throws {
        let match = try Self.quickMatch(
            games: 1_000, second: "./no-such-engine uai", sprt: SPRT(elo0: 0, elo1: 10))
        let lines =
            (1...600).map { "\($0) W" } + (601...800).map { "\($0) D" } + (801...1_000).map { "\($0) L" }
        let journal = try MatchJournal(
            parsing: ([MatchJournal.identity(of: match)] + lines).joined(separator: "\n"), for: match)
        let tally = try match.run(after: journal) { _ in Issue.record("a game was played") }
        #expect(tally == Tally(wins: 600, draws: 200, losses: 200, pairs: [100, 0, 100, 0, 300]))
    }

    @Test func openingAJournalWritesItsFirstLineOnceAndEndsAHandWrittenLastLine() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID()).txt").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let match = try Self.quickMatch()
        let identity = MatchJournal.identity(of: match)
        var (journal, file) = try MatchJournal.open(path, for: match)
        #expect(journal.results.isEmpty)
        file.append(MatchJournal.line(round: 2, result: .loss))
        file.close()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == identity + "\n2 L\n")

        try (identity + "\n2 L\n3 W").write(toFile: path, atomically: true, encoding: .utf8)
        (journal, file) = try MatchJournal.open(path, for: match)
        #expect(journal.results == [2: .loss, 3: .win])
        file.append(MatchJournal.line(round: 1, result: .draw))
        file.close()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == identity + "\n2 L\n3 W\n1 D\n")
    }

    @Test func aJournalThatIsNotTextIsRefusedAndLeftAsItIs() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID()).txt").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = Data([0xFF, 0xFE, 0x00, 0x41])
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(throws: MatchError("cannot read journal '\(path)'")) {
            try MatchJournal.open(path, for: try Self.quickMatch())
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }
}
