import NanashiAI
import NanashiCore
import Testing

@testable import NanashiMatch

struct MatchTextTests {
    @Test func theHeaderNamesTheEnginesTheGamesAndTheLimits() throws {
        var match = Match(
            first: try PlayerSpec("level:3"), second: try PlayerSpec("./other uai"), games: 3,
            limits: SearchLimits(nodes: 5000), maxPlies: 300)
        #expect(match.header == "match: level:3 vs ./other uai, 4 games, nodes 5000, max 300 plies")
        match.limits = .infinite
        match.timeControl = TimeControl(seconds: "10+0.1")
        #expect(match.header == "match: level:3 vs ./other uai, 4 games, tc 10+0.1, max 300 plies")
        match.timeControl = nil
        #expect(
            match.header == "match: level:3 vs ./other uai, 4 games, each engine's own limits, max 300 plies")
    }

    @Test func theClosingLinesCarryTheSPRTsVerdict() throws {
        var match = Match(first: try PlayerSpec("level:2"), second: try PlayerSpec("level:1"), games: 2)
        let tally = Tally(wins: 60, draws: 20, losses: 20)
        #expect(
            match.closingLines(tally) == [
                "level:2 vs level:1: +60 =20 -20, score 70.0/100 (70.0%)",
                "elo +147 (95% interval +86 to +218)",
            ])
        match.sprt = SPRT(elo0: 0, elo1: 10)
        #expect(match.closingLines(tally)[2] == "sprt: undecided; llr 1.73 (-2.94, 2.94)")
        let lines = match.closingLines(Tally(wins: 600, draws: 200, losses: 200))
        #expect(lines.count == 3)
        #expect(lines[2].hasPrefix("sprt: H1 accepted (elo >= +10); llr "))
        #expect(lines[2].hasSuffix(" (-2.94, 2.94)"))
        #expect(SPRT(elo0: 0, elo1: 10).verdict(Tally(wins: 1, losses: 1)) == "undecided")
        #expect(
            SPRT(elo0: 0, elo1: 10).verdict(Tally(wins: 200, draws: 200, losses: 600))
                == "H0 accepted (elo <= +0)")
    }

    @Test(
        arguments: [
            ("10+0.1", "10+0.1", 10_000, 100), ("10s+0.1s", "10+0.1", 10_000, 100), ("5", "5+0", 5_000, 0),
            ("5s", "5+0", 5_000, 0), ("0.5+0", "0.5+0", 500, 0), ("60+1", "60+1", 60_000, 1_000),
        ] as [(String, String, Int64, Int64)])
    func timeControlsReadInSecondsBackAsWritten(
        text: String, expected: String, initial: Int64, increment: Int64
    )
        throws
    {
        let timeControl = try #require(TimeControl(seconds: text))
        #expect(timeControl == TimeControl(initialMilliseconds: initial, incrementMilliseconds: increment))
        #expect(timeControl.secondsNotation == expected)
    }

    @Test(arguments: [
        "", "0+1", "0.0005", "fast", "10+", "+1", "10+-1", "1+2+3", "10m+1", "s+1", "90000+0", "10+3601",
    ])
    func badTimeControlsAreRefused(text: String) {
        #expect(TimeControl(seconds: text) == nil)
    }
}
