import Foundation
import NanashiTestSupport
import Testing

// `nanashi online`, `leaderboard --server` and `profile` through the real executable against a
// real `nanashi serve`. Colors are the server's coin toss, so each client is told its moves
// once it says which side it plays.

/// A short whole game: x's two jumps land next to b2, and o's jump to d4 takes both x pieces.
/// o plays it select-then-move (b2, then d4).
private let xMoves = ["a7c5", "g1e3"]
private let oMoves = ["b2", "b2", "d4"]

/// Starts two clients, ann and bob, both with `--register` on names they have already (so
/// registering logs them in); returns them by the side they got.
private func pair(
    on server: ServerUnderTest, annServer: String? = nil, time: String = "10+0"
) throws -> (x: OnlineClient, o: OnlineClient, xName: String, oName: String) {
    let ann = try OnlineClient(
        ["--server", annServer ?? server.address, "--time", time, "--name", "ann", "--register"],
        configHome: try server.configFolder("ann"), environment: ["NANASHI_PASSWORD": "password1"])
    let bob = try OnlineClient(
        ["--server", server.address, "--time", time, "--register"],
        configHome: try server.configFolder("bob"),
        environment: ["NANASHI_NAME": "bob", "NANASHI_PASSWORD": "password1"])
    let annSide = try ann.side()
    _ = try bob.side()
    return annSide == "x" ? (ann, bob, "ann", "bob") : (bob, ann, "bob", "ann")
}

/// A game between ann and bob on a server of their own; with `relayed`, ann's connection goes
/// through a relay the test can break. `stop()` stops all of it.
private struct ServedPair {
    let server: ServerUnderTest
    let relay: Relay?
    let x: OnlineClient
    let o: OnlineClient
    let xName: String
    let oName: String

    init(grace: Int = 60, relayed: Bool = false) throws {
        server = try ServerUnderTest(grace: grace)
        do {
            relay = relayed ? try Relay(to: server.port) : nil
        } catch {
            server.stop()
            throw error
        }
        do {
            (x, o, xName, oName) = try pair(on: server, annServer: relay.map { "127.0.0.1:\($0.port)" })
        } catch {
            relay?.stop()
            server.stop()
            throw error
        }
    }

    func stop() {
        x.stop()
        o.stop()
        relay?.stop()
        server.stop()
    }
}

private func runNanashi(_ arguments: [String]) throws -> NanashiProcess.Result {
    try NanashiProcess.run(arguments)
}

@Test(.blocking) func twoScriptedClientsPlayAWholeGameAndTheStandingsShowIt() throws {
    let game = try ServedPair()
    defer { game.stop() }
    let (server, x, o, xName, oName) = (game.server, game.x, game.o, game.xName, game.oName)
    x.send(xMoves)
    o.send(oMoves)
    #expect(try x.finish() == 0)
    #expect(try o.finish() == 0)

    let xSeen = x.transcript
    #expect(
        xSeen.hasPrefix("waiting for an opponent at 10+0...\nfound an opponent after "))
    #expect(xSeen.contains(": you play x against \(oName) (1500) at 10+0; type ? for help\n"))
    // x's clock runs from the start, so it may have lost a tenth by the time the board is drawn.
    #expect(
        xSeen.contains(" x 2 pieces (you)   o 2 pieces (\(oName) 1500)\n move 1, x to play\n *x "))
    #expect(xSeen.firstMatch(of: /\n\ \*x (10:00\.0|9:\d\d\.\d)   o 10:00\.0\nx> a7c5\n/) != nil)
    #expect(xSeen.contains("x> a7c5\n"))
    #expect(xSeen.contains("x> g1e3\n"))
    // o's moves arrive and are drawn, with both clocks.
    #expect(xSeen.contains(" last move: o b2\n"))
    #expect(xSeen.contains(" last move: o b2d4, converted e3 c5\n"))
    #expect(
        xSeen.firstMatch(
            of:
                /\ x 0 pieces \(you\)   o 5 pieces \(\w+ 1500\)\n game over\n last move: o b2d4, converted e3 c5\n  x \d+:\d\d\.\d   o \d+:\d\d\.\d\n/
        ) != nil)
    #expect(
        xSeen.hasSuffix(
            "game over: o wins (x has no pieces left)\nfinal count: x 0, o 5\nyou lose; rating 1500 → 1338 (-162)\n"
        ))

    let oSeen = o.transcript
    // b2 twice: the clone, then selecting the new piece.
    #expect(oSeen.components(separatedBy: "o> b2\n").count == 3)
    #expect(oSeen.contains(" b2 selected: clone (+) b1 c1 a2 c2 a3 b3 c3, jump (*) d1 d2 d3 a4 b4 c4 d4\n"))
    #expect(oSeen.contains("o [b2]> d4\n"))
    #expect(
        oSeen.hasSuffix(
            "game over: o wins (x has no pieces left)\nfinal count: x 0, o 5\nyou win; rating 1500 → 1662 (+162)\n"
        ))
    // Each move line is used on its own turn: x's second move waits for o's first.
    let firstReply = try #require(xSeen.range(of: " last move: o b2\n"))
    let secondMove = try #require(xSeen.range(of: "x> g1e3\n"))
    #expect(firstReply.upperBound <= secondMove.lowerBound)

    let table = try runNanashi(["leaderboard", "--server", server.address])
    #expect(table.status == 0)
    #expect(
        table.stdout == """
                #  name                  rating         games    won   lost   drawn
                1  \(oName)                   1662 ± 290 ?       1      1      0       0
                2  \(xName)                   1338 ± 290 ?       1      0      1       0
            1-2 of 2 rated players; ? = provisional

            """)
    let json = try runNanashi([
        "leaderboard", "--server", server.address, "--top", "1", "--offset", "1", "--json",
    ])
    #expect(
        json.stdout
            == #"{"entries":[{"draws":0,"games":1,"losses":1,"name":"\#(xName)","provisional":true,"rank":2,"#
            + #""rating":1338,"rd":290,"wins":0}],"total":2}"# + "\n")

    let profile = try runNanashi(["profile", xName.uppercased(), "--server", server.address])
    #expect(profile.status == 0)
    #expect(
        profile.stdout == """
            \(xName)
            rating  1338 ± 290 ? (provisional)
            rank    2
            games   1: 0 won, 1 lost, 0 drawn

             game  side  opponent              result  reason   rating
                1  x     \(oName)                   loss    pieces     -162

            """)
    let profileJSON = try runNanashi(["profile", oName, "--server", server.address, "--json"])
    #expect(
        profileJSON.stdout
            == #"{"computer":[],"draws":0,"games":1,"losses":0,"name":"\#(oName)","rank":1,"rating":1662,"rd":290,"recent":[{"#
            + #""color":"o","game":1,"opponent":"\#(xName)","outcome":{"reason":"pieces","winner":"o"},"rating_change":162}],"#
            + #""wins":1}"# + "\n")
    let nobody = try runNanashi(["profile", "nobody", "--server", server.address])
    #expect(
        nobody.status == 2 && nobody.stdout.isEmpty
            && nobody.stderr == "nanashi: no player is called 'nobody'\n")
}

