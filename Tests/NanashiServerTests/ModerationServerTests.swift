import Foundation
import NanashiCore
import NanashiProtocol
import NanashiRuntime
import NanashiServerTestSupport
import NanashiStorage
import NanashiTestSupport
import Testing

@testable import NanashiServer

// `nanashi admin` while a server runs: a closed account's sessions end on SQLite (the server
// reads the moderators' log) and on PostgreSQL (the nodes are told), a reset token sets a new
// password once, a marked player is refused rated games.

/// The moderation tool on `server`'s own database, as `nanashi admin` opens it.
private func moderation(of server: TestServer) async throws -> Moderation {
    try await Moderation.open(server.settings.databasePath, moderator: "mod")
}

@Suite struct ModerationServerTests {
    @Test func aClosedAccountIsLoggedOutAndCannotComeBack() async throws {
        let server = try await TestServer()
        let ann = try server.client()
        let token = try await register(ann, "ann")
        // The server has read the log's end and waits for its next look.
        let interval = server.settings.moderationCheckInterval
        try await server.clock.waitForTimer(until: server.clock.now + interval)
        let admin = try await moderation(of: server)
        #expect(try await admin.close("ann", reason: "spam") == "closed 'ann'")
        await admin.close()
        server.clock.advance(by: interval)
        #expect(try await ann.linesUntilClosed() == [#"{"type":"bye"}"#])

        let again = try server.client()
        let closed = #"{"code":"account_closed","message":"the account 'ann' is closed","type":"error"}"#
        #expect(try await again.exchange(#"{"type":"login","name":"ann","password":"password1"}"#) == closed)
        #expect(
            try await again.exchange(#"{"type":"register","name":"ANN","password":"password1"}"#) == closed)
        #expect(
            try await again.exchange(#"{"type":"auth","token":"\#(token)"}"#)
                == #"{"code":"bad_credentials","message":"unknown or expired token; log in again","type":"error"}"#
        )
        // A wrong password says nothing of the account.
        #expect(
            try await again.exchange(#"{"type":"login","name":"ann","password":"wrong-one"}"#)
                == #"{"code":"bad_credentials","message":"wrong name or password","type":"error"}"#)
        await server.stop()
    }

    @Test func aResetTokenSetsANewPasswordOnce() async throws {
        let server = try await TestServer()
        let ann = try server.client()
        let oldToken = try await register(ann, "ann")
        let admin = try await moderation(of: server)
        let reset = try await admin.resetPassword("ann", reason: "forgot it")
        await admin.close()

        let client = try server.client()
        func resetLine(_ name: String, _ token: String, _ password: String) -> String {
            #"{"type":"reset_password","name":"\#(name)","token":"\#(token)","password":"\#(password)"}"#
        }
        let refused =
            #"{"code":"bad_credentials","message":"wrong name, or unknown, used or expired reset token","type":"error"}"#
        #expect(try await client.exchange(resetLine("ann", oldToken, "new password")) == refused)
        #expect(try await client.exchange(resetLine("bob", reset.token, "new password")) == refused)
        #expect(
            try await client.exchange(resetLine("ann", reset.token, "short"))
                == #"{"code":"weak_password","message":"a password has at least 8 characters","type":"error"}"#
        )
        #expect(
            try await client.exchange(resetLine("ann", reset.token, "new password")).contains(
                #""type":"welcome""#))
        // The old session ended, the old password too; the new one works; the token is spent.
        #expect(try await ann.linesUntilClosed().last == #"{"type":"superseded"}"#)
        let other = try server.client()
        #expect(
            try await other.exchange(#"{"type":"auth","token":"\#(oldToken)"}"#).contains("bad_credentials"))
        #expect(try await !logsIn(other, as: "ann"))
        #expect(try await login(other, "ann", password: "new password").isEmpty == false)
        #expect(try await other.exchange(resetLine("ann", reset.token, "third password")) == refused)
        await server.stop()
    }

    @Test func wrongResetTokensCountAsFailedLogins() async throws {
        let server = try await TestServer { $0.failedLoginsBeforeThrottle = 2 }
        let ann = try server.client()
        _ = try await register(ann, "ann")
        let client = try server.client()
        let wrong = #"{"type":"reset_password","name":"ann","token":"nope","password":"new password"}"#
        for _ in 0..<2 { #expect(try await client.exchange(wrong).contains("bad_credentials")) }
        #expect(
            try await client.exchange(wrong)
                == #"{"code":"rate_limited","message":"too many failed logins for this name; try again later","type":"error"}"#
        )
        await server.stop()
    }

    @Test func aMarkedPlayerIsRefusedRatedGames() async throws {
        let server = try await TestServer()
        let ann = try server.client()
        _ = try await register(ann, "ann")
        let bob = try server.client()
        _ = try await register(bob, "bob")
        let admin = try await moderation(of: server)
        #expect(try await admin.markEngineHelp("ann", true, reason: "engine") == "marked 'ann'")
        let restricted =
            #"{"code":"restricted","message":"your account is marked as playing with engine help: no rated games (casual ones and the engine are open)","type":"error"}"#
        #expect(try await ann.exchange(#"{"type":"seek","initial":300,"increment":3}"#) == restricted)
        // Rated challenges, made or received, are refused; a casual one stands.
        #expect(
            try await ann.exchange(#"{"type":"challenge","to":"bob","initial":60,"increment":0}"#)
                == restricted)
        #expect(
            try await bob.exchange(#"{"type":"challenge","to":"ANN","initial":60,"increment":0}"#)
                == #"{"code":"restricted","message":"ann may play casual games only","type":"error"}"#)
        #expect(
            try await ann.exchange(
                #"{"type":"challenge","to":"bob","initial":60,"increment":0,"rated":false}"#
            )
            .contains(#""type":"challenge_sent""#))
        guard case .challenged(let notice) = try await bob.reply().message else {
            throw TestClient.Failure(description: "expected challenged")
        }
        #expect(notice.player == "ann" && !notice.terms.rated)
        _ = try await admin.markEngineHelp("ann", false, reason: "appeal")
        await admin.close()
        #expect(
            try await ann.exchange(#"{"type":"seek","initial":300,"increment":3}"#) == #"{"type":"seeking"}"#)
        await server.stop()
    }

    /// A seek waiting when its player is marked is never paired: the pass that would pair the
    /// next seeker with them reads the mark, withdraws their seek and tells them `restricted`,
    /// and the next seeker waits for another; a seek nobody else comes for is withdrawn at the
    /// server's next look at the moderators' log.
    @Test func aMarkEndsTheSeekWaiting() async throws {
        let server = try await TestServer()
        var clients: [TestClient] = []
        for name in ["ann", "bob", "cat", "dan"] {
            let client = try server.client()
            _ = try await register(client, name)
            clients.append(client)
        }
        let (ann, bob, cat, dan) = (clients[0], clients[1], clients[2], clients[3])
        // The server has read the log's end and waits for its next look.
        let interval = server.settings.moderationCheckInterval
        try await server.clock.waitForTimer(until: server.clock.now + interval)
        let seek = #"{"type":"seek","initial":300,"increment":3}"#
        #expect(try await ann.exchange(seek) == #"{"type":"seeking"}"#)
        let admin = try await moderation(of: server)
        _ = try await admin.markEngineHelp("ann", true, reason: "engine")
        #expect(try await bob.exchange(seek) == #"{"type":"seeking"}"#)
        #expect(try await ann.line() == Self.restricted)
        #expect(try await cat.exchange(seek) == #"{"type":"seeking"}"#)
        guard case .start(let start) = try await bob.reply().message else {
            throw TestClient.Failure(description: "expected start")
        }
        #expect(start.opponent.name == "cat")

        // Alone in the pool: withdrawn when the server reads the log.
        #expect(try await dan.exchange(seek) == #"{"type":"seeking"}"#)
        _ = try await admin.markEngineHelp("dan", true, reason: "engine")
        await admin.close()
        server.clock.advance(by: interval)
        #expect(try await dan.line() == Self.restricted)
        #expect(await server.server!.lobby.seekers[4] == nil)
        #expect(await !server.server!.lobby.matchmaker.isSeeking(4))
        await server.stop()
    }

    /// With several nodes the pool is shared: a marked player's seek is passed over by every
    /// node's pairing, and withdrawn by their own node, which tells them.
    @Test(arguments: NodesBackend.allCases)
    func aMarkEndsTheSeekWaitingOnEveryNode(_ backend: NodesBackend) async throws {
        let place = try await NodesPlace(backend)
        let clock = TestClock()
        let servers = try await place.nodes(2, clock: clock)
        let ann = try servers[0].client()
        _ = try await register(ann, "ann")
        let (bob, cat) = (try servers[1].client(), try servers[1].client())
        _ = try await register(bob, "bob")
        _ = try await register(cat, "cat")
        let seek = #"{"type":"seek","initial":300,"increment":3}"#
        #expect(try await ann.exchange(seek) == #"{"type":"seeking"}"#)
        let admin = try await Moderation.open(place.url ?? place.file!.path, moderator: "mod")
        _ = try await admin.markEngineHelp("ann", true, reason: "engine")
        await admin.close()
        #expect(try await bob.exchange(seek) == #"{"type":"seeking"}"#)
        #expect(try await cat.exchange(seek) == #"{"type":"seeking"}"#)
        guard case .start(let start) = try await bob.reply().message else {
            throw TestClient.Failure(description: "expected start")
        }
        #expect(start.opponent.name == "cat")
        clock.advance(by: servers[0].settings.moderationCheckInterval)
        #expect(try await ann.line() == Self.restricted)
        for server in servers { await server.stop() }
    }

    /// What a marked player's seek gets, unasked.
    static let restricted =
        #"{"code":"restricted","message":"your account is marked as playing with engine help: no rated games (casual ones and the engine are open)","type":"error"}"#

    @Test func closingAnAccountOnPostgreSQLEndsItsSessionsOnEveryNode() async throws {
        let url = try await postgresDatabase()
        let servers = try await nodes(2, url: url)
        let ann = try servers[0].client()
        _ = try await register(ann, "ann")
        let bob = try servers[1].client()
        _ = try await register(bob, "bob")
        let admin = try await Moderation.open(url, moderator: "mod")
        #expect(try await admin.close("ann", reason: "spam") == "closed 'ann'")
        #expect(try await admin.close("bob", reason: "spam") == "closed 'bob'")
        await admin.close()
        // No clock moves: the nodes are told.
        #expect(try await ann.linesUntilClosed() == [#"{"type":"bye"}"#])
        #expect(try await bob.linesUntilClosed() == [#"{"type":"bye"}"#])
        #expect(
            try await servers[1].client().exchange(#"{"type":"login","name":"ann","password":"password1"}"#)
                .contains("account_closed"))
        for server in servers { await server.stop() }
    }
}
