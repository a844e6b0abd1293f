import Foundation
import NanashiCluster
import NanashiRuntime
import NanashiServerTestSupport
import Testing

@testable import NanashiServer

@Suite struct HeartbeatCadenceTests {
    /// A node beats its heartbeat every fifth of its lease (2 s of a 10 s lease), so that the
    /// heartbeat the other nodes read is never a quarter of the lease old (plus the time a beat
    /// takes to write). Each time the server's clock comes to the next beat, the heartbeat is
    /// renewed at that time. (The check of moderators' actions, every 2 s by default, is moved
    /// to 7 s: a timer of its own due at the beat's time would be taken for the beat's.)
    @Test func aNodeBeatsFiveTimesALease() async throws {
        let (file, memory, clock) = (try TemporaryDatabase(), InMemoryNodes(), TestClock())
        let node = try await TestServer(database: file, joining: memory) {
            $0.clock = clock
            $0.nodeLease = .seconds(10)
            $0.moderationCheckInterval = .seconds(7)
        }
        let id = try #require(await node.server!.lobby.cluster?.node)
        #expect(ServerSettings.heartbeatsPerLease == 5)
        for _ in 0..<3 {
            try await clock.advanceWhenArmed(by: .seconds(2))
            let started = ContinuousClock.now
            while memory.lastHeartbeat(of: id) != clock.date {
                try #require(ContinuousClock.now - started < .seconds(30), "the heartbeat was not renewed")
                try await Task.sleep(for: .milliseconds(1))
            }
        }
        await node.stop()
    }
}
