import Foundation
import NanashiServerTestSupport
import NanashiTestSupport
import Testing

// `nanashi admin` and `nanashi backup` through the real executable, and the database's address
// given by the environment or a file, its password never shown.

/// A folder with a server's database holding ann and bob, removed at the end.
private struct Folder {
    let url: URL
    var database: String { url.appendingPathComponent("server.sqlite").path }

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "nanashi-admin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try ServeProcess.addPlayers(["ann": "password1", "bob": "password1"], to: database)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

@Test(.blocking) func adminActionsAreLoggedWithWhoWhatAndWhy() throws {
    let folder = try Folder()
    defer { folder.remove() }
    let db = ["--db", folder.database]
    var result = try NanashiProcess.run(
        ["admin", "close", "ann", "--reason", "spam", "--moderator", "mod"] + db)
    #expect(result.status == 0 && result.stdout == "closed 'ann'\n" && result.stderr.isEmpty)
    // Who acts is $USER unless told.
    result = try NanashiProcess.run(
        ["admin", "mark", "bob", "--reason", "engine"] + db, environment: ["USER": "carol"])
    #expect(result.stdout == "marked 'bob'\n")
    result = try NanashiProcess.run(
        ["admin", "reset-password", "bob", "--reason", "lost", "--moderator", "mod"] + db)
    let lines = result.stdout.split(separator: "\n")
    #expect(
        result.status == 0 && lines.count == 2
            && lines[0].hasPrefix("password reset token for 'bob', good once until "))
    #expect(lines.last?.count == 43)

    // Bad input: one line, exit 2, nothing logged.
    for (arguments, message) in [
        (
            ["admin", "close", "ann", "--reason", "again", "--moderator", "mod"],
            "nanashi: 'ann' is already closed\n"
        ),
        (
            ["admin", "rename", "bob", "ann", "--reason", "r", "--moderator", "mod"],
            "nanashi: the name 'ann' is taken\n"
        ),
        (
            ["admin", "close", "zed", "--reason", "r", "--moderator", "mod"],
            "nanashi: no player is called 'zed'\n"
        ),
    ] {
        result = try NanashiProcess.run(arguments + db)
        #expect(result.status == 2 && result.stdout.isEmpty && result.stderr == message)
    }
    result = try NanashiProcess.run(["admin", "close", "bob"] + db)
    #expect(result.status != 0 && result.stderr.contains("--reason"))

    result = try NanashiProcess.run(["admin", "log"] + db)
    let log = result.stdout.split(separator: "\n").map { $0.split(separator: " ", maxSplits: 2) }
    try #require(log.count == 3 && log.allSatisfy { $0.count == 3 }, "\(result.stdout)")
    #expect(
        log.map { [String($0[0]), String($0[2])] } == [
            ["1", "mod close ann -- spam"], ["2", "carol mark bob -- engine"],
            ["3", "mod reset-password bob until \(log[2][2].split(separator: " ")[4]) -- lost"],
        ])
    #expect(try NanashiProcess.run(["admin", "log", "--last", "1"] + db).stdout.hasPrefix("3 "))
}

@Test(.blocking) func aBackupIsADatabaseOfItsOwnAndNeverOverwrites() throws {
    let folder = try Folder()
    defer { folder.remove() }
    let copy = folder.url.appendingPathComponent("copy.sqlite").path
    var result = try NanashiProcess.run(["backup", "--db", folder.database, "--out", copy])
    #expect(
        result.status == 0
            && result.stdout.hasPrefix("backed up \(folder.database) to \(copy): 2 players, 0 games, "))
    result = try NanashiProcess.run(["leaderboard", "--db", copy, "--json"])
    #expect(result.status == 0 && result.stdout.contains(#""total":0"#))
    result = try NanashiProcess.run(["backup", "--db", folder.database, "--out", copy])
    #expect(result.status == 2 && result.stderr == "nanashi: \(copy) exists already: give a new file\n")
}

