import Foundation
import NanashiCore
import NanashiProtocol

/// Where the server keeps players, session tokens, games with their moves and rating history.
///
/// Two implementations: `SQLiteStorage`, one file beside one server (the default), and
/// `PostgresStorage`, one PostgreSQL database that several servers share. `openStorage(_:)`
/// picks one from `--db`. Every method is safe to call from any task at any time; every change
/// it makes is one transaction, stored when it returns.
package protocol Storage: ModerationStorage, FairPlayStorage {
    /// Adds a player with the initial rating and, in the same transaction, the digest of their
    /// first session token if given.
    ///
    /// - Throws: `StorageError.nameTaken` if the name is taken, ignoring case.
    func createPlayer(
        name: String, passwordHash: String, now: Date, token: (digest: [UInt8], expires: Date)?
    ) async throws -> PlayerRow

    /// The player with this name, ignoring case.
    func player(named name: String) async throws -> PlayerRow?

    /// The player with this id.
    func player(id: Int64) async throws -> PlayerRow?

    /// Stores a token's digest for a player until it expires.
    func addToken(digest: [UInt8], playerID: Int64, now: Date, expires: Date) async throws

    /// The player a token digest belongs to, if the token exists and has not expired.
    func player(tokenDigest digest: [UInt8], now: Date) async throws -> PlayerRow?

    /// Forgets a token: it stops working.
    func removeToken(digest: [UInt8]) async throws

    /// Forgets every token of a player: none works any more.
    func removeTokens(playerID: Int64) async throws

    /// A player about to seek, as stored now, in one read.
    func seeker(id: Int64) async throws -> Seeker?

    /// Stores a new game and returns its id; a `casual` one rates nobody, even after a restart.
    /// `start`: the FEN it starts from, `nil` for the standard start.
    func createGame(xID: Int64, oID: Int64, control: TimeControl, now: Date, casual: Bool, start: String?)
        async throws -> Int64

    /// Stores whether the player refuses every challenge, until they say otherwise: their row's
    /// `refusesChallenges` from then on.
    func setRefusesChallenges(_ refuses: Bool, playerID: Int64) async throws

    /// Stores one accepted move with both clocks after it.
    func recordMove(gameID: Int64, ply: Int, move: Move, clocks: Clocks, now: Date) async throws

    /// Ends a game and, if it is `rated`, rates both players in one transaction: the result,
    /// both new ratings and both rating-history rows are stored together or not at all, and
    /// two games of one player that end at the same moment (on two servers) are rated one after
    /// the other, the second from the first's result. An unrated game changes neither player's
    /// rating nor record; it returns `nil`.
    ///
    /// - Parameter rate: given both players as stored, returns their new ratings (x, o).
    /// - Throws: `StorageError.noSuchGame` if the game is unknown or already over.
    func finishGame(
        id: Int64, outcome: Outcome, rated: Bool, now: Date,
        rate: @escaping @Sendable (PlayerRow, PlayerRow) -> (Rating, Rating)
    ) async throws -> RatedResult?

    /// Keeps the clocks of an unfinished game as a planned stop leaves them, after `ply` plies:
    /// resumed at that ply, the game starts from them (with several nodes, only its host's).
    func storeStopClocks(gameID: Int64, ply: Int, clocks: Clocks) async throws

    /// Takes back the moves of an unfinished game after ply `ply` (a takeback both players
    /// agreed to).
    ///
    /// - Throws: `StorageError.noSuchGame` if the game is over, unknown, or (with several nodes)
    ///   hosted by another node.
    func removeMoves(gameID: Int64, after ply: Int) async throws

    /// Every game not yet over, with its players and moves in order.
    func unfinishedGames() async throws -> [UnfinishedGame]

    /// A page of the leaderboard: players with at least one rated game, best first.
    func leaderboard(limit: Int, offset: Int) async throws -> Leaderboard

    /// A player's profile with their `recent` latest games, or `nil` if there is no such player.
    func profile(name: String, recent: Int) async throws -> Profile?

    /// A page of a player's finished games, newest (highest id) first, from before game `before`
    /// if given; `nil` if nobody has that name (ignoring case).
    func finishedGames(name: String, before: Int64?, limit: Int) async throws -> (
        name: String, games: [FinishedGame]
    )?

    /// A finished game with its moves, or `nil` if there is no game with that id or it is not over.
    func finishedGame(id: Int64) async throws -> FinishedGame?

    /// How game `id` ended: its outcome and each side's rating before and after it (the
    /// player's rating both times if it was not rated); `nil` while it is not over.
    func storedEnd(ofGame id: Int64) async throws -> (outcome: Outcome, ratings: [Side: RatingChange])?

    /// Stores a new game of `playerID` against the engine at `level`, the player on `side`, and
    /// returns the engine's player (made on its first game, see `EnginePlayer`) and the game's id.
    /// The game is marked with its level and is never rated. `start`: the FEN it starts from,
    /// `nil` for the standard start.
    func createEngineGame(
        playerID: Int64, side: Side, level: Int, control: TimeControl, now: Date, start: String?
    ) async throws -> (engine: PlayerRow, game: Int64)

    /// The level of every unfinished game against the engine, by game id.
    func unfinishedEngineLevels() async throws -> [Int64: Int]

    /// The stored analysis of a game as storage keeps it (its fields as JSON text, written by
    /// `GameAnalysis.storedBody()`), if any: served as it is.
    func analysisBody(gameID: Int64) async throws -> String?

    /// Stores a game's analysis (once: a second one for the same game is ignored).
    func storeAnalysis(_ analysis: GameAnalysis, now: Date) async throws

    /// Lets go of the database (its connections); nothing may be called after.
    func close() async

    /// The failed-login buckets that several servers share, if this storage is shared; `nil`
    /// (SQLite's, one server's file) leaves them to each server's memory.
    var sharedLoginGuesses: (any SharedLoginGuesses)? { get }
}

