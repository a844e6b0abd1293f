import NanashiClient
import Testing

@Test func backoffDoublesUpToItsMaximumAndStartsOverAfterASuccess() {
    var backoff = Backoff(first: .milliseconds(500), maximum: .seconds(10))
    let delays = (0..<8).map { _ in backoff.next() }
    #expect(
        delays == [
            .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(10),
            .seconds(10),
            .seconds(10),
        ])
    #expect(backoff.attempts == 8)
    backoff.reset()
    #expect(backoff.next() == .milliseconds(500))
}
