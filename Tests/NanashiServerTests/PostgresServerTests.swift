import Foundation
import NanashiCore
import NanashiProtocol
import NanashiRuntime
import NanashiServerTestSupport
import NanashiTestSupport
import Testing

@testable import NanashiServer

/// Two servers on one new PostgreSQL database, both set up by `configure` as well.
private func twoServersOnOnePostgreSQL(_ configure: @escaping (inout ServerSettings) -> Void) async throws
    -> [TestServer]
{
    let url = try await postgresDatabase()
    let setUp: (inout ServerSettings) -> Void = {
        $0.databasePath = url
        configure(&$0)
    }
    return [try await TestServer(configure: setUp), try await TestServer(configure: setUp)]
}

/// Two servers on one PostgreSQL database: a player registered and rated on one is known on the
/// other, and a game left unfinished by one is resumed by the next server to start.
@Test func twoServersOnOnePostgreSQLShareAccountsRatingsAndGames() async throws {
    let url = try await postgresDatabase()
    let first = try await TestServer { $0.databasePath = url }
    let second = try await TestServer { $0.databasePath = url }
    let paired = try await pairedGame(first)
    try await playGreedily(paired, plies: 10)
    let ann = paired.names.first { $0.value == "ann" }!.key
    paired.clients[ann]!.send(#"{"type":"resign","game":\#(paired.game)}"#)
    for side in Side.allCases {
        guard case .end(let ended) = try await paired.clients[side]!.reply().message else {
            throw TestClient.Failure(description: "expected ended")
        }
        #expect(ended.outcome == Outcome.resignation(by: ann))
    }

    let elsewhere = try second.client()
    #expect(
        try await elsewhere.exchange(#"{"type":"auth","token":"\#(paired.tokens[ann]!)"}"#).contains(
            "welcome"))
    let profileLine = try await elsewhere.exchange(#"{"type":"profile","name":"bob"}"#)
    guard case .profile(let profile) = try Wire.reply(fromLine: Array(profileLine.utf8)).message else {
        throw TestClient.Failure(description: "expected a profile")
    }
    #expect(profile.games == 1 && profile.wins == 1 && profile.rank == 1 && profile.rating > 1500)
    #expect(profile.recent.map(\.game) == [paired.game])

    // A game left where it stands by a stopping server is resumed by the next one to start.
    let again = try await pairedGame(second, names: ("cyd", "dee"))
    try await playGreedily(again, plies: 3)
    await second.stop()
    let third = try await TestServer { $0.databasePath = url }
    let cy = try third.client()
    let cySide = again.names.first { $0.value == "cyd" }!.key
    #expect(
        try await cy.exchange(#"{"type":"auth","token":"\#(again.tokens[cySide]!)"}"#).contains("welcome"))
    guard case .game(let resumed) = try await cy.reply().message else {
        throw TestClient.Failure(description: "expected the game in progress")
    }
    #expect(resumed.game == again.game && resumed.moves.count == 3)
    await first.stop()
    await third.stop()
}

/// Wrong passwords for one name from one address, sent to two servers on one database, count
/// together: the third is refused wherever it goes, and the right password then still is.
@Test func failedLoginsForOneNameCountAcrossServers() async throws {
    let servers = try await twoServersOnOnePostgreSQL { $0.failedLoginsBeforeThrottle = 2 }
    try await register(try servers[0].client(), "ann")
    let wrong = #"{"type":"login","name":"ann","password":"wrong-one"}"#
    for server in servers {
        #expect(try await server.client().exchange(wrong).contains("bad_credentials"))
    }
    for server in servers {
        #expect(try await server.client().exchange(wrong).contains("rate_limited"))
        #expect(
            try await server.client().exchange(#"{"type":"login","name":"ann","password":"password1"}"#)
                .contains("rate_limited"))
    }
    for server in servers { await server.stop() }
}

/// Wrong passwords from one address at many names, sent to two servers on one database, count
/// together against the address: a spray gets as many guesses on two servers as on one.
@Test func failedLoginsFromOneAddressCountAcrossServers() async throws {
    let servers = try await twoServersOnOnePostgreSQL { $0.failedLoginsPerAddressBeforeThrottle = 3 }
    var replies: [String] = []
    for (index, name) in ["ann", "bob", "carl", "dora"].enumerated() {
        let line = #"{"type":"login","name":"\#(name)","password":"wrong-one"}"#
        replies.append(try await servers[index % 2].client().exchange(line))
    }
    #expect(replies.prefix(3).allSatisfy { $0.contains("bad_credentials") }, "\(replies)")
    #expect(
        replies.last
            == #"{"code":"rate_limited","message":"too many failed logins from your address; try again later","type":"error"}"#
    )
    for server in servers { await server.stop() }
}
