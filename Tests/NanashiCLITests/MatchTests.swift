import Foundation
import NanashiTestSupport
import Testing

/// Short matches through the real executable.
@Suite(.blocking) struct MatchTests {
    @Test func aShortMatchBetweenLevelsCompletesWithASaneReport() throws {
        let pgn = FileManager.default.temporaryDirectory.appendingPathComponent("nanashi-match-\(UUID()).pgn")
        defer { try? FileManager.default.removeItem(at: pgn) }
        let result = try NanashiProcess.run([
            "match", "level:3", "level:1", "--games", "4", "--depth", "2", "--seed", "11", "--pgn", pgn.path,
        ])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 8)
        #expect(lines[0] == "match: level:3 vs level:1, 4 games, depth 2, max 400 plies")
        for (index, line) in lines[1...4].enumerated() {
            #expect(line.hasPrefix("game \(index + 1)/4: "))
            let colours = index % 2 == 0 ? "level:3 (x) vs level:1 (o)" : "level:1 (x) vs level:3 (o)"
            #expect(line.contains(colours))
        }
        let summary = try #require(
            lines[5].wholeMatch(
                of: /level:3 vs level:1: \+(\d+) =(\d+) -(\d+), score ([\d.]+)\/4 \(([\d.]+)%\)/))
        let (wins, draws, losses) = (Int(summary.1)!, Int(summary.2)!, Int(summary.3)!)
        #expect(wins + draws + losses == 4)
        #expect(Double(summary.4)! == Double(wins) + Double(draws) / 2)
        #expect(lines[6].hasPrefix("elo "))
        #expect(lines[6].contains("(95% interval "))
        #expect(lines[7].hasPrefix("pairs 2 (LL "))
        #expect(lines[7].contains("): elo ") && lines[7].contains("(95% interval "))

        let games = try String(contentsOf: pgn, encoding: .utf8)
        #expect(games.components(separatedBy: "[Event \"nanashi match\"]").count == 5)
        #expect(games.components(separatedBy: "[FEN \"").count == 5)
        let results = games.split(separator: "\n").filter { $0.hasPrefix("[Result ") }
        #expect(results.count == 4)
        #expect(
            results.allSatisfy {
                ["[Result \"1-0\"]", "[Result \"0-1\"]", "[Result \"1/2-1/2\"]"].contains($0)
            })
        // Each game's moves on one line, which is all python-ataxx reads.
        let moveLines = games.split(separator: "\n").filter { $0.first?.isNumber == true }
        #expect(moveLines.count == 4)
        #expect(
            moveLines.allSatisfy { $0.hasSuffix(" 1-0") || $0.hasSuffix(" 0-1") || $0.hasSuffix(" 1/2-1/2") })
        // The first engine has White (x) in odd rounds.
        #expect(games.contains("[Round \"1\"]\n[White \"level:3\"]\n[Black \"level:1\"]"))
        #expect(games.contains("[Round \"2\"]\n[White \"level:1\"]\n[Black \"level:3\"]"))
    }

    @Test func playsAnExternalEngineThroughUAI() throws {
        let command = "'\(NanashiExecutable.url.path)' uai"
        let result = try NanashiProcess.run(["match", "level:1", command, "--games", "2", "--depth", "1"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 6)
        #expect(lines[1].contains("level:1 (x) vs Nanashi (o)"))
        #expect(lines[2].contains("Nanashi (x) vs level:1 (o)"))
    }

    @Test func aMatchGoesOnFromItsJournalAndRefusesAnotherMatchs() throws {
        let journal = FileManager.default.temporaryDirectory.appendingPathComponent(
            "nanashi-journal-\(UUID()).txt")
        defer { try? FileManager.default.removeItem(at: journal) }
        let first = try NanashiProcess.run([
            "match", "level:2", "level:1", "--games", "2", "--depth", "1", "--journal", journal.path,
        ])
        #expect(first.status == 0)
        let rounds = try String(contentsOf: journal, encoding: .utf8).split(separator: "\n").map(String.init)
        try #require(rounds.count == 3)
        #expect(
            rounds[0].hasPrefix(
                "# nanashi match journal: level:2 vs level:1, depth 1, max 400 plies, 166 openings "))
        #expect(rounds[1...].map { $0.prefix(2) } == ["1 ", "2 "])

        let more = try NanashiProcess.run([
            "match", "level:2", "level:1", "--games", "4", "--depth", "1", "--journal", journal.path,
        ])
        #expect(more.status == 0)
        let lines = more.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 7)
        #expect(lines[0] == "match: level:2 vs level:1, 4 games, depth 1, max 400 plies")
        #expect(lines[1].hasPrefix("journal \(journal.path): 2 games already played, +"))
        #expect(lines[2].hasPrefix("game 3/4: level:2 (x) vs level:1 (o) "))
        #expect(lines[3].hasPrefix("game 4/4: level:1 (x) vs level:2 (o) "))
        #expect(lines[4].hasPrefix("level:2 vs level:1: ") && lines[4].contains("/4 ("))
        let kept = try String(contentsOf: journal, encoding: .utf8)
        #expect(kept.split(separator: "\n").count == 5)

        let other = try NanashiProcess.run([
            "match", "level:3", "level:1", "--games", "4", "--depth", "1", "--journal", journal.path,
        ])
        #expect(other.status == 2)
        #expect(other.stdout == "")
        #expect(
            other.stderr.hasPrefix(
                "nanashi: the journal is of another match: its first line is '# nanashi match journal: level:2 vs level:1"
            ))
        #expect(try String(contentsOf: journal, encoding: .utf8) == kept)
    }

    @Test(arguments: [
        (["match", "level:25", "level:1"], "nanashi: bad engine 'level:25': levels are level:1 to level:24"),
        (
            ["match", "level:1", "level:2", "--tc", "fast"],
            "nanashi: bad time control 'fast': use SECONDS+INCREMENT, like 10+0.1"
        ),
        (["match", "level:1", "level:2", "--games", "0"], "nanashi: bad games 0: use 1 to 100000"),
    ])
    func refusesBadOptions(arguments: [String], message: String) throws {
        let result = try NanashiProcess.run(arguments)
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == message + "\n")
    }
}
