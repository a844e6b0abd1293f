import Foundation
import GRDB
import NanashiCore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// `nanashi serve` killed with SIGKILL in the middle of games, then started again on the same
// file: nothing announced is lost, nothing is counted twice, unfinished games resume where they
// stood with their clocks as stored, and SIGTERM then ends the server cleanly.

/// A `nanashi serve` process on an OS-assigned port, killed when the test lets go of it.
private final class ServeProcess {
    private let process = Process()
    let port: Int

    init(database: String) throws {
        process.executableURL = NanashiProcess.executable
        process.arguments = [
            "serve", "--port", "0", "--db", database, "--log-level", "error", "--insecure-scrypt-log2n", "4",
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var banner = Data()
        while !banner.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            try #require(!chunk.isEmpty, "the server exited before listening")
            banner += chunk
        }
        let listening = String(decoding: banner, as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines)
        port = try #require(Int(listening.split(separator: ":").last ?? ""))
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Sends a signal and waits for the process to end: how it ended and its status.
    func stop(with signal: Int32) -> (Process.TerminationReason, Int32) {
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return (process.terminationReason, process.terminationStatus)
    }
}

/// A blocking line client over TCP to 127.0.0.1.
private final class PlayerSocket {
    private let socket: Int32
    private var pending: [UInt8] = []

    init(port: Int) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var timeout = timeval(tv_sec: 15, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var noDelay: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        try #require(status == 0)
    }

    deinit { Glibc.close(socket) }

    func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The next line, or `nil` once the server has closed the connection.
    func nextLine() throws -> String? {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count == 0 || (count < 0 && errno == ECONNRESET) { return nil }
            try #require(count > 0, "the server did not answer")
            pending += chunk[..<count]
        }
    }

    func line() throws -> String {
        try #require(try nextLine(), "the server closed the connection")
    }

    /// The next line as a JSON object.
    func message() throws -> [String: Any] {
        let line = try line()
        return try #require(
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
    }

    func exchange(_ line: String) throws -> String {
        send(line)
        return try self.line()
    }
}

/// One player's seat in a game.
private struct Seat {
    var name: String
    var token: String
    var socket: PlayerSocket
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

@Test func aKilledServerLosesNothingAndResumesEveryGame() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "nanashi-crash-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let database = directory.appendingPathComponent("server.sqlite").path

    var server = try ServeProcess(database: database)
    // Eight players, paired two by two into four games.
    var games: [(id: Int64, seats: [String: Seat])] = []
    for pair in 0..<4 {
        var seats: [String: Seat] = [:]
        var started: [(Seat, [String: Any])] = []
        for index in [2 * pair, 2 * pair + 1] {
            let socket = try PlayerSocket(port: server.port)
            let name = "player\(index)"
            socket.send(#"{"type":"register","name":"\#(name)","password":"password\#(index)"}"#)
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
            #expect(end["type"] as? String == "end" && end["reason"] as? String == "resign")
        }
    }

    // Two games finish; two are left in the middle, one with a move in flight at the kill.
    _ = try play(0, ["b6", "f6"])
    try resign(0, "o")
    try resign(1, "x")
    let announced = try play(2, ["b6", "f6", "f2"])
    _ = try play(3, ["g2", "a2"])
    let standings = try games[0].seats["x"]!.socket.exchange(#"{"type":"leaderboard"}"#)
    games[3].seats["x"]!.socket.send(#"{"type":"move","game":\#(games[3].id),"move":"b7"}"#)
    let (reason, _) = server.stop(with: SIGKILL)
    #expect(reason == .uncaughtSignal)

    let crashed = try Stored(file: database)
    #expect(crashed.integrity == "ok")
    #expect(crashed.finished == [games[0].id, games[1].id])
    #expect(crashed.unfinished == [games[2].id, games[3].id])
    #expect(crashed.ratingChanges == [games[0].id: 2, games[1].id: 2])
    #expect(crashed.gamesPlayed == 4)
    #expect(crashed.moves[games[2].id] == ["b6", "f6", "f2"])
    // The move in flight was stored or not, never half: the game stands at one or the other.
    let inFlight = try #require(crashed.moves[games[3].id])
    #expect(inFlight == ["g2", "a2"] || inFlight == ["g2", "a2", "b7"])
    #expect(crashed.lastClocks[games[2].id] == clock(announced))

    server = try ServeProcess(database: database)
    let lookout = try PlayerSocket(port: server.port)
    #expect(try lookout.exchange(#"{"type":"leaderboard"}"#) == standings)
    // The players of the unfinished games come back with their tokens: each gets the game as
    // stored, clocks included (nothing ran while the server was down or until both were back).
    for game in [2, 3] {
        let moves = try #require(crashed.moves[games[game].id])
        var position = Position.start
        for move in moves { position = try position.play(Move(notation: move)) }
        for side in ["x", "o"] {
            let socket = try PlayerSocket(port: server.port)
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
    let (ended, status) = server.stop(with: SIGTERM)
    #expect(ended == .exit && status == 0)
    #expect(try lookout.nextLine() == #"{"type":"shutdown"}"#)
    #expect(try lookout.nextLine() == nil)

    let final = try Stored(file: database)
    #expect(final.integrity == "ok")
    #expect(final.finished == games.map(\.id) && final.unfinished.isEmpty)
    #expect(final.ratingChanges == Dictionary(uniqueKeysWithValues: games.map { ($0.id, 2) }))
    #expect(final.gamesPlayed == 8)
    #expect(final.moves[games[3].id]?.count == inFlight.count + 1)
}

@Test(arguments: [
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
