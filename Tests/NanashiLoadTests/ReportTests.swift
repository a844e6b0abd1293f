import Foundation
import NanashiProtocol
import Testing

@testable import NanashiLoad

@Test(arguments: [
    (50.0, [1, 2, 3, 4], 2),
    (99.0, [1, 2, 3, 4], 4),
    (100.0, [1, 2, 3, 4], 4),
    (0.0, [7, 8], 7),
    (50.0, [5], 5),
    (99.0, Array(1...1000), 990),
    (50.0, Array(1...1000), 500),
])
func percentileIsTheNearestRank(percent: Double, sorted: [Int], expected: Int) {
    #expect(LatencySummary.percentile(percent, ofSorted: sorted) == expected)
}

@Test func noSamplesHaveNoPercentileAndSummariseToZero() {
    #expect(LatencySummary.percentile(50, ofSorted: [Int]()) == nil)
    #expect(LatencySummary(microseconds: []) == LatencySummary(count: 0, p50: 0, p99: 0, max: 0))
}

@Test func summaryIsInMillisecondsFromUnsortedMicroseconds() {
    let samples: [UInt32] = (1...200).reversed().map { UInt32($0) * 100 }
    #expect(LatencySummary(microseconds: samples) == LatencySummary(count: 200, p50: 10, p99: 19.8, max: 20))
    #expect(LatencySummary(microseconds: samples).text == "p50 10.00 ms, p99 19.80 ms, max 20.00 ms")
}

@Test func loadReportReadsAsLines() {
    let report = LoadReport(
        clients: 1000, peakConnected: 1000, gamesTarget: 500, gamesCompleted: 500, gamesUnfinished: 0,
        peakGamesPlaying: 497, moves: 41_234, seconds: 52.26,
        latency: LatencySummary(count: 41_234, p50: 1.234, p99: 12.5, max: 80.05),
        allGoing: AllGamesGoing(
            from: 3.04, latency: LatencySummary(count: 40_000, p50: 1.2, p99: 2.5, max: 9)),
        resigns: 30, reconnects: 41, errors: [:])
    #expect(
        report.text == """
            clients 1000, 1000 connected at most
            games completed 500 of 500, 497 at once at most
            moves 41234 in 52.3 s: 789 moves/s
            move round trip: p50 1.23 ms, p99 12.50 ms, max 80.05 ms
            move round trip once all games were going (sent from 3.0 s on, 40000 moves): p50 1.20 ms, p99 2.50 ms, max 9.00 ms
            resigned 30, dropped and reconnected 41
            errors 0
            """)
}

@Test func unfinishedGamesAndErrorsAreListedMostFrequentFirst() {
    let report = LoadReport(
        clients: 4, peakConnected: 3, gamesTarget: 2, gamesCompleted: 1, gamesUnfinished: 1,
        peakGamesPlaying: 2, moves: 10, seconds: 2,
        latency: LatencySummary(count: 10, p50: 1, p99: 2, max: 3), resigns: 0, reconnects: 0,
        errors: ["illegal_move": 1, "connection_closed": 2, "bad_json": 1])
    #expect(
        report.text == """
            clients 4, 3 connected at most
            games completed 1 of 2 (1 unfinished), 2 at once at most
            moves 10 in 2.0 s: 5 moves/s
            move round trip: p50 1.00 ms, p99 2.00 ms, max 3.00 ms
            move round trip once all games were going: never (not every game started)
            resigned 0, dropped and reconnected 0
            errors 4: connection_closed 2, bad_json 1, illegal_move 1
            """)
}

/// Once all games are going: the moves sent at the moment the last game started or later, their
/// round trips summed up as for the whole run.
@Test func roundTripsOnceAllGamesAreGoingCountOnlyTheMovesSentFromThen() {
    // 100 moves sent during the start, slow (50 to 149 ms); then 200 sent from 10 s on, fast
    // (1.0 to 2.99 ms), in an order that is not the order they were sent in.
    let start = (0..<100).map {
        MoveSample(sentAt: Double($0) / 10, microseconds: UInt32(50_000 + 1000 * $0))
    }
    let running = (0..<200).map {
        MoveSample(sentAt: 10 + Double($0) / 10, microseconds: UInt32(1000 + 10 * $0))
    }
    let samples = (running + start).shuffled()
    // The moment itself counts: the move sent at 10.0 s is in.
    #expect(
        LatencySummary(movesSentFrom: 10, of: samples)
            == LatencySummary(count: 200, p50: 1.99, p99: 2.97, max: 2.99))
    // From 9.95 s on, the last move of the start (9.9 s) is out too; from 9.9 s on it is in,
    // and it is the worst.
    #expect(LatencySummary(movesSentFrom: 9.95, of: samples).count == 200)
    #expect(
        LatencySummary(movesSentFrom: 9.9, of: samples)
            == LatencySummary(count: 201, p50: 2, p99: 2.98, max: 149))
    // The whole run, for comparison: the start's slow moves are its worst 100 of 300.
    #expect(
        LatencySummary(microseconds: samples.map(\.microseconds))
            == LatencySummary(count: 300, p50: 2.49, p99: 146, max: 149))
    // Nothing sent from then on: all zero.
    #expect(
        LatencySummary(movesSentFrom: 40, of: samples) == LatencySummary(count: 0, p50: 0, p99: 0, max: 0))
}