@Test(.blocking) func theSessionTokenIsKeptAndUsedNextTime() throws {
    let server = try ServerUnderTest()
    defer { server.stop() }
    let config = try server.configFolder("carol")
    let file = config + "/nanashi/sessions.json"

    // The first time, the name and password come from piped input; the password is never shown.
    let first = try OnlineClient(["--server", server.address, "--register"], configHome: config)
    defer { first.stop() }
    first.send(["carol", "secret-password"])
    try first.waitFor("waiting for an opponent at 5+3...")
    first.stop()
    #expect(
        first.transcript.hasPrefix(
            "name: carol\npassword: \nregistered carol\nwaiting for an opponent at 5+3...\n"))
    #expect(!first.transcript.contains("secret-password"))
    let attributes = try FileManager.default.attributesOfItem(atPath: file)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    let saved = try String(contentsOfFile: file, encoding: .utf8)
    #expect(saved.contains(#""127.0.0.1:\#(server.port)" : {"#) && saved.contains(#""name" : "carol""#))
    #expect(!saved.contains("secret-password"))

    // Next time: no name, no password, no prompt.
    let second = try OnlineClient(["--server", server.address], configHome: config)
    defer { second.stop() }
    try second.waitFor("waiting for an opponent at 5+3...")
    second.stop()
    #expect(second.transcript == "waiting for an opponent at 5+3...\n")

    // A token the server refuses falls back to logging in.
    try saved.replacingOccurrences(of: #"token" : ""#, with: #"token" : "not-a-token"#)
        .write(toFile: file, atomically: true, encoding: .utf8)
    let third = try OnlineClient(
        ["--server", server.address, "--password", "secret-password"], configHome: config,
        environment: ["NANASHI_NAME": "carol"])
    defer { third.stop() }
    try third.waitFor("waiting for an opponent at 5+3...")
    third.stop()
    #expect(
        third.transcript
            == "the saved session of carol has expired; logging in again\nwaiting for an opponent at 5+3...\n"
    )
    #expect(!(try String(contentsOfFile: file, encoding: .utf8)).contains("not-a-token"))

    // A wrong password in a script is one error line.
    let wrong = try OnlineClient(
        ["--server", server.address, "--name", "Carol", "--password", "wrong-password"],
        configHome: try server.configFolder("other"))
    #expect(try wrong.finish() == 2)
    #expect(
        wrong.transcript == "nanashi: wrong name or password for Carol (--register creates a new account)\n")
    let taken = try OnlineClient(
        ["--server", server.address, "--name", "CAROL", "--password", "other-password", "--register"],
        configHome: try server.configFolder("other"))
    #expect(try taken.finish() == 2)
    #expect(taken.transcript == "nanashi: CAROL is someone else's name: choose another\n")
}

