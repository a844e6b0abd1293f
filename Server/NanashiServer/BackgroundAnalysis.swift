import Logging
import NanashiCluster
import NanashiRuntime
import NanashiStorage

/// Analyses rated games between people of the server's own accord, so that `nanashi admin
/// suspects` has figures for players nobody asked analyses of: every hour at most
/// `ServerSettings.backgroundAnalysesPerHour` games, one at a time, each the newest game not
/// analysed of the player with the highest accuracy so far (`FairPlay.nextToAnalyse`).
///
/// It never takes the engine from people: a turn is skipped while anyone's analysis is being
/// computed or the engine's queue is full, and its searches go only when no other search waits
/// (`EnginePool.backgroundOwner`). Each analysis is the one a person would get (the same depth,
/// stored and served after), so its cost is one analysis's: every position of one game at the
/// analysis depth.
///
/// With several nodes the bound is the cluster's: at each round a node first takes the nodes'
/// turn (`Cluster.takeBackgroundTurn`), which one node at most gets each interval, so the nodes
/// together analyse at most `perHour` games an hour (each node's rounds keep the turn going
/// while any node runs).
struct BackgroundAnalysis: Sendable {
    let storage: any Storage
    let analyst: Analyst
    let clock: any ServerClock
    let perHour: Double
    let logger: Logger
    /// The other nodes, if any.
    var cluster: (any Cluster)? = nil

    /// An hour over `perHour` (more than 0): the time between two analyses.
    var interval: Duration { .seconds(3600 / perHour) }

    /// The rated games without analysis looked at for the next one.
    static let candidates = 200
    /// The analyses read for the players' accuracy so far.
    static let analysesRead = 5_000

    /// Analyses one game after each interval (an hour over `perHour`) until cancelled; nothing
    /// when `perHour` is 0 or less.
    func run() async {
        guard perHour > 0, perHour.isFinite else { return }
        await clock.rounds(every: interval) {
            _ = try await analyseNext()
        } failed: { error in
            logger.warning("background analysis failed: \(error)")
        }
    }

    /// Analyses the next game, if there is one and the engine is free for it; returns its id
    /// (`nil`: none analysed).
    func analyseNext() async throws -> Int64? {
        if let cluster, try await !cluster.takeBackgroundTurn(now: clock.date, interval: interval) {
            return nil
        }
        let unanalysed = try await storage.unanalysedRatedGames(limit: Self.candidates)
        guard !unanalysed.isEmpty else { return nil }
        let players = FairPlay.players(
            try await storage.ratedAnalyses(limit: Self.analysesRead),
            lastGames: FairPlay.Settings().lastGames)
        guard
            let next = FairPlay.nextToAnalyse(
                unanalysed, players: players, minimumGames: FairPlay.Settings().minimumGames)
        else { return nil }
        return try await analyst.analyseInBackground(next.game) ? next.game : nil
    }
}
