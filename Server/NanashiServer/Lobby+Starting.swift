import NanashiProtocol

/// Games being started as the server stops: each is either refused or stopped with the others.
extension Lobby {
    /// What a game that would start while the server stops gets.
    static let shuttingDown = ProtocolError(
        .shuttingDown, "the server is stopping for a restart: start a game in a minute")

    /// Counts a game of `players` as being stored and started (they may not seek meanwhile), or
    /// refuses it if the server is stopping. Checked and counted in one turn of the lobby, so a
    /// stop either comes first (the game is refused, nothing stored) or waits for the game to be
    /// started (`untilGamesStarted`) before it halts the games, this one with them. Each call is
    /// ended by one `startedGame`.
    ///
    /// - Throws: `shutting_down`.
    func startingGame(of players: [Int64]) throws(ProtocolError) {
        guard !refusesNewGames else { throw Self.shuttingDown }
        starting.formUnion(players)
        gamesStarting += 1
    }

    /// A game counted by `startingGame` was started (in the lobby's books) or failed.
    func startedGame(of players: [Int64]) {
        starting.subtract(players)
        gamesStarting -= 1
        guard gamesStarting == 0 else { return }
        for waiting in gamesStarted { waiting.resume() }
        gamesStarted = []
    }

    /// Returns once no game is being started.
    func untilGamesStarted() async {
        while gamesStarting > 0 { await withCheckedContinuation { gamesStarted.append($0) } }
    }
}
