import Foundation
import NanashiTestSupport
import Testing

@Suite(.blocking) struct LoadCommandTests {
    @Test func seedWritesPlayersAndTheBotsTokens() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "nanashi-seed-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("seed.sqlite").path
        let accounts = directory.appendingPathComponent("bots.txt").path
        let result = try NanashiProcess.run([
            "seed", "--db", db, "--players", "50", "--games", "30", "--bots", "2", "--accounts", accounts,
        ])
        #expect(result.status == 0 && result.stderr.isEmpty)
        #expect(result.stdout.hasPrefix("seeded 50 players, 30 games, 2 bots in "))
        let attributes = try FileManager.default.attributesOfItem(atPath: accounts)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let lines = try String(contentsOfFile: accounts, encoding: .utf8).split(separator: "\n")
        #expect(lines.map { $0.split(separator: " ")[0] } == ["bot0001", "bot0002"])
        #expect(lines.allSatisfy { $0.split(separator: " ")[1].count == 43 })
        let board = try NanashiProcess.run(["leaderboard", "--db", db, "--top", "1", "--offset", "49"])
        #expect(board.status == 0 && board.stdout.contains(" 50 "))
    }

    @Test(arguments: [
        (
            ["loadtest", "--server", "localhost:0"],
            "nanashi: bad port '0' in the server address: use 1 to 65535\n"
        ),
        (
            ["loadtest", "--server", ":7878"],
            "nanashi: bad server address ':7878': use HOST:PORT, like 127.0.0.1:7878\n"
        ),
        (["loadtest", "--clients", "1"], "nanashi: bad --clients 1: use 2 to 20000\n"),
        (["loadtest", "--think=-5"], "nanashi: bad --think -5: use 0 or more milliseconds\n"),
        (["seed", "--db", "/tmp/x.sqlite"], "nanashi: nothing to seed: give --players or --bots\n"),
        (
            ["seed", "--db", "/tmp/x.sqlite", "--bots", "3"],
            "nanashi: --bots needs --accounts FILE to write their tokens to\n"
        ),
    ])
    func badOptionsAreOneLineAndExitTwo(arguments: [String], message: String) throws {
        let result = try NanashiProcess.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr == message)
        #expect(result.stdout.isEmpty)
    }
}
