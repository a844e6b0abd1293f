import NanashiProtocol
import NanashiServerTestSupport
import NanashiTransport
import Synchronization
import Testing

@testable import NanashiServer

/// A login that checked its token just before a logout of it (on this node, or on another
/// whose `loggedOut` came first) attaches after the logout closed every connection it knew:
/// it checks its token again then, and gets `bye` when the token is gone.
@Suite struct LogoutRaceTests {
    /// What a connection's outbox was sent.
    private final class Received: Sendable {
        let lines = Mutex<[String]>([])
        let closed = Mutex<Bool>(false)

        var outbox: Outbox {
            Outbox(id: 9_000_001) { [self] event in
                switch event {
                case .line(let line): lines.withLock { $0.append(line) }
                case .close: closed.withLock { $0 = true }
                default: break
                }
            }
        }
    }

    @Test func aLoginAttachingAfterALogoutOfItsTokenIsClosed() async throws {
        let server = try await TestServer()
        let ann = try server.client()
        let token = try await register(ann, "ann")
        #expect(try await ann.exchange(#"{"type":"logout","id":1}"#) == #"{"id":1,"type":"bye"}"#)
        let lobby = try #require(server.server?.lobby)
        let player = try #require(try await lobby.storage.player(named: "ann"))
        let received = Received()
        let welcome = Welcome(name: "ann", token: token, rating: 1500, rd: 350, games: 0)
        let digest = try #require(SessionToken.digest(of: token))
        await lobby.attach(player, token: digest, outbox: received.outbox, welcome: welcome, id: .integer(2))
        #expect(
            received.lines.withLock { $0 } == [
                #"{"games":0,"id":2,"name":"ann","rating":1500,"rd":350,"token":"\#(token)","type":"welcome"}"#,
                #"{"type":"bye"}"#,
            ])
        #expect(received.closed.withLock { $0 })
        let connections = await lobby.connections
        #expect(connections[player.id!] == nil)
        await server.stop()
    }

    /// A new login after a logout (a new token) attaches and stays.
    @Test func aNewTokenAfterALogoutStays() async throws {
        let server = try await TestServer()
        let ann = try server.client()
        _ = try await register(ann, "ann")
        #expect(try await ann.exchange(#"{"type":"logout","id":1}"#) == #"{"id":1,"type":"bye"}"#)
        let again = try server.client()
        let token = try await login(again, "ann")
        #expect(try await again.exchange(#"{"type":"ping","id":3}"#) == #"{"id":3,"type":"pong"}"#)
        let lobby = try #require(server.server?.lobby)
        let player = try #require(try await lobby.storage.player(named: "ann"))
        let connections = await lobby.connections
        #expect(connections[player.id!]?.token == SessionToken.digest(of: token))
        await server.stop()
    }
}
