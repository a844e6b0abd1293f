import NanashiProtocol

/// Games being started as the server stops: each is either refused or stopped with the others.
extension Lobby {
    /// What a game that would start while the server stops gets.
    static let shuttingDown = ProtocolError(
        .shuttingDown, "the server is stopping for a restart: start a game in a minute")

    /// What a game gets whose player has another game, in progress or being started.
    static let alreadyPlaying = ProtocolError(
        .inGame, "a player of this game has another game in progress or starting")

    /// Counts a game of `players` as being stored and started (they may not seek meanwhile), or
    /// refuses it if the server is stopping or one of them has a game already. Checked and
    /// counted in one turn of the lobby, so a stop either comes first (the game is refused,
    /// nothing stored) or waits for the game to be started (`untilGamesStarted`) before it
    /// halts the games, this one with them; and of two starts of one player, whose own checks
    /// came before they waited (for storage, another game, the engine's reservation), the
    /// second is refused here. Each call that returns is ended by one `startedGame`.
    ///
    /// - Throws: `shutting_down`; `in_game` when one of `players` has a game (`hasGame`).
    func startingGame(of players: [Int64]) throws(ProtocolError) {
        guard !refusesNewGames else { throw Self.shuttingDown }
        guard !players.contains(where: hasGame) else { throw Self.alreadyPlaying }
        starting.formUnion(players)
        gamesStarting += 1
    }

    /// Whether `player` has a game being started, or one on the books: hosted here, or by
    /// another node with them seated here. A game that has ended stays on the books until the
    /// lobby hears of it; `checkMayStartAGame` takes it off first.
    func hasGame(_ player: Int64) -> Bool {
        starting.contains(player) || hasGameOnTheBooks(player)
    }

    /// Whether `player` has a game on the books (`hasGame` without the games being started).
    func hasGameOnTheBooks(_ player: Int64) -> Bool {
        gameOf[player] != nil || crossing.seats[player] != nil
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
