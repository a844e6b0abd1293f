import NanashiCore
import Testing

private let epoch = ContinuousClock.now

private func at(_ milliseconds: Int64) -> ContinuousClock.Instant { epoch + .milliseconds(milliseconds) }

@Test func onlyTheRunningClockLosesTimeAndNeitherReadsBelowZero() {
    let clock = GameClock(Clocks(x: 60_000, o: 30_000), running: .x, since: at(0))
    #expect(clock.reading(at: at(1_250)) == Clocks(x: 58_750, o: 30_000))
    #expect(clock.left(.x, at: at(61_000)) == -1_000)
    #expect(clock.reading(at: at(61_000)) == Clocks(x: 0, o: 30_000))
}

@Test func pressingChargesTheMoverAddsTheIncrementAndStartsTheOpponent() {
    var clock = GameClock(Clocks(x: 60_000, o: 60_000), running: .x, since: at(0))
    clock.press(at: at(5_000), increment: 2_000)
    #expect(clock.running == .o && clock.atTurnStart == Clocks(x: 57_000, o: 60_000))
    #expect(clock.reading(at: at(8_000)) == Clocks(x: 57_000, o: 57_000))
    clock.press(at: at(8_000), increment: 2_000)
    #expect(clock.reading(at: at(8_000)) == Clocks(x: 57_000, o: 59_000))
}

@Test func aStoppedClockKeepsItsTimeUntilStartedAgain() {
    var clock = GameClock(Clocks(x: 10_000, o: 10_000), running: .o, since: at(0))
    clock.stop(at: at(4_000))
    #expect(clock.running == nil)
    #expect(clock.reading(at: at(60_000)) == Clocks(x: 10_000, o: 6_000))
    // Pressing a stopped clock changes nothing.
    clock.press(at: at(61_000), increment: 5_000)
    #expect(clock.reading(at: at(61_000)) == Clocks(x: 10_000, o: 6_000))
    clock.start(.o, at: at(70_000))
    #expect(clock.reading(at: at(71_000)) == Clocks(x: 10_000, o: 5_000))
}

@Test func aMoveStopsBothClocksWithTheIncrementUntilTheOtherSideStarts() {
    var clock = GameClock(Clocks(x: 10_000, o: 10_000), running: .x, since: at(0))
    // A quarter-second increment counts to the millisecond.
    clock.stop(afterMoveBy: .x, at: at(1_500), increment: 250)
    #expect(clock.running == nil && clock.atTurnStart == Clocks(x: 8_750, o: 10_000))
    // Neither runs while the move is stored; o's starts once it is.
    #expect(clock.reading(at: at(3_000)) == Clocks(x: 8_750, o: 10_000))
    clock.start(.o, at: at(3_000))
    #expect(clock.reading(at: at(4_000)) == Clocks(x: 8_750, o: 9_000))
    // A move made while both stand (a resumed game, one player away) still earns the increment.
    clock.stop(at: at(4_000))
    clock.stop(afterMoveBy: .o, at: at(9_000), increment: 250)
    #expect(clock.atTurnStart == Clocks(x: 8_750, o: 9_250))
}

/// The clocks a client is sent come from the wire: extreme ones are held at the bounds.
@Test func extremeClocksAreHeldAtTheBoundsInsteadOfOverflowing() {
    var clock = GameClock(Clocks(x: .min, o: .max), running: .x, since: at(0))
    #expect(clock.left(.x, at: at(5_000)) == .min)
    #expect(clock.reading(at: at(5_000)) == Clocks(x: 0, o: .max))
    clock.press(at: at(5_000), increment: 1_000)
    #expect(clock.atTurnStart == Clocks(x: .min + 1_000, o: .max))
    // o's 1,000 ms used and 1,000 earned back, at the top already.
    clock.stop(afterMoveBy: .o, at: at(6_000), increment: 1_000)
    #expect(clock.atTurnStart == Clocks(x: 0, o: .max))
}
