import Foundation
import GRDB
import NanashiCore
import NanashiProtocol
import NanashiStorage
import NanashiTestSupport
import PostgresNIO
import Testing

@testable import NanashiServer

// `nanashi admin`'s actions on storage, against both databases: what each changes, what it
// refuses (changing nothing), and the log it leaves.

/// A fixed moment, so that the log's lines are exact.
private let noon = Date(timeIntervalSince1970: 1_800_000_000)

/// Two players with one rated game between them, ann winning.
private func annBeatsBob(_ storage: any Storage) async throws -> (ann: PlayerRow, bob: PlayerRow, game: Int64)
{
    let ann = try await storage.createPlayer(name: "ann", passwordHash: "h", now: noon, token: nil)
    let bob = try await storage.createPlayer(name: "bob", passwordHash: "h", now: noon, token: nil)
    return (ann, bob, try await xBeatsO(storage, x: ann, o: bob))
}

/// A rated game of `x` against `o`, which `x` wins; its id.
private func xBeatsO(_ storage: any Storage, x: PlayerRow, o: PlayerRow) async throws -> Int64 {
    let game = try await storage.createGame(xID: x.id!, oID: o.id!, control: .standard, now: noon)
    _ = try await storage.finishGame(
        id: game, outcome: Outcome(winner: .x, reason: .resignation), now: noon, rate: xWins)
    return game
}

/// ann, who signed up at noon with `passwordHash` and a session token that lasts `seconds`; and
/// that token.
private func annSignedIn(_ storage: any Storage, passwordHash: String, tokenLasting seconds: TimeInterval)
    async throws -> (ann: PlayerRow, token: SessionToken)
{
    let token = SessionToken.generate()
    let ann = try await storage.createPlayer(
        name: "ann", passwordHash: passwordHash, now: noon,
        token: (token.digest, noon.addingTimeInterval(seconds)))
    return (ann, token)
}

/// The moderator `mod`, acting at `noon`.
private func moderationAtNoon(_ storage: any Storage) -> Moderation {
    Moderation(storage: storage, moderator: "mod", now: { noon })
}

/// On a new storage of `backend`: ann beat bob in a rated game, cyd joined and has not played
/// yet; and the moderator who acts on them.
private func annBeatBobAndCydJoined(_ backend: StorageBackend) async throws -> (
    storage: any Storage, ann: PlayerRow, bob: PlayerRow, cyd: PlayerRow, moderation: Moderation
) {
    let storage = try await backend.open().storage
    let (ann, bob, _) = try await annBeatsBob(storage)
    let cyd = try await storage.createPlayer(name: "cyd", passwordHash: "h", now: noon, token: nil)
    return (storage, ann, bob, cyd, moderationAtNoon(storage))
}

/// After `annBeatsBob`, ann out of the standings (marked or closed): bob alone is ranked.
private func expectOnlyBobRanked(
    _ storage: any Storage, sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    let board = try await storage.leaderboard(limit: 10, offset: 0)
    #expect(
        board.total == 1 && board.entries.map(\.name) == ["bob"] && board.entries.map(\.rank) == [1],
        sourceLocation: sourceLocation)
    #expect(try await storage.profile(name: "ann")?.rank == nil, sourceLocation: sourceLocation)
    #expect(try await storage.profile(name: "bob")?.rank == 1, sourceLocation: sourceLocation)
}

/// A rated game begun before ann was put out of the standings ends while she is out: she stays
/// out, and cyd, who wins it, comes in.
private func cydBeatsAnnWhileSheIsOut(
    _ storage: any Storage, cyd: PlayerRow, ann: PlayerRow, sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    _ = try await xBeatsO(storage, x: cyd, o: ann)
    let board = try await storage.leaderboard(limit: 10, offset: 0)
    #expect(
        board.total == 2 && Set(board.entries.map(\.name)) == ["bob", "cyd"], sourceLocation: sourceLocation)
}

