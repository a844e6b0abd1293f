import NanashiClient
import NanashiCore
import NanashiProtocol
import Testing

private let ann = GamePlayer(name: "ann", rating: 1612)
private let bob = GamePlayer(name: "veteran_player", rating: 1580)

@Test func aPlayersGamesAreATableWithTheWayToOlderOnes() {
    let archive = GameArchive(
        name: "ann",
        games: [
            ArchivedGame(
                game: 251, x: bob, o: ann, outcome: Outcome(winner: .o, reason: .resignation), plies: 1,
                ended: "2027-01-15T08:00:00Z"),
            ArchivedGame(
                game: 12, x: ann, o: bob, outcome: Outcome(winner: nil, reason: .fiftyMoveRule), plies: 140,
                ended: "2027-01-14T23:59:59Z"),
        ])
    let heading =
        " game  ended             x                      o                      result  reason   plies"
    #expect(
        ArchiveTable.games(archive, pageSize: 2) == [
            heading,
            "  251  2027-01-15 08:00  veteran_player 1580    ann 1612               o       resign       1",
            "   12  2027-01-14 23:59  ann 1612               veteran_player 1580    draw    fifty      140",
            "older games: --before 12",
        ])
    #expect(ArchiveTable.games(archive, pageSize: 20).count == 3)
    #expect(
        ArchiveTable.games(GameArchive(name: "Ann", games: []), pageSize: 20) == [
            "No finished games for Ann."
        ])
}

@Test func liveGamesAreNumberedAndPickedByNumberOrId() {
    let games = [
        LiveGame(game: 12, x: ann, o: bob, control: TimeControl(initial: 300, increment: 3), ply: 14),
        LiveGame(game: 7, x: bob, o: ann, control: TimeControl(initial: 60, increment: 0), ply: 0),
    ]
    #expect(
        LiveTable.lines(games) == [
            "  1. game 12  ann 1612 (x) v veteran_player 1580 (o)  5+3  ply 14",
            "  2. game 7  veteran_player 1580 (x) v ann 1612 (o)  1+0  ply 0",
        ])
    #expect(LiveTable.lines([]) == ["No games in progress."])
    // The engine's player shows its level's strength, not the server's unrated 1500.
    let engine = GamePlayer(name: "AI level 3", rating: 1500)
    #expect(
        LiveTable.lines([
            LiveGame(game: 9, x: ann, o: engine, control: TimeControl(initial: 60, increment: 0), ply: 2)
        ])
            == ["  1. game 9  ann 1612 (x) v AI level 3, about 780 (o)  1+0  ply 2"])
    #expect(LiveTable.pick("2", from: games) == 7)
    #expect(LiveTable.pick(" 1 ", from: games) == 12)
    #expect(LiveTable.pick("#99", from: games) == 99)
    for bad in ["0", "3", "", "x", "#", "#x"] {
        #expect(LiveTable.pick(bad, from: games) == nil, "\(bad)")
    }
}

@Test func aWatchedGameFollowsEachMoveAndStopsTheClocksAtTheEnd() throws {
    let start = ContinuousClock.now
    let afterB6 = try Position.start.play(Move(notation: "b6"))
    var table = try WatchTable(
        WatchedGame(
            game: 5, x: ann, o: bob, fen: afterB6.fen, moves: ["b6"], clock: Clocks(x: 60_000, o: 50_000),
            control: TimeControl(initial: 60, increment: 1)),
        now: start)
    #expect(table.heading == "game 5: ann 1612 (x) v veteran_player 1580 (o), 1+1")
    #expect(table.game.moves == [try Move(notation: "b6")])
    // o to move: o's clock runs.
    #expect(table.clockLine(at: start + .seconds(2)) == "  x 1:00.0  *o 0:48.0")
    let afterF6 = try afterB6.play(Move(notation: "f6"))
    // Not the next move (an old ply, another game): ignored.
    let oldPly = table.apply(
        Moved(game: 5, move: "b6", ply: 1, fen: afterB6.fen, clock: Clocks(x: 1, o: 1)), now: start)
    let otherGame = table.apply(
        Moved(game: 6, move: "f6", ply: 2, fen: afterF6.fen, clock: Clocks(x: 1, o: 1)), now: start)
    let next = table.apply(
        Moved(game: 5, move: "f6", ply: 2, fen: afterF6.fen, clock: Clocks(x: 60_000, o: 49_000)), now: start)
    #expect(!oldPly && !otherGame && next)
    #expect(table.position == afterF6)
    #expect(table.clockLine(at: start + .milliseconds(1500)) == " *x 0:58.5   o 0:49.0")
    #expect(table.endText == nil)
    table.finish(
        WatchedEnd(game: 5, outcome: Outcome(winner: .o, reason: .timeout)), now: start + .seconds(3))
    #expect(table.clockLine(at: start + .seconds(30)) == "  x 0:57.0   o 0:49.0")
    #expect(table.endText == "game over: o wins (x ran out of time)\nfinal count: x 3, o 3\n")
}
