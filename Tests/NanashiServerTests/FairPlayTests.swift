import Foundation
import NanashiAI
import NanashiCore
import NanashiProtocol
import NanashiTestSupport
import Testing

@testable import NanashiServer
@testable import NanashiStorage

/// How a player picks moves in the games these tests make up.
private enum Policy {
    /// The engine's move at this depth: a player with engine help.
    case engine(depth: Int)
    /// A legal move at random.
    case random
}

/// Plays `plies` plies (fewer if the game ends) from the start, x by `x`'s policy and o by `o`'s.
private func play(
    _ x: Policy, _ o: Policy, plies: Int, engine: Engine, random: inout SeededGenerator
) throws -> (positions: [Position], moves: [Move]) {
    var positions = [Position.start]
    var moves: [Move] = []
    while moves.count < plies, let position = positions.last, !position.isGameOver {
        let move: Move
        switch position.sideToMove == .x ? x : o {
        case .engine(let depth):
            engine.newGame()
            move = position.hasMove ? engine.search(position, limits: .depth(depth)).bestMove : .pass
        case .random:
            move = position.legalMoves().randomElement(using: &random)!
        }
        positions.append(try position.play(move))
        moves.append(move)
    }
    return (positions, moves)
}

/// The analysis of a game, as the server computes it, at `depth`.
private func analyse(
    _ game: (positions: [Position], moves: [Move]), id: Int64, depth: Int, on engines: EnginePool
) async -> GameAnalysis {
    await Analyst.analyse(id, positions: game.positions, moves: game.moves, depth: depth, on: engines)
}

@Suite struct FairPlayTests {
    /// The plies of each made-up game, the engine's depth when it plays, and the analysis's. At
    /// depth 1 the engine sees no reply: with the network of 2026-12-05 its game against itself
    /// from the start ends in 13 plies, too few moves to measure.
    static let (plies, playingDepth, analysisDepth) = (24, 2, 2)
    /// The plies of each game among the players `suspects` ranks. Over two games of 24 plies (24
    /// moves of one's own) a random player's share of accurate moves varies by about 7 points,
    /// more than the smallest spread the others are measured by: one of them stood out by chance
    /// (network cec6fbcb0223, z 3.54; one seed of ten). At 40 plies none did in ten seeds.
    static let rankedPlies = 40

