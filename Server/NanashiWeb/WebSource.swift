import NanashiCore
import NanashiProtocol

/// Where the pages read the server's data: the same answers the protocol's messages give.
public protocol WebSource: Sendable {
    /// A page of the leaderboard (`leaderboard`).
    func leaderboard(limit: Int, offset: Int) async throws -> Leaderboard
    /// A player's profile (`profile`), or `nil` if nobody has that name.
    func profile(name: String) async throws -> Profile?
    /// A page of a player's finished games, newest first (`games`), or `nil` if nobody has that name.
    func finishedGames(name: String, before: Int64?, limit: Int) async throws -> GameArchive?
    /// A finished game with its moves and PGN, or `nil` if no game with that id has finished.
    func finishedGame(id: Int64) async throws -> FinishedGameRecord?
    /// The games in progress, highest-rated first (`live`).
    func liveGames() async -> [LiveGame]
    /// Whether a game with this id is in progress (to be watched).
    func isInProgress(game: Int64) async -> Bool
    /// The server's metrics in Prometheus' text format.
    func metrics() async -> String
    /// The stored analysis of a finished game as storage keeps it (its fields, as
    /// `Wire.encode` writes them), or `nil` when none has been asked for yet.
    func storedAnalysis(game: Int64) async throws -> String?

    /// The challenge by link `id` as whoever opens it would be challenged, if it is still open.
    func openChallenge(id: String) async -> ChallengeNotice?
    /// The engine's levels with their ratings, the weakest first, as `levels` lists them.
    var levels: [LevelEntry] { get }
}

extension WebSource {
    /// No analyses: a source without an engine.
    public func storedAnalysis(game: Int64) async throws -> String? { nil }

    /// No challenges: a source without players.
    public func openChallenge(id: String) async -> ChallengeNotice? { nil }
}

/// A finished game as its page shows it.
public struct FinishedGameRecord: Hashable, Sendable {
    public var summary: ArchivedGame
    /// Seconds on each clock at the start, and added after each move.
    public var initial: Int
    public var increment: Int
    /// The moves in notation, in order.
    public var moves: [String]
    public var pgn: String
    /// The position the game started from (a layout's, or a challenger's own).
    public var start: Position

    public init(
        summary: ArchivedGame, initial: Int, increment: Int, moves: [String], pgn: String,
        start: Position = .start
    ) {
        self.start = start
        self.summary = summary
        self.initial = initial
        self.increment = increment
        self.moves = moves
        self.pgn = pgn
    }
}
