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
