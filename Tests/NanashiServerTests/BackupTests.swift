import Foundation
import GRDB
import NanashiCore
import NanashiProtocol
import NanashiServerTestSupport
import NanashiStorage
import NanashiTestSupport
import Testing

@testable import NanashiServer

/// Plays a paired game with `greedyMove` until both players have its `end`: the game and its
/// ratings are stored by then.
private func playToItsEnd(_ paired: PairedGame) async throws {
    var position = Position.start
    while !position.isGameOver {
        let move = greedyMove(position)
        paired.clients[position.sideToMove]!.send(
            #"{"type":"move","game":\#(paired.game),"move":"\#(move)"}"#)
        position = try position.play(move)
        for side in Side.allCases {
            guard case .moved = try await paired.clients[side]!.reply().message else {
                throw TestClient.Failure(description: "expected moved")
            }
        }
    }
    for side in Side.allCases {
        guard case .end = try await paired.clients[side]!.reply().message else {
            throw TestClient.Failure(description: "expected end")
        }
    }
}

/// Registers two new players on the server at `port`, seeks `initial`+3 for both and returns
/// their game once both have its `start` (`pairedGame`, from a task of its own).
private func pairedGame(port: Int, initial: Int, names: (String, String)) async throws -> PairedGame {
    let (first, second) = (try TestClient(port: port), try TestClient(port: port))
    let tokens = (try await register(first, names.0), try await register(second, names.1))
    let seek = #"{"type":"seek","initial":\#(initial),"increment":3}"#
    #expect(try await first.exchange(seek) == #"{"type":"seeking"}"#)
    #expect(try await second.exchange(seek) == #"{"type":"seeking"}"#)
    guard case .start(let start) = try await first.reply().message,
        case .start = try await second.reply().message
    else { throw TestClient.Failure(description: "no start") }
    let side = start.color
    return PairedGame(
        clients: [side: first, side.opponent: second], tokens: [side: tokens.0, side.opponent: tokens.1],
        names: [side: names.0, side.opponent: names.1], game: start.game)
}

/// `SQLiteBackup.copy` on a thread of its own: it blocks while it copies.
private func backUp(_ source: String, to destination: String) async throws -> SQLiteBackup.Summary {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try SQLiteBackup.copy(from: source, to: destination) })
        }
    }
}

@Suite struct BackupTests {
    /// Four pairs of players play game after game through the server; once four games have
    /// ended the database is copied while the others go on. Every game whose end both players
    /// had before the copy began is in it, rated, and a server started on the copy serves it.
    @Test func aBackupUnderLoadHoldsEveryAcknowledgedGame() async throws {
        let server = try await TestServer()
        let (ended, endings) = AsyncStream.makeStream(of: Int64.self)
        let port = server.port
        let copy = try TemporaryDatabase()
        var acknowledged: [Int64] = []
        var summary: SQLiteBackup.Summary?
        var after = 0
        try await withThrowingTaskGroup(of: Void.self) { group in
            for pair in 0..<4 {
                group.addTask {
                    var round = 0
                    while !Task.isCancelled {
                        // A time control of the pair's own: pairs are never paired across.
                        let paired = try await pairedGame(
                            port: port, initial: 100 + pair, names: ("x\(pair)r\(round)", "o\(pair)r\(round)")
                        )
                        try await playToItsEnd(paired)
                        endings.yield(paired.game)
                        round += 1
                    }
                }
            }
            for await game in ended {
                if summary == nil {
                    acknowledged.append(game)
                    if acknowledged.count == 4 {
                        summary = try await backUp(server.database.path, to: copy.path)
                    }
                } else {
                    after += 1
                    // The server went on storing games after the copy.
                    if after == 4 {
                        // Each pair stops once its game in progress ends.
                        group.cancelAll()
                        break
                    }
                }
            }
            try await group.waitForAll()
        }
        await server.stop()

        let copied = try #require(summary)
        #expect(copied.players >= 8 && copied.games >= 4 && copied.bytes > 0)
        let queue = try DatabaseQueue(path: copy.path)
        for game in acknowledged {
            let (result, changes) = try await queue.read { db in
                (
                    try String.fetchOne(db, sql: "SELECT result FROM game WHERE id = ?", arguments: [game]),
                    try Int.fetchOne(
                        db, sql: "SELECT COUNT(*) FROM rating_change WHERE game_id = ?", arguments: [game])
                )
            }
            #expect(result != nil && changes == 2, "game \(game)")
        }
        try queue.close()

        // The copy is a database a server starts on and serves.
        let restored = try await TestServer(database: copy)
        let client = try restored.client()
        let line = try await client.exchange(#"{"type":"games","name":"x0r0"}"#)
        guard case .games(let archive) = try Wire.reply(fromLine: Array(line.utf8)).message else {
            throw TestClient.Failure(description: line)
        }
        #expect(archive.games.count == 1 && acknowledged.contains(archive.games[0].game))
        #expect(try await logsIn(client, as: "x0r0"))
        await restored.stop()
    }

    @Test func badBackupsWriteNothing() async throws {
        let source = try TemporaryDatabase()
        _ = try SQLiteStorage(path: source.path)
        let out = try TemporaryDatabase()
        try Data("mine".utf8).write(to: URL(fileURLWithPath: out.path))
        let cases: [(String, String, String)] = [
            (
                "postgres://u:secret@db/x", "/nowhere/copy.sqlite",
                "nanashi backup copies a SQLite file; back PostgreSQL up with pg_dump (docs/OPERATIONS.md)"
            ),
            (
                source.directory.path + "/missing.sqlite", out.directory.path + "/new.sqlite",
                "no database file at \(source.directory.path)/missing.sqlite"
            ),
            (source.path, out.path, "\(out.path) exists already: give a new file"),
        ]
        for (from, to, why) in cases {
            #expect(throws: BackupError(why)) { try SQLiteBackup.copy(from: from, to: to) }
        }
        #expect(try String(contentsOfFile: out.path, encoding: .utf8) == "mine")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.directory.path) == ["nanashi.sqlite"])
        let fresh = out.directory.path + "/fresh.sqlite"
        let summary = try SQLiteBackup.copy(from: source.path, to: fresh)
        let size = (try FileManager.default.attributesOfItem(atPath: fresh)[.size] as? NSNumber)?.intValue
        #expect(summary.players == 0 && summary.games == 0 && summary.bytes == size)
        #expect(try await SQLiteStorage(path: fresh).player(named: "ann") == nil)
    }
}