/// After `cydBeatsAnnWhileSheIsOut`, ann is back in the standings, with both her games.
private func expectAnnBack(
    _ storage: any Storage, sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    let board = try await storage.leaderboard(limit: 10, offset: 0)
    #expect(board.total == 3 && board.entries.map(\.rank) == [1, 2, 3], sourceLocation: sourceLocation)
    #expect(board.entries.contains { $0.name == "ann" && $0.games == 2 }, sourceLocation: sourceLocation)
    #expect(try await storage.profile(name: "ann")?.rank != nil, sourceLocation: sourceLocation)
}

@Suite struct ModerationTests {
    @Test(arguments: StorageBackend.allCases)
    func closingEndsTheTokensAndReopeningUndoesIt(_ backend: StorageBackend) async throws {
        let storage = try await backend.open().storage
        let (ann, token) = try await annSignedIn(storage, passwordHash: "h", tokenLasting: 60)
        let moderation = moderationAtNoon(storage)
        #expect(try await moderation.close("ANN", reason: "spam") == "closed 'ann'")
        #expect(try await storage.player(named: "ann")?.closedAt == noon.timeIntervalSince1970)
        #expect(try await storage.player(tokenDigest: token.digest, now: noon) == nil)
        await #expect(throws: ModerationError("'ann' is already closed")) {
            try await moderation.close("ann", reason: "again")
        }
        #expect(try await moderation.reopen("ann", reason: "appeal") == "reopened 'ann'")
        #expect(try await storage.player(named: "ann")?.closedAt == nil)
        await #expect(throws: ModerationError("'ann' is not closed")) {
            try await moderation.reopen("ann", reason: "again")
        }
        #expect(
            try await moderation.log(limit: 10) == [
                "1 2027-01-15T08:00:00Z mod close ann -- spam",
                "2 2027-01-15T08:00:00Z mod reopen ann -- appeal",
            ])
        #expect(try await storage.player(id: ann.id!)?.name == "ann")
        await storage.close()
    }

    @Test(arguments: StorageBackend.allCases)
    func badInputChangesNothing(_ backend: StorageBackend) async throws {
        let storage = try await backend.open().storage
        _ = try await annBeatsBob(storage)
        let moderation = moderationAtNoon(storage)
        let cases: [(ModerationError, () async throws -> String)] = [
            (ModerationError("give a --reason"), { try await moderation.close("ann", reason: " ") }),
            (
                ModerationError("no player is called 'zed'"),
                { try await moderation.close("zed", reason: "r") }
            ),
            (
                ModerationError("no player is called 'AI level 3'"),
                { try await moderation.markEngineHelp("AI level 3", true, reason: "r") }
            ),
            (
                ModerationError("who acts is unknown: give --moderator NAME (or set USER)"),
                { try await Moderation(storage: storage, moderator: "").close("ann", reason: "r") }
            ),
            (
                ModerationError("'a b' is not a name: 3 to 20 characters of A-Z, a-z, 0-9, _ and -"),
                { try await moderation.rename("ann", to: "a b", reason: "r") }
            ),
            (
                ModerationError("the name 'bob' is taken"),
                { try await moderation.rename("ann", to: "BOB", reason: "r") }
            ),
            (
                ModerationError("'ann' already has that name"),
                { try await moderation.rename("ann", to: "ann", reason: "r") }
            ),
            (
                ModerationError("'ann' is not marked"),
                { try await moderation.markEngineHelp("ann", false, reason: "r") }
            ),
        ]
        for (error, act) in cases {
            await #expect(throws: error) { try await act() }
        }
        await #expect(throws: ModerationError("--last is 1 or more")) { try await moderation.log(limit: 0) }
        #expect(try await moderation.log(limit: 10) == [])
        #expect(try await storage.player(named: "ann")?.closedAt == nil)
        #expect(try await storage.leaderboard(limit: 10, offset: 0).total == 2)
        await storage.close()
    }

    @Test(arguments: StorageBackend.allCases)
    func aRenamedPlayerKeepsTheirGames(_ backend: StorageBackend) async throws {
        let storage = try await backend.open().storage
        let (ann, _, game) = try await annBeatsBob(storage)
        let moderation = moderationAtNoon(storage)
        #expect(
            try await moderation.rename("ann", to: "Anne_2", reason: "asked") == "renamed 'ann' to 'Anne_2'")
        #expect(try await storage.player(named: "ann") == nil)
        #expect(try await storage.player(named: "anne_2")?.id == ann.id)
        #expect(
            try await storage.finishedGames(name: "anne_2", before: nil, limit: 10)?.games.map(\.id) == [game]
        )
        #expect(try await storage.finishedGame(id: game)?.x.name == "Anne_2")
        #expect(try await storage.profile(name: "bob")?.recent.map(\.opponent) == ["Anne_2"])
        #expect(try await storage.leaderboard(limit: 10, offset: 0).entries.map(\.name) == ["Anne_2", "bob"])
        // Only the case: the same player's own name.
        #expect(
            try await moderation.rename("anne_2", to: "ANNE_2", reason: "caps")
                == "renamed 'Anne_2' to 'ANNE_2'")
        #expect(
            try await moderation.log(limit: 1) == [
                "2 2027-01-15T08:00:00Z mod rename Anne_2 to ANNE_2 -- caps"
            ])
        await storage.close()
    }

    @Test(arguments: StorageBackend.allCases)
    func aMarkedPlayerLeavesTheStandingsAndTheirResultsStay(_ backend: StorageBackend) async throws {
        let (storage, ann, bob, cyd, moderation) = try await annBeatBobAndCydJoined(backend)
        let bobBefore = try #require(try await storage.player(id: bob.id!))
        #expect(try await moderation.markEngineHelp("ann", true, reason: "engine") == "marked 'ann'")
        await #expect(throws: ModerationError("'ann' is already marked")) {
            try await moderation.markEngineHelp("ann", true, reason: "again")
        }
        try await expectOnlyBobRanked(storage)
        #expect(try await storage.profile(name: "ann")?.games == 1)
        #expect(try await storage.player(id: bob.id!) == bobBefore)
        #expect(try await storage.seeker(id: ann.id!)?.player.engineHelpAt == noon.timeIntervalSince1970)

        // A rated game that ends while ann is marked keeps her out, and bob's and cyd's standings right.
        try await cydBeatsAnnWhileSheIsOut(storage, cyd: cyd, ann: ann)

        #expect(try await moderation.markEngineHelp("ann", false, reason: "appeal") == "unmarked 'ann'")
        try await expectAnnBack(storage)
        #expect(try await storage.player(id: ann.id!)?.engineHelpAt == nil)
        await storage.close()
    }

    /// A closed account leaves the standings as a marked player does, and comes back when
    /// reopened (unless also marked); a game that ends while it is closed keeps it out.
    @Test(arguments: StorageBackend.allCases)
    func aClosedAccountLeavesTheStandingsUntilReopened(_ backend: StorageBackend) async throws {
        let (storage, ann, _, cyd, moderation) = try await annBeatBobAndCydJoined(backend)
        _ = try await moderation.close("ann", reason: "abuse")
        try await expectOnlyBobRanked(storage)

        // A rated game begun before the close ends after it: ann stays out, cyd comes in.
        try await cydBeatsAnnWhileSheIsOut(storage, cyd: cyd, ann: ann)

        _ = try await moderation.reopen("ann", reason: "appeal")
        try await expectAnnBack(storage)

        // Closed and marked: reopening leaves the mark's exclusion, and lifting it brings ann back.
        _ = try await moderation.markEngineHelp("ann", true, reason: "engine")
        _ = try await moderation.close("ann", reason: "abuse")
        _ = try await moderation.reopen("ann", reason: "appeal")
        #expect(try await storage.leaderboard(limit: 10, offset: 0).total == 2)
        _ = try await moderation.close("ann", reason: "abuse")
        _ = try await moderation.markEngineHelp("ann", false, reason: "appeal")
        #expect(try await storage.leaderboard(limit: 10, offset: 0).total == 2)
        _ = try await moderation.reopen("ann", reason: "appeal")
        #expect(try await storage.leaderboard(limit: 10, offset: 0).total == 3)
        #expect(try await storage.profile(name: "ann")?.rank != nil)
        await storage.close()
    }

    @Test(arguments: StorageBackend.allCases)
    func aPasswordResetWorksOnceBeforeItExpires(_ backend: StorageBackend) async throws {
        let storage = try await backend.open().storage
        let (ann, old) = try await annSignedIn(storage, passwordHash: "old", tokenLasting: 3600)
        let moderation = moderationAtNoon(storage)
        let reset = try await moderation.resetPassword("ann", reason: "lost it")
        #expect(reset.expires == noon.addingTimeInterval(24 * 3600))
        #expect(
            reset.description
                == "password reset token for 'ann', good once until 2027-01-16T08:00:00Z (reset_password, docs/PROTOCOL.md):\n\(reset.token)"
        )
        let digest = try #require(SessionToken.digest(of: reset.token))
        let session = SessionToken.generate()
        let expires = noon.addingTimeInterval(3600)
        let later = noon.addingTimeInterval(60)
        // Wrong token, wrong name, expired: nothing changes.
        for (name, tried, at) in [
            ("ann", SessionToken.generate().digest, later), ("bob", digest, later),
            ("ann", digest, noon.addingTimeInterval(24 * 3600)),
        ] {
            #expect(
                try await storage.usePasswordReset(
                    name: name, digest: tried, passwordHash: "new", now: at, token: (session.digest, expires))
                    == nil)
        }
        #expect(try await storage.player(tokenDigest: old.digest, now: later)?.passwordHash == "old")
        let used = try await storage.usePasswordReset(
            name: "ANN", digest: digest, passwordHash: "new", now: later, token: (session.digest, expires))
        #expect(used?.id == ann.id && used?.passwordHash == "new")
        #expect(try await storage.player(named: "ann")?.passwordHash == "new")
        #expect(try await storage.player(tokenDigest: old.digest, now: later) == nil)
        #expect(try await storage.player(tokenDigest: session.digest, now: later)?.id == ann.id)
        // Once only.
        #expect(
            try await storage.usePasswordReset(
                name: "ann", digest: digest, passwordHash: "again", now: later,
                token: (SessionToken.generate().digest, expires)) == nil)
        // A closed account gets no reset, and closing forgets one given before.
        _ = try await moderation.resetPassword("ann", reason: "again")
        _ = try await moderation.close("ann", reason: "spam")
        await #expect(throws: ModerationError("'ann' is closed: reopen it first")) {
            try await moderation.resetPassword("ann", reason: "r")
        }
        #expect(try await moderation.log(limit: 5).count == 3)
        await storage.close()
    }

    @Test(arguments: StorageBackend.allCases)
    func theLogIsAppendOnly(_ backend: StorageBackend) async throws {
        let opened = try await backend.open()
        let storage = opened.storage
        _ = try await annBeatsBob(storage)
        let moderation = moderationAtNoon(storage)
        _ = try await moderation.markEngineHelp("bob", true, reason: "engine")
        for statement in ["UPDATE moderation SET reason = 'nothing'", "DELETE FROM moderation"] {
            await #expect(throws: (any Error).self) {
                if let sqlite = storage as? SQLiteStorage {
                    try await sqlite.writing { try $0.execute(sql: statement) }
                } else if let postgres = storage as? PostgresStorage {
                    _ = try await postgres.rows(PostgresQuery(unsafeSQL: statement))
                }
            }
        }
        #expect(try await moderation.log(limit: 5) == ["1 2027-01-15T08:00:00Z mod mark bob -- engine"])
        #expect(try await storage.moderationLog(after: 0).map(\.playerName) == ["bob"])
        #expect(try await storage.moderationLog(after: 1) == [])
        await storage.close()
    }
}