@Test func aReportsJSONCarriesTheRoundTripsOnceAllGamesWereGoing() throws {
    let going = AllGamesGoing(from: 13.25, latency: LatencySummary(count: 2, p50: 1, p99: 2, max: 2))
    let report = LoadReport(
        clients: 4, peakConnected: 4, gamesTarget: 2, gamesCompleted: 2, gamesUnfinished: 0,
        peakGamesPlaying: 2, moves: 3, seconds: 20,
        latency: LatencySummary(count: 3, p50: 1, p99: 90, max: 90),
        allGoing: going, resigns: 0, reconnects: 0, errors: [:])
    let decoded = try JSONDecoder().decode(LoadReport.self, from: Data(Wire.encode(report).utf8))
    #expect(decoded == report)
    #expect(Wire.encode(report).contains(#""allGoing":{"from":13.25,"latency":{"#))
}

@Test func queryReportReadsAsLines() {
    let report = QueryReport(
        connections: 1, rankedPlayers: 100_000,
        leaderboard: LatencySummary(count: 500, p50: 0.5, p99: 1.25, max: 3),
        profile: LatencySummary(count: 500, p50: 0.25, p99: 0.75, max: 2), errors: [:])
    #expect(
        report.text == """
            connections 1, players ranked 100000
            leaderboard (500 queries): p50 0.50 ms, p99 1.25 ms, max 3.00 ms
            profile (500 queries): p50 0.25 ms, p99 0.75 ms, max 2.00 ms
            errors 0
            """)
}

@Test func progressLineShowsTheLastSecond() {
    let progress = LoadProgress(
        seconds: 12.4, connected: 1000, gamesCompleted: 120, gamesPlaying: 380, moves: 45_678,
        recentMovesPerSecond: 3799.6, recentP99: 12.3, errors: 0)
    #expect(
        progress.line
            == "[12s] connected 1000, games 120 done 380 playing, moves 45678 (3800/s, p99 12.30 ms), errors 0"
    )
}

@Test func accountsFileRoundTripsAndSkipsAccountsWithoutToken() throws {
    let accounts = [
        BotAccount(name: "bot0001", token: "abc"), BotAccount(name: "lt2"),
        BotAccount(name: "bot0002", token: "d-_"),
    ]
    let text = BotAccount.file(accounts)
    #expect(text == "bot0001 abc\nbot0002 d-_\n")
    #expect(try BotAccount.parse(file: text) == [accounts[0], accounts[2]])
    #expect(try BotAccount.parse(file: "\n\nann t\n") == [BotAccount(name: "ann", token: "t")])
}

@Test func anAccountsFileIsWrittenForItsOwnerOnlyAndReadBack() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
        "accounts-\(UInt64.random(in: 0...UInt64.max))"
    ).path
    defer { try? FileManager.default.removeItem(atPath: path) }
    // No file yet: no accounts.
    #expect(try BotAccount.read(from: path) == [])
    let accounts = [BotAccount(name: "bot0001", token: "abc"), BotAccount(name: "lt2")]
    try BotAccount.write(accounts, to: path)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "bot0001 abc\n")
    let permissions = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(permissions == 0o600)
    #expect(try BotAccount.read(from: path) == [accounts[0]])
    try "ann\n".write(toFile: path, atomically: true, encoding: .utf8)
    #expect(throws: BotAccount.FileError(line: 1)) { try BotAccount.read(from: path) }
}

@Test(arguments: [("ann\n", 1), ("ann t\nbob\n", 2), ("ann t x\n", 1)])
func badAccountsLinesAreNamed(text: String, line: Int) {
    #expect(throws: BotAccount.FileError(line: line)) { try BotAccount.parse(file: text) }
}
