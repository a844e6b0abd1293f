import NanashiAI
import NanashiProtocol
import NanashiRuntime

/// The games against the built-in engine that this node started: who may start another (the
/// node's and each address's limits, each player's rate), the engine's player at each level,
/// and each player's last game against it, which they may rematch until they move on.
struct EngineGames {
    /// Games against the engine in progress on this node at most.
    let maximumInAll: Int
    /// Games against the engine in progress from one address at most.
    let maximumPerAddress: Int
    /// The `seek`s with `ai` (and rematches of the engine) each player may make.
    private let seeks: KeyedBuckets<Int64>
    /// The level of each of the engine's players (one per level), by player id.
    private var levels: [Int64: Level] = [:]
    /// The address of the player of each game in progress started here.
    private var addresses: [Int64: String] = [:]
    /// The address of each player whose game is being started (stored): counted as a game
    /// in progress, so that seeks arriving meanwhile cannot pass the limits together.
    private var reserved: [Int64: String] = [:]
    /// Each connected player's last game against the engine.
    private var lastGames: [Int64: Rematches.Ended] = [:]

    init(settings: ServerSettings) {
        maximumInAll = settings.maximumEngineGames
        maximumPerAddress = settings.maximumEngineGamesPerAddress
        seeks = KeyedBuckets(
            capacity: settings.engineSeekBurst, perSecond: settings.engineSeeksPerMinute / 60,
            clock: settings.clock)
    }

    /// The games in progress started from `address`.
    func games(from address: String) -> [Int64] {
        addresses.filter { $0.value == address }.map(\.key)
    }

    /// Reserves a new game of `player` from `address` until `started` or `release`; refuses
    /// one past the limits, counting the games being started: the address's games in progress
    /// (`busy`), the node's (`busy`), the player's games started lately (`rate_limited`, which
    /// only a game allowed spends).
    mutating func reserve(_ player: Int64, from address: String) throws(ProtocolError) {
        let fromAddress =
            addresses.values.count { $0 == address }
            + reserved.count { $0.key != player && $0.value == address }
        guard fromAddress < maximumPerAddress else {
            throw ProtocolError(
                .busy,
                "your address has \(fromAddress) games against the engine in progress; finish one first")
        }
        guard addresses.count + reserved.count { $0.key != player } < maximumInAll else {
            throw ProtocolError(.busy, "the engine is busy with other games; try again in a minute")
        }
        guard seeks.take(player) else {
            throw ProtocolError(
                .rateLimited, "too many games against the engine started; wait a minute before the next")
        }
        reserved[player] = address
    }

    /// The game reserved for `player` will not start (or has): the reservation ends.
    mutating func release(_ player: Int64) {
        reserved[player] = nil
    }

    /// `player`'s game against the engine's player `engine` at `level` started here from
    /// `address`, taking the place of their reservation.
    mutating func started(
        _ game: Int64, of player: Int64, engine: Int64, level: Level, from address: String
    ) {
        reserved[player] = nil
        levels[engine] = level
        addresses[game] = address
    }

    /// The engine's player `engine` plays at `level` (a game resumed after a restart).
    mutating func seated(_ engine: Int64, level: Level) {
        levels[engine] = level
    }

    /// Whether `player` is one of the engine's players (at a level this node has seated).
    func isEngine(_ player: Int64) -> Bool {
        levels[player] != nil
    }

    /// A game against the engine ended: its players still connected may rematch it.
    mutating func ended(_ game: Rematches.Ended, connected: [Int64]) {
        addresses[game.game] = nil
        for player in connected { lastGames[player] = game }
    }

    /// The game `gameID` that `player` may rematch, with the engine's level in it; `nil` when
    /// it is not their last game against the engine.
    func rematch(of gameID: Int64, by player: Int64) -> (game: Rematches.Ended, level: Level)? {
        guard let ended = lastGames[player], ended.game == gameID,
            let level = levels[ended.opponent(of: player)]
        else { return nil }
        return (ended, level)
    }

    /// The player moved on (or rematched): their last game may no longer be rematched.
    mutating func moveOn(_ player: Int64) {
        lastGames[player] = nil
    }
}