    /// Games the engine plays against itself are far more accurate than random play; engine
    /// moves in a game against random moves are too, move by move.
    @Test func theEnginesGamesStandFarAboveRandomPlay() async throws {
        let (engine, engines) = (Engine(), EnginePool(threads: 1, maximumWaiting: 64))
        defer { engines.stop() }
        var random = SeededGenerator(seed: 57)
        var (engineAccuracy, randomAccuracy) = (Accuracy(), Accuracy())
        for id in Int64(1)...3 {
            let own = Policy.engine(depth: Self.playingDepth)
            let selfPlay = try play(own, own, plies: Self.plies, engine: engine, random: &random)
            let analysed = await analyse(selfPlay, id: id, depth: Self.analysisDepth, on: engines)
            engineAccuracy = engineAccuracy + analysed.accuracy(of: .x) + analysed.accuracy(of: .o)
            let noise = try play(.random, .random, plies: Self.plies, engine: engine, random: &random)
            let noiseAnalysed = await analyse(noise, id: 10 + id, depth: Self.analysisDepth, on: engines)
            randomAccuracy = randomAccuracy + noiseAnalysed.accuracy(of: .x) + noiseAnalysed.accuracy(of: .o)
        }
        #expect(
            engineAccuracy.moves >= 60 && randomAccuracy.moves >= 60, "\(engineAccuracy) v \(randomAccuracy)")
        #expect(
            engineAccuracy.percent >= randomAccuracy.percent + 30, "\(engineAccuracy) v \(randomAccuracy)")
        #expect(
            engineAccuracy.averageLoss * 3 <= randomAccuracy.averageLoss,
            "\(engineAccuracy) v \(randomAccuracy)")
    }

    /// Among players who play at random, one who plays the engine's moves is flagged, alone;
    /// among the random players alone, nobody is.
    @Test func suspectsFlagsTheEngineLikePlayerAndNotTheOthers() async throws {
        let (engine, engines) = (Engine(), EnginePool(threads: 1, maximumWaiting: 64))
        defer { engines.stop() }
        var random = SeededGenerator(seed: 2026)
        let names = ["bot", "ann", "bob", "cat", "dan", "eve"]
        let policy = { (index: Int) -> Policy in index == 0 ? .engine(depth: Self.playingDepth) : .random }
        // Each player plays x once and o once (bot against ann and eve); newest game last here.
        let pairings = (0..<names.count).map { ($0, ($0 + 1) % names.count) }
        var analyses: [RatedAnalysis] = []
        for (number, (x, o)) in pairings.enumerated() {
            let game = try play(
                policy(x), policy(o), plies: Self.rankedPlies, engine: engine, random: &random)
            let id = Int64(number + 1)
            let rated = RatedGame(
                game: id, xID: Int64(x + 1), xName: names[x], oID: Int64(o + 1), oName: names[o])
            analyses.insert(
                RatedAnalysis(
                    game: rated, analysis: await analyse(game, id: id, depth: Self.analysisDepth, on: engines)
                ),
                at: 0)
        }
        var settings = FairPlay.Settings()
        settings.minimumGames = 2
        let suspects = FairPlay.suspects(analyses, settings: settings)
        #expect(suspects.map(\.player.name) == ["bot"])
        if let bot = suspects.first {
            #expect(
                bot.player.games == 2 && bot.z >= settings.zThreshold
                    && bot.othersMean < bot.player.accuracy.percent)
        }
        // Without the bot's games, the random players stand level.
        let withoutBot = analyses.filter { $0.game.xName != "bot" && $0.game.oName != "bot" }
        settings.minimumGames = 1
        #expect(FairPlay.suspects(withoutBot, settings: settings).isEmpty)
        #expect(
            FairPlay.standings(FairPlay.players(withoutBot, lastGames: 20), settings: settings).count == 5)
    }

    /// Each player counts their latest games only; the population leaves the player out.
    @Test func playersCountTheirLatestGamesAndStandAgainstTheOthers() {
        func analysis(_ id: Int64, _ x: Int64, _ o: Int64, evals: [Int]) -> RatedAnalysis {
            RatedAnalysis(
                game: RatedGame(game: id, xID: x, xName: "p\(x)", oID: o, oName: "p\(o)"),
                analysis: GameAnalysis(game: id, depth: 6, evals: evals, mistakes: []))
        }
        // p1 (x) plays perfectly in games 3 and 2, badly in game 1 (the oldest); o loses 100 a move.
        let analyses = [
            analysis(3, 1, 2, evals: [0, 0, 100, 100]), analysis(2, 1, 3, evals: [0, 0, 100, 100]),
            analysis(1, 1, 4, evals: [0, -500, -500]),
        ]
        let players = FairPlay.players(analyses, lastGames: 2)
        #expect(
            players[1]
                == FairPlay.Player(id: 1, name: "p1", games: 2, accuracy: Accuracy(moves: 4, accurate: 4)))
        #expect(players[2]?.accuracy == Accuracy(moves: 1, accurate: 0, totalLoss: 100))
        #expect(players[4]?.accuracy == Accuracy(moves: 1, accurate: 1, totalLoss: 0))
        var settings = FairPlay.Settings()
        settings.minimumGames = 1
        let standings = FairPlay.standings(players, settings: settings)
        // p1 at 100%, set against p2, p3 (0%) and p4 (100%): mean 33.3, spread 47.1.
        #expect(standings.map(\.player.name) == ["p1", "p4", "p2", "p3"])
        #expect(abs(standings[0].othersMean - 100.0 / 3) < 1e-9)
        #expect(abs(standings[0].othersSpread - (20_000.0 / 9).squareRoot()) < 1e-9)
        // Too few others to judge anyone.
        settings.minimumOthers = 4
        #expect(FairPlay.standings(players, settings: settings).isEmpty)
    }

    /// The background's next game is the newest of the most accurate player with enough games.
    @Test func theNextGameToAnalyseIsTheMostAccuratePlayers() {
        let game = { (id: Int64, x: Int64, o: Int64) in
            RatedGame(game: id, xID: x, xName: "p\(x)", oID: o, oName: "p\(o)")
        }
        let unanalysed = [game(9, 1, 2), game(8, 3, 4), game(7, 3, 1)]
        let players: [Int64: FairPlay.Player] = [
            1: .init(id: 1, name: "p1", games: 5, accuracy: Accuracy(moves: 10, accurate: 5)),
            3: .init(id: 3, name: "p3", games: 5, accuracy: Accuracy(moves: 10, accurate: 9)),
            4: .init(id: 4, name: "p4", games: 1, accuracy: Accuracy(moves: 10, accurate: 10)),
        ]
        #expect(FairPlay.nextToAnalyse(unanalysed, players: players, minimumGames: 5) == game(8, 3, 4))
        #expect(FairPlay.nextToAnalyse(unanalysed, players: [:], minimumGames: 5) == game(9, 1, 2))
        #expect(FairPlay.nextToAnalyse([], players: players, minimumGames: 5) == nil)
    }
}
