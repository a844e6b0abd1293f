import NanashiCore
import NanashiProtocol

extension ServerConnection {
    /// The record of finished game `game` on the first of `servers` that answers, and the engine's analysis
    /// of it (computed by the server once, then stored), for a replay.
    ///
    /// - Throws: `QueryError` when the server cannot be reached, refuses either question (an
    ///   unknown game, one in progress, too many analyses asked), or sends a PGN that cannot be read.
    public static func finishedGame(_ game: Int64, at servers: ServerList) async throws(QueryError) -> (
        GameRecord, GameAnalysis
    ) {
        let pgn = try await ask(.pgn(game: game), at: servers, for: "a PGN") {
            if case .pgn(let pgn) = $0 { pgn } else { nil }
        }
        // Computing an analysis takes the server a while, and it answers nothing meanwhile.
        let analysis = try await ask(
            .analyse(game: game), at: servers, for: "an analysis", answerWithin: .seconds(600)
        ) {
            if case .analysis(let analysis) = $0 { analysis } else { nil }
        }
        do {
            return (try GameRecord(pgn: pgn.pgn), analysis)
        } catch {
            throw QueryError(description: "the server's PGN of game \(game) cannot be read: \(error)")
        }
    }
}
