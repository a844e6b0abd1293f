import NanashiProtocol

/// What fair play reads in storage: the analyses of rated games between people, and the rated
/// games not analysed yet. Read from what is stored already; no table of its own.
package protocol FairPlayStorage: Sendable {
    /// The stored analyses of the latest `limit` rated games between people (finished, not
    /// casual, not against the engine), newest first.
    ///
    /// - Throws: `StorageError.damaged` if a stored analysis cannot be read.
    func ratedAnalyses(limit: Int) async throws -> [RatedAnalysis]

    /// The latest `limit` rated games between people that have no analysis, newest first.
    func unanalysedRatedGames(limit: Int) async throws -> [RatedGame]
}

/// A finished rated game between people: its id and its players.
package struct RatedGame: Hashable, Sendable {
    package var game: Int64
    package var xID: Int64
    package var xName: String
    package var oID: Int64
    package var oName: String
}

/// A rated game between people with its stored analysis.
package struct RatedAnalysis: Hashable, Sendable {
    package var game: RatedGame
    package var analysis: GameAnalysis
}

/// The condition on `game` of a rated game between people that is over, as both databases read it.
package let ratedGameCondition = "game.result IS NOT NULL AND game.engine_level IS NULL AND NOT game.casual"
