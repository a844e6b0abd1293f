import NanashiCore
import NanashiProtocol
import NanashiServerTestSupport
import Testing

@testable import NanashiServer

/// The challenge of ann's client to `to`, with its id.
func challenge(
    _ client: TestClient, _ to: String,
    terms: String = #""initial":60,"increment":0,"color":"x","rated":false"#
) async throws -> (line: String, id: String) {
    let line = try await client.exchange(#"{"type":"challenge","to":"\#(to)",\#(terms)}"#)
    guard case .challengeSent(let notice) = try Wire.reply(fromLine: Array(line.utf8)).message else {
        return (line, "")
    }
    return (line, notice.challenge)
}

@Suite struct ChallengeTests {
    /// ann challenges bob to a casual game with her as x: bob hears it, accepts, and the game
    /// starts at once with those colours; it rates nobody.
    @Test func aChallengeAcceptedStartsTheGameOnItsTerms() async throws {
        let server = try await TestServer()
        let (ann, bob) = try await annAndBob(on: server)
        let (sent, id) = try await challenge(ann, "bob")
        #expect(id.count == 22)
        #expect(
            sent
                == #"{"challenge":"\#(id)","color":"x","increment":0,"initial":60,"rated":false,"rating":1500,"to":"bob","type":"challenge_sent"}"#
        )
        #expect(
            try await bob.line()
                == #"{"challenge":"\#(id)","color":"o","from":"ann","increment":0,"initial":60,"rated":false,"rating":1500,"type":"challenged"}"#
        )
        bob.send(#"{"type":"accept","challenge":"\#(id)"}"#)
        for (client, color, opponent) in [(ann, "x", "bob"), (bob, "o", "ann")] {
            guard case .start(let start) = try await client.reply().message else {
                throw TestClient.Failure(description: "expected start")
            }
            #expect(
                start.color.rawValue == color && start.opponent.name == opponent
                    && start.control.initial == 60)
        }
        // Accepted once: it stands no more.
        #expect(
            try await bob.exchange(#"{"type":"accept","challenge":"\#(id)","id":2}"#)
                == #"{"code":"in_game","id":2,"message":"you have a game in progress","type":"error"}"#)
        for _ in 0..<2 { _ = try await ann.exchange(#"{"type":"move","game":1,"move":"b6"}"#) }
        ann.send(#"{"type":"resign","game":1}"#)
        let end = try await ann.line()
        #expect(end.contains(#""rating":{"after":1500,"before":1500}"#), "\(end)")
        await server.stop()
    }

    /// A game from a challenge may be rematched as a paired one may: ann asks, bob hears it and
    /// asks too, and the casual rematch starts with the colours swapped.
    @Test func aChallengeGameMayBeRematched() async throws {
        let server = try await TestServer()
        let (ann, bob) = try await annAndBob(on: server)
        let (_, id) = try await challenge(ann, "bob")
        _ = try await bob.line()
        bob.send(#"{"type":"accept","challenge":"\#(id)"}"#)
        for client in [ann, bob] { _ = try await client.line() }
        ann.send(#"{"type":"resign","game":1}"#)
        for client in [ann, bob] { #expect(try await client.line().contains(#""type":"end""#)) }
        let offered = try await ann.exchange(#"{"type":"rematch","game":1,"id":"r"}"#)
        #expect(offered == #"{"game":1,"id":"r","type":"rematch_offered"}"#)
        #expect(try await bob.line() == #"{"game":1,"type":"rematch_offer"}"#)
        bob.send(#"{"type":"rematch","game":1}"#)
        for (client, color) in [(ann, "o"), (bob, "x")] {
            var message = try await client.reply().message
            if case .rematchOffered = message { message = try await client.reply().message }
            guard case .start(let start) = message else {
                throw TestClient.Failure(description: "expected start, got \(message)")
            }
            #expect(start.color.rawValue == color && start.game == 2 && !start.rated)
        }
        await server.stop()
    }

    /// What a hostile or careless player tries gets a clear error and changes nothing for anyone.
    @Test func badChallengesAreRefused() async throws {
        let server = try await TestServer()
        let (ann, bob) = try await annAndBob(on: server)
        let refusals: [(String, String)] = [
            (
                #"{"type":"challenge","to":"nobody","initial":60,"increment":0}"#,
                #"{"code":"no_such_player","message":"no player is named nobody","type":"error"}"#
            ),
            (
                #"{"type":"challenge","to":"ANN","initial":60,"increment":0}"#,
                #"{"code":"bad_request","message":"you cannot challenge yourself","type":"error"}"#
            ),
            (
                #"{"type":"challenge","to":"bob","initial":5,"increment":0}"#,
                #"{"code":"bad_request","message":"initial is 15 to 10800 seconds, increment 0 to 600","type":"error"}"#
            ),
            (
                #"{"type":"challenge","to":"bob","initial":60,"increment":0,"color":"blue"}"#,
                #"{"code":"bad_request","message":"color is x, o or random","type":"error"}"#
            ),
            (
                #"{"type":"challenge","to":"bob","initial":60,"increment":0,"fen":"\#(String(repeating: "7/", count: 1500))"}"#,
                #"{"code":"bad_request","message":"a start FEN is at most 100 bytes, not 3000","type":"error"}"#
            ),
            (
                #"{"type":"accept","challenge":"AAAAAAAAAAAAAAAAAAAAAA"}"#,
                #"{"code":"no_such_challenge","message":"no challenge AAAAAAAAAAAAAAAAAAAAAA stands for you","type":"error"}"#
            ),
            (
                #"{"type":"decline","challenge":"x","reason":"\#(String(repeating: "r", count: 121))"}"#,
                #"{"code":"bad_request","message":"a reason is at most 120 bytes, without control characters","type":"error"}"#
            ),
        ]
        for (line, refusal) in refusals { #expect(try await ann.exchange(line) == refusal) }
        // Not one's own to accept; not another's to cancel.
        let (_, id) = try await challenge(ann, "bob")
        _ = try await bob.line()
        #expect(
            try await ann.exchange(#"{"type":"accept","challenge":"\#(id)"}"#)
                == #"{"code":"bad_request","message":"you cannot accept your own challenge","type":"error"}"#)
        #expect(
            try await bob.exchange(#"{"type":"cancel_challenge","challenge":"\#(id)"}"#)
                == #"{"code":"bad_request","message":"only its challenger may cancel a challenge; decline it","type":"error"}"#
        )
        // A third player cannot see or touch it.
        let carl = try server.client()
        _ = try await register(carl, "carl")
        #expect(
            try await carl.exchange(#"{"type":"accept","challenge":"\#(id)"}"#)
                == #"{"code":"no_such_challenge","message":"no challenge \#(id) stands for you","type":"error"}"#
        )
        // Withdrawn: bob hears it, and it is gone.
        #expect(
            try await ann.exchange(#"{"type":"cancel_challenge","challenge":"\#(id)","id":"c"}"#)
                == #"{"challenge":"\#(id)","id":"c","reason":"withdrawn","type":"challenge_cancelled"}"#)
        #expect(
            try await bob.line()
                == #"{"challenge":"\#(id)","reason":"withdrawn","type":"challenge_cancelled"}"#)
        #expect(
            try await bob.exchange(#"{"type":"accept","challenge":"\#(id)"}"#).contains(
                #""code":"no_such_challenge""#))
        await server.stop()
    }

    /// A sender has at most 3 challenges open; a player refusing challenges gets none; a
    /// declined challenger waits 60 s before challenging that player again.
    @Test func floodingAPlayerIsBounded() async throws {
        let server = try await TestServer()
        var clients: [TestClient] = []
        for name in ["ann", "bob", "carl", "dora", "eve"] {
            let client = try server.client()
            _ = try await register(client, name)
            clients.append(client)
        }
        let (ann, bob, eve) = (clients[0], clients[1], clients[4])
        var ids: [String] = []
        for (index, name) in ["bob", "carl", "dora"].enumerated() {
            ids.append(try await challenge(ann, name).id)
            _ = try await clients[index + 1].line()
        }
        #expect(
            try await ann.exchange(#"{"type":"challenge","to":"eve","initial":60,"increment":0}"#)
                == #"{"code":"rate_limited","message":"you have 3 challenges open; cancel one or wait for an answer","type":"error"}"#
        )
        #expect(
            try await bob.exchange(#"{"type":"decline","challenge":"\#(ids[0])","reason":"not now","id":1}"#)
                == #"{"challenge":"\#(ids[0])","id":1,"reason":"not now","type":"challenge_declined"}"#)
        #expect(
            try await ann.line()
                == #"{"challenge":"\#(ids[0])","reason":"not now","type":"challenge_declined"}"#)
        #expect(
            try await ann.exchange(#"{"type":"challenge","to":"bob","initial":60,"increment":0}"#)
                == #"{"code":"rate_limited","message":"bob declined your challenge; you may challenge them again in 60 s","type":"error"}"#
        )
        #expect(
            try await eve.exchange(#"{"type":"challenges","accept":false}"#)
                == #"{"accept":false,"type":"challenges"}"#)
        _ = try await ann.exchange(#"{"type":"cancel_challenge","challenge":"\#(ids[1])"}"#)
        #expect(
            try await ann.exchange(#"{"type":"challenge","to":"eve","initial":60,"increment":0}"#)
                == #"{"code":"challenge_refused","message":"eve takes no challenges now","type":"error"}"#)
        server.clock.advance(by: .seconds(60))
        #expect(try await challenge(ann, "bob").line.contains(#""type":"challenge_sent""#))
        await server.stop()
    }

    /// At most 10 challenges wait for one player.
    @Test func tenChallengesWaitAtMost() async throws {
        let server = try await TestServer()
        let target = try server.client()
        _ = try await register(target, "target")
        var senders: [TestClient] = []
        for index in 0..<11 {
            // Kept: a challenge ends when its challenger's connection closes.
            let sender = try server.client()
            senders.append(sender)
            _ = try await register(sender, "sender\(index)")
            let (line, _) = try await challenge(sender, "target")
            if index < 10 {
                #expect(line.contains(#""type":"challenge_sent""#))
            } else {
                #expect(
                    line
                        == #"{"code":"challenge_refused","message":"target has too many challenges waiting","type":"error"}"#
                )
            }
        }
        await server.stop()
    }

    /// bob's challenge by link, accepted by carl while bob is playing (`in_game`), stands again
    /// open to all: dan, accepting it too, hears `in_game`, not `no_such_challenge` (it was put
    /// back as a challenge to carl alone).
    @Test func aLinkAcceptedWhileItsChallengerPlaysStaysOpenToAll() async throws {
        let server = try await TestServer()
        let (ann, bob) = try await annAndBob(on: server)
        let (carl, dan) = (try server.client(), try server.client())
        _ = try await register(carl, "carl")
        _ = try await register(dan, "dan")
        let link = try await bob.exchange(#"{"type":"challenge","initial":60,"increment":0,"rated":false}"#)
        guard case .challengeSent(let notice) = try Wire.reply(fromLine: Array(link.utf8)).message else {
            throw TestClient.Failure(description: "expected challenge_sent, not \(link)")
        }
        let (_, id) = try await challenge(ann, "bob")
        _ = try await bob.line()
        bob.send(#"{"type":"accept","challenge":"\#(id)"}"#)
        for client in [ann, bob] { #expect(try await client.line().contains(#""type":"start""#)) }
        let inGame =
            #"{"code":"in_game","message":"bob is playing a game; accept again once it ends","type":"error"}"#
        for client in [carl, dan] {
            #expect(
                try await client.exchange(#"{"type":"accept","challenge":"\#(notice.challenge)"}"#) == inGame)
        }
        await server.stop()
    }

    /// While bob's acceptance of ann's challenge waits for storage (another process holds the
    /// database's write lock), it still counts as one of ann's three: her third challenge
    /// more is refused (she once had four standing when the game then could not start).
    @Test func aChallengeBeingStartedCountsAgainstItsSender() async throws {
        let server = try await TestServer { $0.databaseBusyTimeout = .seconds(60) }
        let lobby = server.server!.lobby
        let (ann, bob) = try await annAndBob(on: server)
        let carl = try server.client()
        _ = try await register(carl, "carl")
        let (_, id) = try await challenge(ann, "bob")
        _ = try await bob.line()
        let lock = try WriteLockHolder(path: server.database.path)
        bob.send(#"{"type":"accept","challenge":"\#(id)"}"#)
        while await lobby.challenges.standing[id] != nil { try await Task.sleep(for: .milliseconds(1)) }
        for _ in 0..<2 {
            #expect(try await challenge(ann, "carl").line.contains(#""type":"challenge_sent""#))
        }
        #expect(
            try await challenge(ann, "carl").line
                == #"{"code":"rate_limited","message":"you have 3 challenges open; cancel one or wait for an answer","type":"error"}"#
        )
        lock.release()
        for client in [ann, bob] { #expect(try await client.line().contains(#""type":"start""#)) }
        await server.stop()
    }

    /// ann leaves while bob's acceptance of her challenge waits for storage, which then fails:
    /// the challenge is not put back (it once stood after she left, until it expired); bob
    /// hears that it ended.
    @Test func aChallengeWhoseChallengerLeftWhileItsGameFailedIsNotPutBack() async throws {
        let server = try await TestServer { $0.databaseBusyTimeout = .seconds(2) }
        let lobby = server.server!.lobby
        let (ann, bob) = try await annAndBob(on: server)
        let (_, id) = try await challenge(ann, "bob")
        _ = try await bob.line()
        let lock = try WriteLockHolder(path: server.database.path)
        bob.send(#"{"type":"accept","challenge":"\#(id)"}"#)
        while await lobby.challenges.standing[id] != nil { try await Task.sleep(for: .milliseconds(1)) }
        ann.close()
        while await lobby.connections.count > 1 { try await Task.sleep(for: .milliseconds(1)) }
        #expect(
            try await bob.line() == #"{"challenge":"\#(id)","reason":"left","type":"challenge_cancelled"}"#)
        #expect(
            try await bob.line()
                == #"{"code":"no_such_challenge","message":"no challenge \#(id) stands for you","type":"error"}"#
        )
        lock.release()
        #expect(await lobby.challenges.standing[id] == nil)
        await server.stop()
    }

    /// A challenge to a player away waits for their login; it ends when its challenger leaves,
    /// or after 10 minutes unanswered.
    @Test func aChallengeWaitsForItsPlayerAndEnds() async throws {
        let server = try await TestServer {
            $0.pairingInterval = .seconds(600)
            $0.idleTimeout = .seconds(3_600)
        }
        let ann = try server.client()
        _ = try await register(ann, "ann")
        let away = try server.client()
        let bobToken = try await register(away, "bob")
        away.close()
        let carl = try server.client()
        _ = try await register(carl, "carl")
        let (_, toBob) = try await challenge(ann, "bob")
        let (_, toCarl) = try await challenge(ann, "carl")
        _ = try await carl.line()
        let bob = try server.client()
        #expect(try await bob.exchange(#"{"type":"auth","token":"\#(bobToken)"}"#).contains("welcome"))
        #expect(try await bob.line().contains(#""challenge":"\#(toBob)","color":"o","from":"ann""#))
        // Ten minutes: both end, both sides hear why.
        try await server.clock.advanceWhenArmed(by: .seconds(600))
        var ended: Set<String> = []
        for _ in 0..<2 { ended.insert(try await ann.line()) }
        #expect(
            ended == [
                #"{"challenge":"\#(toBob)","reason":"expired","type":"challenge_cancelled"}"#,
                #"{"challenge":"\#(toCarl)","reason":"expired","type":"challenge_cancelled"}"#,
            ])
        #expect(
            try await bob.line()
                == #"{"challenge":"\#(toBob)","reason":"expired","type":"challenge_cancelled"}"#)
        #expect(
            try await carl.line()
                == #"{"challenge":"\#(toCarl)","reason":"expired","type":"challenge_cancelled"}"#)
        // Its challenger leaves: it ends.
        let (_, again) = try await challenge(ann, "carl")
        _ = try await carl.line()
        ann.close()
        #expect(
            try await carl.line()
                == #"{"challenge":"\#(again)","reason":"left","type":"challenge_cancelled"}"#)
        await server.stop()
    }
}

@Suite struct ChallengesAcrossNodesTests {
    /// A link made on one node, accepted at once by a player there and one on the other node
    /// (in memory and on PostgreSQL): one game starts, with one of them; the other is refused
    /// and plays nothing, and the challenger gets no second start.
    @Test(arguments: NodesBackend.allCases) func aLinkAcceptedOnTwoNodesAtOnceStartsOneGame(
        _ backend: NodesBackend
    ) async throws {
        let two = try await NodesPlace(backend).nodes(2)
        let (ann, carl, dora) = (try two[0].client(), try two[0].client(), try two[1].client())
        for (client, name) in [(ann, "ann"), (carl, "carl"), (dora, "dora")] {
            _ = try await register(client, name)
        }
        let sent = try await ann.exchange(#"{"type":"challenge","initial":300,"increment":3,"rated":false}"#)
        guard case .challengeSent(let notice) = try Wire.reply(fromLine: Array(sent.utf8)).message else {
            throw TestClient.Failure(description: sent)
        }
        // Every node keeps every challenge: both accept once dora's node knows of it.
        let annID = try #require(try await two[1].server!.lobby.storage.player(named: "ann")?.id)
        while !(await two[1].server!.lobby.knows(challenge: notice.challenge, by: annID)) {
            try await Task.sleep(for: .milliseconds(5))
        }
        for client in [carl, dora] { client.send(#"{"type":"accept","challenge":"\#(notice.challenge)"}"#) }
        guard case .start(let start) = try await ann.reply().message else {
            throw TestClient.Failure(description: "expected start")
        }
        let (winner, loser) = start.opponent.name == "carl" ? (carl, dora) : (dora, carl)
        guard case .start(let theirs) = try await winner.reply().message else {
            throw TestClient.Failure(description: "expected start")
        }
        #expect(theirs.game == start.game && theirs.opponent.name == "ann")
        let refused = try await loser.line()
        #expect(
            refused.contains(#""code":"no_such_challenge""#) || refused.contains(#""code":"in_game""#),
            "\(refused)")
        #expect(try await ann.exchange(#"{"type":"ping","id":9}"#) == #"{"id":9,"type":"pong"}"#)
        #expect(try await loser.exchange(#"{"type":"ping","id":9}"#) == #"{"id":9,"type":"pong"}"#)
        for server in two { await server.stop() }
    }

    /// ann on one node challenges bob on another: he hears it there, declines once (ann hears
    /// why, and waits before the next), then accepts ann's next challenge; the game, hosted by
    /// ann's node, is played across both; a challenge made before bob's login reaches him there.
    /// A casual game from a challenge across two nodes may be rematched: the player on the
    /// other node asks through the host, and the rematch starts casual, colours swapped.
    @Test(arguments: NodesBackend.allCases) func aCasualChallengeGameAcrossNodesMayBeRematched(
        _ backend: NodesBackend
    ) async throws {
        let two = try await NodesPlace(backend).nodes(2, clock: TestClock())
        let ann = try two[0].client()
        _ = try await register(ann, "ann")
        let bob = try two[1].client()
        _ = try await register(bob, "bob")
        let (_, id) = try await challenge(ann, "bob")
        _ = try await bob.line()
        bob.send(#"{"type":"accept","challenge":"\#(id)"}"#)
        var game: Int64 = 0
        for client in [ann, bob] {
            guard case .start(let start) = try await client.reply().message else {
                throw TestClient.Failure(description: "expected start")
            }
            game = start.game
        }
        bob.send(#"{"type":"resign","game":\#(game)}"#)
        for client in [ann, bob] { #expect(try await client.line().contains(#""type":"end""#)) }
        #expect(
            try await bob.exchange(#"{"type":"rematch","game":\#(game),"id":"r"}"#)
                == #"{"game":\#(game),"id":"r","type":"rematch_offered"}"#)
        #expect(try await ann.line() == #"{"game":\#(game),"type":"rematch_offer"}"#)
        ann.send(#"{"type":"rematch","game":\#(game)}"#)
        for (client, color) in [(ann, Side.o), (bob, .x)] {
            var message = try await client.reply().message
            if case .rematchOffered = message { message = try await client.reply().message }
            guard case .start(let start) = message else {
                throw TestClient.Failure(description: "expected start, got \(message)")
            }
            #expect(start.color == color && start.game != game && !start.rated)
        }
        for server in two { await server.stop() }
    }

    @Test(arguments: NodesBackend.allCases) func aChallengeCrossesNodes(_ backend: NodesBackend) async throws
    {
        let clock = TestClock()
        let two = try await NodesPlace(backend).nodes(2, clock: clock)
        let ann = try two[0].client()
        _ = try await register(ann, "ann")
        let away = try two[1].client()
        let bobToken = try await register(away, "bob")
        away.close()
        let (_, first) = try await challenge(ann, "bob")
        let bob = try two[1].client()
        #expect(try await bob.exchange(#"{"type":"auth","token":"\#(bobToken)"}"#).contains("welcome"))
        #expect(
            try await bob.line()
                == #"{"challenge":"\#(first)","color":"o","from":"ann","increment":0,"initial":60,"rated":false,"rating":1500,"type":"challenged"}"#
        )
        #expect(
            try await bob.exchange(#"{"type":"decline","challenge":"\#(first)","reason":"later"}"#)
                == #"{"challenge":"\#(first)","reason":"later","type":"challenge_declined"}"#)
        #expect(
            try await ann.line() == #"{"challenge":"\#(first)","reason":"later","type":"challenge_declined"}"#
        )
        #expect(
            try await ann.exchange(#"{"type":"challenge","to":"bob","initial":60,"increment":0}"#).contains(
                #""code":"rate_limited""#))
        clock.advance(by: .seconds(60))
        let (_, second) = try await challenge(ann, "bob", terms: #""initial":120,"increment":1,"color":"o""#)
        #expect(try await bob.line().contains(#""challenge":"\#(second)","color":"x""#))
        bob.send(#"{"type":"accept","challenge":"\#(second)"}"#)
        var game: Int64 = 0
        for (client, color) in [(ann, Side.o), (bob, .x)] {
            guard case .start(let start) = try await client.reply().message else {
                throw TestClient.Failure(description: "expected start")
            }
            #expect(start.color == color && start.control == TimeControl(initial: 120, increment: 1))
            game = start.game
        }
        // Played across both nodes: bob, relayed to ann's node, moves first.
        bob.send(#"{"type":"move","game":\#(game),"move":"b6","id":"m"}"#)
        #expect(try await bob.line().contains(#""id":"m""#))
        #expect(try await ann.line().contains(#""move":"b6""#))
        for server in two { await server.stop() }
    }
}

extension Lobby {
    /// Whether this node keeps challenge `id`, made by `player`.
    fileprivate func knows(challenge id: String, by player: Int64) -> Bool {
        challenges.sent(by: player).contains { $0.id == id }
    }
}