@Test(.blocking) func aDroppedConnectionIsReconnectedAndTheGameResumes() throws {
    // ann goes through the relay, which the test uses to break her connection twice.
    let game = try ServedPair(relayed: true)
    defer { game.stop() }
    let (x, o, xName, relay) = (game.x, game.o, game.xName, game.relay!)
    let ann = xName == "ann" ? x : o
    let lost = "the connection to 127.0.0.1:\(relay.port) was lost; reconnecting in 0.5 s\nreconnected\n"

    // First the server announces a shutdown (after messages this client does not know).
    x.send([xMoves[0]])
    try o.waitFor(" last move: x a7c5\n")
    try ann.waitFor(" last move: x a7c5\n")
    relay.inject(#"{"type":"news","text":"a message type from a newer server"}"#)
    relay.inject(#"{"type":"error","code":"brand_new","message":"a code from a newer server"}"#)
    relay.inject(#"{"type":"shutdown"}"#)
    try ann.waitFor("back in game 1\n")
    #expect(
        ann.transcript.contains(
            "server: a code from a newer server\nthe server is shutting down; reconnecting when it is back\n"
                + lost))

    // Then the network fails under it.
    o.send([oMoves[0]])
    try x.waitFor(" last move: o b2\n")
    try ann.waitFor(" last move: o b2\n")
    relay.cut()
    try ann.waitFor("back in game 1\n", times: 2)
    x.send(Array(xMoves.dropFirst()))
    o.send(Array(oMoves.dropFirst()))
    #expect(try x.finish() == 0)
    #expect(try o.finish() == 0)

    // Each time, back in the game: the board as it stands, then the game goes on to its end.
    let transcript = ann.transcript
    #expect(transcript.components(separatedBy: lost).count == 3)
    #expect(transcript.components(separatedBy: "back in game 1\n").count == 3)
    #expect(
        transcript.firstMatch(of: /\ last move: o b2\n\ \*x \d+:\d\d\.\d   o \d+:\d\d\.\d\nback in game 1\n/)
            != nil)
    #expect(x.transcript.hasSuffix("you lose; rating 1500 → 1338 (-162)\n"))
    #expect(o.transcript.hasSuffix("you win; rating 1500 → 1662 (+162)\n"))
}

@Test(.blocking) func aGameLostWhileAwayIsReportedOnReturn() throws {
    // A short grace period: ann is away longer than that, and loses by abandonment.
    let game = try ServedPair(grace: 2, relayed: true)
    defer { game.stop() }
    let (x, o, xName, relay) = (game.x, game.o, game.xName, game.relay!)
    let (ann, bob) = xName == "ann" ? (x, o) : (o, x)
    let annSide = xName == "ann" ? "x" : "o"
    let bobSide = annSide == "x" ? "o" : "x"
    relay.refuse(true)
    relay.cut()
    // Left before two moves each: the abandonment is not rated.
    try bob.waitFor("you win; rating 1500 → 1500 (0)\n")
    #expect(try bob.finish() == 0)
    #expect(
        bob.transcript.contains(
            "game over: \(bobSide) wins (\(annSide) left the game)\nfinal count: x 2, o 2\n"))
    relay.refuse(false)
    // Back before her input ends: a client whose input ends while it is still away leaves.
    try ann.waitFor("you lose; rating 1500 → 1500 (0)\n")
    #expect(try ann.finish() == 0)
    #expect(
        ann.transcript.hasSuffix(
            "reconnected\nthe game ended while you were away\ngame over: \(bobSide) wins (\(annSide) left the game)\n"
                + "you lose; rating 1500 → 1500 (0)\n"))
}

@Test(
    .blocking,
    arguments: [
        (
            ["online", "--time", "0+1"],
            "nanashi: bad time control '0+1': the clock starts with 1 second to 180 minutes\n"
        ),
        (
            ["online", "--server", "host:99999"],
            "nanashi: bad port '99999' in the server address: use 1 to 65535\n"
        ),
        (
            ["leaderboard", "--db", "x.sqlite", "--server", "host:1"],
            "nanashi: use --db or --server, not both\n"
        ),
        (
            ["profile", "ann", "--server", "127.0.0.1:1"],
            "nanashi: cannot connect to 127.0.0.1:1: Connection refused\n"
        ),
    ])
func badOnlineCommandsFailWithOneLine(arguments: [String], message: String) throws {
    let run = try runNanashi(arguments)
    #expect(run.status == 2 && run.stdout.isEmpty && run.stderr == message)
}

@Test(.blocking) func aWatcherFollowsAGameToItsEnd() throws {
    let game = try ServedPair()
    defer { game.stop() }
    let (server, x, xName, oName) = (game.server, game.x, game.xName, game.oName)
    // The game by its id: the list of games in progress may lag a second behind a new game.
    let watcher = try OnlineClient(
        ["1", "--server", server.address, "--no-color"], command: "watch",
        configHome: try server.configFolder("watcher"))
    defer { watcher.stop() }
    try watcher.waitFor(" move 1, x to play\n")
    x.send(["resign"])
    #expect(try watcher.finish() == 0)
    #expect(
        watcher.transcript.hasPrefix(
            "game 1: \(xName) 1500 (x) v \(oName) 1500 (o), 10+0\n\n    a  b  c  d  e  f  g\n"))
    #expect(watcher.transcript.hasSuffix("game over: o wins (x resigned)\nfinal count: x 2, o 2\n"))
}