/// The address from NANASHI_DB or --db-file, for serve, admin and backup; a password in it is
/// never printed.
@Test(.blocking) func theDatabaseComesFromTheEnvironmentOrAFileAndItsPasswordIsNeverShown() throws {
    let folder = try Folder()
    defer { folder.remove() }
    let url = "postgres://ann:hunter2@127.0.0.1:1/nanashi"
    let file = folder.url.appendingPathComponent("db").path
    try (url + "\n").write(toFile: file, atomically: true, encoding: .utf8)
    let cannotServe =
        "nanashi: cannot serve on 127.0.0.1:0 with database postgres://ann@127.0.0.1:1/nanashi: PostgreSQL cannot be reached: "
    for (arguments, environment) in [
        (["--db-file", file], [String: String]()), ([], ["NANASHI_DB": url]),
    ] {
        let serve = try NanashiProcess.run(
            ["serve", "--port", "0", "--max-connections", "10"] + arguments, environment: environment)
        #expect(serve.status == 2 && serve.stderr.hasPrefix(cannotServe), "\(serve.stderr)")
        let admin = try NanashiProcess.run(["admin", "log"] + arguments, environment: environment)
        #expect(admin.status == 2 && admin.stderr.hasPrefix("nanashi: PostgreSQL cannot be reached: "))
        let backup = try NanashiProcess.run(["backup", "--out", "x"] + arguments, environment: environment)
        #expect(
            backup.stderr
                == "nanashi: nanashi backup copies a SQLite file; back PostgreSQL up with pg_dump (docs/OPERATIONS.md)\n"
        )
        for output in [serve, admin, backup] { #expect(!(output.stdout + output.stderr).contains("hunter2")) }
    }
    // The file's database is the one used: the environment's is not read then.
    try (folder.database + "\n").write(toFile: file, atomically: true, encoding: .utf8)
    let log = try NanashiProcess.run(["admin", "log", "--db-file", file], environment: ["NANASHI_DB": url])
    #expect(log.status == 0 && log.stdout.isEmpty && log.stderr.isEmpty)
    let both = try NanashiProcess.run(["admin", "log", "--db-file", file, "--db", folder.database])
    #expect(both.status == 2 && both.stderr == "nanashi: give --db or --db-file, not both\n")
}

/// A reset token from `nanashi admin` on a running server's database sets the player's new
/// password through `nanashi online --reset-token`, once.
@Test(.blocking) func aResetTokenFromAdminSetsANewPasswordThroughTheClient() throws {
    let server = try ServerUnderTest()
    defer { server.stop() }
    let database = server.folder.appendingPathComponent("server.sqlite").path
    let reset = try NanashiProcess.run(
        ["admin", "reset-password", "ann", "--reason", "forgot", "--moderator", "mod", "--db", database])
    let token = try #require(reset.stdout.split(separator: "\n").last.map(String.init))
    let arguments = ["--server", server.address, "--name", "ann", "--password", "new password 1"]
    let client = try OnlineClient(
        arguments + ["--reset-token", token], configHome: try server.configFolder("ann"))
    defer { client.stop() }
    try client.waitFor("waiting for an opponent at 5+3...")
    client.stop()
    #expect(client.transcript == "new password set for ann\nwaiting for an opponent at 5+3...\n")

    let again = try OnlineClient(
        arguments + ["--reset-token", token], configHome: try server.configFolder("again"))
    #expect(try again.finish() == 2)
    #expect(
        again.transcript
            == "nanashi: the password reset was refused: wrong name, or unknown, used or expired reset token\n"
    )
    let newPassword = try OnlineClient(arguments, configHome: try server.configFolder("new"))
    defer { newPassword.stop() }
    try newPassword.waitFor("waiting for an opponent at 5+3...")
    newPassword.stop()
}

@Test(.blocking) func suspectsReadsTheStoredAnalysesAndSaysWhenTooFewPlayedToJudge() throws {
    let folder = try Folder()
    defer { folder.remove() }
    var result = try NanashiProcess.run(["admin", "suspects", "--db", folder.database])
    #expect(
        result.status == 0 && result.stderr.isEmpty
            && result.stdout == """
                0 analysed rated games; 0 players with at least 5, each counted over their latest 20
                accurate: a move that lost at most 0.50 pieces by the analysis; loss: the average per move, in pieces
                too few players to set one against the others: 4 with 5 analysed rated games are needed

                """,
        "\(result.stdout)")
    result = try NanashiProcess.run(["admin", "suspects", "--min-games", "0", "--db", folder.database])
    #expect(
        result.status == 2 && result.stdout.isEmpty
            && result.stderr == "nanashi: --games is 1 or more, and --min-games 1 to --games\n")
}
