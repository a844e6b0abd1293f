import NanashiAI
import NanashiCore
import NanashiProtocol
import NanashiServerTestSupport
import Testing

@testable import NanashiServer

/// The FEN of the layout `cross`.
private let crossFEN = "x5o/3-3/7/1-3-1/7/3-3/o5x x 0 1"

/// Reads the `start` of `client`, failing otherwise.
private func start(of client: TestClient) async throws -> GameStart {
    guard case .start(let start) = try await client.reply().message else {
        throw TestClient.Failure(description: "expected start")
    }
    return start
}

@Suite struct LayoutTests {
    /// `layouts` needs no login, and lists every layout's name and FEN.
    @Test func theLayoutsAreListed() async throws {
        let server = try await TestServer()
        let client = try server.client()
        #expect(
            try await client.exchange(#"{"type":"layouts","id":1}"#)
                == #"{"id":1,"layouts":[{"fen":"x5o/7/7/7/7/7/o5x x 0 1","name":"standard"},"#
                + #"{"fen":"x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1","name":"square"},"#
                + #"{"fen":"x5o/7/3-3/7/3-3/7/o5x x 0 1","name":"column"},"#
                + #"{"fen":"x5o/1-3-1/7/7/7/1-3-1/o5x x 0 1","name":"corners"},"#
                + #"{"fen":"x5o/7/7/2-1-2/7/7/o5x x 0 1","name":"row"},"#
                + #"{"fen":"x5o/3-3/7/1-3-1/7/3-3/o5x x 0 1","name":"cross"},"#
                + #"{"fen":"x5o/7/7/3-3/7/7/o5x x 0 1","name":"centre"},"#
                + #"{"fen":"x5o/2-1-2/7/7/7/2-1-2/o5x x 0 1","name":"gates"},"#
                + #"{"fen":"x5o/7/1-3-1/7/1-3-1/7/o5x x 0 1","name":"flanks"},"#
                + #"{"fen":"x2-2o/7/7/-5-/7/7/o2-2x x 0 1","name":"edges"},"#
                + #"{"fen":"x1-1-1o/7/7/7/7/7/o1-1-1x x 0 1","name":"posts"}],"type":"layouts"}"#)
        await server.stop()
    }

    /// ann challenges bob to a rated game from `cross`: both hear the layout, the game starts
    /// there on both sides, a watcher gets its start, its PGN has the `FEN` and `SetUp` tags,
    /// and the rematch starts from it again.
    @Test func aChallengeFromALayoutStartsThereAndKeepsIt() async throws {
        let server = try await TestServer()
        let (ann, bob, watcher) = (try server.client(), try server.client(), try server.client())
        _ = try await register(ann, "ann")
        _ = try await register(bob, "bob")
        let (sent, id) = try await challenge(
            ann, "bob", terms: #""initial":60,"increment":0,"color":"x","layout":"cross""#)
        #expect(
            sent
                == #"{"challenge":"\#(id)","color":"x","increment":0,"initial":60,"layout":"cross","rated":true,"rating":1500,"to":"bob","type":"challenge_sent"}"#
        )
        #expect(
            try await bob.line()
                == #"{"challenge":"\#(id)","color":"o","from":"ann","increment":0,"initial":60,"layout":"cross","rated":true,"rating":1500,"type":"challenged"}"#
        )
        bob.send(#"{"type":"accept","challenge":"\#(id)"}"#)
        let (annStart, bobStart) = (try await start(of: ann), try await start(of: bob))
        #expect(annStart.fen == crossFEN && bobStart.fen == crossFEN && annStart.game == bobStart.game)
        let game = annStart.game
        watcher.send(#"{"type":"watch","game":\#(game)}"#)
        guard case .watching(let watched) = try await watcher.reply().message else {
            throw TestClient.Failure(description: "expected game")
        }
        #expect(watched.start == crossFEN && watched.fen == crossFEN)
        for (client, move) in [(ann, "b6"), (bob, "f6"), (ann, "a5"), (bob, "g5")] {
            #expect(
                try await client.exchange(#"{"type":"move","game":\#(game),"move":"\#(move)"}"#).contains(
                    "moved"))
            _ = try await (move == "b6" || move == "a5" ? bob : ann).line()
        }
        ann.send(#"{"type":"resign","game":\#(game)}"#)
        #expect(try await ann.line().contains(#""type":"end""#))
        #expect(try await bob.line().contains(#""type":"end""#))
        let pgn = try await server.client().exchange(#"{"type":"pgn","game":\#(game)}"#)
        #expect(pgn.contains(#"[FEN \"\#(crossFEN)\"]\n"#), "\(pgn)")
        #expect(pgn.contains(#"[SetUp \"1\"]\n"#), "\(pgn)")
        #expect(pgn.contains(#"1. b6 f6 2. a5 g5 0-1"#), "\(pgn)")
        // The rematch: colours swapped, from the same layout, rated as the game was.
        #expect(try await ann.exchange(#"{"type":"rematch","game":\#(game)}"#).contains("rematch_offered"))
        _ = try await bob.line()
        bob.send(#"{"type":"rematch","game":\#(game)}"#)
        var rematch: [GameStart] = []
        for client in [ann, bob] {
            while true {
                if case .start(let start) = try await client.reply().message {
                    rematch.append(start)
                    break
                }
            }
        }
        #expect(rematch.map(\.fen) == [crossFEN, crossFEN])
        #expect(rematch[0].color == .o && rematch[0].game != game)
        await server.stop()
    }

    /// A challenge from a FEN of one's own is casual, and its game starts there (o to move).
    @Test func aChallengeFromACustomFENIsCasual() async throws {
        let server = try await TestServer()
        let (ann, bob) = try await annAndBob(on: server)
        let fen = "x5o/7/7/3x3/7/7/o5x o 0 1"
        let (sent, id) = try await challenge(
            ann, "bob", terms: #""initial":60,"increment":0,"fen":"\#(fen)""#)
        #expect(
            sent
                == #"{"challenge":"\#(id)","color":"random","fen":"\#(fen)","increment":0,"initial":60,"rated":false,"rating":1500,"to":"bob","type":"challenge_sent"}"#
        )
        _ = try await bob.line()
        bob.send(#"{"type":"accept","challenge":"\#(id)"}"#)
        let starts = [try await start(of: ann), try await start(of: bob)]
        #expect(starts.map(\.fen) == [fen, fen])
        // o moves first: only o's start carries its legal moves.
        #expect(starts.filter { $0.legal != nil }.map(\.color) == [.o])
        await server.stop()
    }

    /// Bad starts get `bad_request` with the reason, and nobody hears of any challenge.
    @Test func badStartsAreRefusedAndChangeNothing() async throws {
        let server = try await TestServer()
        let (ann, bob) = try await annAndBob(on: server)
        let challengeBob = #"{"type":"challenge","to":"bob","initial":60,"increment":0,"#
        let refusals: [(String, String)] = [
            (
                #""layout":"no-such-layout"}"#,
                #"no layout is named 'no-such-layout'; {\"type\":\"layouts\"} lists them"#
            ),
            (
                #""fen":"\#(String(repeating: "x", count: 3_000))"}"#,
                "a start FEN is at most 100 bytes, not 3000"
            ),
            (
                #""fen":"\#(String(repeating: "7/", count: 51))x"}"#,
                "a start FEN is at most 100 bytes, not 103"
            ),
            (
                #""fen":"x5o/7 x"}"#,
                "bad FEN: the board must have 7 ranks separated by '/', not 2"
            ),
            (
                #""fen":"xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/ooooooo/ooooooo/ooooooo x 0 1"}"#,
                "neither side has a move from this FEN"
            ),
            (
                #""fen":"x6/7/7/7/7/7/7 o 0 1"}"#,
                "the game is over at this FEN: x wins (o has no pieces left)"
            ),
            (
                #""fen":"x5o/7/7/7/7/7/o5x x 0 1","rated":true}"#,
                "a game from a fen of one's own is casual: leave rated out"
            ),
            (
                #""fen":"x5o/7/7/7/7/7/o5x x 0 1","layout":"cross"}"#,
                "a challenge names a layout or a fen, not both"
            ),
        ]
        for (fields, reason) in refusals {
            let reply = try await ann.exchange(challengeBob + fields)
            #expect(
                reply == #"{"code":"bad_request","message":"\#(reason)","type":"error"}"#,
                "\(fields.prefix(80))")
        }
        // 10,000 characters: longer than any line the server reads.
        #expect(
            try await ann.exchange(challengeBob + #""fen":"\#(String(repeating: "x", count: 10_000))"}"#)
                == #"{"code":"line_too_long","message":"a line may have at most 4096 bytes","type":"error"}"#)
        #expect(
            try await ann.exchange(#"{"type":"seek","layout":"Cross"}"#)
                == #"{"code":"bad_request","message":"no layout is named 'Cross'; {\"type\":\"layouts\"} lists them","type":"error"}"#
        )
        // Nothing stands: bob heard of no challenge, and ann may challenge three times still.
        #expect(try await bob.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
        for _ in 0..<3 { #expect(try await challenge(ann, "bob").line.contains("challenge_sent")) }
        await server.stop()
    }

    /// A seek from a layout pairs only with a seek from the same layout; its game starts there.
    /// On one node, and across two (on PostgreSQL and in memory).
    @Test(arguments: [nil] + NodesBackend.allCases.map(Optional.some))
    func aSeekPairsOnlyWithTheSameLayout(across backend: NodesBackend?) async throws {
        let servers: [TestServer] =
            if let backend { try await NodesPlace(backend).nodes(2) } else { [try await TestServer()] }
        let (ann, bob, carl) = (
            try servers[0].client(), try servers[servers.count - 1].client(),
            try servers[servers.count - 1].client()
        )
        for (client, name) in [(ann, "ann"), (bob, "bob"), (carl, "carl")] {
            _ = try await register(client, name)
        }
        #expect(try await ann.exchange(#"{"type":"seek","layout":"cross"}"#) == #"{"type":"seeking"}"#)
        #expect(try await bob.exchange(#"{"type":"seek"}"#) == #"{"type":"seeking"}"#)
        #expect(try await carl.exchange(#"{"type":"seek","layout":"cross"}"#) == #"{"type":"seeking"}"#)
        let (annStart, carlStart) = (try await start(of: ann), try await start(of: carl))
        #expect(annStart.fen == crossFEN && carlStart.fen == crossFEN)
        #expect(annStart.opponent.name == "carl")
        // bob, from the standard start, still seeks.
        #expect(try await bob.exchange(#"{"type":"seek"}"#).contains("already_seeking"))
        for server in servers { await server.stop() }
    }

    /// Refusing all challenges lasts past the session it was said in, and each `welcome` says it.
    @Test func refusingChallengesIsStored() async throws {
        let server = try await TestServer()
        let (ann, eve) = (try server.client(), try server.client())
        _ = try await register(ann, "ann")
        let token = try await register(eve, "eve")
        #expect(
            try await eve.exchange(#"{"type":"challenges","accept":false}"#)
                == #"{"accept":false,"type":"challenges"}"#
        )
        eve.close()
        let again = try server.client()
        #expect(
            try await again.exchange(#"{"type":"auth","token":"\#(token)"}"#)
                == #"{"challenges":false,"games":0,"name":"eve","rating":1500,"rd":350,"token":"\#(token)","type":"welcome"}"#
        )
        #expect(
            try await ann.exchange(#"{"type":"challenge","to":"eve","initial":60,"increment":0}"#)
                == #"{"code":"challenge_refused","message":"eve takes no challenges now","type":"error"}"#)
        #expect(
            try await again.exchange(#"{"type":"challenges","accept":true}"#)
                == #"{"accept":true,"type":"challenges"}"#
        )
        #expect(try await challenge(ann, "eve").line.contains("challenge_sent"))
        again.close()
        #expect(
            try await server.client().exchange(#"{"type":"auth","token":"\#(token)"}"#)
                == #"{"games":0,"name":"eve","rating":1500,"rd":350,"token":"\#(token)","type":"welcome"}"#)
        await server.stop()
    }
}

@Suite struct LayoutAnalysisTests {
    /// A game from `cross` is analysed from `cross`: the evaluations are those of its positions.
    @Test func aGameFromALayoutIsAnalysedFromIt() async throws {
        let server = try await TestServer { $0.analysisDepth = 2 }
        let (ann, bob) = try await annAndBob(on: server)
        let (_, id) = try await challenge(
            ann, "bob", terms: #""initial":60,"increment":0,"color":"x","layout":"cross""#)
        _ = try await bob.line()
        bob.send(#"{"type":"accept","challenge":"\#(id)"}"#)
        let game = try await start(of: ann).game
        _ = try await start(of: bob)
        let moves = ["b6", "f6"]
        for (client, move) in zip([ann, bob], moves) {
            #expect(
                try await client.exchange(#"{"type":"move","game":\#(game),"move":"\#(move)"}"#).contains(
                    "moved"))
            _ = try await (client === ann ? bob : ann).line()
        }
        ann.send(#"{"type":"resign","game":\#(game)}"#)
        _ = try await ann.line()
        let line = try await ann.exchange(#"{"type":"analyse","game":\#(game)}"#)
        guard case .analysis(let analysis) = try Wire.reply(fromLine: Array(line.utf8)).message else {
            throw TestClient.Failure(description: line)
        }
        let cross = try Position(fen: crossFEN)
        let positions = try [cross] + moves.indices.map { try cross.replaying(moves[...$0]).position }
        let engine = Engine()
        let expected = positions.map { position in
            engine.newGame()
            let score = engine.search(position, limits: .depth(2)).score
            return position.sideToMove == .x ? score : -score
        }
        #expect(analysis.evals == expected)
        await server.stop()
    }
}

@Suite struct LayoutRestartTests {
    /// A game from a seek of `cross`, stopped after a move, is resumed from `cross` after a
    /// restart: each player's `game` carries the start, and play goes on from it.
    @Test func aGameFromALayoutResumesFromIt() async throws {
        let server = try await TestServer()
        let (ann, bob) = (try server.client(), try server.client())
        var tokens = [try await register(ann, "ann"), try await register(bob, "bob")]
        for client in [ann, bob] {
            #expect(try await client.exchange(#"{"type":"seek","layout":"cross"}"#) == #"{"type":"seeking"}"#)
        }
        let annStart = try await start(of: ann)
        _ = try await start(of: bob)
        let (x, o) = annStart.color == .x ? (ann, bob) : (bob, ann)
        if annStart.color == .o { tokens.reverse() }
        #expect(
            try await x.exchange(#"{"type":"move","game":\#(annStart.game),"move":"b6"}"#).contains("moved"))
        _ = try await o.line()
        await server.stop()
        let restarted = try await TestServer(database: server.database)
        var clients: [TestClient] = []
        for (side, token) in zip([Side.x, .o], tokens) {
            let client = try restarted.client()
            #expect(try await client.exchange(#"{"type":"auth","token":"\#(token)"}"#).contains("welcome"))
            guard case .game(let state) = try await client.reply().message else {
                throw TestClient.Failure(description: "expected game")
            }
            #expect(state.color == side && state.start == crossFEN && state.moves == ["b6"])
            #expect(state.fen == "x5o/1x1-3/7/1-3-1/7/3-3/o5x o 0 1")
            clients.append(client)
        }
        #expect(
            try await clients[1].exchange(#"{"type":"move","game":\#(annStart.game),"move":"f6"}"#).contains(
                #""fen":"x5o/1x1-1o1/7/1-3-1/7/3-3/o5x x 0 2""#))
        await restarted.stop()
    }
}

@Suite struct LayoutsAcrossNodesTests {
    /// ann on one node challenges bob on another from `cross`: the game, hosted by ann's node,
    /// starts there on both sides, and a move from bob's node is played from it.
    @Test(arguments: NodesBackend.allCases) func aChallengeFromALayoutCrossesNodes(_ backend: NodesBackend)
        async throws
    {
        let two = try await NodesPlace(backend).nodes(2)
        let (ann, bob) = (try two[0].client(), try two[1].client())
        _ = try await register(ann, "ann")
        _ = try await register(bob, "bob")
        let (_, id) = try await challenge(
            ann, "bob", terms: #""initial":60,"increment":0,"color":"o","layout":"cross""#)
        #expect(try await bob.line().contains(#""layout":"cross""#))
        bob.send(#"{"type":"accept","challenge":"\#(id)"}"#)
        let (annStart, bobStart) = (try await start(of: ann), try await start(of: bob))
        #expect(annStart.fen == crossFEN && bobStart.fen == crossFEN && bobStart.color == .x)
        bob.send(#"{"type":"move","game":\#(bobStart.game),"move":"b6","id":"m"}"#)
        #expect(try await bob.line().contains(#""fen":"x5o/1x1-3/7/1-3-1/7/3-3/o5x o 0 1""#))
        #expect(try await ann.line().contains(#""move":"b6""#))
        for server in two { await server.stop() }
    }
}
