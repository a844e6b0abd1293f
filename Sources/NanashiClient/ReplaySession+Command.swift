import NanashiAI
import NanashiCore
import NanashiTerminal

extension ReplaySession {
    /// Replays a game at this terminal as `nanashi replay` does: the first game of the PGN file
    /// `file`, or with `game` that finished game of `servers` with the server's analysis of it;
    /// `eval` searches `depth` plies (1 to 20). Full screen unless `display` says not.
    ///
    /// - Throws: `RangeError` for the depth, `LocalFiles.Problem` for the file, `QueryError`
    ///   when the server cannot give the game.
    public static func run(
        file: String, orGame game: Int64?, on servers: ServerList, depth: Int, display: Display
    ) async throws {
        try (1...20).check(depth, "depth")
        var session: ReplaySession
        let console = display.console()
        if let game {
            let (record, analysis) = try await ServerConnection.finishedGame(game, at: servers)
            session = ReplaySession(Replay(record), color: console.color, analysis: analysis)
        } else {
            session = ReplaySession(try Replay(file: file), color: console.color)
        }
        let search = ReplaySession.search(Engine(hashMegabytes: 16), depth: depth)
        if let fullScreen = display.openFullScreen(colored: console) {
            defer { fullScreen.close() }
            session.run(fullScreen: fullScreen, search: search)
        } else {
            session.run(on: console, search: search)
        }
    }
}
