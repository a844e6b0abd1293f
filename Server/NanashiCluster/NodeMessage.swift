import NanashiCore
import NanashiProtocol

/// What one node tells another about a game one of them hosts, through PostgreSQL's `NOTIFY`.
///
/// Only nodes send these (on their database connection); a client's line never becomes one.
/// The host's lines to a player or watcher on another node travel as `line`, encoded by the host
/// exactly as it would write them to its own sockets.
package enum NodeMessage: Codable, Sendable, Equatable {
    // To the node of a player or a watcher.

    /// A game hosted by `host` started with `player` on the receiving node as `side`.
    case started(game: Int64, player: Int64, side: Side, host: Int64)
    /// A line for a player or a watcher on the receiving node, as written to its socket.
    case line(to: Recipient, text: String)
    /// The game ended (or is no longer hosted there): its player on the receiving node is free.
    case ended(game: Int64, player: Int64)
    /// The game ended for a watcher on the receiving node.
    case watchEnded(game: Int64, watcher: Int)
    /// `node` hosts the game from now on (it took it over from a node that stopped or died).
    case hosted(game: Int64, node: Int64)
    /// `player` logged in on `node` (to every node) with `ticket` (`nextLoginTicket`): their
    /// connection elsewhere is superseded if it logged in before, with a smaller ticket.
    case loggedIn(player: Int64, node: Int64, ticket: Int64)
    /// `player` logged out on `node` (to every node): their connection elsewhere on the token of
    /// `digest` (`nil`: on any token, a logout everywhere) is closed.
    case loggedOut(player: Int64, digest: [UInt8]?, node: Int64)
    /// `node` listens again after its connection to the database was lost (to every node): it
    /// may have missed what was sent to it meanwhile, so each node tells it again who of theirs
    /// is in its games (`present`) and watches them (`watch`).
    case listening(node: Int64)
    /// `node` left in order (to every node): its games wait for a host, to be claimed now.
    case left(node: Int64)
    /// `node` (its challenger's) made a challenge (to every node).
    case challenge(NodeChallenge, node: Int64)
    /// A challenge ended without a game on `node` (to every node): `ending` is `withdrawn`,
    /// `expired`, `left`, `accepted`, or `declined` with the decliner's `reason`.
    case challengeEnded(id: String, ending: String, reason: String?, node: Int64)
    /// `player` on `node` accepts a challenge of the receiving node's: it starts the game.
    case acceptChallenge(id: String, player: Int64, node: Int64)
    /// `player` takes challenges or refuses them from now on (to every node).
    case challengeSetting(player: Int64, accepting: Bool, node: Int64)

    // To the host.

    /// A player on `node` plays `move` (as sent, at most a move's length). `relay` is the number
    /// `node` gave the request (each larger than the last): a request sent again keeps it, and
    /// the host plays it once.
    case move(game: Int64, side: Side, player: Int64, move: String, id: RequestID?, node: Int64, relay: Int64)
    case resign(game: Int64, side: Side, player: Int64, id: RequestID?, node: Int64, relay: Int64)
    /// A player on `node` offers (or accepts) `offer`, or declines the opponent's (`declines`).
    case offer(
        game: Int64, side: Side, player: Int64, offer: Offer, declines: Bool, id: RequestID?, node: Int64,
        relay: Int64)
    /// A player connected on `node`: the host sends their game there from now on.
    case present(game: Int64, side: Side, player: Int64, node: Int64)
    /// A player's connection on `node` closed: their grace period starts.
    case absent(game: Int64, side: Side, node: Int64)
    /// A connection on `node` watches the game.
    case watch(game: Int64, watcher: Int, id: RequestID?, node: Int64)
    case unwatch(game: Int64, watcher: Int, node: Int64)
    /// A player on `node` asks for a rematch of a game that ended here.
    case rematch(game: Int64, player: Int64, id: RequestID?, node: Int64)
    /// A player on `node` moved on (sought, watched, left, started a game): their last game,
    /// which ended here, can no longer be rematched.
    case movedOn(player: Int64, node: Int64)

    /// The id of the client's request a `move` or `resign` carries.
    package var requestID: RequestID? {
        switch self {
        case .move(_, _, _, _, let id, _, _), .resign(_, _, _, let id, _, _),
            .offer(_, _, _, _, _, let id, _, _):
            id
        default: nil
        }
    }

    /// Who a `line` is for on its node.
    package enum Recipient: Codable, Sendable, Equatable {
        case player(Int64)
        /// A connection watching, by its outbox id on its node.
        case watcher(Int)
    }
}
