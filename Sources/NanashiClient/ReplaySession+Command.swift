import NanashiAI
import NanashiCore
import NanashiTerminal

extension ReplaySession {
    /// Replays a game at this terminal as `nanashi replay` does: the first game of the PGN file
    /// `file` (with `analyse`, analysed here first), or with `game` that finished game of
    /// `servers` with the server's analysis of it; `eval` and the analysis search `depth` plies
    /// (1 to 20). Full screen unless `display` says not.
    ///
    /// - Throws: `RangeError` for the depth, `LocalFiles.Problem` for the file, `QueryError`
    ///   when the server cannot give the game.
    public static func run(
        file: String, orGame game: Int64?, on servers: ServerList, depth: Int, analyse: Bool = false,
        display: Display
    ) async throws {
        try (1...20).check(depth, "depth")
        var session: ReplaySession
        let console = display.console()
        let engine = Engine(hashMegabytes: 16)
        if let game {
            let (record, analysis) = try await ServerConnection.finishedGame(game, at: servers)
            session = ReplaySession(Replay(record), color: console.color, analysis: analysis)
        } else {
            let replay = try Replay(file: file)
            // At a real terminal a status line counts the positions, which a deep analysis of a
            // long game may take a while over.
            let analysis =
                analyse
                ? replay.analysis(depth: depth, engine: engine) { done, count in
                    console.status("analysing at depth \(depth): \(done) of \(count) positions")
                } : nil
            console.clearStatus()
            session = ReplaySession(replay, color: console.color, analysis: analysis)
        }
        let search = ReplaySession.search(engine, depth: depth)
        if let fullScreen = display.openFullScreen(colored: console) {
            defer { fullScreen.close() }
            session.run(fullScreen: fullScreen, search: search)
        } else {
            session.run(on: console, search: search)
        }
    }
}
