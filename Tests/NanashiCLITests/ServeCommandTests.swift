import Foundation
import NanashiServerTestSupport
import NanashiTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// `nanashi serve` and `nanashi leaderboard --db` through the real executable: a server on an
// OS-assigned port, two players over a socket, then the operator's view of the database file.

/// Runs `nanashi` to its end: (stdout, stderr, exit status).
private func runNanashi(_ arguments: [String]) throws -> (String, String, Int32) {
    let result = try NanashiProcess.run(arguments)
    return (result.stdout, result.stderr, result.status)
}

private func field(_ name: String, in line: String) -> String? {
    guard let range = line.range(of: "\"\(name)\":") else { return nil }
    return String(line[range.upperBound...].prefix { $0 != "," && $0 != "}" }).replacingOccurrences(
        of: "\"", with: "")
}

@Test(.blocking) func servedGamesShowInTheOperatorsLeaderboard() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "nanashi-serve-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let database = directory.appendingPathComponent("server.sqlite").path

    try ServeProcess.addPlayers(["ann": "password1", "bob": "password1"], to: database)
    let server = try ServeProcess(database: database)
    defer { server.stop() }
    let port = server.port

    let ann = try LineClient(port: port)
    let bob = try LineClient(port: port)
    #expect(
        try ann.exchange(#"{"type":"login","name":"ann","password":"password1"}"#).contains(
            #""type":"welcome""#))
    #expect(
        try bob.exchange(#"{"type":"login","name":"bob","password":"password1"}"#).contains(
            #""type":"welcome""#))
    #expect(try ann.exchange(#"{"type":"seek","initial":60,"increment":1}"#) == #"{"type":"seeking"}"#)
    #expect(try bob.exchange(#"{"type":"seek","initial":60,"increment":1}"#) == #"{"type":"seeking"}"#)
    let annStart = try ann.line()
    _ = try bob.line()
    let game = try #require(field("game", in: annStart))
    let annColor = try #require(field("color", in: annStart))
    // Two moves each (a resignation before that is not rated), then o resigns, so x wins.
    let (x, o) = annColor == "x" ? (ann, bob) : (bob, ann)
    for (mover, move) in [(x, "b6"), (o, "f6"), (x, "f2"), (o, "b2")] {
        mover.send(#"{"type":"move","game":\#(game),"move":"\#(move)"}"#)
        for socket in [x, o] { #expect(try socket.line().contains(#""type":"moved""#)) }
    }
    let resigner = annColor == "o" ? ann : bob
    let winner = annColor == "x" ? "ann" : "bob"
    let loser = winner == "ann" ? "bob" : "ann"
    #expect(try resigner.exchange(#"{"type":"resign","game":\#(game)}"#).contains(#""reason":"resign""#))

    let (table, _, status) = try runNanashi(["leaderboard", "--db", database])
    #expect(status == 0)
    #expect(
        table == """
                #  name                  rating         games    won   lost   drawn
                1  \(winner)                   1662 ± 290 ?       1      1      0       0
                2  \(loser)                   1338 ± 290 ?       1      0      1       0
            1-2 of 2 rated players; ? = provisional

            """)
    let (json, _, _) = try runNanashi([
        "leaderboard", "--db", database, "--top", "1", "--offset", "1", "--json",
    ])
    #expect(
        json
            == #"{"entries":[{"draws":0,"games":1,"losses":1,"name":"\#(loser)","provisional":true,"rank":2,"#
            + #""rating":1338,"rd":290,"wins":0}],"total":2}"# + "\n")
}

@Test(
    .blocking,
    arguments: [
        (
            ["leaderboard", "--db", "/nonexistent/nanashi.sqlite"],
            "nanashi: no database file at /nonexistent/nanashi.sqlite\n"
        ),
        (["leaderboard", "--db", "x.sqlite", "--top", "101"], "nanashi: bad --top 101: use 1 to 100\n"),
        (
            ["leaderboard", "--db", "postgres://ann@h/g"],
            "nanashi: --db reads a server's SQLite file; for PostgreSQL ask a server with --server\n"
        ),
        (["serve", "--port", "70000"], "nanashi: bad port 70000: use 0 to 65535\n"),
        (["serve", "--http", "70000"], "nanashi: bad HTTP port 70000: use 0 to 65535\n"),
        (
            ["serve", "--db", "postgres://localhost/nanashi"],
            "nanashi: bad --db: bad PostgreSQL URL (no user): expected postgres://USER[:PASSWORD]@HOST[:PORT]/DB\n"
        ),
        (
            ["serve", "--db", "postgres://ann:secret@localhost:99999/nanashi"],
            "nanashi: bad --db: bad PostgreSQL URL (port 99999 is out of range): "
                + "expected postgres://USER[:PASSWORD]@HOST[:PORT]/DB\n"
        ),
    ])
func badServerCommandsFailWithOneLine(arguments: [String], message: String) throws {
    let (output, error, status) = try runNanashi(arguments)
    #expect(status == 2 && output.isEmpty && error == message)
}

/// A PostgreSQL that refuses the login, or that nobody answers for: one line without the
/// password, exit code 2, before the server listens.
@Test(.blocking) func aDatabaseThatCannotBeOpenedStopsTheServerWithOneLine() async throws {
    var unreachable = ["postgres://ann:hunter2@127.0.0.1:1/nanashi"]
    var expected = [
        "nanashi: cannot serve on 127.0.0.1:0 with database postgres://ann@127.0.0.1:1/nanashi: "
            + "PostgreSQL cannot be reached: "
    ]
    if let why = await TestPostgres.unavailable {
        Issue.record(Comment(rawValue: why), severity: .warning)
    } else {
        let url = try await TestPostgres.database()
        let wrong = try await TestPostgres.wrongPassword(database: String(url.split(separator: "/").last!))
        let shown = wrong.replacingOccurrences(of: #":[^:@/]*@"#, with: "@", options: .regularExpression)
        unreachable.append(wrong)
        expected.append(
            "nanashi: cannot serve on 127.0.0.1:0 with database \(shown): "
                + "PostgreSQL refused: password authentication failed for user \"postgres\"\n")
    }
    for (url, message) in zip(unreachable, expected) {
        // Few connections: no warning about the limit of open files before the line.
        let (output, error, status) = try runNanashi([
            "serve", "--port", "0", "--max-connections", "10", "--db", url,
        ])
        #expect(status == 2 && output.isEmpty)
        #expect(
            error.hasPrefix(message) && error.hasSuffix("\n") && error.dropLast().contains("\n") == false,
            "\(error)")
        #expect(!error.contains("hunter2") && !error.contains("wrong-"))
    }
}

/// Under a low limit of open files, a flood of connections is refused (or closed at once) and
/// the server lives on: it used to die of SIGILL, libdispatch trapping when its worker monitor
/// could not open a file under /proc once half-sent request heads had taken every descriptor.
@Test(.blocking) func aServerOutOfDescriptorsRefusesConnectionsAndLivesOn() throws {
    let database = try TemporaryDatabase()
    let server = try ServeProcess(database: database.path, arguments: ["--http", "0"], openFiles: 64)
    defer { server.stop() }
    let http = try #require(server.httpPort)
    var flood: [LineClient] = []
    for index in 0..<300 {
        let source = "127.0.\(1 + index / 50).\(1 + index % 50)"
        if index % 3 == 0, let client = try? LineClient(port: server.port, from: source) {
            client.send(#"{"type":"ping"}"#)
            flood.append(client)
        } else if let client = try? LineClient(port: http, from: source) {
            client.sendBytes(Array("GET / HT".utf8))
            flood.append(client)
        }
    }
    Thread.sleep(forTimeInterval: 3)
    #expect(server.isRunning, "the server died with the flood")
    flood.removeAll()
    // Once the flood is gone, the server answers again.
    var answered = false
    for _ in 0..<300 where !answered && server.isRunning {
        answered = (try? LineClient(port: server.port).exchange(#"{"type":"ping"}"#)) == #"{"type":"pong"}"#
        if !answered { Thread.sleep(forTimeInterval: 0.1) }
    }
    #expect(answered && server.isRunning)
}
