import NanashiProtocol
import NanashiServerTestSupport
import Synchronization
import Testing

@testable import NanashiServer

/// The `live` list with several nodes, read from what the nodes share: one read at a time, and
/// none kept that a game's end has made stale.
@Suite struct LiveListReadTests {
    /// How many reads of the live list began.
    final class Reads: Sendable {
        let count = Mutex(0)
    }

    /// Requests for the list that come while it is being read wait for that read rather than
    /// each reading it again (a herd of reads on the database).
    @Test func requestsDuringAReadShareIt() async throws {
        let (node, game, lobby, reads, release) = try await gameWithLiveReadsHeld()

        let first = Task { await lobby.live() }
        while reads.count.withLock({ $0 }) == 0 { await Task.yield() }
        let others = (0..<2).map { _ in Task { await lobby.live() } }
        // Each of the two either reads again or waits for the first read.
        while await reads.count.withLock({ $0 }) + lobby.liveReadsShared < 3 { await Task.yield() }
        release()

        let lists = [await first.value, await others[0].value, await others[1].value]
        #expect(reads.count.withLock { $0 } == 1)
        #expect(lists.allSatisfy { $0.map(\.game) == [game.game] })
        await node.stop()
    }

    /// One node in memory with a game of two plies under way, its lobby, and the reads of the
    /// live list held once they have their list: how many there were, and what lets them go.
    private func gameWithLiveReadsHeld() async throws -> (
        node: TestServer, game: PlayedGame, lobby: Lobby, reads: Reads, release: @Sendable () -> Void
    ) {
        let place = try await NodesPlace(.memory)
        let node = try await place.nodes(1)[0]
        let game = try await PlayedGame(annServer: node, bobServer: node, plies: 2)
        let reads = Reads()
        let release = try #require(place.memory).holdLiveReads(entered: { reads.count.withLock { $0 += 1 } })
        return (node, game, try #require(node.server).lobby, reads, release)
    }

    /// A list read before a game ended, and answered after, is not kept: the next request
    /// reads again and does not list the game (the clock stands still, so a kept list would
    /// be served).
    @Test func aListReadBeforeAGameEndedIsNotKept() async throws {
        let (node, game, lobby, reads, release) = try await gameWithLiveReadsHeld()

        let before = Task { await lobby.live() }
        while reads.count.withLock({ $0 }) == 0 { await Task.yield() }
        let ann = try #require(game.clients[.x])
        _ = try await ann.exchange(#"{"type":"resign","game":\#(game.game)}"#)
        while await lobby.isInProgress(game.game) { await Task.yield() }
        release()

        #expect(await before.value.map(\.game) == [game.game])
        #expect(await lobby.live().isEmpty)
        await node.stop()
    }
}
