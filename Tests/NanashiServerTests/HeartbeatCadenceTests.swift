import Foundation
import NanashiRuntime
import NanashiServerTestSupport
import Testing

@testable import NanashiServer

@Suite struct HeartbeatCadenceTests {
    /// A node beats its heartbeat every fifth of its lease (2 s of a 10 s lease), so that the
    /// heartbeat the other nodes read is never a quarter of the lease old (plus the time a beat
    /// takes to write). Each time the server's clock comes to the next beat, the heartbeat is
    /// renewed at that time.
    @Test func aNodeBeatsFiveTimesALease() async throws {
        let place = try await NodesPlace(.memory)
        let clock = TestClock()
        let node = try await place.nodes(1, clock: clock, lease: .seconds(10))[0]
        let id = try #require(await node.server!.lobby.cluster?.node)
        #expect(ServerSettings.heartbeatsPerLease == 5)
        for _ in 0..<3 {
            try await clock.advanceWhenArmed(by: .seconds(2))
            let started = ContinuousClock.now
            while place.memory!.lastHeartbeat(of: id) != clock.date {
                try #require(ContinuousClock.now - started < .seconds(30), "the heartbeat was not renewed")
                try await Task.sleep(for: .milliseconds(1))
            }
        }
        await node.stop()
    }
}
