import NanashiCluster
import NanashiCore
import NanashiProtocol

/// A player here in a game another node hosts: their moves go to the host.
struct RelayedSeat: Sendable {
    var game: Int64
    var side: Side
    var host: Int64
    let cluster: any Cluster
    /// The move or resignation last forwarded to the host, until a line of the host comes back.
    /// It is sent again when the host listens again (it may have missed it); if the host dies
    /// meanwhile, it is lost with it.
    var unanswered: NodeMessage?

    /// Forwards a move, checked first for what needs no game (its notation), as request number
    /// `relay` of this node. Returns what was sent.
    func play(_ text: String, player: Int64, requestID: RequestID?, relay: Int64) throws(ProtocolError)
        -> NodeMessage
    {
        do {
            _ = try Move(notation: text)
        } catch {
            throw ProtocolError(.illegalMove, "'\(text.prefix(20))' is not a move: \(error)")
        }
        return send(
            .move(
                game: game, side: side, player: player, move: text, id: requestID, node: cluster.node,
                relay: relay))
    }

    /// Forwards a resignation as request number `relay` of this node. Returns what was sent.
    func resign(player: Int64, requestID: RequestID?, relay: Int64) -> NodeMessage {
        send(.resign(game: game, side: side, player: player, id: requestID, node: cluster.node, relay: relay))
    }

    /// Forwards an offer (or its acceptance), or the decline of the opponent's, as request
    /// number `relay` of this node. Returns what was sent.
    func offer(_ offer: Offer, declines: Bool, player: Int64, requestID: RequestID?, relay: Int64)
        -> NodeMessage
    {
        send(
            .offer(
                game: game, side: side, player: player, offer: offer, declines: declines, id: requestID,
                node: cluster.node, relay: relay))
    }

    /// Sends `message` to the host (again, for one unanswered); returns it.
    @discardableResult
    func send(_ message: NodeMessage) -> NodeMessage {
        cluster.send(message, to: host)
        return message
    }
}
