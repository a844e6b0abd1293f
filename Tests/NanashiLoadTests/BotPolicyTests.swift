import NanashiCore
import Testing

@testable import NanashiLoad

@Test func aBotPassesWhenItMust() throws {
    // x has no move at all (its only piece is walled in by blockers); o can move.
    let position = try Position(fen: "x--4/---4/---4/7/7/7/6o x 0 1")
    var random = SplitMix64(seed: 7)
    #expect(BotPolicy().decide(position, ply: 4, using: &random) == .move(.pass))
}

@Test(arguments: [0, 1])
func aBotNeitherResignsNorDropsBeforeBothSidesHaveMoved(ply: Int) {
    var random = SplitMix64(seed: 3)
    let policy = BotPolicy(resignChance: 0.5, dropChance: 0.5)
    for _ in 0..<50 {
        guard case .move(let move) = policy.decide(.start, ply: ply, using: &random) else {
            Issue.record("resigned or dropped at ply \(ply)")
            return
        }
        #expect(Position.start.isLegal(move))
    }
}

@Test(arguments: [
    (1.0, 0.0, BotAction.resign),
    (0.0, 1.0, BotAction.drop),
])
func certainChancesAreTaken(resign: Double, drop: Double, expected: BotAction) {
    var random = SplitMix64(seed: 11)
    #expect(
        BotPolicy(resignChance: resign, dropChance: drop).decide(.start, ply: 2, using: &random) == expected)
}

@Test func botsPlayOnlyLegalMovesToTheEndOfTheirGames() throws {
    var random = SplitMix64(seed: 42)
    let policy = BotPolicy(resignChance: 0, dropChance: 0)
    for _ in 0..<20 {
        var position = Position.start
        var ply = 0
        while !position.isGameOver {
            guard case .move(let move) = policy.decide(position, ply: ply, using: &random) else {
                Issue.record("a bot resigned or dropped with no chance to")
                return
            }
            position = try position.play(move)
            ply += 1
        }
        #expect(ply > 0)
    }
}

@Test func theSameSeedMakesTheSameChoices() {
    var first = SplitMix64(seed: 5)
    var second = SplitMix64(seed: 5)
    let policy = BotPolicy()
    let a = (0..<10).map { _ in policy.decide(.start, ply: 2, using: &first) }
    let b = (0..<10).map { _ in policy.decide(.start, ply: 2, using: &second) }
    #expect(a == b)
}
