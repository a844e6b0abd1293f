import NanashiCore
import NanashiProtocol

/// Which finished games may still be followed by a rematch, and the offers standing: the
/// lobby's bookkeeping for `rematch`, kept apart from sockets and timers.
///
/// Each player has at most one game to rematch, their last one, and only while they are
/// connected and have not moved on: seeking, watching, leaving or starting another game ends
/// it for both players (and lapses its offer). An offer lapses after its lifetime too, and a
/// lapsed game cannot be offered again, so nobody can be sent offer after offer.
struct Rematches {
    /// A finished game that may be rematched.
    struct Ended: Sendable, Equatable {
        var game: Int64
        var x: Int64
        var o: Int64
        var control: TimeControl
        /// Where the game started: the rematch starts there too.
        var start: Position = .start
        /// Whether the game was rated: a casual game's rematch is casual too.
        var rated: Bool = true

        func opponent(of player: Int64) -> Int64 { player == x ? o : x }
    }

    /// What a `rematch` request comes to.
    enum Decision: Equatable {
        /// The player has no finished game with that id to rematch.
        case noSuchGame
        /// The offer stands; the opponent is to be told (unless `first` is false: the player
        /// had already offered).
        case offered(opponent: Int64, first: Bool)
        /// Both have asked: the new game is to start, colours swapped.
        case accepted(Ended)
    }

    /// An offer that lapsed: the game, and the players who had offered (to tell them).
    struct Lapse: Equatable {
        var game: Int64
        var offerers: Set<Int64>
    }

    private var lastGame: [Int64: Ended] = [:]
    private var offers: [Int64: (by: Set<Int64>, expires: ContinuousClock.Instant)] = [:]

    /// A game ended with both players connected (or only those in `connected`): each may now
    /// ask for a rematch.
    mutating func ended(_ game: Ended, connected: Set<Int64>) {
        for player in [game.x, game.o] where connected.contains(player) { lastGame[player] = game }
    }

    /// `player` asks for a rematch of `game`; the offer lapses at `expires` unless taken.
    mutating func offer(_ game: Int64, by player: Int64, expires: ContinuousClock.Instant) -> Decision {
        guard let ended = lastGame[player], ended.game == game,
            lastGame[ended.opponent(of: player)] == ended
        else { return .noSuchGame }
        var offer = offers[game] ?? (by: [], expires: expires)
        let first = offer.by.insert(player).inserted
        if offer.by.count == 2 {
            offers[game] = nil
            lastGame[ended.x] = nil
            lastGame[ended.o] = nil
            return .accepted(ended)
        }
        offers[game] = offer
        return .offered(opponent: ended.opponent(of: player), first: first)
    }

    /// `player` moved on (sought, watched, left, or started a game): their last game can no
    /// longer be rematched, by either player; returns its offer if one stood.
    mutating func moveOn(_ player: Int64) -> Lapse? {
        guard let ended = lastGame.removeValue(forKey: player) else { return nil }
        if lastGame[ended.opponent(of: player)] == ended { lastGame[ended.opponent(of: player)] = nil }
        return offers.removeValue(forKey: ended.game).map { Lapse(game: ended.game, offerers: $0.by) }
    }

    /// Takes out the offers whose time is up, and their games.
    mutating func expire(now: ContinuousClock.Instant) -> [Lapse] {
        let due = offers.filter { $0.value.expires <= now }
        for (game, offer) in due {
            offers[game] = nil
            for player in offer.by where lastGame[player]?.game == game {
                _ = moveOn(player)
            }
        }
        return due.map { Lapse(game: $0.key, offerers: $0.value.by) }
    }
}
