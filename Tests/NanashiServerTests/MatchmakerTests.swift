import NanashiCore
import NanashiProtocol
import Testing

@testable import NanashiServer

private let start = ContinuousClock.now
private func seek(_ id: Int64, _ rating: Double, after seconds: Int = 0, _ control: TimeControl = .standard)
    -> Matchmaker.Seek
{
    Matchmaker.Seek(playerID: id, rating: rating, control: control, since: start + .seconds(seconds))
}

@Test func closeRatingsPairAtOnceAndClosestFirst() throws {
    var pool = Matchmaker(gap: 100, widening: 25)
    try pool.add(seek(1, 1500))
    try pool.add(seek(2, 1700))
    try pool.add(seek(3, 1560))
    try pool.add(seek(4, 1530))
    let pairs = pool.pairs(now: start)
    #expect(pairs.map { [$0.0.playerID, $0.1.playerID] } == [[1, 4]])
    #expect(pool.seeks.map(\.playerID) == [2, 3])
}

@Test func theAcceptedGapWidensWithTheLongerWait() throws {
    var pool = Matchmaker(gap: 100, widening: 25)
    try pool.add(seek(1, 1500))
    try pool.add(seek(2, 1800, after: 11))
    // At 11 s the first seek accepts 100 + 25·11 = 375 points: the newcomer fits at once.
    #expect(pool.pairs(now: start + .seconds(7)).isEmpty)
    #expect(pool.pairs(now: start + .seconds(11)).map { [$0.0.playerID, $0.1.playerID] } == [[1, 2]])
    #expect(pool.seeks.isEmpty)
}

@Test func onlyTheSameTimeControlPairs() throws {
    var pool = Matchmaker(gap: 100, widening: 25)
    try pool.add(seek(1, 1500, TimeControl(initial: 60, increment: 0)))
    try pool.add(seek(2, 1500))
    #expect(pool.pairs(now: start + .seconds(3600)).isEmpty)
    try pool.add(seek(3, 2400, after: 10, TimeControl(initial: 60, increment: 0)))
    #expect(pool.pairs(now: start + .seconds(3600)).map { [$0.0.playerID, $0.1.playerID] } == [[1, 3]])
}

@Test func aPlayerSeeksOnceAndNeverMeetsThemselves() throws {
    var pool = Matchmaker(gap: 100, widening: 25)
    try pool.add(seek(1, 1500))
    #expect(throws: ProtocolError(.alreadySeeking, "you are already seeking")) { try pool.add(seek(1, 1500)) }
    #expect(pool.pairs(now: start + .seconds(1000)).isEmpty)
    #expect(pool.remove(1) && !pool.remove(1) && pool.seeks.isEmpty)
}
