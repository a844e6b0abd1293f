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

@Test func aPairRuledOutLeavesBothSeeksFreeToMeetOthers() throws {
    var pool = Matchmaker(gap: 100, widening: 25)
    for id in 1...5 { try pool.add(seek(Int64(id), 1500)) }
    // 1 and 2 may not meet, nor 5 anyone: 1 meets 3, 2 meets 4, and 5 waits.
    let pairs = pool.pairs(now: start) { first, second in
        Set([first.playerID, second.playerID]) != [1, 2] && first.playerID != 5 && second.playerID != 5
    }
    #expect(pairs.map { [$0.0.playerID, $0.1.playerID] } == [[1, 3], [2, 4]])
    #expect(pool.seeks.map(\.playerID) == [5])
}

/// Each time control and layout is a pool of its own: of 600 seeks at 300 time controls, two at
/// each, the two of each pair, in the order the first of them came, and nothing pairs across.
@Test func seeksPairWithinTheirTimeControlInTheOrderTheyCame() throws {
    var pool = Matchmaker(gap: 100, widening: 25)
    let controls = (0..<300).map { TimeControl(initial: 60 + $0, increment: $0 % 7) }
    // Each control's first seek comes in the first half, its second in the second, in the other
    // order, with ratings a world apart from their neighbours'.
    for (index, control) in controls.enumerated() {
        try pool.add(seek(Int64(index), Double(index * 1_000), control))
    }
    for (index, control) in controls.enumerated().reversed() {
        try pool.add(seek(Int64(1_000 + index), Double(index * 1_000 + 50), control))
    }
    try pool.add(seek(5_000, 0, TimeControl(initial: 59, increment: 0)))
    let pairs = pool.pairs(now: start)
    #expect(
        pairs.map { [$0.0.playerID, $0.1.playerID] } == (0..<300).map { [Int64($0), Int64(1_000 + $0)] })
    #expect(pool.seeks.map(\.playerID) == [5_000])
}
