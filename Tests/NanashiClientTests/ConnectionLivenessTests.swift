import Testing

@testable import NanashiClient

// When a connection pings, and when it gives up on a server that has stopped answering: plain
// values at given instants, no timer.

private let opened = ContinuousClock.now

private func at(_ seconds: Int) -> ContinuousClock.Instant { opened + .seconds(seconds) }

private func liveness() -> ConnectionLiveness {
    ConnectionLiveness(keepAlive: .seconds(30), answerWithin: .seconds(20), opened: opened)
}

@Test func aSilentClientPingsAfterTheKeepAliveAndAgainAfterEachMessage() {
    var connection = liveness()
    #expect(connection.verdict(at: at(29)) == .wait)
    #expect(connection.verdict(at: at(30)) == .ping)
    connection.sent(at: at(30))
    connection.received(at: at(30))
    #expect(connection.verdict(at: at(59)) == .wait)
    #expect(connection.verdict(at: at(60)) == .ping)
}

@Test func aRequestWithNoLineBackWithinTheLimitGivesTheConnectionUp() {
    var connection = liveness()
    connection.sent(at: at(5))
    #expect(connection.verdict(at: at(24)) == .wait)
    // A second request does not put the limit off: it runs from the first unanswered one.
    connection.sent(at: at(10))
    #expect(connection.verdict(at: at(25)) == .giveUp)
}

@Test func anyLineFromTheServerShowsItIsThere() {
    var connection = liveness()
    connection.sent(at: at(5))
    connection.received(at: at(24))
    #expect(connection.verdict(at: at(34)) == .wait)
    // The next request starts the count again.
    connection.sent(at: at(41))
    #expect(connection.verdict(at: at(60)) == .wait)
    #expect(connection.verdict(at: at(61)) == .giveUp)
}

@Test func aConnectionWithNothingAskedIsNeverGivenUp() {
    var connection = liveness()
    // The server owes nothing: however long it says nothing, the client only pings.
    #expect(connection.verdict(at: at(3_600)) == .ping)
    connection.received(at: at(10))
    #expect(connection.verdict(at: at(3_600)) == .ping)
}
