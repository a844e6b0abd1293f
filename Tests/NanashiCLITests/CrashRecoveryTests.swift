import Foundation
import GRDB
import NanashiCore
import NanashiServerTestSupport
import NanashiStorage
import NanashiSubprocess
import NanashiTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// `nanashi serve` killed with SIGKILL in the middle of games, then started again on the same
// file: nothing announced is lost, nothing is counted twice, unfinished games resume where they
// stood with their clocks as stored, and SIGTERM then ends the server cleanly.

extension LineClient {
    /// The next line as a JSON object.
    func message() throws -> [String: Any] {
        let line = try line()
        return try #require(
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
    }
}

/// One player's seat in a game.
private struct Seat {
    var name: String
    var token: String
    var socket: LineClient
}

/// What the database file holds, read without changing it.
private struct Stored: Equatable {
    var integrity: String
    var finished: [Int64]
    var unfinished: [Int64]
    /// Rating-history rows per game.
    var ratingChanges: [Int64: Int]
    var gamesPlayed: Int
    var moves: [Int64: [String]]
    /// Both clocks stored with each game's last move.
    var lastClocks: [Int64: [Int64]]

    init(file: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        let database = try DatabaseQueue(path: file, configuration: configuration)
        (integrity, finished, unfinished, ratingChanges, gamesPlayed, moves, lastClocks) = try database.read {
            db in
            let integrity = try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? ""
            let finished = try Int64.fetchAll(
                db, sql: "SELECT id FROM game WHERE result IS NOT NULL ORDER BY id")
            let unfinished = try Int64.fetchAll(
                db, sql: "SELECT id FROM game WHERE result IS NULL ORDER BY id")
            var changes: [Int64: Int] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT game_id, COUNT(*) AS n FROM rating_change GROUP BY game_id")
            {
                changes[row["game_id"]] = row["n"]
            }
            let played = try Int.fetchOne(db, sql: "SELECT SUM(games) FROM player") ?? 0
            var moves: [Int64: [String]] = [:]
            var clocks: [Int64: [Int64]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM move ORDER BY game_id, ply") {
                moves[row["game_id"], default: []].append(row["notation"])
                clocks[row["game_id"]] = [row["x_clock"], row["o_clock"]]
            }
            return (integrity, finished, unfinished, changes, played, moves, clocks)
        }
    }
}

private func clock(_ message: [String: Any]) -> [Int64] {
    let clock = message["clock"] as? [String: Any] ?? [:]
    return [(clock["x"] as? NSNumber)?.int64Value ?? -1, (clock["o"] as? NSNumber)?.int64Value ?? -1]
}

