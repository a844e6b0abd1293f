import NanashiTransport
import Synchronization

/// A game a connection watches: hosted here (`Game`) or on another node (`RelayedWatch`).
protocol Spectated: Sendable {
    var isOver: Bool { get async }
    func unwatch(_ outbox: Outbox) async
}

extension Game: Spectated {}

/// A game hosted on another node that a connection here watches.
final class RelayedWatch: Spectated {
    let game: Int64
    private let lobby: Lobby
    private let ended = Atomic<Bool>(false)
    private let hostNode: Atomic<Int64>

    init(game: Int64, host: Int64, lobby: Lobby) {
        self.game = game
        self.hostNode = Atomic(host)
        self.lobby = lobby
    }

    /// The node hosting the game (another, once it took the game over).
    var host: Int64 {
        get { hostNode.load(ordering: .relaxed) }
        set { hostNode.store(newValue, ordering: .relaxed) }
    }

    var isOver: Bool { ended.load(ordering: .relaxed) }

    func end() { ended.store(true, ordering: .relaxed) }

    func unwatch(_ outbox: Outbox) async { await lobby.unwatchElsewhere(game, outbox: outbox) }
}
