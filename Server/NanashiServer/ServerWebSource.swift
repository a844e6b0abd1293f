import NanashiProtocol
import NanashiStorage
import NanashiTransport
import NanashiWeb

/// The web pages' view of the server: the same storage and lobby the protocol's messages read.
struct ServerWebSource: WebSource {
    let storage: any Storage
    let lobby: Lobby
    let serverMetrics: ServerMetrics

    var levels: [LevelEntry] { LevelEntry.all }

    func leaderboard(limit: Int, offset: Int) async throws -> Leaderboard {
        try await storage.leaderboard(limit: limit, offset: offset)
    }

    func profile(name: String) async throws -> Profile? {
        try await storage.profile(name: name)
    }

    func finishedGames(name: String, before: Int64?, limit: Int) async throws -> GameArchive? {
        guard
            let page = try await storage.finishedGames(name: name, before: before, limit: limit)
        else { return nil }
        return GameArchive(name: page.name, games: page.games.map(\.archived))
    }

    func finishedGame(id: Int64) async throws -> FinishedGameRecord? {
        guard let game = try await storage.finishedGame(id: id) else { return nil }
        return FinishedGameRecord(
            summary: game.archived, initial: game.control.initial, increment: game.control.increment,
            moves: game.moves, pgn: try game.pgn(), start: try game.startPosition())
    }

    func liveGames() async -> [LiveGame] {
        await lobby.live()
    }

    func isInProgress(game: Int64) async -> Bool {
        await lobby.isInProgressAnywhere(game)
    }

    func storedAnalysis(game: Int64) async throws -> String? {
        try await storage.analysisBody(gameID: game)
    }

    func openChallenge(id: String) async -> ChallengeNotice? {
        await lobby.openChallenge(id)
    }

    func metrics() async -> String {
        serverMetrics.gamesInProgress.set(Double(await lobby.gamesInProgress))
        return serverMetrics.text()
    }
}