@Test(.blocking) func aKilledServerLosesNothingAndResumesEveryGame() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "nanashi-crash-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let database = directory.appendingPathComponent("server.sqlite").path

    // Eight players, paired two by two into four games.
    try ServeProcess.addPlayers(
        Dictionary(uniqueKeysWithValues: (0..<8).map { ("player\($0)", "password\($0)") }), to: database)
    var server = try ServeProcess(database: database)
    var games: [(id: Int64, seats: [String: Seat])] = []
    for pair in 0..<4 {
        var seats: [String: Seat] = [:]
        var started: [(Seat, [String: Any])] = []
        for index in [2 * pair, 2 * pair + 1] {
            let socket = try LineClient(port: server.port)
            let name = "player\(index)"
            socket.send(#"{"type":"login","name":"\#(name)","password":"password\#(index)"}"#)
            let welcome = try socket.message()
            let token = try #require(welcome["token"] as? String)
            #expect(
                try socket.exchange(#"{"type":"seek","initial":60,"increment":1}"#) == #"{"type":"seeking"}"#)
            started.append((Seat(name: name, token: token, socket: socket), [:]))
        }
        for index in started.indices {
            let start = try started[index].0.socket.message()
            #expect(start["type"] as? String == "start")
            started[index].1 = start
        }
        for (seat, start) in started { seats[try #require(start["color"] as? String)] = seat }
        games.append((try #require((started[0].1["game"] as? NSNumber)?.int64Value), seats))
    }

    /// Plays moves in a game, both players reading each `moved`; returns the last one.
    func play(_ game: Int, _ moves: [String]) throws -> [String: Any] {
        var side = "x"
        var last: [String: Any] = [:]
        for move in moves {
            games[game].seats[side]!.socket.send(
                #"{"type":"move","game":\#(games[game].id),"move":"\#(move)"}"#)
            for viewer in ["x", "o"] {
                last = try games[game].seats[viewer]!.socket.message()
                #expect(last["type"] as? String == "moved" && last["move"] as? String == move)
            }
            side = side == "x" ? "o" : "x"
        }
        return last
    }
    func resign(_ game: Int, _ side: String) throws {
        games[game].seats[side]!.socket.send(#"{"type":"resign","game":\#(games[game].id)}"#)
        for viewer in ["x", "o"] {
            let end = try games[game].seats[viewer]!.socket.message()
            #expect(
                end["type"] as? String == "end"
                    && (end["outcome"] as? [String: Any])?["reason"] as? String == "resign")
        }
    }

    // Two games finish; two are left in the middle, one with a move in flight at the kill.
    // Every game gets two moves a side, so that its resignation is rated.
    _ = try play(0, ["b6", "f6", "f2", "b2"])
    try resign(0, "o")
    _ = try play(1, ["b6", "f6", "f2", "b2"])
    try resign(1, "x")
    let announced = try play(2, ["b6", "f6", "f2"])
    _ = try play(3, ["g2", "a2", "f1", "b1"])
    let standings = try games[0].seats["x"]!.socket.exchange(#"{"type":"leaderboard"}"#)
    games[3].seats["x"]!.socket.send(#"{"type":"move","game":\#(games[3].id),"move":"b7"}"#)
    #expect(server.stop(with: SIGKILL) == .signalled(SIGKILL))

    let crashed = try Stored(file: database)
    #expect(crashed.integrity == "ok")
    #expect(crashed.finished == [games[0].id, games[1].id])
    #expect(crashed.unfinished == [games[2].id, games[3].id])
    #expect(crashed.ratingChanges == [games[0].id: 2, games[1].id: 2])
    #expect(crashed.gamesPlayed == 4)
    #expect(crashed.moves[games[2].id] == ["b6", "f6", "f2"])
    // The move in flight was stored or not, never half: the game stands at one or the other.
    let inFlight = try #require(crashed.moves[games[3].id])
    #expect(inFlight == ["g2", "a2", "f1", "b1"] || inFlight == ["g2", "a2", "f1", "b1", "b7"])
    #expect(crashed.lastClocks[games[2].id] == clock(announced))

    server = try ServeProcess(database: database)
    let lookout = try LineClient(port: server.port)
    #expect(try lookout.exchange(#"{"type":"leaderboard"}"#) == standings)
    // The players of the unfinished games come back with their tokens: each gets the game as
    // stored, clocks included (nothing ran while the server was down or until both were back).
    for game in [2, 3] {
        let moves = try #require(crashed.moves[games[game].id])
        var position = Position.start
        for move in moves { position = try position.play(Move(notation: move)) }
        for side in ["x", "o"] {
            let socket = try LineClient(port: server.port)
            socket.send(#"{"type":"auth","token":"\#(games[game].seats[side]!.token)"}"#)
            #expect(try socket.message()["type"] as? String == "welcome")
            let state = try socket.message()
            #expect(state["type"] as? String == "game" && state["color"] as? String == side)
            #expect(state["fen"] as? String == position.fen && state["moves"] as? [String] == moves)
            #expect(clock(state) == crashed.lastClocks[games[game].id])
            games[game].seats[side]!.socket = socket
        }
        // They play on to the end.
        let mover = position.sideToMove.rawValue
        let move = position.legalMoves()[0].description
        games[game].seats[mover]!.socket.send(#"{"type":"move","game":\#(games[game].id),"move":"\#(move)"}"#)
        for viewer in ["x", "o"] {
            let moved = try games[game].seats[viewer]!.socket.message()
            #expect(moved["type"] as? String == "moved" && moved["ply"] as? Int == moves.count + 1)
        }
        try resign(game, mover)
    }
    let total = try lookout.exchange(#"{"type":"leaderboard"}"#)
    #expect(total.contains(#""total":8"#))

    // SIGTERM: every client hears `shutdown`, the connection closes, and the server exits 0.
    #expect(server.stop(with: SIGTERM) == .exited(0))
    #expect(try lookout.nextLine() == #"{"type":"shutdown"}"#)
    #expect(try lookout.nextLine() == nil)

    let final = try Stored(file: database)
    #expect(final.integrity == "ok")
    #expect(final.finished == games.map(\.id) && final.unfinished.isEmpty)
    #expect(final.ratingChanges == Dictionary(uniqueKeysWithValues: games.map { ($0.id, 2) }))
    #expect(final.gamesPlayed == 8)
    #expect(final.moves[games[3].id]?.count == inFlight.count + 1)
}

@Test(
    .blocking,
    arguments: [
        (["serve", "--idle-timeout", "0"], "nanashi: bad idle timeout 0: use 1 to 86400 seconds\n"),
        (
            ["serve", "--idle-timeout", "9223372036854775807"],
            "nanashi: bad idle timeout 9223372036854775807: use 1 to 86400 seconds\n"
        ),
        (["serve", "--message-burst", "0"], "nanashi: bad message burst 0: use 1 or more\n"),
        (["serve", "--message-rate", "0"], "nanashi: bad message rate 0.0: use more than 0\n"),
    ])
func badLimitsFailWithOneLine(arguments: [String], message: String) throws {
    let result = try NanashiProcess.run(arguments)
    #expect(result.status == 2 && result.stdout.isEmpty && result.stderr == message)
}