extension Storage {
    /// A player's profile with their 10 latest games.
    package func profile(name: String) async throws -> Profile? { try await profile(name: name, recent: 10) }

    /// `player` about to seek, as stored now; as they are, with no games, if storage does not have them.
    package func seeker(_ player: PlayerRow) async throws -> Seeker {
        guard let id = player.id, let stored = try await seeker(id: id) else {
            return Seeker(player: player, colourBalance: 0)
        }
        return stored
    }

    /// Stores a new rated game and returns its id.
    package func createGame(xID: Int64, oID: Int64, control: TimeControl, now: Date) async throws -> Int64 {
        try await createGame(xID: xID, oID: oID, control: control, now: now, casual: false, start: nil)
    }

    /// Stores a new game from the standard start and returns its id.
    package func createGame(xID: Int64, oID: Int64, control: TimeControl, now: Date, casual: Bool)
        async throws -> Int64
    {
        try await createGame(xID: xID, oID: oID, control: control, now: now, casual: casual, start: nil)
    }

    /// Stores a new game against the engine from the standard start (see the full form).
    package func createEngineGame(playerID: Int64, side: Side, level: Int, control: TimeControl, now: Date)
        async throws -> (engine: PlayerRow, game: Int64)
    {
        try await createEngineGame(
            playerID: playerID, side: side, level: level, control: control, now: now, start: nil)
    }

    /// Ends a game, rated.
    package func finishGame(
        id: Int64, outcome: Outcome, now: Date,
        rate: @escaping @Sendable (PlayerRow, PlayerRow) -> (Rating, Rating)
    ) async throws -> RatedResult? {
        try await finishGame(id: id, outcome: outcome, rated: true, now: now, rate: rate)
    }
}

/// The engine plays as one player per level, named `AI level N`: a name no person can take (names
/// have no spaces) and a password hash no password matches, so nobody logs in as it.
package enum EnginePlayer {
    /// The name of the engine's player at `level`.
    package static func name(level: Int) -> String { Opponent.engineName(level: level) }

    /// What stands for the password of the engine's players: no password hashes to it.
    package static let passwordHash = "engine"

    /// The engine's player at `level`, to insert on its first game.
    package static func new(level: Int, now: Date) -> PlayerRow {
        PlayerRow.new(name: name(level: level), passwordHash: passwordHash, now: now)
    }
}

extension Storage {
    /// The stored analysis of a game, if any.
    ///
    /// - Throws: `StorageError.damaged` if the stored analysis cannot be read.
    package func analysis(gameID: Int64) async throws -> GameAnalysis? {
        try await analysisBody(gameID: gameID).map { try GameAnalysis(storedBody: $0, gameID: gameID) }
    }
}

/// An analysis as stored: its JSON text.
extension GameAnalysis {
    /// The analysis as the JSON text storage keeps: its fields as the protocol writes them
    /// (sorted keys), so that `Wire.analysisLine` serves it without encoding it again. (Before
    /// 2026-12, the keys were stored unsorted; those are read as well.)
    package func storedBody() -> String {
        Wire.encode(self)
    }

    /// An analysis read back from storage.
    ///
    /// - Throws: `StorageError.damaged` if the text is not an analysis.
    package init(storedBody body: String, gameID: Int64) throws {
        do {
            self = try JSONDecoder().decode(GameAnalysis.self, from: Data(body.utf8))
        } catch {
            throw StorageError.damaged("game \(gameID)'s analysis cannot be read: \(error)")
        }
    }
}

/// Why storage refused a change, or could not be opened.
package enum StorageError: Error, Equatable, CustomStringConvertible {
    /// Another player has this name, ignoring case.
    case nameTaken
    /// The game does not exist or is already over.
    case noSuchGame
    /// A stored row cannot be read back (a damaged database).
    case damaged(String)
    /// The database was brought to a later schema by a newer server than this one.
    case newerSchema(database: Int, node: Int)

    package var description: String {
        switch self {
        case .nameTaken: "the name is taken"
        case .noSuchGame: "no such game in progress"
        case .damaged(let why): "damaged database: \(why)"
        case .newerSchema(let database, let node):
            "the database's schema is at version \(database), newer than this server's \(node): "
                + "upgrade this server before starting it on that database"
        }
    }
}

/// A game that was not over when it was last stored, with its moves, to resume after a restart.
package struct UnfinishedGame: Sendable {
    package var game: GameRow
    package var x: PlayerRow
    package var o: PlayerRow
    package var moves: [MoveRow]
}

/// A player as they seek a game: what pairing them needs, read before they join the pool.
package struct Seeker: Sendable {
    package var player: PlayerRow
    /// Games as x minus games as o.
    package var colourBalance: Int
}

/// How one game ended for both players' ratings, as committed.
package struct RatedResult: Sendable {
    package var x: (before: Rating, after: Rating)
    package var o: (before: Rating, after: Rating)

    package init(x: (before: Rating, after: Rating), o: (before: Rating, after: Rating)) {
        self.x = x
        self.o = o
    }
}

/// Ratings travel as whole numbers.
package func rounded(_ value: Double) -> Int { Int(value.rounded()) }
