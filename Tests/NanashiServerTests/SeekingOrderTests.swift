import Foundation
import NanashiCluster
import NanashiServerTestSupport
import NanashiTestSupport
import Testing

@testable import NanashiServer

/// The order of a seek's answer and the game it starts, across nodes.
@Suite struct SeekingOrderTests {
    /// Another node may pair a seek while its own node is still storing it: the player then
    /// gets `seeking` before that game's `start`, as on one node, not after it (where a client
    /// took it for a new seek and left the game's board).
    @Test func aSeekPairedElsewhereWhileItIsStoredIsAnsweredBeforeItsStart() async throws {
        let memory = InMemoryNodes()
        let file = try TemporaryDatabase()
        let clock = TestClock()
        var servers: [TestServer] = []
        for _ in 0..<2 {
            servers.append(
                try await TestServer(database: file, joining: memory) {
                    $0.clock = clock
                })
        }
        let ann = try servers[0].client()
        _ = try await register(ann, "ann")
        let bob = try servers[1].client()
        _ = try await register(bob, "bob")
        let seek = #"{"type":"seek","initial":300,"increment":3,"id":"s"}"#
        #expect(try await ann.exchange(seek) == #"{"id":"s","type":"seeking"}"#)

        // bob's seek goes into the pool, and his node waits there until released.
        let (held, heldNow) = AsyncStream<Void>.makeStream()
        let (release, releaseNow) = AsyncStream<Void>.makeStream()
        memory.holdNextSeek(held: { heldNow.yield() }, release: release)
        bob.send(seek)
        for await _ in held { break }
        // ann's node pairs both on its next pass and tells bob's node of the game.
        clock.advance(by: .seconds(1))
        let annStart = try await ann.line()
        #expect(annStart.contains(#""type":"start""#), "\(annStart)")
        releaseNow.finish()
        #expect(try await bob.line() == #"{"id":"s","type":"seeking"}"#)
        let bobStart = try await bob.line()
        #expect(bobStart.contains(#""type":"start""#), "\(bobStart)")
        for server in servers { await server.stop() }
    }
}
