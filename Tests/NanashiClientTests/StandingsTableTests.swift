import NanashiClient
import NanashiCore
import NanashiProtocol
import Testing

@Test func theLeaderboardIsATableWithProvisionalRatingsMarked() {
    let board = Leaderboard(
        total: 7,
        entries: [
            LeaderboardEntry(
                rank: 3, name: "ann", rating: 1662, rd: 290, games: 1, wins: 1, losses: 0, draws: 0,
                provisional: true),
            LeaderboardEntry(
                rank: 4, name: "veteran_player", rating: 1504, rd: 62, games: 120, wins: 50, losses: 48,
                draws: 22,
                provisional: false),
        ])
    #expect(
        StandingsTable.leaderboard(board) == [
            "    #  name                  rating         games    won   lost   drawn",
            "    3  ann                   1662 ± 290 ?       1      1      0       0",
            "    4  veteran_player        1504 ± 62        120     50     48      22",
            "3-4 of 7 rated players; ? = provisional",
        ])
}

@Test func anEmptyLeaderboardSaysSo() {
    #expect(StandingsTable.leaderboard(Leaderboard(total: 0, entries: [])) == ["No rated players yet."])
    #expect(
        StandingsTable.leaderboard(Leaderboard(total: 2, entries: []))
            == ["No players on this page (2 rated)."])
}

@Test func aProfileShowsTheRecordThenRecentGames() {
    let profile = Profile(
        name: "bob", rating: 1338, rd: 290, rank: 2, games: 2, wins: 0, losses: 1, draws: 1,
        recent: [
            RecentGame(
                game: 12, opponent: "ann", color: .o, outcome: .resignation(by: .o), ratingChange: -162),
            RecentGame(
                game: 3, opponent: "carol", color: .x, outcome: Outcome(winner: nil, reason: .fiftyMoveRule),
                ratingChange: 0),
        ])
    #expect(
        StandingsTable.profile(profile) == [
            "bob",
            "rating  1338 ± 290 ? (provisional)",
            "rank    2",
            "games   2: 0 won, 1 lost, 1 drawn",
            "",
            " game  side  opponent              result  reason   rating",
            "   12  o     ann                   loss    resign     -162",
            "    3  x     carol                 draw    fifty         0",
        ])
}

/// A new player's profile with one game against the computer, which x won by pieces: as the
/// server sends it for the person (`name` ann) or for the engine's player (`name` AI level 3).
private func oneGameAgainstTheComputer(name: String, opponent: String, color: Side) -> Profile {
    Profile(
        name: name, rating: 1500, rd: 350, rank: nil, games: 0, wins: 0, losses: 0, draws: 0, recent: [],
        computer: [
            RecentGame(
                game: 4, opponent: opponent, color: color, outcome: Outcome(winner: .x, reason: .noPieces),
                ratingChange: 0)
        ])
}

@Test func gamesAgainstTheComputerAreListedApartWithoutRatings() {
    let profile = oneGameAgainstTheComputer(name: "ann", opponent: "AI level 3", color: .x)
    #expect(
        StandingsTable.profile(profile) == [
            "ann", "rating  1500 ± 350 ? (provisional)", "rank    none yet (no rated games)",
            "games   0: 0 won, 0 lost, 0 drawn",
            "",
            "against the computer (unrated):",
            " game  side  opponent              result  reason",
            "    4  x     AI level 3            win     pieces",
        ])
}

/// The engine's player is shown at its level's strength with its games, not at the unrated
/// 1500 the server keeps it at, with no rank and no rated record.
@Test func theEnginesProfileShowsItsStrengthAndItsGames() {
    let profile = oneGameAgainstTheComputer(name: "AI level 3", opponent: "ann", color: .o)
    #expect(
        StandingsTable.profile(profile) == [
            "AI level 3", "strength about 780 (the server's engine at level 3; its games are unrated)",
            "",
            "games:",
            " game  side  opponent              result  reason",
            "    4  o     ann                   loss    pieces",
        ])
}

@Test func aNewPlayerHasNoRankAndNoGames() {
    let profile = Profile(
        name: "newbie", rating: 1500, rd: 350, rank: nil, games: 0, wins: 0, losses: 0, draws: 0, recent: [])
    #expect(
        StandingsTable.profile(profile) == [
            "newbie", "rating  1500 ± 350 ? (provisional)", "rank    none yet (no rated games)",
            "games   0: 0 won, 0 lost, 0 drawn",
        ])
}

@Test(arguments: [(162, "+162"), (-5, "-5"), (0, "0")])
func ratingChangesCarryTheirSign(change: Int, text: String) {
    #expect(StandingsTable.signed(change) == text)
}

/// A question from the command line is checked against the pages the protocol serves, naming
/// the option at fault.
@Test func aQuestionIsCheckedAgainstThePagesServed() throws {
    #expect(
        try StandingsQuery.leaderboard(limit: 100, offset: 0).checked() == .leaderboard(limit: 100, offset: 0)
    )
    #expect(
        try StandingsQuery.games(name: "ann", before: 3, limit: 1).checked()
            == .games(name: "ann", before: 3, limit: 1))
    #expect(try StandingsQuery.pgn(game: -1).checked() == .pgn(game: -1))
    for (query, refusal) in [
        (StandingsQuery.leaderboard(limit: 101, offset: 0), "bad --top 101: use 1 to 100"),
        (.leaderboard(limit: 0, offset: 0), "bad --top 0: use 1 to 100"),
        (.leaderboard(limit: 20, offset: -1), "bad --offset -1: use 0 or more"),
        (.games(name: "ann", before: nil, limit: 101), "bad --limit 101: use 1 to 100"),
    ] {
        let error = #expect(throws: RangeError.self) { try query.checked() }
        #expect(error?.description == refusal)
    }
}
